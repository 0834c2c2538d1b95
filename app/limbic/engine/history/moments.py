"""A moment as a person writes it, read into the stored time format and checked against the file's life."""

from __future__ import annotations

import re
from datetime import datetime, timezone

from limbic.engine.errors import ValidationError
from limbic.engine.store import values
from limbic.engine.store.db import Database
from limbic.engine.store.recorded import SINCE_KEY, has_history, history_ok
from limbic.engine.text import moments_ago

_FORMS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M")


def parse_moment(text: str) -> str:
    """``text`` (a date, or a date and time, in UTC) as a stored time; a bare date means the end of that day."""
    raw = str(text).strip()
    back = moments_ago.ago(raw)
    if back is not None:  # "1 hour ago", "hace 10 minutos": that moment
        return (datetime.now(timezone.utc) - back).strftime(values.TIME_FORMAT)
    if raw.endswith(("Z", "z")):
        raw = raw[:-1]
    raw = re.sub(r"\.\d+$", "", raw)
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", raw):
            # What the graph said on a day includes what was written that day.
            return datetime.strptime(raw, "%Y-%m-%d").strftime("%Y-%m-%d 23:59:59")
        for form in _FORMS:
            try:
                return datetime.strptime(raw, form).strftime(values.TIME_FORMAT)
            except ValueError:
                continue
    except ValueError:
        pass
    raise ValidationError(
        f"'{values.shown(text, 40)}' is not a date Limbic reads; write it as YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (UTC)."
    )


def history_start(db: Database) -> str | None:
    """The earliest moment the file's recorded history reaches (None: the file keeps none)."""
    if not has_history(db) or not history_ok(db):
        return None
    # Set when the history began (a new file, or an upgrade: as far back as the old log reached).
    return db.get_meta(SINCE_KEY) or db.scalar("SELECT min(recorded_from) FROM history")


def checked_moment(db: Database, text: str) -> str:
    """``text`` read as a moment the file can answer for, or one sentence saying why it cannot."""
    at = parse_moment(text)
    now = values.now_utc()
    shown = values.shown(text, 40)
    # Today, as a bare date, is "the graph now"; a later day or a later time today is not known yet.
    if at[:10] > now[:10] or (at > now and not at.endswith("23:59:59")):
        raise ValidationError(f"{shown} is in the future: the graph of a date that has not come yet is not known.")
    start = history_start(db)
    if start is None:
        raise ValidationError(
            f"{db.path.name} keeps no readable history of its past: open it once with this version of Limbic to "
            "upgrade it, or, if it was upgraded, run limbic check."
        )
    if at < start:
        raise ValidationError(f"The graph did not exist yet on {shown}: its history starts on {start} (UTC).")
    return at
