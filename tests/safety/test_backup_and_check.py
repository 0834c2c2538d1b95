"""Backups, restore, `limbic check [--repair]`, busy retries and noticing other writers."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from limbic import config
from limbic.cli import main
from limbic.engine.store import db as db_module
from limbic.engine.graph import signals
from limbic.engine.vectors import index
from limbic.engine.store.backup import backup_database, list_backups, prune, restore
from limbic.engine.check import check_graph, iter_sources, repair
from limbic.engine.store.db import Database
from limbic.engine.errors import DatabaseError
from limbic.engine.graph.graph import Graph
from limbic.engine.formats.jsonl import import_file
from tests.safety.harness import hold_write_lock

GRAPH_TABLES = ("entities", "observations", "relations", "entity_access", "entity_access_log", "co_occurrences")


def graph_rows(db: Database) -> dict[str, list]:
    return {t: db.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in GRAPH_TABLES}


def fill(g: Graph, n: int = 30) -> None:
    with g.write():
        for i in range(n):
            g.upsert_entity(f"E{i}", "Note", [f"first {i}", f"second {i}"])
        for i in range(1, n):
            g.add_relation(f"E{i}", f"E{i - 1}", "follows")


# -- backups ------------------------------------------------------------------------------------


def test_backup_is_a_complete_self_contained_copy_and_old_ones_are_pruned(text_graph):
    fill(text_graph)
    paths = [backup_database(text_graph.db, keep=3) for _ in range(5)]
    kept = list_backups(text_graph.db.path)
    assert [b.path for b in kept] == paths[-3:]
    assert all(b.path.parent == config.backup_dir(text_graph.db.path) for b in kept)
    copy = Database(paths[-1], readonly=True)
    assert graph_rows(copy) == graph_rows(text_graph.db)
    assert copy.scalar("PRAGMA journal_mode") == "delete"
    copy.close()
    assert prune(text_graph.db.path, keep=1) == paths[-3:-1]


def test_import_backs_up_a_non_empty_graph_first(text_graph, tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text('{"type":"entity","name":"New","entityType":"T","observations":["x"]}\n', encoding="utf-8")
    import_file(text_graph, src)
    assert list_backups(text_graph.db.path) == []  # nothing to lose yet
    text_graph.upsert_entity("Before", "T", ["kept in the backup"])
    src.write_text('{"type":"entity","name":"Later","entityType":"T","observations":["y"]}\n', encoding="utf-8")
    import_file(text_graph, src)
    (backup,) = list_backups(text_graph.db.path)
    assert backup.reason == "before-import"
    copy = Graph(Database(backup.path, readonly=True))
    assert copy.entity_id("Before") is not None and copy.entity_id("Later") is None
    copy.db.close()


def test_schema_migration_backs_up_the_old_file_first(tmp_path, monkeypatch):
    path = tmp_path / "old.db"
    g = Graph(Database(path))
    fill(g, 5)
    g.db.close()
    current = db_module.SCHEMA_VERSION
    monkeypatch.setattr(db_module, "SCHEMA_VERSION", current + 1)
    monkeypatch.setattr(db_module, "_MIGRATIONS", [*db_module._MIGRATIONS, "CREATE TABLE extra(x)"])
    upgraded = Database(path)
    assert upgraded.user_version() == current + 1 and upgraded.has_table("extra")
    (backup,) = list_backups(path)
    assert backup.reason == f"before-schema-{current + 1}"
    upgraded.close()
    monkeypatch.setattr(db_module, "SCHEMA_VERSION", current)
    old = Database(backup.path, readonly=True)
    assert old.user_version() == current and not old.has_table("extra") and old.scalar("SELECT count(*) FROM entities") == 5
    old.close()


def test_restore_brings_back_the_backup_and_keeps_the_replaced_state(text_graph):
    fill(text_graph)
    saved = graph_rows(text_graph.db)
    backup = backup_database(text_graph.db)
    text_graph.delete_entity("E3")
    text_graph.upsert_entity("Added after", "T", ["x"])
    changed = graph_rows(text_graph.db)
    replaced = restore(text_graph.db, backup)
    assert graph_rows(text_graph.db) == saved
    assert check_graph(text_graph.db).consistent
    undo = Database(replaced, readonly=True)
    assert graph_rows(undo) == changed
    undo.close()


def test_restore_refuses_a_damaged_backup_and_changes_nothing(text_graph, tmp_path):
    fill(text_graph)
    before = graph_rows(text_graph.db)
    bad = tmp_path / "bad.bak"
    bad.write_bytes(b"SQLite format 3\x00" + bytes(5000))
    with pytest.raises(DatabaseError):
        restore(text_graph.db, bad)
    assert graph_rows(text_graph.db) == before


def test_cli_backup_list_and_restore(tmp_path, capsys):
    path = tmp_path / "g.db"
    g = Graph(Database(path))
    fill(g, 4)
    g.db.close()
    assert main(["backup", "--db", str(path)]) == 0
    made = capsys.readouterr().out
    (backup,) = list_backups(path)
    assert str(backup.path) in made
    g = Graph(Database(path))
    g.delete_entity("E0")
    g.db.close()
    assert main(["backup", "--list", "--db", str(path)]) == 0
    assert "manual" in capsys.readouterr().out
    assert main(["restore", str(backup.path), "--db", str(path)]) == 0
    g = Graph(Database(path))
    assert g.entity_id("E0") is not None
    g.db.close()


# -- check and repair ---------------------------------------------------------------------------


def test_sources_read_in_bulk_match_the_index_sources(text_graph):
    fill(text_graph, 40)
    text_graph.delete_observation(3)
    text_graph.remove_relation("E5", "E4", "follows")
    for src in iter_sources(text_graph.db):
        assert src == index.load_source(text_graph.db, src.entity_id)


def _break(g: Graph, how: str) -> None:
    db = g.db
    if how == "missing fts row":
        db.execute("DELETE FROM entity_fts WHERE rowid = 2")
    elif how == "stale fts row":
        db.execute("UPDATE entity_fts SET obs_text = 'old text' WHERE rowid = 3")
    elif how == "orphan fts row":
        db.execute("INSERT INTO entity_fts(rowid, name, entity_type, obs_text) VALUES (999, 'ghost', 'T', '')")
    elif how == "missing vector":
        db.execute(f"DELETE FROM {index.VEC_TABLE} WHERE rowid = 4")
    elif how == "stale vector":
        db.execute("UPDATE embedding_state SET text_hash = 'made from older text' WHERE entity_id = 5")
    elif how == "orphan vector":
        db.execute(f"INSERT INTO {index.VEC_TABLE}(rowid, embedding) VALUES (999, ?)", (np.full(384, 384**-0.5, np.float32).tobytes(),))
    elif how == "vector without record":
        db.execute("DELETE FROM embedding_state WHERE entity_id = 6")
    elif how == "malformed vector":
        db.execute(f"DELETE FROM {index.VEC_TABLE} WHERE rowid = 7")
        db.execute(f"INSERT INTO {index.VEC_TABLE}(rowid, embedding) VALUES (7, ?)", (np.full(384, 5.0, np.float32).tobytes(),))
    elif how == "another model's vectors":
        db.set_meta("model_identity", "some/other/model")


BREAKS = [
    "missing fts row",
    "stale fts row",
    "orphan fts row",
    "missing vector",
    "stale vector",
    "orphan vector",
    "vector without record",
    "malformed vector",
    "another model's vectors",
]


@pytest.mark.parametrize("how", BREAKS)
def test_check_finds_each_disagreement_and_repair_fixes_it_without_touching_the_graph(graph, embedder, how):
    fill(graph, 12)
    graph.add_observations("E1", ["an access"])
    signals.record_access(graph.db, [1, 2, 3])
    assert check_graph(graph.db, embedder).consistent
    _break(graph, how)
    found = check_graph(graph.db, embedder)
    assert not found.consistent and found.file_ok and found.derived_problems >= 1, found.lines()
    rows = graph_rows(graph.db)
    result = repair(graph.db, embedder)
    assert result.after.consistent and result.after.pending == 0 and result.after.vectors == 12
    assert graph_rows(graph.db) == rows


def test_repair_without_a_model_rebuilds_fts_and_leaves_vectors_pending(graph, embedder):
    fill(graph, 6)
    _break(graph, "missing fts row")
    _break(graph, "stale vector")
    result = repair(graph.db, None)
    assert result.fts_rebuilt and result.after.consistent and result.after.pending == 1


def test_cli_check_exit_codes_and_repair(tmp_path, capsys, embedder):
    path = tmp_path / "g.db"
    g = Graph(Database(path), embedder)
    fill(g, 5)
    _break(g, "stale fts row")
    g.db.close()
    assert main(["check", "--db", str(path)]) == 2
    out = capsys.readouterr().out
    assert "inconsistent" in out and "full-text rows are out of date" in out and "--repair" in out
    assert main(["check", "--repair", "--db", str(path)]) == 0
    assert "the graph itself was not changed" in capsys.readouterr().out
    assert main(["check", "--db", str(path)]) == 0
    assert "consistent" in capsys.readouterr().out


# -- two connections ----------------------------------------------------------------------------


def test_a_write_waits_for_another_writer_instead_of_failing(text_graph, monkeypatch):
    text_graph.db.conn.setbusytimeout(20)  # so that the retries, not SQLite's own wait, do the work
    started = threading.Event()
    holder = threading.Thread(target=hold_write_lock, args=(text_graph.db.path, 0.8, started))
    holder.start()
    started.wait()
    text_graph.upsert_entity("Written while busy", "T", ["x"])
    holder.join()
    assert text_graph.entity_id("Written while busy") is not None


def test_a_write_that_cannot_get_the_lock_fails_with_a_sentence_and_changes_nothing(text_graph):
    text_graph.upsert_entity("A")
    text_graph.db.conn.setbusytimeout(20)
    text_graph.db.write_retry_seconds = 0.3
    started = threading.Event()
    holder = threading.Thread(target=hold_write_lock, args=(text_graph.db.path, 1.5, started))
    holder.start()
    started.wait()
    with pytest.raises(DatabaseError) as err:
        text_graph.upsert_entity("B", "T", ["y"])
    holder.join()
    message = str(err.value)
    assert "locked" not in message and "busy" in message and "\n" not in message
    assert text_graph.entity_id("B") is None and text_graph.counts()["entities"] == 1
    assert not text_graph.db.in_transaction
    text_graph.upsert_entity("C")  # and the connection works afterwards


def test_access_recording_waits_for_a_busy_file_like_other_writes(text_graph):
    text_graph.upsert_entity("A")
    text_graph.db.conn.setbusytimeout(20)  # so that the wait is the engine's retry, not SQLite's own
    started = threading.Event()
    holder = threading.Thread(target=hold_write_lock, args=(text_graph.db.path, 1.0, started))
    holder.start()
    started.wait()
    assert signals.record_access(text_graph.db, [1]) is True
    holder.join()
    assert text_graph.db.scalar("SELECT access_count FROM entity_access WHERE entity_id = 1") == 1


def test_access_recording_that_cannot_wait_long_enough_fails_quietly(text_graph, caplog):
    text_graph.upsert_entity("A")
    text_graph.db.conn.setbusytimeout(20)
    text_graph.db.write_retry_seconds = 0.2
    started = threading.Event()
    holder = threading.Thread(target=hold_write_lock, args=(text_graph.db.path, 1.0, started))
    holder.start()
    started.wait()
    with caplog.at_level("DEBUG"):
        assert signals.record_access(text_graph.db, [1]) is False
    holder.join()
    assert not [r for r in caplog.records if r.levelno >= 30]  # nothing a terminal would print
    assert "locked" not in caplog.text


def test_changes_by_another_connection_are_noticed_and_own_changes_are_not(tmp_path):
    path = tmp_path / "g.db"
    app, other = Graph(Database(path)), Graph(Database(path))
    assert app.db.changed_by_others() is False
    other.upsert_entity("From elsewhere")
    assert app.db.changed_by_others() is True
    assert app.db.changed_by_others() is False  # reported once
    app.upsert_entity("Own change")
    assert app.db.changed_by_others() is False
    app.db.close()
    other.db.close()


def test_check_with_another_model_reports_it_and_changes_nothing(tmp_path, capsys, embedder):
    path = tmp_path / "g.db"
    g = Graph(Database(path), embedder)
    fill(g, 3)
    _break(g, "another model's vectors")
    g.db.close()
    assert main(["check", "--db", str(path)]) == 2
    assert "not by" in capsys.readouterr().out
    db = Database(path)
    assert db.get_meta("model_identity") == "some/other/model" and db.scalar(f"SELECT count(*) FROM {index.VEC_TABLE}") == 3
    db.close()
