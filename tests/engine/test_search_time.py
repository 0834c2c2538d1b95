"""A question that names a time finds what happened then: written dates and recorded times, shown in the breakdown."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest

from limbic.engine.search import when
from limbic.engine.search.query import Query
from limbic.engine.search.scoring import ScoringParams
from limbic.engine.search.search import search

ASKED = datetime(2023, 9, 1, 12, 0).astimezone()


@pytest.mark.parametrize(("text", "expected"), [
    ("Maria, session of 16 June, 2023", [(date(2023, 6, 16), date(2023, 6, 17))]),
    ("met on June 16, 2023 at noon", [(date(2023, 6, 16), date(2023, 6, 17))]),
    ("sesión del 16 de junio de 2023", [(date(2023, 6, 16), date(2023, 6, 17))]),
    ("release 2023-06-16 shipped", [(date(2023, 6, 16), date(2023, 6, 17))]),
    ("budget for June 2023", [(date(2023, 6, 1), date(2023, 7, 1))]),
    ("informe de diciembre de 2023", [(date(2023, 12, 1), date(2024, 1, 1))]),
])
def test_absolute_dates_written_in_a_text_are_found(text, expected):
    assert list(when.written_dates(text)) == expected


@pytest.mark.parametrize("text", [
    "a 1999 cohort of 2001 patients",  # a bare year says what a text is about, not when
    "see you yesterday",  # relative to a day nobody recorded
    "31 February 2023",  # no such day
    "ISSUE-2023 and v2.10",
])
def test_what_is_not_a_written_date_is_not_read_as_one(text):
    assert when.written_dates(text) == ()


def test_the_model_encodes_the_query_without_its_time():
    q = Query.read("What pet did Maria get in June 2023?", ASKED)
    assert q.time is not None and q.time.label == "June 2023"
    assert "2023" not in q.capped and "pet" in q.capped
    # The words are still searched: a note that writes the date holds them.
    assert "2023" in q.content
    assert Query.read("What pet did Maria get?", ASKED).capped == "What pet did Maria get?"
    assert Query.read("June 2023", ASKED).capped == "June 2023"  # nothing else to encode


@pytest.fixture
def turns(graph):
    graph.upsert_entity("Maria, session of 2 August 2023", "Turn",
                        ["Maria: what pet did I get? a new kitten, the pet I always wanted"])
    graph.upsert_entity("Maria, session of 16 June, 2023", "Turn",
                        ["Maria: we adopted a puppy from the shelter last Saturday"])
    graph.upsert_entity("Maria, session of 3 March 2023", "Turn", ["Maria: thanks, take care, bye!"])
    return graph


def test_a_question_naming_a_month_finds_what_was_written_then(turns):
    query = "What pet did Maria get in June 2023?"
    plain = search(turns, query, record=False, now=ASKED, params=ScoringParams(time_first=False))
    # Without the time counted, the turn that shares the question's words wins: the test can fail.
    assert plain.results[0].name == "Maria, session of 2 August 2023"
    resp = search(turns, query, record=False, now=ASKED)
    top = resp.results[0]
    assert top.name == "Maria, session of 16 June, 2023" and top.time_match is True
    assert resp.time_note(top) == "June 2023 ✓"
    items = {i["name"]: i for i in resp.to_json()["results"]}
    assert items["Maria, session of 16 June, 2023"]["scoring"]["time"] == "June 2023 ✓"
    assert items["Maria, session of 2 August 2023"]["scoring"]["time"] == "June 2023 ✗"


def test_a_relative_time_is_counted_from_the_time_of_asking_and_matches_recorded_times(graph):
    graph.upsert_entity("Deploy notes", "Note", ["deployment of the billing service went fine"])
    graph.upsert_entity("Old deploy notes", "Note", ["deployment of the billing service went fine, again"])
    old = "2020-01-15 10:00:00"
    graph.db.execute("UPDATE entities SET created_at = ?, updated_at = ? WHERE name = 'Deploy notes'", (old, old))
    graph.db.execute("UPDATE observations SET created_at = ? WHERE entity_id = ?", (old, graph.entity_id("Deploy notes")))
    asked = datetime(2020, 1, 20, 9, 0).astimezone()
    resp = search(graph, "¿qué pasó la semana pasada con el deployment?", record=False, now=asked)
    assert resp.time_label is not None
    assert resp.results[0].name == "Deploy notes" and resp.results[0].time_match is True
    assert [r.time_match for r in resp.results if r.name == "Old deploy notes"] == [False]
    # Asked a week later, last week no longer holds the 15th.
    later = search(graph, "¿qué pasó la semana pasada con el deployment?", record=False,
                   now=asked + timedelta(days=7))
    assert all(r.time_match is False for r in later.results)


def test_a_reply_to_a_query_naming_no_time_is_as_it_was(turns):
    resp = search(turns, "What pet did Maria get?", record=False, now=ASKED)
    assert resp.time_label is None
    assert all("time" not in i["scoring"] for i in resp.to_json()["results"])
    assert all(r.time_match is None for r in resp.results)


def test_an_evaluation_asks_its_questions_at_the_time_it_is_given(graph):
    from limbic.engine.evaluation import Collection, evaluate, import_collection

    coll = Collection(
        docs=[("a", "Meeting on 14 January 2020", "the budget was approved by the board"),
              ("b", "Meeting on 2 March 2020", "the budget was approved by the board again")],
        queries={"q": "was the budget approved last week?"},
        qrels={"q": {"a": 1}},
    )
    import_collection(graph, coll)
    january = evaluate(graph, coll, now=datetime(2020, 1, 22, 9, 0).astimezone())
    march = evaluate(graph, coll, now=datetime(2020, 3, 11, 9, 0).astimezone())
    assert january["hybrid"]["ndcg@10"] == 1.0  # last week held 14 January
    assert march["hybrid"]["ndcg@10"] < 1.0  # last week held 2 March


def test_a_date_inside_a_long_passage_is_its_content_not_the_time_asked_about():
    passage = ("The creative commons is a more effective means for artists to build their reach " * 5) + "since 2008."
    assert Query.read(passage, ASKED).time is None
    assert Query.read("What did the artists build since 2008?", ASKED).time is not None


def test_a_date_an_observation_only_mentions_is_marked_but_does_not_rank_first(graph):
    graph.upsert_entity("Final report", "Note", ["Denver won the final of the 2015 season, played on 7 February 2016"])
    graph.upsert_entity("Ticket sales", "Note", ["Tickets for the final went on sale in December 2015"])
    graph.upsert_entity("Season review, December 2015", "Note", ["A dull season of football"])
    resp = search(graph, "Who won the final in 2015?", record=False, now=ASKED)
    by_name = {r.name: r for r in resp.results}
    # Dated by its name, it happened then: first. Mentioning December 2015, the sale is marked, not lifted.
    assert resp.results[0].name == "Season review, December 2015"
    assert [r.name for r in resp.results][1] == "Final report"
    assert by_name["Ticket sales"].time_match is True and resp.time_note(by_name["Ticket sales"]) == "2015 ✓"
    assert by_name["Final report"].time_match is False  # "2015 season" is a bare year: content, not a date
