"""Time expressions in a query, English and Spanish: the days they mean, and the words they leave."""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from limbic.engine.text import time_words
from limbic.engine.text.time_expressions import find_time

NOW = datetime(2024, 3, 14, 10, 30)  # a Thursday: this week is 11-17 March, last weekend 9-10 March
D = date.fromisoformat
LAST_WEEK = ("2024-03-04", "2024-03-11", "week")
TWO_WEEKS_AGO = ("2024-02-26", "2024-03-04", "week")  # the week holding 29 February
MAY_15_WEEK = ("2023-05-15", "2023-05-22", "week")  # two weeks before 1 June 2023

# (text, start, end, granularity, rest); None for an open side.
CASES = [
    # English: absolute days in the common formats
    ("What exciting news did Maria share on 16 June, 2023?", "2023-06-16", "2023-06-17", "day",
     "What exciting news did Maria share?"),
    ("meeting notes 2023-06-16", "2023-06-16", "2023-06-17", "day", "meeting notes"),
    ("report 16/06/2023 draft", "2023-06-16", "2023-06-17", "day", "report draft"),
    ("deadline 6/16/2023", "2023-06-16", "2023-06-17", "day", "deadline"),
    ("the call on 06/07/2023", "2023-06-07", "2023-06-08", "day", "the call"),  # English text: month first
    ("16 June 2023 launch", "2023-06-16", "2023-06-17", "day", "launch"),
    ("June 16, 2023 launch", "2023-06-16", "2023-06-17", "day", "launch"),
    ("launch on June 16 2023", "2023-06-16", "2023-06-17", "day", "launch"),
    ("Jun 16th review", "2023-06-16", "2023-06-17", "day", "review"),  # the latest 16 June not after now
    ("taxes 3 May", "2023-05-03", "2023-05-04", "day", "taxes"),
    ("party on the 2nd of March", "2024-03-02", "2024-03-03", "day", "party"),
    # English: months and years
    ("What happened to John's job in August 2023?", "2023-08-01", "2023-09-01", "month",
     "What happened to John's job?"),
    ("What did we decide in March?", "2024-03-01", "2024-04-01", "month", "What did we decide?"),
    ("trip in June", "2023-06-01", "2023-07-01", "month", "trip"),  # June 2024 has not come yet
    ("budget for June 2023", "2023-06-01", "2023-07-01", "month", "budget for"),
    ("May 2023 offsite", "2023-05-01", "2023-06-01", "month", "offsite"),
    ("what we did in May", "2023-05-01", "2023-06-01", "month", "what we did"),
    ("the Sept 2022 incident", "2022-09-01", "2022-10-01", "month", "the incident"),
    ("release 2023-06 notes", "2023-06-01", "2023-07-01", "month", "release notes"),
    ("What happened in 2023?", "2023-01-01", "2024-01-01", "year", "What happened?"),
    ("What did we ship during 2024?", "2024-01-01", "2025-01-01", "year", "What did we ship?"),
    ("plans for the year 2025", "2025-01-01", "2026-01-01", "year", "plans for"),
    ("last March", "2023-03-01", "2023-04-01", "month", ""),
    # English: relative to now
    ("What did Ana say on Friday?", "2024-03-08", "2024-03-09", "day", "What did Ana say?"),
    ("what did we do last Thursday", "2024-03-07", "2024-03-08", "day", "what did we do"),
    ("standup on Thursday", "2024-03-14", "2024-03-15", "day", "standup"),
    ("Yesterday's emails", "2024-03-13", "2024-03-14", "day", "emails"),
    ("emails from yesterday", "2024-03-13", "2024-03-14", "day", "emails from"),
    ("what I did today", "2024-03-14", "2024-03-15", "day", "what I did"),
    ("the day before yesterday", "2024-03-12", "2024-03-13", "day", ""),
    ("bugs fixed last week", *LAST_WEEK, "bugs fixed"),
    ("What changed in the past week?", *LAST_WEEK, "What changed?"),
    ("this week", "2024-03-11", "2024-03-18", "week", ""),
    ("last month's invoices", "2024-02-01", "2024-03-01", "month", "invoices"),
    ("Friday's notes and John's", None, None, None, None),  # a possessive weekday still needs "on" or "last"
    ("invoices last month", "2024-02-01", "2024-03-01", "month", "invoices"),
    ("this month", "2024-03-01", "2024-04-01", "month", ""),
    ("goals last year", "2023-01-01", "2024-01-01", "year", "goals"),
    ("this year", "2024-01-01", "2025-01-01", "year", ""),
    ("hiking last weekend", "2024-03-09", "2024-03-11", "weekend", "hiking"),
    ("this weekend", "2024-03-16", "2024-03-18", "weekend", ""),
    ("two weeks ago", *TWO_WEEKS_AGO, ""),
    ("it broke 3 days ago", "2024-03-11", "2024-03-12", "day", "it broke"),
    ("twelve days ago", "2024-03-02", "2024-03-03", "day", ""),
    ("a month ago", "2024-02-01", "2024-03-01", "month", ""),
    ("one year ago", "2023-01-01", "2024-01-01", "year", ""),
    # English: ranges and periods counted from a date the query names
    ("What did Maria participate in last weekend before April 10, 2023?", "2023-04-08", "2023-04-10",
     "weekend", "What did Maria participate?"),
    ("before April 10, 2023", None, "2023-04-10", "range", ""),
    ("posts after June 2023", "2023-07-01", None, "range", "posts"),
    ("since 2020", "2020-01-01", None, "range", ""),
    ("until March 2023", None, "2023-04-01", "range", ""),
    ("between March and June 2023", "2023-03-01", "2023-07-01", "range", ""),
    ("from 2020 to 2022", "2020-01-01", "2023-01-01", "range", ""),
    ("two weeks before June 2023", *MAY_15_WEEK, ""),
    ("3 days after June 16, 2023", "2023-06-19", "2023-06-20", "day", ""),
    ("the weekend after June 16, 2023", "2023-06-17", "2023-06-19", "weekend", ""),
    ("the Friday before June 14, 2023", "2023-06-09", "2023-06-10", "day", ""),
    ("between March 1, 1999, and May 31, 2000", "1999-03-01", "2000-06-01", "range", ""),
    ("from December 1996 through January 1998", "1996-12-01", "1998-02-01", "range", ""),
    ("In the past years, many things", None, None, None, None),  # plural: no one period
    # Spanish
    ("¿qué pasó la semana pasada con el despliegue?", *LAST_WEEK, "¿qué pasó con el despliegue?"),
    ("¿Qué decidimos el mes pasado?", "2024-02-01", "2024-03-01", "month", "¿Qué decidimos?"),
    ("viajes el año pasado", "2023-01-01", "2024-01-01", "year", "viajes"),
    ("tareas de esta semana", "2024-03-11", "2024-03-18", "week", "tareas"),
    ("gastos de este mes", "2024-03-01", "2024-04-01", "month", "gastos"),
    ("lo que hablamos hace dos semanas", *TWO_WEEKS_AGO, "lo que hablamos"),
    ("Hace Dos Semanas", *TWO_WEEKS_AGO, ""),
    ("se rompió hace 3 días", "2024-03-11", "2024-03-12", "day", "se rompió"),
    ("hace un mes", "2024-02-01", "2024-03-01", "month", ""),
    ("hace un año", "2023-01-01", "2024-01-01", "year", ""),
    ("¿Qué pasó con el trabajo en agosto de 2023?", "2023-08-01", "2023-09-01", "month",
     "¿Qué pasó con el trabajo?"),
    ("noticias del 16 de junio de 2023", "2023-06-16", "2023-06-17", "day", "noticias"),
    ("cumpleaños el 16 de junio", "2023-06-16", "2023-06-17", "day", "cumpleaños"),
    ("decisiones en marzo", "2024-03-01", "2024-04-01", "month", "decisiones"),
    ("informe de junio de 2023", "2023-06-01", "2023-07-01", "month", "informe"),
    ("la reunión de mayo", "2023-05-01", "2023-06-01", "month", "la reunión"),
    ("proyectos en 2023", "2023-01-01", "2024-01-01", "year", "proyectos"),
    ("durante 2024", "2024-01-01", "2025-01-01", "year", ""),
    ("el lunes pasado", "2024-03-11", "2024-03-12", "day", ""),
    ("¿qué comimos el viernes?", "2024-03-08", "2024-03-09", "day", "¿qué comimos?"),
    ("el miércoles pasado", "2024-03-13", "2024-03-14", "day", ""),
    ("el miercoles pasado", "2024-03-13", "2024-03-14", "day", ""),  # accents are optional
    ("el pasado sábado", "2024-03-09", "2024-03-10", "day", ""),
    ("ayer", "2024-03-13", "2024-03-14", "day", ""),
    ("lo de hoy", "2024-03-14", "2024-03-15", "day", "lo"),
    ("anteayer", "2024-03-12", "2024-03-13", "day", ""),
    ("¿qué pasó antes de ayer?", "2024-03-12", "2024-03-13", "day", "¿qué pasó?"),  # said as anteayer
    ("¿Qué hicimos el fin de semana pasado?", "2024-03-09", "2024-03-11", "weekend", "¿Qué hicimos?"),
    ("¿Qué hicimos el fin de semana antes del 10 de abril de 2023?", "2023-04-08", "2023-04-10",
     "weekend", "¿Qué hicimos?"),
    ("antes de junio de 2023", None, "2023-06-01", "range", ""),
    ("después del 10 de abril de 2023", "2023-04-11", None, "range", ""),
    ("despues de 2021", "2022-01-01", None, "range", ""),
    ("desde marzo", "2024-03-01", None, "range", ""),
    ("hasta el 16 de junio de 2023", None, "2023-06-17", "range", ""),
    ("entre enero y marzo de 2023", "2023-01-01", "2023-04-01", "range", ""),
    ("dos semanas antes de junio de 2023", *MAY_15_WEEK, ""),
    ("del 3 de mayo al 10 de junio de 2023", "2023-05-03", "2023-06-11", "range", ""),
    ("la reunión del 06/07/2023", "2023-07-06", "2023-07-07", "day", "la reunión"),  # Spanish: day first
]


