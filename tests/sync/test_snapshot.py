"""A new device starts from a snapshot once old segments were compacted; the folder does not grow forever."""

from __future__ import annotations

import pytest

from limbic.engine.sync import snapshot
from tests.sync.replicas import Replica, settle, synced_hash


@pytest.fixture(autouse=True)
def often(monkeypatch):
    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 2)


def test_compaction_keeps_what_a_device_has_not_applied_and_a_new_device_starts_from_the_snapshot(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    a, b = Replica(tmp_path, "a"), Replica(tmp_path, "b")
    b.graph.upsert_entity("From b")
    settle([a, b], folder)
    for i in range(6):
        a.graph.upsert_entity(f"E{i}", "T", [f"note {i}"])
        a.sync(folder)
    (own,) = (folder / "Limbic").glob(f"*/{a.device.id}")
    assert len(list(own.glob("*.seg"))) == 6  # b has not applied them: none may go
    settle([a, b], folder)
    a.graph.delete_entity("E0")
    a.graph.rename_entity("E1", "First")
    settle([a, b], folder)
    segments = sorted(p.name for p in own.glob("*.seg"))
    assert len(segments) < 6 and list(own.glob("snapshot-*.db"))
    c = Replica(tmp_path, "c")
    c.graph.upsert_entity("E2", "T", ["known on c too"])  # a device joining with a graph of its own
    settle([a, b, c], folder)
    assert synced_hash(a.graph) == synced_hash(b.graph) == synced_hash(c.graph)
    names = sorted(n for (n,) in c.graph.db.execute("SELECT name FROM entities"))
    assert names == ["E2", "E3", "E4", "E5", "First", "From b"]
    e2 = c.graph.entity_id("E2")
    assert {t for (t,) in c.graph.db.execute("SELECT content FROM observations WHERE entity_id = ?", (e2,))} == {
        "note 2", "known on c too"}


def test_the_folder_stays_small_over_many_exchanges(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    a, b = Replica(tmp_path, "a"), Replica(tmp_path, "b")
    for i in range(30):
        a.graph.upsert_entity(f"E{i % 5}", "T", [f"note {i}"])
        b.graph.upsert_entity(f"F{i % 5}", "T", [f"note {i}"])
        settle([a, b], folder, rounds=1)
    settle([a, b], folder)
    files = [p for p in (folder / "Limbic").rglob("*") if p.is_file()]
    assert len(files) < 12, sorted(p.name for p in files)
    assert synced_hash(a.graph) == synced_hash(b.graph)
