"""A damaged history table turns recording off, never writing: the graph's own change still lands."""

from __future__ import annotations

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database


def _history_without_its_columns(path):
    """A graph file holding Ann whose history table has none of its columns."""
    db = Database(path)
    Graph(db).create_entity("Ann", "Person")
    db.execute("DROP TABLE history")
    db.execute("CREATE TABLE history (id INTEGER PRIMARY KEY, note TEXT)")
    db.close()


def test_a_history_table_without_its_columns_does_not_stop_a_write(tmp_path):
    path = tmp_path / "g.db"
    _history_without_its_columns(path)
    db = Database(path)
    g = Graph(db)
    g.create_entity("Bob", "Person", ["new"])
    assert g.entity_id("Bob") is not None
    db.close()


def test_asking_a_damaged_history_about_a_date_gets_a_sentence(tmp_path, capsys):
    from limbic.cli import main

    path = tmp_path / "g.db"
    _history_without_its_columns(path)
    assert main(["--db", str(path), "export", "--as-of", "2020-01-01"]) == 1
    err = capsys.readouterr().err
    assert "keeps no readable history" in err and "Traceback" not in err


def _damaged(tmp_path, clock):
    """A graph whose history has each kind of damage a check looks for, and its graph of now rebuilt."""
    from limbic.engine.history.asof import graph_at

    db = Database(tmp_path / "g.db")
    g = Graph(db)
    g.create_entity("Ann", "Person", ["likes tea"])
    clock.advance(60)
    g.create_entity("Bob", "Person", ["plays chess"])
    clock.advance(60)
    g.add_relation("Ann", "Bob", "knows")
    clock.advance(60)
    g.create_entity("Cy", "Person", ["a third"])
    clock.advance(60)
    ann, bob, cy = (g.entity_id(n) for n in ("Ann", "Bob", "Cy"))
    obs = db.scalar("SELECT id FROM observations WHERE entity_id = ?", (bob,))
    with db.transaction():
        # Bob's creation was never recorded.
        db.execute("DELETE FROM history WHERE kind = 'entity' AND row_id = ?", (bob,))
        # An open version of an observation the graph does not have.
        db.execute("INSERT INTO history(kind, row_id, gid, value, recorded_from) VALUES "
                   "('observation', 9999, NULL, json_object('entity_id', ?, 'content', 'ghost', 'kind', 'note', "
                   "'created_at', '2025-01-01 09:00:00'), '2025-01-01 09:00:00')", (ann,))
        # A version that ends before it starts, and Cy's version doubled (two open ones).
        db.execute("INSERT INTO history(kind, row_id, gid, value, recorded_from, recorded_to, ended) "
                   "SELECT kind, row_id, gid, value, '2025-01-01 09:02:00', '2025-01-01 09:01:00', 'change' "
                   "FROM history WHERE kind = 'observation' AND row_id = ?", (obs,))
        db.execute("INSERT INTO history(kind, row_id, gid, value, recorded_from) SELECT kind, row_id, gid, "
                   "json_set(value, '$.status', 'paused'), '2025-01-01 09:03:30' FROM history "
                   "WHERE kind = 'entity' AND row_id = ?", (cy,))
    return g, graph_at(db, clock())  # damaged, the past still rebuilds (the later of two versions wins)


def test_check_names_each_kind_of_history_damage(tmp_path, clock):
    from limbic.engine.check import check_graph

    g, past = _damaged(tmp_path, clock)
    past.db.close()
    report = check_graph(g.db)
    h = report.history
    assert h.unrecorded == [f"entity:{g.entity_id('Bob')}"]
    assert len(h.nowhere) == 1 and len(h.backwards) == 1 and len(h.overlapping) == 1 and len(h.differing) == 1
    assert not report.consistent
    lines = "\n".join(report.lines())
    assert "no record of their creation" in lines and "end before they start" in lines
    assert "overlap" in lines and "no longer has" in lines
    g.db.close()


def test_repair_mends_history_and_keeps_every_record(tmp_path, clock):
    from limbic.engine.check import check_graph, repair
    from limbic.engine.history.asof import graph_at
    from limbic.engine.formats.jsonl import iter_export_lines

    g, past = _damaged(tmp_path, clock)
    past.db.close()
    db = g.db
    values_before = sorted(r[0] for r in db.execute("SELECT value FROM history"))
    clock.advance(60)
    result = repair(db)
    assert result.history_records == 6  # one of each kind, and Cy's row recorded again after its wrong value
    assert check_graph(db).history.count == 0 and result.after.consistent
    # Nothing was dropped: every value is still there, with one more for Bob and one for Cy.
    values_after = sorted(r[0] for r in db.execute("SELECT value FROM history"))
    assert len(values_after) == len(values_before) + 2 and set(values_before) <= set(values_after)
    bob = g.entity_id("Bob")
    assert db.one("SELECT recorded_from, who FROM history WHERE kind = 'entity' AND row_id = ?", (bob,)) == (
        g.get_entity(bob).created_at, "repair")
    # The graph of now is the graph, and the ghost observation is a tombstone, not a current row.
    now = graph_at(db, clock())
    live = Graph(db)
    try:
        assert list(iter_export_lines(now)) == list(iter_export_lines(live))
    finally:
        now.db.close()
    assert db.scalar("SELECT ended FROM history WHERE row_id = 9999") == "delete"
    db.close()


def test_cli_check_reports_and_repairs_history(tmp_path, clock, capsys):
    from limbic.cli import main

    g, past = _damaged(tmp_path, clock)
    past.db.close()
    path = g.db.path
    g.db.close()
    assert main(["--db", str(path), "check", "--no-model"]) == 2
    out = capsys.readouterr().out
    assert "no record of their creation" in out and "Traceback" not in out
    assert main(["--db", str(path), "check", "--no-model", "--json"]) == 2
    assert '"unrecorded"' in capsys.readouterr().out
    assert main(["--db", str(path), "check", "--no-model", "--repair"]) == 0
    assert "recorded-history records closed or added" in capsys.readouterr().out


def test_a_past_moment_rebuilds_when_damage_doubled_a_unique_value(tmp_path, clock):
    from limbic.engine.history.asof import graph_at

    db = Database(tmp_path / "g.db")
    g = Graph(db)
    g.create_entity("Ann", "Person", ["likes tea"])
    g.create_entity("Bob", "Person", ["plays chess"])
    clock.advance(60)
    with db.transaction():  # two rows of one moment holding the same global id, as no write makes them
        gid = db.scalar("SELECT gid FROM history WHERE kind = 'observation' ORDER BY id LIMIT 1")
        db.execute("UPDATE history SET gid = ? WHERE kind = 'observation'", (gid,))
    past = graph_at(db, clock())
    try:
        assert past.db.scalar("SELECT count(*) FROM observations") == 1
        assert sorted(e.name for e in past.iter_entities()) == ["Ann", "Bob"]
    finally:
        past.db.close()
    db.close()
