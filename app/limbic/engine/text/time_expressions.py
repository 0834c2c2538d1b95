"""Time expressions in a query, in English and Spanish: where they are, what days they mean, what is left.

"What did Maria share on 16 June, 2023?" names a day; "¿qué pasó la semana pasada?" a week; "the last
weekend before April 10, 2023" a weekend counted from a date the query itself names. `find_time` finds the
first such expression and returns its span, the half-open interval of calendar days it covers, its
granularity, a short label for the score breakdown, and the text without it (what the model encodes).

Intervals are naive dates in the calendar of `now` (its own zone if it has one): "June 2023" is
[2023-06-01, 2023-07-01) wherever the asker is, and the caller turns days into instants in its zone. An
open side ("before 10 Apr 2023") is None. Weeks run Monday to Sunday; a weekend is Saturday and Sunday.
A count names its unit's whole period: "two weeks ago" is the week that held the day fourteen days back.
Labels name the days found ("weekend of 8 Apr 2023"), not the words typed, so a reader sees the reading.

Written here for a bounded grammar rather than taken from a library: dateparser 1.5.0 (maintained,
offline, English and Spanish) was measured and its search_dates finds dates in plain words ("we", the "10"
of "before April 10, 2023" as October), misses Spanish relative expressions inside a sentence ("la semana
pasada", "hace dos semanas"), costs ~100 ms on its first call and brings regex, pytz and tzlocal;
parsedatetime and ctparse are English-only or unmaintained. This runs on every query, so a text with no
digit and no time word is turned away by a set lookup before anything is parsed.

A date is never read from a plain number, an identifier (ISSUE-2023, v2.10, #2024), a time of day, or a
word that merely holds a month name; a bare month, year or weekday needs a word that makes it a time ("in
March", "en 2023", "on Friday", "el viernes"), and "may" counts only beside a day or a year or after
"in"/"during". Imports nothing of the engine outside this room (its word tables and calendar arithmetic).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import NamedTuple

from limbic.engine.text import time_words as W
from limbic.engine.text import time_periods as P
from limbic.engine.text.time_periods import ONE_DAY, Period

_CHUNK = re.compile(r"[^\s,;!?¿¡()\[\]{}\"“”«»]+|,")
_WORD = re.compile(r"[^\W\d_]+")
_DIGIT = re.compile(r"\d")
_ORDINAL = re.compile(r"(\d{1,2})(?:st|nd|rd|th|º|ª)", re.IGNORECASE)
_ISO = re.compile(r"(\d{4})([-/.])(\d{1,2})\2(\d{1,2})")
_ISO_MONTH = re.compile(r"(\d{4})-(\d{2})")
_NUMERIC_KINDS = ("num", "ord", "date")
_NUMERIC = re.compile(r"(\d{1,2})([-/.])(\d{1,2})\2(\d{4})")


@dataclass(frozen=True)
class TimeMatch:
    """A time expression found in a text: its span, the days it covers, and the text without it."""

    start: date | None  # first day inside; None: open towards the past
    end: date | None  # first day after; None: open towards the future
    granularity: str  # "day", "week", "weekend", "month", "year" or "range"
    label: str  # "16 Jun 2023", "June 2023", "before 10 Apr 2023"
    span: tuple[int, int]  # character offsets of the expression in the text
    rest: str  # the text with the expression taken out


class _Token(NamedTuple):
    kind: str  # "word", "num", "ord", "date", "comma" or "other"
    word: str  # folded lower-case text of a word
    value: int  # a number's value
    start: int
    end: int
    raw: str


def find_time(text: str, now: datetime) -> TimeMatch | None:
    """The first time expression of `text`, read relative to `now`, or None if it names no time."""
    if not _may_hold_time(text):
        return None
    tokens = _tokens(text)
    # Every expression holds a number, a date or a time word as a token of its own: "10%" or "v2" is none.
    if not any(t.kind in _NUMERIC_KINDS or t.word in W.TRIGGERS for t in tokens):
        return None
    parser = _Parser(tokens, now.date())
    for i, token in enumerate(tokens):
        if token.kind in ("comma", "other") or (token.kind == "word" and token.word not in W.VOCABULARY):
            continue
        try:
            found = parser.expression(i)
        except (ValueError, OverflowError):  # counted past year 1 or 9999: no day of the calendar
            found = None
        if found is not None:
            period, j = found
            span = (token.start, tokens[j - 1].end)
            return TimeMatch(period.start, period.end, period.granularity, period.label, span,
                             _without(text, span))
    return None


def _fold(text: str) -> str:
    if text.isascii():
        return text.lower()
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower()


def _may_hold_time(text: str) -> bool:
    """A digit or a time word: what any expression needs, told without parsing."""
    if _DIGIT.search(text):
        return True
    return not W.TRIGGERS.isdisjoint(_WORD.findall(_fold(text)))


def _ascii_digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _tokens(text: str) -> list[_Token]:
    tokens = []
    for m in _CHUNK.finditer(text):
        raw, start = m.group(), m.start()
        if raw == ",":
            tokens.append(_Token("comma", "", 0, start, start + 1, raw))
            continue
        stripped = raw.rstrip(".:'’")
        if not stripped:
            continue
        end = start + len(stripped)
        word = stripped[:-2] if stripped.endswith(("'s", "’s")) else stripped  # "last month's invoices"
        if word.isalpha():  # most tokens: told by a string method, no pattern
            tokens.append(_Token("word", _fold(word), 0, start, end, word))
        elif not _ascii_digits(stripped[0]):  # "²" and "٣" are digits to str.isdigit, not in a date
            tokens.append(_Token("other", "", 0, start, end, stripped))
        elif _ascii_digits(stripped) and len(stripped) <= 4:
            tokens.append(_Token("num", "", int(stripped), start, end, stripped))
        elif o := _ORDINAL.fullmatch(stripped):
            tokens.append(_Token("ord", "", int(o.group(1)), start, end, stripped))
        elif _ISO.fullmatch(stripped) or _NUMERIC.fullmatch(stripped) or _ISO_MONTH.fullmatch(stripped):
            tokens.append(_Token("date", "", 0, start, end, stripped))
        else:
            tokens.append(_Token("other", "", 0, start, end, stripped))
    return tokens


def _looks_spanish(tokens: list[_Token]) -> bool:
    spanish = sum(t.word in W.SPANISH_MARKERS for t in tokens)
    english = sum(t.word in W.ENGLISH_MARKERS for t in tokens)
    return spanish > english


def _without(text: str, span: tuple[int, int]) -> str:
    """The text with the span taken out, its neighbours joined by one space and no stray comma."""
    left, right = text[:span[0]].rstrip(), text[span[1]:].lstrip()
    if not left:
        right = right.lstrip(",;: ")
    if right.startswith(",") and (not right[1:].strip() or left.endswith((",", "¿", "¡"))):
        right = right[1:].lstrip()
    if left and right and not right.startswith((",", ".", ";", ":", "?", "!", ")")):
        return f"{left} {right}"
    return left + right


class _Parser:
    """Recursive descent over the tokens; each rule returns (period, index after it) or None."""

    def __init__(self, tokens: list[_Token], today: date) -> None:
        self.tokens = tokens
        self.today = today

    def word(self, i: int) -> str:
        return self.tokens[i].word if i < len(self.tokens) else ""

    def kind(self, i: int) -> str:
        return self.tokens[i].kind if i < len(self.tokens) else ""

    def words(self, i: int, table: dict[tuple[str, ...], str]) -> tuple[str, int] | None:
        """The entry of a table of word sequences that the tokens at `i` spell."""
        first = self.word(i)
        for key, value in table.items():
            if key[0] == first and all(self.word(i + k) == w for k, w in enumerate(key[1:], 1)):
                return value, i + len(key)
        return None

    def expression(self, i: int) -> tuple[Period, int] | None:
        """The reading at `i`, widest rules first; leading "in"/"on"/"el" are taken in with what follows."""
        j = i
        while self.word(j) in W.LEAD_CONTEXT:
            j += 1
        for k in dict.fromkeys((i, j)):  # "the day before X" counts from its article, "in last week..." not
            found = self.between(k) or self.anchored(k) or self.operator(k)
            if found is not None:
                return found
        return self.period(i, frozenset())

    def between(self, i: int) -> tuple[Period, int] | None:
        """Both ends of a range: "between X and Y", "entre X y Y", "from X to Y", "desde X hasta Y"."""
        ends = W.BETWEEN.get(self.word(i))
        first = self.period(i + 1, W.OPERATOR_CONTEXT) if ends else None
        if first is None:
            return None
        j = first[1] + (self.kind(first[1]) == "comma")  # "between March 1, 1999, and May 31, 2000"
        if self.word(j) not in ends:
            return None
        second = self.period(j + 1, W.OPERATOR_CONTEXT)
        if second is None:
            return None
        a, b = first[0], second[0]
        if a.yearless and not b.yearless and b.end is not None:
            a = P.resolve(a, b.end - ONE_DAY)
        if a.start is None or b.end is None:
            return None
        if b.end <= a.start:
            a, b = b, a
        return Period(a.start, b.end, "range", f"{a.label} – {b.label}"), second[1]

    def operator(self, i: int) -> tuple[Period, int] | None:
        """One open end: "before X", "since X", "hasta X"; "antes de ayer" is the day before yesterday."""
        if self.word(i) == "antes" and self.word(i + 1) == "de" and self.word(i + 2) in W.YESTERDAY:
            return P.day_period(self.today - 2 * ONE_DAY), i + 3
        found = self.words(i, W.OPERATORS)
        if found is None:
            return None
        op, j = found
        inner = self.period(j, W.OPERATOR_CONTEXT)
        if inner is None:
            return None
        p, k = inner
        start, end = {"before": (None, p.start), "after": (p.end, None),
                      "since": (p.start, None), "until": (None, p.end)}[op]
        if start is None and end is None:
            return None
        return Period(start, end, "range", f"{op} {p.label}"), k

    def anchored(self, i: int) -> tuple[Period, int] | None:
        """A counted period before or after a date: "last weekend before April 10, 2023"."""
        counted = self.count(i)
        if counted is None:
            return None
        unit, n, j = counted
        found = self.words(j, W.ANCHOR_CONNECTORS)
        if found is None:
            return None
        direction, k = found
        anchor = self.period(k, W.OPERATOR_CONTEXT)
        if anchor is None:
            return None
        period = P.counted(unit, n, direction, anchor[0])
        return (period, anchor[1]) if period else None

    def count(self, i: int) -> tuple[str, int, int] | None:
        """What "before X" can count: "two weeks", "the day", "last weekend", "el fin de semana", "Friday"."""
        w = self.word(i)
        n = self.number(i)
        if n is not None and (unit := self.unit(i + 1)) is not None:
            return unit[0], n, unit[1]
        if w in W.LAST or w in W.ARTICLES:
            if (unit := self.unit(i + 1, singular=True)) is not None:
                return unit[0], 1, unit[1]
            if self.word(i + 1) in W.WEEKDAYS:
                return self.word(i + 1), 1, i + 2
        if w in W.WEEKDAYS:
            return w, 1, i + 1
        return None

    def number(self, i: int) -> int | None:
        token = self.tokens[i] if i < len(self.tokens) else None
        if token is None:
            return None
        if token.kind == "num" and 0 < token.value <= 999:
            return token.value
        return W.NUMBER_WORDS.get(token.word)

    def unit(self, i: int, singular: bool = False) -> tuple[str, int] | None:
        """A unit word at `i`, "fin de semana" among them; only "week", not "weeks", after "last" or "el"."""
        w = self.word(i)
        if w == "fin" and self.word(i + 1) == "de" and self.word(i + 2) == "semana":
            return "weekend", i + 3
        if singular and w in W.PLURAL_UNITS:
            return None
        return (W.UNITS[w], i + 1) if w in W.UNITS else None

    def period(self, i: int, allowed: frozenset[str]) -> tuple[Period, int] | None:
        """One period, after an optional word that makes a bare name a time ("in", "on", "en", "el")."""
        lead = self.word(i)
        # "in the past week", "on the 16th of June"; but "the Sept 2022 incident" keeps its article.
        if lead in W.LEAD_CONTEXT and not (lead == "the" and self.month_name(i + 1)):
            found = self.period(i + 1, allowed | W.LEAD_CONTEXT[lead])
            if found is not None:
                return found
        return self.core(i, allowed)

    def core(self, i: int, allowed: frozenset[str]) -> tuple[Period, int] | None:
        kind, w = self.kind(i), self.word(i)
        if kind == "date":
            return self.numeric_date(i)
        if kind in ("num", "ord"):
            return self.day_month(i) or self.year_alone(i, allowed) or self.relative(i, allowed)
        if w in W.MONTHS or w in W.MONTH_ABBREVIATIONS:
            return self.month_first(i, allowed)
        if kind != "word":
            return None
        if w in ("year", "ano") and (year := self.year(i + 1)) is not None:
            return P.year_period(year), i + 2
        if w in W.TODAY:
            return P.day_period(self.today), i + 1
        if w in W.YESTERDAY:
            return P.day_period(self.today - ONE_DAY), i + 1
        if w in W.BEFORE_YESTERDAY:
            return P.day_period(self.today - 2 * ONE_DAY), i + 1
        return self.relative(i, allowed)

    def relative(self, i: int, allowed: frozenset[str]) -> tuple[Period, int] | None:
        """Periods counted from today: last week, este mes, el viernes pasado, two weeks ago, hace un mes."""
        w, today = self.word(i), P.day_period(self.today)
        if w in W.HACE and (n := self.number(i + 1)) is not None and (unit := self.unit(i + 2)):
            found = P.counted(unit[0], n, "before", today)
            return (found, unit[1]) if found else None
        if (n := self.number(i)) is not None and (unit := self.unit(i + 1)) and self.word(unit[1]) in W.AGO:
            found = P.counted(unit[0], n, "before", today)
            return (found, unit[1] + 1) if found else None
        if w in W.LAST:
            j = i + 1
            target = self.unit(j, singular=True) or (self.word(j), j + 1)
            if target[0] in W.MONTHS:
                return P.latest_month(W.MONTHS[target[0]], self.today.replace(day=1) - ONE_DAY), j + 1
            return self.counted_from_today(target[0], target[1], "before")
        if w in W.THIS:
            target = self.unit(i + 1, singular=True) or (self.word(i + 1), i + 2)
            return self.this(target[0], target[1])
        if w in ("el", "la", "los", "las"):
            return self.spanish_relative(i + 1)
        if w in W.WEEKDAYS and "weekday" in allowed:
            return self.weekday(w, i + 1)
        return None

    def counted_from_today(self, unit: str, j: int, direction: str) -> tuple[Period, int] | None:
        """Last week, last weekend, last Friday; not "the last day", which is a final day, not yesterday."""
        if unit in ("week", "month", "year", "weekend") or unit in W.WEEKDAYS:
            found = P.counted(unit, 1, direction, P.day_period(self.today))
            return (found, j) if found else None
        return None

    def this(self, unit: str, j: int) -> tuple[Period, int] | None:
        today = self.today
        if unit == "week":
            return P.week_period(today), j
        if unit == "month":
            return P.month_period(today.year, today.month), j
        if unit == "year":
            return P.year_period(today.year), j
        if unit == "weekend":
            return P.weekend_period(today + timedelta(days=5 - today.weekday())), j
        if unit in W.WEEKDAYS:
            return P.day_period(today + timedelta(days=W.WEEKDAYS[unit] - today.weekday())), j
        return None

    def weekday(self, name: str, j: int) -> tuple[Period, int] | None:
        """A weekday: the latest not after today, or the one before today with "pasado" after it."""
        past = self.word(j) in W.PASADO
        found = P.counted(name, 1, "before", P.day_period(self.today if past else self.today + ONE_DAY))
        return (found, j + past) if found else None

    def spanish_relative(self, j: int) -> tuple[Period, int] | None:
        """After "el"/"la": semana pasada, pasado fin de semana, último viernes, mes pasado, año pasado."""
        leading = self.word(j) in W.PASADO or self.word(j) in ("ultimo", "ultima")
        k = j + 1 if leading else j
        target = self.unit(k, singular=True) or ((self.word(k), k + 1) if self.word(k) in W.WEEKDAYS else None)
        if target is None:
            return None
        unit, end = target
        if not leading and self.word(end) not in W.PASADO:
            return None
        if not leading:
            end += 1
        return self.counted_from_today(unit, end, "before")

    def year(self, i: int) -> int | None:
        token = self.tokens[i] if i < len(self.tokens) else None
        if token is None or token.kind != "num" or len(token.raw) != 4 or not 1900 <= token.value <= 2099:
            return None
        return token.value

    def year_alone(self, i: int, allowed: frozenset[str]) -> tuple[Period, int] | None:
        year = self.year(i)
        if year is None or "year" not in allowed or self.word(i + 1) in W.QUANTITY_WORDS:
            return None
        return P.year_period(year), i + 1

    def month_name(self, i: int) -> int | None:
        return W.MONTHS.get(self.word(i)) or W.MONTH_ABBREVIATIONS.get(self.word(i))

    def trailing_year(self, i: int) -> tuple[int, int] | None:
        """A year after a month or a day: "2023", ", 2023", "de 2023", "del 2023"."""
        j = i + 1 if self.kind(i) == "comma" or self.word(i) in ("de", "del") else i
        year = self.year(j)
        if year is None or self.word(j + 1) in W.QUANTITY_WORDS:
            return None
        return year, j + 1

    def dated(self, month: int, day: int, i: int) -> tuple[Period, int] | None:
        """A day of a month, with the year that follows at `i` if any, else the latest one not after today."""
        year = self.trailing_year(i)
        if year is not None:
            try:
                return P.day_period(date(year[0], month, day)), year[1]
            except ValueError:
                return None
        found = P.latest_day(month, day, self.today)
        return (replace(found, yearless=(month, day)), i) if found else None

    def day_month(self, i: int) -> tuple[Period, int] | None:
        """16 June 2023, 16th June, 3 May, 16 de junio de 2023, the 16th of June."""
        day = self.tokens[i].value
        if not 1 <= day <= 31:
            return None
        j = i + 1 + (self.word(i + 1) in W.OF)
        month = self.month_name(j)
        if month is None:
            return None
        return self.dated(month, day, j + 1)

    def month_first(self, i: int, allowed: frozenset[str]) -> tuple[Period, int] | None:
        """June 16, 2023; Jun 16th; June 2023; junio de 2023; and a bare month where the context allows."""
        month = self.month_name(i)
        assert month is not None
        token = self.tokens[i + 1] if i + 1 < len(self.tokens) else None
        if token is not None and token.kind in ("num", "ord") and 1 <= token.value <= 31 and len(token.raw) <= 4:
            found = self.dated(month, token.value, i + 2)
            if found is not None:
                return found
        year = self.trailing_year(i + 1)
        if year is not None:
            return P.month_period(year[0], month), year[1]
        w = self.word(i)
        if w not in W.MONTHS:
            return None
        needs = "may" if w == "may" else ("month_es" if w in W.SPANISH_MONTHS else "month")
        if needs in allowed or (needs == "month_es" and "month" in allowed):
            return replace(P.latest_month(month, self.today), yearless=(month, 0)), i + 1
        return None

    def numeric_date(self, i: int) -> tuple[Period, int] | None:
        """2023-06-16, 2023-06, 16/06/2023 (day first unless impossible, or in English text month first)."""
        raw = self.tokens[i].raw
        try:
            if m := _ISO.fullmatch(raw):
                return P.day_period(date(int(m.group(1)), int(m.group(3)), int(m.group(4)))), i + 1
            if m := _ISO_MONTH.fullmatch(raw):
                year, month = int(m.group(1)), int(m.group(2))
                return (P.month_period(year, month), i + 1) if 1900 <= year <= 2099 and 1 <= month <= 12 else None
            m = _NUMERIC.fullmatch(raw)
            assert m is not None
            a, b, year = int(m.group(1)), int(m.group(3)), int(m.group(4))
            month_first = b > 12 or (a <= 12 and not _looks_spanish(self.tokens))
            return P.day_period(date(year, a, b) if month_first else date(year, b, a)), i + 1
        except ValueError:
            return None