@pytest.mark.parametrize(("text", "start", "end", "granularity", "rest"), CASES, ids=[c[0] for c in CASES])
def test_expressions_mean_these_days(text, start, end, granularity, rest):
    found = find_time(text, NOW)
    if granularity is None:
        assert found is None, found
        return
    assert found is not None, text
    assert (found.start, found.end, found.granularity) == (start and D(start), end and D(end), granularity)
    assert found.rest == rest
    assert text[found.span[0]:found.span[1]] not in found.rest


def test_there_are_sixty_cases_in_both_languages():
    spanish = [c for c in CASES if re.search(r"[¿ñáéíóú]|\b(el|la|de|hace|en|ayer|hoy)\b", c[0], re.I)]
    assert len(CASES) >= 60 and len(spanish) >= 25


@pytest.mark.parametrize(("text", "label"), [
    ("on 16 June, 2023", "16 Jun 2023"), ("in June 2023", "June 2023"), ("en 2023", "2023"),
    ("before April 10, 2023", "before 10 Apr 2023"), ("since March 2023", "since March 2023"),
    ("last weekend", "weekend of 9 Mar 2024"), ("last week", "week of 4 Mar 2024"),
    ("between March and June 2023", "March 2023 – June 2023"),
])
def test_the_label_names_the_days(text, label):
    found = find_time(text, NOW)
    assert found is not None and found.label == label


