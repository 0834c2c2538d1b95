"""The activity log: sessions with origins and each commit's precise changes, in the same transaction."""

from __future__ import annotations

import apsw
import pytest

from limbic.engine.graph import activity_log
from limbic.engine.store import db as db_module
from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph


def _items(g: Graph, change_id: int) -> list[tuple[str, str]]:
    return [(i.kind, i.op) for c in activity_log.load_changes(g.db, [change_id]) for i in c.items]


def test_each_commit_records_its_session_tool_and_rows(text_graph):
    g = text_graph
    g.db.activity.set_origin("assistant", "alpha", "1.2")
    with g.db.activity.using("create_entities"):
        x = g.create_entity("X", "Person", ["base"])
    g.add_observations("X", ["a1"])
    (first, second) = activity_log.load_changes(g.db, [r[0] for r in g.db.execute("SELECT id FROM change_log")])
    assert (first.origin, first.client, first.tool) == ("assistant", "alpha", "create_entities")
    assert [(i.kind, i.op) for i in first.items] == [("entity", "add"), ("observation", "add")]
    assert first.items[1].after["content"] == "base" and first.items[1].entity_id == x
    assert second.session == first.session and second.tool == ""
    assert second.summary == "added to “X”: “a1”"
    (session,) = activity_log.list_sessions(g.db)
    assert (session.client, session.client_version, session.origin) == ("alpha", "1.2", "assistant")
    assert [c.id for c in session.changes] == [first.id, second.id]


def test_a_delete_records_every_row_it_took_with_its_values(text_graph):
    g = text_graph
    g.create_entity("A", observations=["one", "two"])
    g.create_entity("B")
    g.add_relation("A", "B", "knows", "met at work")
    g.delete_entity("A")
    last = int(g.db.scalar("SELECT max(id) FROM change_log"))
    (change,) = activity_log.load_changes(g.db, [last])
    gone = {(i.kind, i.op): i.before for i in change.items}
    assert gone[("entity", "remove")]["name"] == "A"
    assert gone[("relation", "remove")]["context"] == "met at work"
    assert sorted(i.before["content"] for i in change.items if i.kind == "observation") == ["one", "two"]
    assert change.summary.startswith("deleted “A” with ")
    assert "2 observations" in change.summary and "1 relation" in change.summary


def test_a_rename_is_a_change_with_before_and_after_and_updated_at_alone_is_not(text_graph):
    g = text_graph
    g.create_entity("Old")
    g.rename_entity("Old", "New")
    last = int(g.db.scalar("SELECT max(id) FROM change_log"))
    (change,) = activity_log.load_changes(g.db, [last])
    assert [(i.before["name"], i.after["name"]) for i in change.items] == [("Old", "New")]
    assert change.summary == "renamed “Old” → “New”"


def test_a_rolled_back_write_leaves_no_session_and_no_items(text_graph):
    g = text_graph
    g.db.activity.set_origin("cli", "import")
    with pytest.raises(RuntimeError), g.write():
        g.upsert_entity("Lost", observations=["x"])
        raise RuntimeError("stop")
    assert g.db.scalar("SELECT count(*) FROM change_item") == 0
    assert g.db.scalar("SELECT count(*) FROM activity_session") == 0
    g.upsert_entity("Kept")
    assert g.db.scalar("SELECT count(*) FROM activity_session") == 1
    assert _items(g, int(g.db.scalar("SELECT max(id) FROM change_log"))) == [("entity", "add")]


def test_each_connection_is_its_own_session_and_other_writers_are_recorded_too(text_graph):
    g = text_graph
    g.create_entity("Mine")
    other = Graph(Database(g.db.path))
    try:
        other.db.activity.set_origin("assistant", "beta", "0.1")
        other.add_observations("Mine", ["b1"])
    finally:
        other.db.close()
    sessions = activity_log.list_sessions(g.db)
    assert [s.who for s in sessions] == ["beta", "Limbic"]
    assert activity_log.unreviewed_count(g.db) == 1
    history = activity_log.entity_history(g.db, g.entity_id("Mine"))
    assert [c.who for c in history] == ["Limbic", "beta"]
    assert activity_log.mark_reviewed(g.db, session=sessions[0].id) == 1
    assert activity_log.unreviewed_count(g.db) == 0


def test_a_schema_4_file_is_upgraded_keeping_its_change_log(tmp_path, monkeypatch):
    path = tmp_path / "v4.db"
    monkeypatch.setattr(db_module, "SCHEMA_VERSION", 4)
    monkeypatch.setattr(db_module, "_MIGRATIONS", db_module._MIGRATIONS[:4])
    old = Graph(Database(path))
    old.create_entity("Before")
    old.db.close()
    monkeypatch.undo()
    conn = apsw.Connection(str(path))
    assert conn.execute("PRAGMA user_version").fetchall()[0][0] == 4
    conn.close()
    g = Graph(Database(path))
    try:
        assert g.db.user_version() == db_module.SCHEMA_VERSION
        assert g.db.scalar("SELECT count(*) FROM change_log") == 1
        g.add_observations("Before", ["after the upgrade"])
        (session,) = activity_log.list_sessions(g.db)
        assert [c.summary for c in session.changes] == ["added to “Before”: “after the upgrade”"]
    finally:
        g.db.close()


def test_reads_are_noted_per_session_and_counted_per_entity(text_graph):
    g = text_graph
    x = g.create_entity("X")
    g.db.activity.set_origin("assistant", "alpha")
    activity_log.record_reads(g.db, "open_nodes", [x])
    activity_log.record_reads(g.db, "read_graph", [None])
    (count,) = activity_log.reads_of(g.db, x)
    assert (count.client, count.count) == ("alpha", 2)


def test_retention_never_drops_an_unreviewed_assistant_change(text_graph, monkeypatch):
    from limbic.engine.store import changes

    g = text_graph
    monkeypatch.setattr(changes, "KEEP_ROWS", 2)
    monkeypatch.setattr(changes, "PRUNE_EVERY", 1)
    monkeypatch.setattr(changes, "keep_days", lambda db: -1)
    g.db.activity.set_origin("assistant", "alpha")
    g.create_entity("By the assistant")
    g.db.activity.set_origin("app")
    for i in range(6):
        g.create_entity(f"E{i}")
    kept = {r[0] for r in g.db.execute("SELECT origin FROM change_log")}
    assert "assistant" in kept
    assert g.db.scalar("SELECT count(*) FROM change_log") <= 4
    assert activity_log.kept_past_retention(g.db) == 1
    orphans = "SELECT count(*) FROM change_item WHERE change_id NOT IN (SELECT id FROM change_log)"
    assert g.db.scalar(orphans) == 0


def test_an_entitys_history_says_what_a_many_entity_change_did_to_it(text_graph):
    g = text_graph
    with g.write(embed=False):  # one change over three entities, as an import makes
        for name in ("Alpha", "Beta", "Gamma"):
            g.create_entity(name, "Note", [f"{name} fact one", f"{name} fact two"])
        g.add_relation(g.entity_id("Alpha"), g.entity_id("Beta"), "mentions")
    (change,) = activity_log.entity_history(g.db, g.entity_id("Gamma"))[-1:]
    assert "Gamma" in change.summary and "Alpha" not in change.summary and "Beta" not in change.summary
    assert "2 other entities" in change.summary
    (alpha,) = activity_log.entity_history(g.db, g.entity_id("Alpha"))[-1:]
    assert "Alpha" in alpha.summary and "Gamma" not in alpha.summary
