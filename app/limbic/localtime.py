"""This computer's clock for any date: Windows cannot say its offset from UTC before 1970.

``datetime.astimezone()`` asks the operating system for the local offset at a moment; Windows
answers ``OSError`` for a moment before 1970 (and some systems ``OverflowError`` far from now), so
"in 1965" or ``--since 1969-07-20`` would stop a search. There the offset is taken from the same
day and time a whole number of 28-year cycles later (the weekdays and leap years repeat, so the
same daylight-saving rule applies), the nearest the system can answer for.

Standard library only: the engine, the service layer and the front ends use it.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

CYCLE = 28  # years after which the calendar's weekdays and leap years repeat (1901-2099)
FIRST_ANSWERED = 1971  # the first year every system can give the local offset for (a margin past 1970)


def _shifted(moment: datetime) -> datetime:
    """The same day and time in the first 28-year cycle the system can answer for."""
    years = max(0, -(-(FIRST_ANSWERED - moment.year) // CYCLE)) * CYCLE
    try:
        return moment.replace(year=moment.year + years)
    except ValueError:  # 29 February in a year of the cycle that is not a leap year (1900)
        return moment.replace(year=moment.year + years, day=28)


def local_to_utc(local: datetime) -> datetime:
    """The moment (aware, UTC) that a time on this computer's clock (naive) names."""
    try:
        return local.astimezone(timezone.utc)
    except (OSError, OverflowError, ValueError):
        stand_in = _shifted(local)
        offset = stand_in.astimezone().utcoffset() or timedelta(0)
        return (local - offset).replace(tzinfo=timezone.utc)


def utc_to_local(moment: datetime) -> datetime:
    """A moment (aware) on this computer's clock (aware, with the local offset)."""
    try:
        return moment.astimezone()
    except (OSError, OverflowError, ValueError):
        utc = moment.astimezone(timezone.utc)  # a fixed offset: arithmetic only, no question to the system
        offset = _shifted(utc).astimezone().utcoffset() or timedelta(0)
        return (utc + offset).replace(tzinfo=timezone(offset))
