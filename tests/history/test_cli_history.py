"""limbic export --as-of, show --as-of and diff: the graph of a date, one entity then, what changed between."""

from __future__ import annotations

import json

import pytest

from limbic.cli import main
from limbic.engine.graph.graph import Graph
from limbic.engine.history.diff import relation_periods
from limbic.engine.store.db import Database


@pytest.fixture
def graph_file(tmp_path, clock):
    """Ann and Bob: related on 2 January, the relation ended on the 3rd and made again on the 4th; Bob renamed."""
    path = tmp_path / "g.db"
    db = Database(path)
    g = Graph(db)
    clock.advance(60)
    g.create_entity("Ann", "Person", ["likes tea"])
    g.create_entity("Bob", "Person")
    clock.advance(86_400)
    g.add_relation("Ann", "Bob", "knows")
    clock.advance(86_400)
    g.end_relation("Ann", "Bob", "knows")
    obs = db.scalar("SELECT id FROM observations")
    g.supersede_observation(obs, "likes coffee")
    clock.advance(86_400)
    g.add_relation("Ann", "Bob", "knows")
    g.rename_entity("Bob", "Robert")
    g.create_entity("Cy", "Person")
    clock.advance(86_400)
    g.delete_entity("Cy")
    clock.advance(60)
    db.close()
    return str(path)


def test_a_relation_ended_and_made_again_keeps_both_periods(graph_file):
    db = Database(graph_file)
    rel = db.scalar("SELECT id FROM relations")
    assert relation_periods(db, rel) == [("2025-01-02 09:01:00", "2025-01-03 09:01:00"), ("2025-01-04 09:01:00", None)]
    db.close()


def test_export_as_of_a_date_is_the_graph_of_that_date(graph_file, capsys):
    assert main(["--db", graph_file, "export", "--as-of", "2025-01-03 12:00"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    ann = next(x for x in lines if x.get("name") == "Ann")
    assert ann["observations"] == ["likes coffee"]
    rel = next(x for x in lines if x["type"] == "relation")
    assert (rel["to"], rel["active"], rel["endedAt"]) == ("Bob", False, "2025-01-03 09:01:00")
    assert main(["--db", graph_file, "export", "--as-of", "2025-01-04 12:00"]) == 0
    names = {x["name"] for x in map(json.loads, capsys.readouterr().out.splitlines()) if x["type"] == "entity"}
    assert names == {"Ann", "Robert", "Cy"}  # Cy, deleted on the 5th, was there on the 4th


def test_show_as_of_names_the_entity_as_it_was(graph_file, capsys):
    assert main(["--db", graph_file, "show", "Bob", "--as-of", "2025-01-02", "--json"]) == 0
    page = json.loads(capsys.readouterr().out)
    assert page["name"] == "Bob"
    assert page["relations"][0]["periods"] == [{"from": "2025-01-02 09:01:00", "until": None}]
    assert main(["--db", graph_file, "show", "Bob", "--as-of", "2025-01-05"]) == 1
    assert "no entity named 'Bob'" in capsys.readouterr().err


def test_diff_says_what_was_added_changed_ended_and_deleted(graph_file, capsys):
    assert main(["--db", graph_file, "diff", "2025-01-02 12:00", "2025-01-05 09:02", "--json"]) == 0
    changes = {c["entity"]: c for c in json.loads(capsys.readouterr().out)}
    assert "Cy" not in changes  # made and deleted in between: the two dates' graphs do not differ by it
    assert {"kind": "entity", "change": "renamed", "from": "Bob", "to": "Robert"} in changes["Robert"]["details"]
    ann = {(d["kind"], d["change"]) for d in changes["Ann"]["details"]}
    assert ("observation", "ended") in ann and ("observation", "added") in ann
    assert main(["--db", graph_file, "diff", "2025-01-02 12:00", "2025-01-03 12:00"]) == 0
    assert "relation ended: knows Bob" in capsys.readouterr().out
    assert main(["--db", graph_file, "diff", "2025-01-04 12:00", "2025-01-05 09:02"]) == 0
    assert "Cy: deleted" in capsys.readouterr().out


@pytest.mark.parametrize("when, sentence", [
    ("2030-01-01", "is in the future"),
    ("2024-12-31", "did not exist yet on 2024-12-31"),
    ("last Tuesday-ish", "is not a date Limbic reads"),
])
def test_a_date_it_cannot_answer_for_gets_one_sentence(graph_file, capsys, when, sentence):
    assert main(["--db", graph_file, "export", "--as-of", when]) == 1
    err = capsys.readouterr().err
    assert sentence in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_info_says_from_when_the_history_reaches(graph_file, capsys):
    assert main(["--db", graph_file, "info"]) == 0
    assert "history since: 2025-01-01 09:00:00 UTC" in capsys.readouterr().out
