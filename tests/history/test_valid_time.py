"""Valid time: when a fact held in the world, set, exported, imported and asked with --valid-at."""

from __future__ import annotations

import io
import json

import pytest

from limbic.cli import main
from limbic.engine.errors import ValidationError
from limbic.engine.formats.jsonl import import_file, iter_export_lines
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service.history import entity_page, export_as_of, set_validity
from tests.history.conftest import ann_and_companies


@pytest.fixture
def g(tmp_path, clock):
    graph = ann_and_companies(tmp_path / "g.db", clock, "Acme", "Initech")
    yield graph
    graph.db.close()


def _obs(g: Graph, text: str) -> int:
    return g.db.scalar("SELECT id FROM observations WHERE content = ?", (text,))


def _held(g: Graph, when: str) -> tuple[list[str], set[tuple[str, str]]]:
    page = entity_page(g, "Ann", valid_at=when)
    return ([o["content"] for o in page["observations"]],
            {(r["relationType"], r["to"]) for r in page["relations"]})


def test_overlapping_and_open_intervals(g):
    g.add_observations("Ann", ["plays chess", "speaks Norwegian"])
    set_validity(g, _obs(g, "lives in Oslo"), valid_from="2019-05-01", valid_until="2023-08-31")
    set_validity(g, _obs(g, "plays chess"), valid_from="2022-01-01")  # open: still true
    # "speaks Norwegian" has no valid time: as far as the graph knows, it always held.
    assert _held(g, "2018-06-01")[0] == ["speaks Norwegian"]
    assert _held(g, "2022-06-01")[0] == ["lives in Oslo", "plays chess", "speaks Norwegian"]
    assert _held(g, "2023-08-31")[0] == ["lives in Oslo", "plays chess", "speaks Norwegian"]  # to the day's end
    assert _held(g, "2023-09-01")[0] == ["plays chess", "speaks Norwegian"]
    assert _held(g, "2023-09-01 00:00:00")[0] == ["plays chess", "speaks Norwegian"]


def test_a_relation_ended_and_started_again_holds_in_both_periods_only(g, clock):
    g.add_relation("Ann", "Acme", "works_at")
    set_validity(g, relation=("Ann", "Acme", "works_at"), valid_from="2015-01-01", valid_until="2018-12-31")
    g.add_relation("Ann", "Initech", "works_at")
    set_validity(g, relation=("Ann", "Initech", "works_at"), valid_from="2019-01-01")
    assert _held(g, "2016-03-01")[1] == {("works_at", "Acme")}
    assert _held(g, "2020-03-01")[1] == {("works_at", "Initech")}
    clock.advance(60)
    g.end_relation("Ann", "Initech", "works_at", ended_at="2021-06-30 00:00:00")
    assert _held(g, "2022-01-01")[1] == set()  # ended, with no valid_until: it held until it ended
    assert _held(g, "2021-01-01")[1] == {("works_at", "Initech")}


def test_an_observation_superseded_with_a_validity_gap(g, clock):
    set_validity(g, _obs(g, "lives in Oslo"), valid_from="2015-01-01", valid_until="2019-12-31")
    clock.advance(60)
    new = g.supersede_observation(_obs(g, "lives in Oslo"), "lives in Lisbon")
    set_validity(g, new, valid_from="2021-01-01")  # a year in between nobody wrote down
    assert _held(g, "2017-01-01")[0] == ["lives in Oslo"]
    assert _held(g, "2020-06-01")[0] == []
    assert _held(g, "2022-06-01")[0] == ["lives in Lisbon"]


def test_a_superseded_observation_without_valid_time_held_until_it_was_replaced(g, clock):
    clock.advance(86_400)
    g.supersede_observation(_obs(g, "lives in Oslo"), "lives in Lisbon")
    assert _held(g, "2025-01-01 12:00:00")[0] == ["lives in Oslo"]
    assert _held(g, "2025-01-02 12:00:00")[0] == ["lives in Lisbon"]


def test_valid_time_travels_through_jsonl(g, tmp_path):
    set_validity(g, _obs(g, "lives in Oslo"), valid_from="2019-05-01", valid_until="2023-08-31 17:00:00")
    g.add_relation("Ann", "Acme", "works_at")
    set_validity(g, relation=("Ann", "Acme", "works_at"), valid_from="2015-01-01")
    lines = list(iter_export_lines(g))
    ann = json.loads(lines[0])
    assert ann["observationValidity"] == [["2019-05-01", "2023-08-31 17:00:00"]]
    rel = json.loads(lines[-1])
    assert (rel["validFrom"], rel["validUntil"]) == ("2015-01-01", None)
    path = tmp_path / "out.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    other = Graph(Database(tmp_path / "other.db"))
    import_file(other, path)
    assert list(iter_export_lines(other)) == lines
    other.db.close()


def test_a_bad_valid_date_is_refused_and_changes_nothing(g):
    with pytest.raises(ValidationError, match="valid_until must be a date"):
        set_validity(g, _obs(g, "lives in Oslo"), valid_until="soon")
    with pytest.raises(ValidationError, match="comes before"):
        set_validity(g, _obs(g, "lives in Oslo"), valid_from="2020-01-01", valid_until="2019-01-01")
    assert g.db.one("SELECT valid_from, valid_until FROM observations") == (None, None)


def test_export_valid_at_from_the_command_line(g, capsys):
    set_validity(g, _obs(g, "lives in Oslo"), valid_until="2010-01-01")
    path = str(g.db.path)
    out = io.StringIO()
    export_as_of(g, None, out, valid_at="2012-01-01")
    assert json.loads(out.getvalue().splitlines()[0])["observations"] == []
    assert main(["--db", path, "export", "--valid-at", "2009-01-01"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["observations"] == ["lives in Oslo"]
    assert main(["--db", path, "export", "--valid-at", "next year"]) == 1
    assert "--valid-at must be a date" in capsys.readouterr().err


def test_a_blank_valid_at_gets_a_sentence(g):
    with pytest.raises(ValidationError, match="needs a date"):
        export_as_of(g, None, io.StringIO(), valid_at="   ")
