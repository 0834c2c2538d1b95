"""An entity's timeline read from the recorded history, its dates in the world, and what changed since."""

from __future__ import annotations

import pytest

from limbic.engine.errors import ValidationError
from limbic.engine.graph.graph import Graph
from limbic.service import timeline
from limbic.service.undo import undo_step
from tests.history.conftest import ann_and_companies


@pytest.fixture
def g(tmp_path, clock):
    graph = ann_and_companies(tmp_path / "g.db", clock, "Acme")
    yield graph
    graph.db.close()


def _obs(g: Graph, text: str) -> int:
    return g.db.scalar("SELECT id FROM observations WHERE content = ?", (text,))


def test_the_timeline_tells_the_entity_life_newest_first_with_who_and_when(g, clock):
    ann = g.entity_id("Ann")
    clock.advance(60)
    g.db.activity.set_origin("assistant", "Claude")
    g.add_observations("Ann", ["plays chess"])
    clock.advance(60)
    g.supersede_observation(_obs(g, "lives in Oslo"), "lives in Bergen")
    clock.advance(60)
    g.add_relation("Ann", "Acme", "works_at")
    clock.advance(60)
    g.db.activity.set_origin("sync:laptop")
    g.end_relation("Ann", "Acme", "works_at")
    clock.advance(60)
    g.db.activity.set_origin("app")
    g.rename_entity("Ann", "Ann Lee")
    clock.advance(60)
    g.delete_observation(_obs(g, "plays chess"))
    events = timeline.entity_timeline(g, ann)
    said = [(e.sentence, e.detail) for e in events]
    assert said == [
        ("You removed an observation", "plays chess"),
        ("You renamed it", "Ann → Ann Lee"),
        ("sync:laptop ended a relation", "works_at → Acme"),
        ("Claude started a relation", "works_at → Acme"),
        ("Claude superseded an observation", "lives in Oslo"),
        ("Claude added an observation", "lives in Bergen"),
        ("Claude added an observation", "plays chess"),
        ("You added an observation", "lives in Oslo"),
        ("You created it", "Ann"),
    ]
    assert [e.at for e in events] == sorted((e.at for e in events), reverse=True)
    assert events[-1].at == "2025-01-01 09:01:00" and events[0].at == "2025-01-01 09:07:00"


def test_an_event_shows_the_entity_as_it_was_then(g, clock):
    ann = g.entity_id("Ann")
    clock.advance(60)
    g.add_observations("Ann", ["plays chess"])
    clock.advance(60)
    g.rename_entity("Ann", "Ann Lee")
    clock.advance(60)
    g.delete_entity("Ann Lee")
    events = timeline.entity_timeline(g, ann)
    assert [e.what for e in events[:2]] == ["deleted", "renamed"]  # its rows went with it: one event
    added = next(e for e in events if e.detail == "plays chess")
    page = timeline.entity_then(g, ann, added.view_at)
    assert page["name"] == "Ann" and [o["content"] for o in page["observations"]] == ["lives in Oslo", "plays chess"]
    deleted = events[0]
    assert deleted.sentence == "You deleted it"
    assert timeline.entity_then(g, ann, deleted.view_at)["name"] == "Ann Lee"  # just before it went


def test_dates_are_set_shown_and_undone_and_bad_ones_change_nothing(g, clock):
    ann = g.entity_id("Ann")
    obs = _obs(g, "lives in Oslo")
    g.add_relation("Ann", "Acme", "works_at")
    step = timeline.set_dates(g, ann, "2024-03-01", "2025-01-31 12:00", obs_id=obs)
    timeline.set_dates(g, ann, "2020-01-01", "", relation=("Ann", "Acme", "works_at"))
    dates = timeline.entity_dates(g, ann)
    assert dates.observations == {obs: "since 2024-03-01 · until 2025-01-31 12:00"}
    assert dates.outgoing == {("works_at", "Acme"): "since 2020-01-01"}
    assert timeline.entity_dates(g, g.entity_id("Acme")).incoming == {("Ann", "works_at"): "since 2020-01-01"}
    with pytest.raises(ValidationError):
        timeline.set_dates(g, ann, "March", "", obs_id=obs)
    with pytest.raises(ValidationError):
        timeline.set_dates(g, ann, "2025-01-01", "2024-01-01", obs_id=obs)
    assert timeline.entity_dates(g, ann).observations == {obs: "since 2024-03-01 · until 2025-01-31 12:00"}
    undo_step(g, step)
    assert timeline.entity_dates(g, ann).observations == {}
    assert any(e.what == "dated" for e in timeline.entity_timeline(g, ann))


