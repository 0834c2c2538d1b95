"""What a device publishes: its own changes once, stamped by a clock that never goes back, never pruned unpublished."""

from __future__ import annotations

import json

from limbic.engine.store import changes
from limbic.engine.sync import capture, folder as files
from tests.sync.replicas import Replica


def _segments(folder, replica):
    out = []
    for path in sorted((folder / "Limbic").glob(f"*/{replica.device.id}/*.seg")):
        out.append(files.read_segment(replica.device.id, 0, path))
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
    text = paths[1].read_text()
    header, change = (json.loads(line) for line in text.splitlines())
    assert header["seq"] == 2 and header["device"] == a.device.id
    (item,) = change["items"]
    gids = dict(a.graph.db.execute("SELECT name, gid FROM entities"))
    assert item["a"]["from"] == gids["Ada"] and item["a"]["to"] == gids["Bob"] and "from_name" not in item["a"]