@pytest.mark.parametrize("text", [
    "4096 tokens", "a context of 2048 tokens", "in 2048 tokens", "ISSUE-2023 is blocked", "release v2.10",
    "see #2024", "meet at 10:30", "at 10 pm", "call 555 1234", "pages 12-16", "the 12 apostles",
    "1/2 cup of flour", "version 2023", "we met 2023 people", "(2023)",
    "I may go", "we may need it", "before may be too late", "they march on", "they march in formation",
    "marzipan", "the mayor said", "add mayo to the sandwich", "el mayor de los hermanos",
    "Black Friday deals", "Robinson met Friday", "the last time we met", "this is it", "el mar está frío",
    "June Carter sang", "a dec file", "the weekend crowd", "my week", "the last day of the trial",
])
def test_no_time_in_plain_numbers_ids_and_words(text):
    assert find_time(text, NOW) is None


def test_only_the_first_expression_is_taken():
    found = find_time("in March and again in June 2023", NOW)
    assert found is not None and found.label == "March 2024" and found.rest == "and again in June 2023"


def test_an_aware_now_counts_in_its_own_calendar():
    late = datetime(2024, 3, 14, 23, 30, tzinfo=timezone(timedelta(hours=-5)))  # already the 15th in UTC
    found = find_time("today", late)
    assert found is not None and found.start == date(2024, 3, 14)


