"""A stored (UTC) time as a person reads it on this computer's clock, in the window's language."""

from __future__ import annotations

from datetime import datetime, timezone

from limbic.localtime import utc_to_local
from limbic.ui.common.i18n import short_date, time_of_day

_STORED = "%Y-%m-%d %H:%M:%S"


def when_words(at: str, now: datetime | None = None) -> str:
    """“3 Mar 14:02” (“3 mar 14:02” in Spanish), with the year when it is not this one; an unreadable time is
    shown as it is."""
    try:
        moment = utc_to_local(datetime.strptime(at[:19], _STORED).replace(tzinfo=timezone.utc))
    except ValueError:
        return at
    year = (now or datetime.now().astimezone()).year
    return f"{short_date(moment, with_year=moment.year != year)} {time_of_day(moment)}"