def test_who_is_said_in_words():
    assert timeline.who_words("assistant:Claude:add_observations") == "Claude"
    assert timeline.who_words("sync:laptop:sync") == "sync:laptop"
    assert timeline.who_words("import:notes.jsonl:import") == "An import of notes.jsonl"
    assert timeline.who_words("app:undo") == "You"
    assert timeline.who_words("cli:add") == "The command line"
    assert timeline.who_words("") == "Someone"


def test_what_changed_since_a_moment(g, clock):
    since = clock.advance(60)
    clock.advance(1)
    g.add_observations("Ann", ["plays chess"])
    g.create_entity("Bob", "Person")
    clock.advance(60)
    got = timeline.changed_since(g, since)
    assert {c["entity"]: c["what"] for c in got.changes} == {"Ann": "changed", "Bob": "added"}
    assert got.note == ""
    early = timeline.changed_since(g, "2000-01-01 00:00:00")
    assert "history starts on" in early.note and {c["entity"] for c in early.changes} >= {"Ann", "Acme", "Bob"}
    with pytest.raises(ValidationError):
        timeline.changed_since(g, "2999-01-01 00:00:00")


def test_a_typed_since_is_read_as_the_day_it_starts():
    from datetime import datetime
    now = datetime(2026, 3, 18, 12, 0).astimezone()
    assert timeline.since_moment("2026-03-01 10:00", now) == "2026-03-01 10:00:00"
    start = timeline.since_moment("last week", now)
    assert start[:10] in ("2026-03-08", "2026-03-09")  # Monday the 9th, at local midnight in UTC
    assert timeline.since_moment("en marzo", now)[:10] in ("2026-02-28", "2026-03-01")  # its first day
    with pytest.raises(ValidationError):
        timeline.since_moment("banana", now)
    with pytest.raises(ValidationError):
        timeline.since_moment("", now)


def test_the_entity_at_each_event_is_what_the_whole_graph_of_that_moment_says(g, clock):
    """The page read from the entity's own versions equals the one the rebuilt graph of that moment gives."""
    from limbic.service.history import entity_page

    ann = g.entity_id("Ann")
    g.create_entity("Initech", "Company")
    for step in (lambda: g.add_observations("Ann", ["plays chess"]),
                 lambda: g.add_relation("Ann", "Acme", "works_at"),
                 lambda: g.add_relation("Initech", "Ann", "employs"),
                 lambda: g.supersede_observation(_obs(g, "lives in Oslo"), "lives in Bergen"),
                 lambda: g.rename_entity("Acme", "Acme Corp"),
                 lambda: g.end_relation("Ann", "Acme Corp", "works_at"),
                 lambda: timeline.set_dates(g, ann, "2024-01-01", "", obs_id=_obs(g, "plays chess")),
                 lambda: g.delete_observation(_obs(g, "plays chess"))):
        clock.advance(60)
        step()
    events = timeline.entity_timeline(g, ann)
    assert len(events) >= 8
    for e in events:
        mine = timeline.entity_then(g, ann, e.view_at)
        whole = entity_page(g, ann, e.view_at)
        assert mine["name"] == whole["name"] and mine["status"] == whole["status"]
        assert mine["observations"] == [{k: o[k] for k in o if k in ("content", "createdAt", "validFrom", "validUntil")}
                                        for o in whole["observations"]]
        assert [o["content"] for o in mine["superseded"]] == [o["content"] for o in whole["superseded"]]
        rel = lambda r: (r["from"], r["to"], r["relationType"], r["active"], r["endedAt"])  # noqa: E731
        assert sorted(map(rel, mine["relations"])) == sorted(map(rel, whole["relations"]))


def test_aliases_retypes_and_status_are_in_the_timeline_and_in_the_page_of_then(g, clock):
    ann = g.entity_id("Ann")
    clock.advance(60)
    g.add_alias("Ann", "Annie")
    clock.advance(60)
    g.set_status("Ann", "paused")
    clock.advance(60)
    g.remove_alias("Ann", "Annie")
    events = timeline.entity_timeline(g, ann)
    said = [(e.sentence, e.detail) for e in events[:3]]
    assert said == [("You removed an alias", "Annie"), ("You set its status", "active → paused"),
                    ("You added an alias", "Annie")]
    assert timeline.entity_then(g, ann, events[1].at)["aliases"] == ["Annie"]
    assert "aliases" not in timeline.entity_then(g, ann, events[0].at)