def test_an_impossible_date_is_no_date():
    assert find_time("2023-02-30", NOW) is None
    assert find_time("31/02/2023", NOW) is None
    assert find_time("on 29 February", NOW).start == date(2024, 2, 29)
    assert find_time("on 29 February", datetime(2023, 5, 1)).start == date(2020, 2, 29)


def _fold(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c)).lower()


_LETTERS = st.sampled_from("abcdefghijklmnopqrstuvwxyzáéíóúñüABCDEFGHIJKLMNOPQRSTUVWXYZÁÉÑ")
# A count after a year unmakes it ("since 2020 patients"), so counted things are left out of the words around.
_PLAIN_WORD = st.text(_LETTERS, min_size=1, max_size=9).filter(
    lambda w: _fold(w) not in time_words.VOCABULARY | time_words.QUANTITY_WORDS)
_SEPARATORS = st.sampled_from([" ", " ", ", ", "? ", ". ", " ¿", " - "])


def _sentence(words: list[str], seps: list[str]) -> str:
    return "".join(w + s for w, s in zip(words, seps, strict=False)).strip() if words else ""


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(_LETTERS, min_size=1, max_size=9).filter(
    lambda w: _fold(w) not in time_words.TRIGGERS), max_size=12), st.lists(_SEPARATORS, min_size=12, max_size=12))
def test_a_text_without_digits_or_time_words_names_no_time(words, seps):
    assert find_time(_sentence(words, seps), NOW) is None


_EXPRESSIONS = [c[0] for c in CASES if c[3] is not None and c[4] == ""]


@settings(max_examples=300, deadline=None)
@given(st.lists(_PLAIN_WORD, max_size=6), st.sampled_from(_EXPRESSIONS), st.lists(_PLAIN_WORD, max_size=6))
def test_the_rest_keeps_every_other_word(before, expression, after):
    text = " ".join([*before, expression, *after])
    found = find_time(text, NOW)
    assert found is not None
    assert found.rest.split() == [*before, *after]


_PIECES = sorted(time_words.VOCABULARY) + [
    "0", "1", "12", "13", "29", "31", "32", "1900", "2023", "2099", "9999", "2024-02-29", "2023-02-29",
    "29/02/2023", "1/13/2023", "13/13/2023", "2023-13", "16th", "0th", ",", "'s", "plain", "¿", "?",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=8),
       st.sampled_from([NOW, datetime(1, 1, 3), datetime(9999, 12, 30), datetime(2024, 2, 29)]) | st.datetimes())
def test_any_mix_of_time_words_is_read_or_left_without_an_error(pieces, now):
    text = " ".join(pieces)
    found = find_time(text, now)
    if found is not None:
        assert 0 <= found.span[0] < found.span[1] <= len(text)
        assert found.start is None or found.end is None or found.start < found.end


@pytest.mark.parametrize("text", ["0¹", "²³ May", "3¹st of the month", "in ²⁰²³", "¹/²/2023"])
def test_superscript_digits_are_no_date_and_raise_nothing(text):
    # str.isdigit() is true for "²", which int() cannot read: such text is simply not a date.
    assert find_time(text, datetime(2024, 3, 14)) is None
