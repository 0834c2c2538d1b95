"""A device that starts from a snapshot ends equal to the others, deletions included: a graph file restored
from an older backup, or a device whose folder was removed and that comes back, no longer keeps the entities
deleted in the segments compaction removed."""

from __future__ import annotations

import shutil

import pytest

from limbic.engine.sync import snapshot
from tests.sync.replicas import Replica, settle, synced_hash


@pytest.fixture(autouse=True)
def often(monkeypatch):
    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 2)


def _names(replica) -> list[str]:
    return sorted(n for (n,) in replica.graph.db.execute("SELECT name FROM entities"))


def _three(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    a, c = Replica(tmp_path, "a"), Replica(tmp_path, "c")
    for i in range(6):
        a.graph.upsert_entity(f"E{i}", "T", [f"note {i}"])
    settle([a, c], folder)
    return folder, a, c


def _delete_and_compact(a, c, folder) -> None:
    for i in range(3):
        a.graph.delete_entity(f"E{i}")
        settle([a, c], folder)  # c applies them, so compaction may remove a's segments
    for i in range(4):
        a.graph.add_observations("E5", [f"later {i}"])
        settle([a, c], folder)
    own = next((folder / "Limbic").glob(f"*/{a.device.id}"))
    assert list(own.glob("snapshot-*.db"))
    assert not any(int(p.name[:6]) <= 4 for p in own.glob("*.seg"))  # the deletions' segments are gone


def _restored_after_deletions(tmp_path):
    """Device c's graph backed up, then entities deleted on a and compacted away, then c's backup restored."""
    folder, a, c = _three(tmp_path)
    c.close()
    shutil.copyfile(c.path, tmp_path / "c-backup.db")  # the backup, taken before the deletions
    c = Replica(tmp_path, "c")
    _delete_and_compact(a, c, folder)
    c.close()
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"c.db{suffix}").unlink(missing_ok=True)
    shutil.copyfile(tmp_path / "c-backup.db", c.path)  # what `limbic restore` does
    return folder, a, Replica(tmp_path, "c")


def test_a_graph_restored_from_an_older_backup_drops_what_was_deleted_since(tmp_path):
    folder, a, c = _restored_after_deletions(tmp_path)
    try:
        assert "E0" in _names(c)
        settle([a, c], folder)
        assert _names(c) == _names(a) == ["E3", "E4", "E5"]
        assert synced_hash(a.graph) == synced_hash(c.graph)
    finally:
        a.close()
        c.close()


def test_an_edit_made_on_the_restored_graph_before_it_synced_keeps_its_entity_with_a_conflict(tmp_path):
    folder, a, c = _restored_after_deletions(tmp_path)
    try:
        c.graph.add_observations("E1", ["written on the restored file"])  # never seen by the deletion
        settle([a, c], folder)
        assert "E1" in _names(c) and "E1" in _names(a)
        assert _names(c) == _names(a)
        assert c.graph.db.scalar("SELECT count(*) FROM sync_conflicts WHERE resolved_at IS NULL") >= 1
    finally:
        a.close()
        c.close()
