"""What `limbic revert` says is what it did: the pieces it took back (not those it left to another writer),
each in the words of what taking it back did (re-creating what a revert had deleted says "created")."""

from __future__ import annotations

import pytest

from limbic.cli import main
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service import activity


@pytest.fixture
def db_file(tmp_path):
    return tmp_path / "g.db"


def _graph(path) -> Graph:
    g = Graph(Database(path))
    activity.set_origin(g, "cli")
    return g


def _last_change(g: Graph) -> int:
    return int(g.db.scalar("SELECT max(id) FROM change_log"))


def test_keep_theirs_counts_only_what_it_took_back(db_file, capsys):
    g = _graph(db_file)
    with g.db.activity.using("test"):
        g.upsert_entity("Y", "Thing", ["one", "two", "three"])  # one change: the entity and three observations
    ours = _last_change(g)
    activity.set_origin(g, "assistant", "beta")
    with g.db.activity.using("add_observations"):
        g.upsert_entity("Y", "Thing", ["beta's own"])  # another writer's row on Y: Y itself must stay
    g.db.close()

    assert main(["--db", str(db_file), "revert", str(ours)]) == 1  # blocked without a choice
    capsys.readouterr()
    assert main(["--db", str(db_file), "revert", str(ours), "--keep-theirs"]) == 0
    out = capsys.readouterr().out
    assert "Took back 3 pieces and left 1 as another writer left it;" in out
    assert "[conflict]" not in out and "deleted “Y”" not in out
    g = Graph(Database(db_file))
    try:
        assert g.get_entity("Y").observation_texts == ["beta's own"]
    finally:
        g.db.close()


def test_reverting_a_revert_says_what_it_brings_back(db_file, capsys):
    g = _graph(db_file)
    with g.db.activity.using("test"):
        g.upsert_entity("X", "Thing", [])
    with g.db.activity.using("test"), g.write():  # one change: Y created and "base" added to X
        g.upsert_entity("Y", "Thing", [])
        g.upsert_entity("X", "Thing", ["base"])
    made = _last_change(g)
    g.db.close()

    assert main(["--db", str(db_file), "revert", str(made)]) == 0
    out = capsys.readouterr().out
    assert "deleted “Y”" in out and "removed from “X”: “base”" in out and "Took back 2 pieces" in out
    g = Graph(Database(db_file))
    revert = _last_change(g)
    g.db.close()

    assert main(["--db", str(db_file), "revert", str(revert), "--dry-run"]) == 0
    dry = capsys.readouterr().out
    assert "if taken back: created “Y” (Thing)" in dry and "if taken back: added to “X”: “base”" in dry
    assert main(["--db", str(db_file), "revert", str(revert)]) == 0
    out = capsys.readouterr().out
    assert "created “Y” (Thing)" in out and "added to “X”: “base”" in out
    assert "deleted" not in out and "removed" not in out and "Took back 2 pieces" in out
    g = Graph(Database(db_file))
    try:
        assert g.get_entity("X").observation_texts == ["base"] and g.get_entity("Y") is not None
    finally:
        g.db.close()


def test_a_plan_says_each_piece_as_what_taking_it_back_does(db_file):
    g = _graph(db_file)
    with g.db.activity.using("test"):
        g.upsert_entity("X", "Thing", ["base"])
    made = _last_change(g)
    plan = activity.plan_revert(g, str(made))
    assert sorted(p.undo for p in plan.pieces) == ["deleted “X”", "removed from “X”: “base”"]
    assert sorted(p.item.summary for p in plan.pieces) == ["added to “X”: “base”", "created “X” (Thing)"]
    g.db.close()


def test_a_dry_run_names_an_entity_it_deletes_once_with_its_pieces(db_file, capsys):
    # The words of the window's revert preview: one line for the entity, its pieces counted, not a line each.
    g = _graph(db_file)
    with g.db.activity.using("test"):
        g.upsert_entity("X", "Thing", [])
    with g.db.activity.using("test"), g.write():  # one change: Y with two observations and a relation to X
        g.upsert_entity("Y", "Tool", ["backs up the ledger", "runs nightly"])
        g.add_relation("Y", "X", "part_of")
    made = _last_change(g)
    g.db.close()

    assert main(["--db", str(db_file), "revert", str(made), "--dry-run"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("if taken back: ")]
    assert lines == ["if taken back: deleted “Y” (with its 2 observations and 1 relation)"], lines
    g = Graph(Database(db_file))
    try:
        assert g.get_entity("Y") is not None  # a dry run changes nothing
    finally:
        g.db.close()
