"""What a device publishes: its own changes once, stamped by a clock that never goes back, never pruned unpublished."""

from __future__ import annotations

import json

from limbic.engine.graph.graph import Graph
from limbic.engine.store import changes
from limbic.engine.store.db import Database
from limbic.engine.sync import capture, exchange, folder as files, state
from limbic.service import sync as service_sync
from tests.sync.replicas import Replica, segment_text


def _segments(folder, replica):
    out = []
    for path in sorted((folder / "Limbic").glob(f"*/{replica.device.id}/*.seg")):
        pairing = service_sync.folder_pairing(folder, path.parent.parent.name)
        out.append(files.read_segment(replica.device.id, int(path.name[:6]), path, pairing and pairing.sealer))
    return out


def test_pruning_never_drops_a_change_not_yet_published(tmp_path, monkeypatch):
    folder = tmp_path / "f"
    folder.mkdir()
    a = Replica(tmp_path, "a")
    a.graph.upsert_entity("Start")
    a.sync(folder)  # joined: from now on every change must reach the folder
    monkeypatch.setattr(changes, "KEEP_ROWS", 2)
    monkeypatch.setattr(changes, "PRUNE_EVERY", 1)
    monkeypatch.setattr(changes, "keep_days", lambda db: -1)  # every row is past the retention
    for i in range(8):
        a.graph.upsert_entity(f"E{i}")
    assert a.graph.db.scalar("SELECT count(*) FROM change_log WHERE origin = 'app'") >= 8  # all kept
    a.sync(folder)
    a.graph.upsert_entity("Later")  # the next prune may drop what was published
    assert a.graph.db.scalar("SELECT count(*) FROM change_log") <= 3
    published = [i["a"]["name"] for s in _segments(folder, a) for c in s.changes for i in c["items"] if i["k"] == "entity"]
    assert published == ["Start", *(f"E{i}" for i in range(8))]


def test_each_change_is_published_once_with_increasing_stamps_even_when_the_clock_jumps_back(tmp_path, monkeypatch):
    folder = tmp_path / "f"
    folder.mkdir()
    a = Replica(tmp_path, "a")
    a.graph.upsert_entity("One")
    a.sync(folder)
    monkeypatch.setattr(capture, "_ms", lambda at: 1_000)  # the clock jumps back to 1970
    a.graph.upsert_entity("Two")
    a.graph.upsert_entity("Three")
    assert a.sync(folder).sent == 2
    assert a.sync(folder).sent == 0
    stamps = [c["stamp"] for s in _segments(folder, a) for c in s.changes]
    assert len(stamps) == 3 and stamps == sorted(stamps) and len(set(stamps)) == 3


def test_changes_applied_from_another_device_are_not_published_again(tmp_path):
    folder = tmp_path / "f"
    folder.mkdir()
    a, b = Replica(tmp_path, "a"), Replica(tmp_path, "b")
    a.graph.upsert_entity("Ada", "Person", ["one"])
    a.sync(folder)
    assert b.sync(folder).received == 1
    assert b.sync(folder).sent == 0
    assert b.graph.db.scalar("SELECT origin FROM change_log ORDER BY id DESC LIMIT 1") == "sync:a"


def test_a_segment_is_named_by_its_sequence_and_checksum_and_holds_global_ids_only(tmp_path):
    folder = tmp_path / "f"
    folder.mkdir()
    a = Replica(tmp_path, "a")
    a.graph.upsert_entity("Ada", "Person", ["one"])
    a.graph.upsert_entity("Bob")
    a.sync(folder)
    a.graph.add_relation("Ada", "Bob", "knows")
    a.sync(folder)
    paths = sorted((folder / "Limbic").glob(f"*/{a.device.id}/*.seg"))
    assert [p.name.split("-")[0] for p in paths] == ["000001", "000002"]
    text = segment_text(paths[1])
    header, change = (json.loads(line) for line in text.splitlines())
    assert header["seq"] == 2 and header["device"] == a.device.id
    (item,) = change["items"]
    gids = dict(a.graph.db.execute("SELECT name, gid FROM entities"))
    assert item["a"]["from"] == gids["Ada"] and item["a"]["to"] == gids["Bob"] and "from_name" not in item["a"]


