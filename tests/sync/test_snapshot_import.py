"""A new device starting from a snapshot: applied a batch at a time, whole or not at all, from a snapshot alone."""

from __future__ import annotations

import pytest

from limbic.engine.sync import apply, snapshot
from limbic.engine.sync.exchange import SyncError
from tests.sync.replicas import Replica, settle, synced_hash


def _graph_with_history(replica: Replica) -> None:
    g = replica.graph
    for i in range(7):
        g.upsert_entity(f"E{i}", "T", [f"note {i}", f"more {i}"])
    for i in range(6):
        g.add_relation(f"E{i}", f"E{i + 1}", "next")
    # A chain of supersessions: each observation names one written after it.
    first = g.db.scalar("SELECT id FROM observations WHERE content = 'note 0'")
    second = g.supersede_observation(first, "note 0, corrected")
    g.supersede_observation(second, "note 0, corrected again")


def _snapshot_published(tmp_path, monkeypatch):
    """A laptop whose first segment a snapshot covers (batches of 3), in a folder a new device reads from."""
    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 1)
    monkeypatch.setattr(snapshot, "BATCH", 3)
    folder = tmp_path / "folder"
    folder.mkdir()
    a = Replica(tmp_path, "laptop")
    _graph_with_history(a)
    a.sync(folder)
    a.graph.upsert_entity("After", "T", ["one more"])
    a.sync(folder)  # a snapshot covers the first segment, which compaction removed
    return a, folder


def test_a_snapshot_applies_in_batches_and_gives_the_same_graph(tmp_path, monkeypatch):
    sizes: list[int] = []
    real = apply.Applier.apply_change

    def counted(self, change):
        sizes.append(len(change.get("items", [])))
        return real(self, change)

    a, folder = _snapshot_published(tmp_path, monkeypatch)
    assert list(folder.rglob("snapshot-*.db")) and not list(folder.rglob("000001-*.seg"))
    b = Replica(tmp_path, "desktop")
    monkeypatch.setattr(apply.Applier, "apply_change", counted)
    b.sync(folder)
    monkeypatch.setattr(apply.Applier, "apply_change", real)
    assert max(sizes) <= 3 and len(sizes) > 10  # never the whole snapshot at once
    assert synced_hash(a.graph) == synced_hash(b.graph)
    chain = b.graph.db.execute(
        "SELECT o.content, s.content FROM observations o JOIN observations s ON s.id = o.superseded_by "
        "ORDER BY o.content").fetchall()
    assert chain == [("note 0", "note 0, corrected"), ("note 0, corrected", "note 0, corrected again")]
    a.close()
    b.close()


def test_a_snapshot_stopped_midway_leaves_nothing_and_applies_whole_next_time(tmp_path, monkeypatch):
    a, folder = _snapshot_published(tmp_path, monkeypatch)
    b = Replica(tmp_path, "desktop")
    real, calls = apply.Applier.apply_change, [0]

    def failing(self, change):
        calls[0] += 1
        if calls[0] == 4:
            raise SyncError("stopped")
        return real(self, change)

    monkeypatch.setattr(apply.Applier, "apply_change", failing)
    with pytest.raises(SyncError):
        b.sync(folder)
    db = b.graph.db
    assert db.scalar("SELECT count(*) FROM entities") == 0
    assert db.scalar("SELECT count(*) FROM sync_stamp") == 0 and db.scalar("SELECT count(*) FROM sync_applied") == 0
    monkeypatch.setattr(apply.Applier, "apply_change", real)
    settle([a, b], folder)
    assert synced_hash(a.graph) == synced_hash(b.graph)
    a.close()
    b.close()


def test_a_folder_holding_only_a_snapshot_lets_a_new_device_start(tmp_path, monkeypatch):
    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 1)
    folder = tmp_path / "folder"
    folder.mkdir()
    a = Replica(tmp_path, "laptop")
    _graph_with_history(a)
    a.sync(folder)  # its one segment, then a snapshot covering it: with no other device, compaction removes the segment
    assert not list(folder.rglob("*.seg")) and len(list(folder.rglob("snapshot-*.db"))) == 1
    b = Replica(tmp_path, "desktop")
    b.sync(folder)
    assert synced_hash(a.graph) == synced_hash(b.graph)
    assert b.graph.db.scalar("SELECT count(*) FROM entities") == 7
    a.close()
    b.close()


