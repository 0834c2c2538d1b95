"""The change log: every commit records what it touched, and other connections follow it."""

from __future__ import annotations

import numpy as np
import pytest

from limbic.engine.store import changes

from limbic.engine.vectors import vector_index
from limbic.engine.store.backup import backup_database, restore
from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from limbic.service import collect


def _other(graph: Graph, origin: str = "assistant") -> Graph:
    g = Graph(Database(graph.db.path), graph.embedder)
    g.db.origin = origin
    return g


def test_each_commit_leaves_one_row_naming_what_it_touched(text_graph):
    g = text_graph
    a = g.upsert_entity("Alpha", "Project", ["first"])
    b = g.upsert_entity("Beta", "Person")
    g.add_relation("Alpha", "Beta", "led_by")
    g.add_observations("Beta", ["likes tea"])
    g.delete_entity("Alpha")
    rows = [changes.ChangeSet.from_json(r[0], "app") for r in g.db.execute("SELECT changes FROM change_log ORDER BY id")]
    assert [sorted(r.added) for r in rows] == [[a], [b], [], [], []]
    assert rows[2].relations == {a, b} and rows[2].changed == {a}
    assert rows[3].changed == {b} and not rows[3].names
    assert rows[4].removed == {a} and b in rows[4].relations and rows[4].names


def test_revisions_count_the_commits_that_touched_an_entity(text_graph):
    g = text_graph
    g.upsert_entity("Alpha", "Project", ["first"])
    g.upsert_entity("Beta")
    start = {e.name: e.revision for e in g.iter_entities()}
    g.add_observations("Alpha", ["second"])
    g.add_relation("Beta", "Alpha", "works_on")  # touches both ends
    after = {e.name: e.revision for e in g.iter_entities()}
    assert after["Alpha"] == start["Alpha"] + 2
    assert after["Beta"] == start["Beta"] + 1


def test_a_rolled_back_write_leaves_no_row(text_graph):
    g = text_graph
    g.upsert_entity("Alpha")
    before = g.db.scalar("SELECT count(*) FROM change_log")
    with pytest.raises(RuntimeError):
        with g.write():
            g.upsert_entity("Gamma")
            raise RuntimeError("boom")
    assert g.db.scalar("SELECT count(*) FROM change_log") == before
    assert g.entity_id("Gamma") is None


def test_a_reader_sees_other_writers_changes_and_not_its_own(text_graph):
    g = text_graph
    g.upsert_entity("Mine")
    cursor = changes.start_cursor(g.db)
    other = _other(g)
    try:
        x = other.upsert_entity("Theirs", "Note", ["from an assistant"])
        other.add_observations("Mine", ["an assistant added this"])
        g.upsert_entity("Also mine")
        seen = changes.read_since(g.db, cursor)
    finally:
        other.db.close()
    mine = g.entity_id("Mine")
    assert seen.added == {x}
    assert seen.changed == {mine}
    assert seen.origins == {"assistant"}
    assert seen.describe("assistant") == "1 entity added, 1 changed"
    assert changes.read_since(g.db, cursor).empty  # the cursor moved to the end


def test_a_reader_left_behind_the_pruned_log_is_told_to_reload(text_graph, monkeypatch):
    g = text_graph
    monkeypatch.setattr(changes, "KEEP_ROWS", 5)
    monkeypatch.setattr(changes, "PRUNE_EVERY", 1)
    monkeypatch.setattr(changes, "keep_days", lambda db: -1)  # every row is past the retention
    cursor = changes.start_cursor(g.db)
    other = _other(g, "cli")  # unreviewed assistant changes would be kept
    try:
        for i in range(12):
            other.upsert_entity(f"E{i}")
    finally:
        other.db.close()
    assert g.db.scalar("SELECT count(*) FROM change_log") <= 6
    assert changes.read_since(g.db, cursor).full


def test_a_restore_starts_a_new_history(text_graph):
    g = text_graph
    g.upsert_entity("Before")
    saved = backup_database(g.db, reason="test")
    g.upsert_entity("After")
    cursor = changes.start_cursor(g.db)
    other = _other(g)
    try:
        restore(other.db, saved)
    finally:
        other.db.close()
    assert changes.read_since(g.db, cursor).full
    assert g.entity_id("After") is None


def test_collect_gathers_every_commit_of_an_operation(text_graph):
    g = text_graph
    with collect(g.db) as done:
        a = g.upsert_entity("One")
        b = g.upsert_entity("Two")
        g.delete_entity("Two")
    assert done.added == {a} and done.removed == {b}


def test_the_vector_mirror_follows_another_writer_row_by_row(graph):
    g = graph
    for i in range(30):
        g.upsert_entity(f"Note {i}", "Note", [f"observation number {i} about gardening and tomatoes"])
    query = g.embedder.encode_query("tomatoes in the garden")
    vector_index.knn(g.db, "entity_embeddings", query, 5)
    mirror = vector_index.mirror_for(g.db, "entity_embeddings")
    loads = mirror.loads
    other = _other(g)
    try:
        new_id = other.upsert_entity("Tomato diary", "Note", ["tomatoes in the garden, watered daily"])
        other.delete_entity("Note 3")
        other.add_observations("Note 4", ["moved to the balcony"])
    finally:
        other.db.close()
    hits = vector_index.knn(g.db, "entity_embeddings", query, 40)
    assert mirror.loads == loads and mirror.follows >= 1  # no full reload
    ids = {i for i, _ in hits}
    assert new_id in ids and g.entity_id("Note 3") not in ids and len(ids) == 30
    # Exactly what a fresh scan of the table says.
    rows = g.db.execute("SELECT rowid, embedding FROM entity_embeddings").fetchall()
    mat = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    q = query / np.linalg.norm(query)
    sims = mat @ q / np.linalg.norm(mat, axis=1)
    expected = [rows[i][0] for i in np.argsort(-sims)[:10]]
    assert [i for i, _ in hits[:10]] == expected


def test_a_rolled_back_vector_write_does_not_stay_in_the_mirror(graph):
    g = graph
    g.upsert_entity("Kept", "Note", ["a note about violins"])
    query = g.embedder.encode_query("violin")
    vector_index.knn(g.db, "entity_embeddings", query, 5)
    with pytest.raises(RuntimeError):
        with g.write():
            g.upsert_entity("Ghost", "Note", ["a violin that never was"])
            raise RuntimeError("boom")
    other = _other(g)
    try:
        other.upsert_entity("Real", "Note", ["a cello"])
    finally:
        other.db.close()
    ids = {i for i, _ in vector_index.knn(g.db, "entity_embeddings", query, 10)}
    assert ids == {g.entity_id("Kept"), g.entity_id("Real")}