def _power_cut(replica, before):
    """Bring back the file as it was on disk before the last commits (nothing but SQLite had it open)."""
    replica.close()
    replica.path.write_bytes(before.read_bytes())
    for suffix in ("-wal", "-shm"):
        replica.path.with_name(replica.path.name + suffix).unlink(missing_ok=True)
    replica.graph = Graph(Database(replica.path))


def test_segments_whose_publish_commit_was_lost_are_taken_back_not_sent_again(tmp_path, monkeypatch):
    # A publish's commit is not flushed to disk at once: the segment is. After a power cut the file may
    # not know it wrote its last segments; the next exchange takes them back as this device's own.
    folder = tmp_path / "f"
    folder.mkdir()
    a, b = Replica(tmp_path, "a"), Replica(tmp_path, "b")
    a.graph.upsert_entity("Ada", "Person", ["one"])
    a.sync(folder)
    a.graph.add_observations("Ada", ["two"])
    a.graph.add_observations("Ada", ["three"])
    before = tmp_path / "before.db"
    a.graph.db.execute("VACUUM INTO ?", (str(before),))
    monkeypatch.setattr(exchange, "MAX_CHANGES_PER_SEGMENT", 1)  # two segments, two commits lost
    assert a.sync(folder).sent_segments == 2
    clock = state.clock(a.graph.db)
    _power_cut(a, before)
    assert state.clock(a.graph.db) < clock and a.graph.db.get_meta(state.SEQ_KEY) == "1"
    device = a.device.id
    result = a.sync(folder)
    assert result.device.id == device and result.device_note is None and result.sent == 0
    assert state.clock(a.graph.db) == clock and a.graph.db.get_meta(state.SEQ_KEY) == "3"
    a.graph.add_observations("Ada", ["four"])
    assert a.sync(folder).sent == 1
    b.sync(folder)
    contents = [r[0] for r in b.graph.db.execute("SELECT content FROM observations ORDER BY content")]
    assert contents == ["four", "one", "three", "two"]  # each once
    assert [p.name[:6] for p in sorted((folder / "Limbic").glob(f"*/{device}/*.seg"))] == [
        "000001", "000002", "000003", "000004"]


def test_a_restored_file_whose_new_change_reuses_a_lost_change_number_is_a_new_device(tmp_path):
    # The same change number, second and origin as a published change of the lost file, but other rows:
    # not this file's segment, so the file goes on as a new device instead of taking it back.
    folder = tmp_path / "f"
    folder.mkdir()
    a = Replica(tmp_path, "a")
    a.graph.upsert_entity("Ada", "Person", ["one"])
    a.sync(folder)
    before = tmp_path / "before.db"
    a.graph.db.execute("VACUUM INTO ?", (str(before),))
    a.graph.add_observations("Ada", ["two"])
    a.sync(folder)
    lost = a.graph.db.one("SELECT id, at, origin FROM change_log ORDER BY id DESC LIMIT 1")
    _power_cut(a, before)
    a.graph.add_observations("Ada", ["other"])
    a.graph.db.execute("UPDATE change_log SET at = ?, origin = ? WHERE id = ?", (lost[1], lost[2], lost[0]))
    assert a.graph.db.scalar("SELECT max(id) FROM change_log") == lost[0]
    result = a.sync(folder)
    assert result.device_note and "new device" in result.device_note
    assert {r[0] for r in a.graph.db.execute("SELECT content FROM observations")} == {"one", "two", "other"}


def test_a_lost_publish_taken_back_remembers_the_deleted_entity_whose_name_a_creation_took(tmp_path):
    folder = tmp_path / "f"
    folder.mkdir()
    a = Replica(tmp_path, "a")
    a.graph.upsert_entity("Ada", "Person", ["one"])
    a.sync(folder)
    old = a.graph.db.scalar("SELECT gid FROM entities WHERE name = 'Ada'")
    a.graph.delete_entity("Ada")
    a.graph.upsert_entity("Ada", "Person", ["new"])
    new = a.graph.db.scalar("SELECT gid FROM entities WHERE name = 'Ada'")
    before = tmp_path / "before.db"
    a.graph.db.execute("VACUUM INTO ?", (str(before),))
    a.sync(folder)
    assert state.takers(a.graph.db, old) == [new]
    _power_cut(a, before)
    assert state.takers(a.graph.db, old) == []
    assert a.sync(folder).device_note is None
    assert state.takers(a.graph.db, old) == [new]