def test_a_device_started_from_a_snapshot_weighs_later_changes_by_each_field_s_own_time(tmp_path, monkeypatch):
    """The snapshot's per-field stamps come with its rows: not the snapshot's time stamped on every field,
    which made a change made elsewhere before the snapshot but arriving after it lose on that device alone."""
    from limbic.engine.sync import state

    now = [1_700_000_000_000]
    monkeypatch.setattr(state, "wall_clock", lambda: now[0])
    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 1)
    folder = tmp_path / "folder"
    folder.mkdir()
    a, c = Replica(tmp_path, "laptop"), Replica(tmp_path, "phone")
    a.graph.upsert_entity("Ada", "Person", ["likes tea"])
    settle([a, c], folder, rounds=1)
    now[0] += 60_000
    c.graph.set_entity_type("Ada", "Scientist")  # made on the phone, which then stays offline
    for i in range(3):  # the laptop goes on: snapshots later than the phone's change
        now[0] += 60_000
        a.graph.upsert_entity(f"E{i}", "T", [f"note {i}"])
        a.sync(folder)
    b = Replica(tmp_path, "desktop")
    b.sync(folder)
    assert b.graph.db.scalar("SELECT count(*) FROM entities") == 4  # it started from the laptop's snapshot
    now[0] += 60_000
    settle([a, b, c], folder)
    types = [r.graph.db.scalar("SELECT entity_type FROM entities WHERE name = 'Ada'") for r in (a, b, c)]
    assert types == ["Scientist"] * 3
    assert synced_hash(a.graph) == synced_hash(b.graph) == synced_hash(c.graph)
    for r in (a, b, c):
        r.close()


def test_a_snapshot_s_import_writes_each_field_s_stamp_once(tmp_path, monkeypatch):
    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 1)
    folder = tmp_path / "folder"
    folder.mkdir()
    a = Replica(tmp_path, "laptop")
    _graph_with_history(a)
    a.sync(folder)
    a.graph.upsert_entity("After", "T", ["one more"])
    a.sync(folder)
    b = Replica(tmp_path, "desktop")
    writes: dict[tuple[str, str], int] = {}

    def counted(cursor, sql, bindings):
        if sql.lstrip().upper().startswith("INSERT") and "sync_stamp" in sql and bindings:
            key = (bindings[0], bindings[1])
            writes[key] = writes.get(key, 0) + 1
        return True

    b.graph.db.conn.exec_trace = counted
    b.sync(folder)
    b.graph.db.conn.exec_trace = None
    assert synced_hash(a.graph) == synced_hash(b.graph)
    assert writes and max(writes.values()) == 1, [k for k, n in writes.items() if n > 1][:5]
    assert b.graph.db.scalar("SELECT count(*) FROM sync_stamp") == a.graph.db.scalar("SELECT count(*) FROM sync_stamp")
    a.close()
    b.close()


def test_a_snapshot_leaves_a_rows_own_value_kept_at_a_merge_as_it_was(tmp_path):
    db = Replica(tmp_path, "desk").graph.db
    own, later = "_was:created_at", "2026-01-02T00:00:00.000Z"
    db.execute("INSERT INTO sync_stamp(gid, field, stamp, device) VALUES ('g1', ?, '\"2026-01-01 10:00:00\"', '')", (own,))
    db.execute("INSERT INTO sync_stamp(gid, field, stamp, device) VALUES ('g1', 'content', '2026-01-01T00:00:00.000Z', 'a')")
    for field, value, device in ((own, '"2026-06-01 10:00:00"', ""), ("content", later, "b")):
        db.execute(snapshot._STAMP_SQL, ("g1", field, value, device, "", ""))
    assert db.scalar("SELECT stamp FROM sync_stamp WHERE gid = 'g1' AND field = ?", (own,)) == '"2026-01-01 10:00:00"'
    assert db.scalar("SELECT stamp FROM sync_stamp WHERE gid = 'g1' AND field = 'content'") == later  # stamps still weigh
