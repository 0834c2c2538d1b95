"""A stored (UTC) time as a person reads it on this computer's clock."""

from __future__ import annotations

from datetime import datetime, timezone

_STORED = "%Y-%m-%d %H:%M:%S"


def when_words(at: str, now: datetime | None = None) -> str:
    """“3 Mar 14:02”, with the year when it is not this one; an unreadable time is shown as it is."""
    try:
        moment = datetime.strptime(at[:19], _STORED).replace(tzinfo=timezone.utc).astimezone()
    except ValueError:
        return at
    year = (now or datetime.now().astimezone()).year
    day = f"{moment.day} {moment.strftime('%b')}" + (f" {moment.year}" if moment.year != year else "")
    return f"{day} {moment.strftime('%H:%M')}"
