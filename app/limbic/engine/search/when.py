"""When an entity's facts happened: the dates written in its name and observations, and its recorded times.

Two strengths: an entity *dated* then (a date in its name, "Session of 16 June 2023", or its recorded
times) happened then; one whose observations only *mention* a date of then may be about something else
that happened then ("the 2015 season" in a paragraph about a final played in February 2016). Search
ranks the first kind first and only marks the second (measured: docs/search.md).

A question that names a time ("what did Maria share on 16 June, 2023?", "¿qué pasó en marzo?") is
matched against these. Only absolute dates count as written ones ("16 June, 2023", "June 16, 2023",
"16 de junio de 2023", "June 2023", "2023-06-16"): a note's "yesterday" was relative to a day nobody
recorded, and a bare year in prose ("a 1999 cohort") says what a text is about more often than when
it happened. Texts are read only when a query names a time, and each text once (a cache keyed by the
text's hash), so a query without time pays nothing and a repeated one little.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, NamedTuple

from limbic import localtime
from limbic.engine.text import time_words as W

if TYPE_CHECKING:
    from limbic.engine.store.db import Database
    from limbic.engine.text.time_expressions import TimeMatch

Interval = tuple[date, date]  # half-open: [first day, first day after)

_MONTH = "|".join(sorted((re.escape(m) for m in (*W.MONTHS, *W.MONTH_ABBREVIATIONS)), key=len, reverse=True))
_DAY = r"(\d{1,2})(?:st|nd|rd|th|º)?"
_YEAR = r"((?:1[6-9]|20)\d\d)"
_DATES = re.compile(
    rf"\b(?:(\d{{4}})-(\d{{1,2}})-(\d{{1,2}})"  # 2023-06-16
    rf"|{_DAY}\s+(?:de\s+)?({_MONTH})\.?,?\s+(?:de\s+|del\s+)?{_YEAR}"  # 16 June, 2023 / 16 de junio de 2023
    rf"|({_MONTH})\.?\s+{_DAY},?\s+{_YEAR}"  # June 16, 2023
    rf"|({_MONTH})\.?,?\s+(?:de\s+|del\s+)?{_YEAR})\b",  # June 2023 / junio de 2023
    re.IGNORECASE,
)
_MONTH_NUMBER = {**W.MONTHS, **W.MONTH_ABBREVIATIONS}
CACHE_TEXTS = 200_000  # texts whose dates are remembered: a few tens of MB at most
_cache: OrderedDict[bytes, tuple[Interval, ...]] = OrderedDict()


def _day(year: int, month: int, day: int) -> Interval | None:
    try:
        first = date(year, month, day)
    except ValueError:
        return None
    return first, first + timedelta(days=1)


def _month(year: int, month: int) -> Interval | None:
    if not 1 <= month <= 12:
        return None
    first = date(year, month, 1)
    return first, date(year + month // 12, month % 12 + 1, 1)


def _read(text: str) -> tuple[Interval, ...]:
    found: list[Interval] = []
    for m in _DATES.finditer(text):
        g = m.groups()
        if g[0]:
            interval = _day(int(g[0]), int(g[1]), int(g[2]))
        elif g[3]:
            interval = _day(int(g[5]), _MONTH_NUMBER[g[4].lower()], int(g[3]))
        elif g[6]:
            interval = _day(int(g[8]), _MONTH_NUMBER[g[6].lower()], int(g[7]))
        else:
            interval = _month(int(g[10]), _MONTH_NUMBER[g[9].lower()])
        if interval is not None:
            found.append(interval)
    return tuple(found)


def written_dates(text: str) -> tuple[Interval, ...]:
    """The absolute dates written in ``text``, each as the half-open interval of days it names."""
    if not any(c.isdigit() for c in text):
        return ()
    key = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    hit = _cache.get(key)
    if hit is not None:
        _cache.move_to_end(key)
        return hit
    found = _read(text)
    _cache[key] = found
    if len(_cache) > CACHE_TEXTS:
        _cache.popitem(last=False)
    return found


def _stamp(day: date | None, default: str) -> str:
    """The stored UTC time ("YYYY-MM-DD HH:MM:SS") at which local ``day`` starts; ``default`` for an open side."""
    if day is None:
        return default
    try:
        moment = localtime.local_to_utc(datetime.combine(day, datetime.min.time()))  # 1965 too, on Windows
    except (OverflowError, ValueError):  # a day at the calendar's ends: as far as stored times go
        return default
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def overlaps(interval: Interval, match: TimeMatch) -> bool:
    """True when the days of ``interval`` meet those the time expression names (an open side reaches any day)."""
    first, after = interval
    return (match.end is None or first < match.end) and (match.start is None or after > match.start)


class Matches(NamedTuple):
    """The entities that happened in a time: dated then, or mentioning a date of then in an observation."""

    dated: set[int]  # a date in the name, or created, changed or an observation recorded then
    mentioned: set[int]  # only an observation writes a date of then

    def __contains__(self, entity_id: object) -> bool:
        return entity_id in self.dated or entity_id in self.mentioned


def matching(db: Database, ids: list[int], match: TimeMatch) -> Matches:
    """The entities among ``ids`` whose facts happened in the time named: dated then (a date written in
    their name, their creation, last change or an observation's recording), or an observation mentions it.

    Recorded times are compared in SQL, as stored (UTC text, whose order is time order), against the
    instants the named local days start and end; only texts holding a digit are read for dates.
    """
    if not ids:
        return Matches(set(), set())
    marks = ",".join("?" * len(ids))
    lo, hi = _stamp(match.start, ""), _stamp(match.end, "9999")
    found: set[int] = set()
    for entity_id, name, recorded in db.execute(
        f"SELECT id, name, (created_at >= ?1 AND created_at < ?2) OR (updated_at >= ?1 AND updated_at < ?2) "
        f"FROM entities WHERE id IN ({','.join(f'?{i + 3}' for i in range(len(ids)))})", [lo, hi, *ids]
    ):
        if recorded or any(overlaps(d, match) for d in written_dates(name)):
            found.add(entity_id)
    found.update(row[0] for row in db.execute(
        f"SELECT DISTINCT entity_id FROM observations WHERE entity_id IN ({marks}) AND created_at >= ? AND created_at < ?",
        [*ids, lo, hi],
    ))
    mentioned: set[int] = set()
    for entity_id, content in db.execute(
        f"SELECT entity_id, content FROM observations WHERE entity_id IN ({marks}) AND content GLOB '*[0-9]*'", ids
    ):
        if entity_id not in found and entity_id not in mentioned and any(
            overlaps(d, match) for d in written_dates(content)
        ):
            mentioned.add(entity_id)
    return Matches(found, mentioned)
