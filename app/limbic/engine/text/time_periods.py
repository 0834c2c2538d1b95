"""The periods time expressions name: days, weeks, weekends, months and years, their labels, and counting.

Half-open intervals of naive calendar dates; weeks run Monday to Sunday, a weekend is Saturday and Sunday.
Split from time_expressions.py, which reads the words; this does the calendar arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta

from limbic.engine.text import time_words as W

ONE_DAY = timedelta(days=1)
SHORT_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@dataclass(frozen=True)
class Period:
    """A stretch of days with its granularity and its label."""

    start: date | None
    end: date | None
    granularity: str
    label: str
    yearless: tuple[int, int] | None = None  # (month, day or 0) read against today: "in March", "June 16"


def day_label(d: date) -> str:
    """A day as the breakdown shows it: 16 Jun 2023."""
    return f"{d.day} {SHORT_MONTHS[d.month - 1]} {d.year}"


def day_period(d: date) -> Period:
    """The one day `d`."""
    return Period(d, d + ONE_DAY, "day", day_label(d))


def week_period(d: date) -> Period:
    """The Monday-to-Sunday week holding `d`."""
    monday = d - timedelta(days=d.weekday())
    return Period(monday, monday + timedelta(days=7), "week", f"week of {day_label(monday)}")


def weekend_period(saturday: date) -> Period:
    """The Saturday and Sunday from `saturday`."""
    return Period(saturday, saturday + 2 * ONE_DAY, "weekend", f"weekend of {day_label(saturday)}")


def month_period(year: int, month: int) -> Period:
    """One calendar month."""
    start = date(year, month, 1)
    end = date(year + month // 12, month % 12 + 1, 1)
    return Period(start, end, "month", f"{W.MONTH_NAMES[month - 1]} {year}")


def year_period(year: int) -> Period:
    """One calendar year."""
    return Period(date(year, 1, 1), date(year + 1, 1, 1), "year", str(year))


def shift_month(d: date, months: int) -> Period:
    """The month `months` away from the month of `d`."""
    index = d.year * 12 + d.month - 1 + months
    return month_period(index // 12, index % 12 + 1)


def latest_month(month: int, ref: date) -> Period:
    """The latest such month that begins on or before `ref`."""
    return month_period(ref.year if month <= ref.month else ref.year - 1, month)


def latest_day(month: int, day: int, ref: date) -> Period | None:
    """The latest such day not after `ref` (29 February looks back to a leap year)."""
    for year in range(ref.year, ref.year - 9, -1):
        try:
            d = date(year, month, day)
        except ValueError:
            continue
        if d <= ref:
            return day_period(d)
    return None


def resolve(period: Period, ref: date) -> Period:
    """A yearless period read again against another day: "between March and June 2023"."""
    if period.yearless is None:
        return period
    month, day = period.yearless
    found = latest_day(month, day, ref) if day else latest_month(month, ref)
    return replace(found or period, yearless=period.yearless)


def counted(unit: str, n: int, direction: str, anchor: Period) -> Period | None:
    """The `unit` (or weekday) `n` steps before the anchor's start or after its end: "two weeks before June"."""
    if anchor.start is None or anchor.end is None:
        return None
    before = direction == "before"
    ref = anchor.start if before else anchor.end
    if unit == "day":
        return day_period(ref - n * ONE_DAY if before else ref + (n - 1) * ONE_DAY)
    if unit == "week":
        return week_period(ref - timedelta(weeks=n) if before else ref - ONE_DAY + timedelta(weeks=n))
    if unit == "month":
        return shift_month(ref, -n) if before else shift_month(ref - ONE_DAY, n)
    if unit == "year":
        year = ref.year - n if before else (ref - ONE_DAY).year + n
        return year_period(year) if 1 <= year <= 9998 else None
    if unit == "weekend":
        if before:
            last = ref - ONE_DAY
            sunday = last - timedelta(days=(last.weekday() - 6) % 7) - timedelta(weeks=n - 1)
            return weekend_period(sunday - ONE_DAY)
        return weekend_period(ref + timedelta(days=(5 - ref.weekday()) % 7) + timedelta(weeks=n - 1))
    weekday = W.WEEKDAYS[unit]
    if before:
        last = ref - ONE_DAY
        return day_period(last - timedelta(days=(last.weekday() - weekday) % 7) - timedelta(weeks=n - 1))
    return day_period(ref + timedelta(days=(weekday - ref.weekday()) % 7) + timedelta(weeks=n - 1))
