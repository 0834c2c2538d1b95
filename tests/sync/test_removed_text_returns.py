"""What a device holds after meeting a removal, an edit and a snapshot in any order: the same rows and the same
conflicts as every other device.

- A text back for the edit its removal had not seen does not merge into a text of the same words that got them by
  an edit made since: an edit never makes two texts one, so in clock order both stand.
- A device starting again from a snapshot (its file restored from an older backup) drops a text the snapshot's
  device removed on its own, even where the entity was written after the removal: only a write to the text
  itself keeps it. It lists the conflicts the snapshot's device listed, and none with a value of its own
  that the snapshot's device had seen and replaced.
"""

from __future__ import annotations

from limbic.engine.graph.graph import Graph
from limbic.engine.history.valid import set_observation_validity
from limbic.engine.store.db import Database
from limbic.engine.sync import snapshot
from limbic.service import sync
from tests.sync.replicas import Replica, devices, next_second, settle, synced_rows


def _texts(replica: Replica) -> list[tuple[str, str]]:
    return sorted((r[0], r[1] or "") for r in replica.graph.db.execute(
        "SELECT content, valid_from FROM observations WHERE superseded_at IS NULL"))


def test_a_text_back_for_an_unseen_edit_stays_apart_from_one_edited_into_its_words(tmp_path):
    with devices(tmp_path, "laptop", "desktop") as ((a, b), folder):
        a.graph.upsert_entity("Ada", "Person", ["one", "two"])
        settle([a, b], folder)
        one = a.graph.db.scalar("SELECT id FROM observations WHERE content = 'one'")
        two = a.graph.db.scalar("SELECT id FROM observations WHERE content = 'two'")
        next_second()
        a.graph.delete_observation(one)
        next_second()
        b_one = b.graph.db.scalar("SELECT id FROM observations WHERE content = 'one'")
        set_observation_validity(b.graph, b_one, "2020-01-01", None)  # the desktop never saw the removal
        next_second()
        a.graph.edit_observation(two, "one")  # after the removal, the laptop's other text takes its words
        a.sync(folder)
        b.sync(folder)  # the removal meets the desktop's edit here first: the text stays
        a.sync(folder)  # the edit reaches the laptop after its own rename of the other text
        settle([a, b], folder)
        for r in (a, b):
            assert _texts(r) == [("one", ""), ("one", "2020-01-01")], r.device.name
        assert synced_rows(a.graph) == synced_rows(b.graph)
        listed = [sorted(c.rule.startswith("deleted") for c in sync.list_conflicts(r.graph)) for r in (a, b)]
        assert listed == [[True], [True]]  # the removal against the edit, on both


def test_a_restored_file_drops_a_text_removed_on_its_own_though_its_entity_was_written_after(tmp_path, monkeypatch):
    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 1)  # a snapshot at every exchange: compaction runs at once
    with devices(tmp_path, "laptop", "desktop") as ((a, b), folder):
        a.graph.upsert_entity("Ada", "Person", ["one", "two"])
        settle([a, b], folder)
        backup = b.path.with_name("desktop-backup.db")
        b.graph.db.execute("VACUUM INTO ?", (str(backup),))
        next_second()
        a.graph.delete_observation(a.graph.db.scalar("SELECT id FROM observations WHERE content = 'one'"))
        next_second()
        a.graph.add_observations("Ada", ["three"])  # the entity written after the text's removal
        settle([a, b], folder)  # the desktop applies both; the laptop's segments are compacted away
        b.close()  # what `limbic restore` does: the older file, which holds "one" again, put back
        for suffix in ("-wal", "-shm"):
            b.path.with_name(b.path.name + suffix).unlink(missing_ok=True)
        b.path.write_bytes(backup.read_bytes())
        b.graph = Graph(Database(b.path))
        settle([a, b], folder)
        for r in (a, b):
            assert _texts(r) == [("three", ""), ("two", "")], r.device.name
        assert synced_rows(a.graph) == synced_rows(b.graph)


def test_a_device_starting_from_a_snapshot_lists_the_conflicts_the_changes_it_covers_met(tmp_path, monkeypatch):
    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 1)
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        a.graph.upsert_entity("Ada", "Person", ["one"])
        settle([a, b], folder)
        a.graph.set_entity_type("Ada", "Friend")
        a.graph.set_status("Ada", "paused")
        next_second()
        b.graph.set_entity_type("Ada", "Colleague")  # both made without seeing the laptop's
        b.graph.set_status("Ada", "done")
        settle([a, b], folder)
        met = sync.list_conflicts(a.graph)
        assert len(met) == 2
        sync.resolve_conflict(a.graph, met[0].id, "theirs")  # one settled, one left open
        b.graph.upsert_entity("Bob", "Person", ["two"])
        settle([a, b], folder)  # every segment applied everywhere: compaction leaves only the snapshots
        c.sync(folder)  # the tablet starts from a snapshot: it never applies the changes that met
        keys = [sorted((r[0], r[1] is not None) for r in x.graph.db.execute(
            "SELECT key, resolved_at FROM sync_conflicts")) for x in (a, b, c)]
        assert keys[0] and keys[0] == keys[1] == keys[2]


def test_a_restored_file_starting_from_a_snapshot_meets_no_conflict_with_what_the_snapshot_had_seen(tmp_path, monkeypatch):
    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 1)
    with devices(tmp_path, "laptop", "desktop") as ((a, b), folder):
        a.graph.upsert_entity("Ada", "Person", ["one"])
        settle([a, b], folder)
        backup = a.path.with_name("laptop-backup.db")
        a.graph.db.execute("VACUUM INTO ?", (str(backup),))
        next_second()
        b.graph.set_entity_type("Ada", "Friend")  # the desktop had seen the laptop's "Person"
        settle([a, b], folder)  # the laptop applies it; the desktop's segments are compacted away
        a.close()
        for suffix in ("-wal", "-shm"):
            a.path.with_name(a.path.name + suffix).unlink(missing_ok=True)
        a.path.write_bytes(backup.read_bytes())  # the older file, which holds "Person" again
        a.graph = Graph(Database(a.path))
        settle([a, b], folder)  # it starts again from the desktop's snapshot
        for r in (a, b):
            assert r.graph.get_entity("Ada").entity_type == "Friend", r.device.name
            assert sync.list_conflicts(r.graph) == [], r.device.name
        assert synced_rows(a.graph) == synced_rows(b.graph)
