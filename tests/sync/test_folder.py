"""The folder as file-sync tools leave it: partial, duplicated, late, foreign files; newer schemas; big deletions."""

from __future__ import annotations

import json
import shutil

import pytest

from limbic.engine.store.graph_identity import ensure_graph_id
from limbic.engine.sync import folder as files, pulling
from limbic.engine.sync.exchange import SyncError
from tests.sync.replicas import settle, synced_hash, two_devices, folder_seal, segment_text


@pytest.fixture
def pair(tmp_path):
    with two_devices(tmp_path, settled=False) as devices:
        yield devices


def _own(folder, replica):
    (directory,) = (folder / "Limbic").glob(f"*/{replica.device.id}")
    return directory


def test_partial_and_tool_files_are_skipped_and_named_and_a_gap_waits(pair):
    a, b, folder = pair
    a.graph.upsert_entity("One")
    a.sync(folder)
    a.graph.upsert_entity("Two")
    a.sync(folder)
    a.graph.upsert_entity("Three")
    a.sync(folder)
    own = _own(folder, a)
    first, second, third = sorted(own.glob("*.seg"))
    hidden = own.parent / "elsewhere"
    hidden.mkdir()
    shutil.move(second, hidden / second.name)  # not arrived yet
    partial = own / "000004-0123456789abcdef.seg"
    partial.write_bytes(third.read_bytes()[:-5])  # still arriving under its final name
    for junk in (".syncthing.000002.seg.tmp", "~$000004.seg", "000004.seg.partial",
                 "000001-abc (conflicted copy).seg", "000001-abc.sync-conflict-20260101-000000-ABC.seg",
                 "000005-0123456789abcdef.seg.icloud"):
        (own / junk).write_text("x")
    result = b.sync(folder)
    assert [n for (n,) in b.graph.db.execute("SELECT name FROM entities")] == ["One"]
    assert any("waiting for segment 2" in w for w in result.waiting)
    whys = {s.path.name: s.why for s in result.skipped}
    assert "incomplete" in whys[partial.name]
    assert "conflicted copy" in whys["000001-abc (conflicted copy).seg"]
    assert "Syncthing" in whys[".syncthing.000002.seg.tmp"] and "placeholder" in whys["000005-0123456789abcdef.seg.icloud"]
    shutil.move(hidden / second.name, second)  # arrives late
    partial.unlink()
    assert b.sync(folder).received == 2
    assert b.sync(folder).received == 0
    assert sorted(n for (n,) in b.graph.db.execute("SELECT name FROM entities")) == ["One", "Three", "Two"]


def test_a_segment_delivered_twice_or_out_of_order_changes_nothing(pair):
    a, b, folder = pair
    for name in ("One", "Two", "Three"):
        a.graph.upsert_entity(name)
        a.sync(folder)
    own = _own(folder, a)
    segs = sorted(own.glob("*.seg"))
    stash = {p: p.read_bytes() for p in segs}
    for p in segs[:2]:
        p.unlink()
    assert b.sync(folder).received == 0  # 3 alone waits for 1 and 2
    for p, data in stash.items():
        p.write_bytes(data)
    assert b.sync(folder).received == 3
    (own / ("copy-" + segs[0].name)).write_bytes(stash[segs[0]])  # a stray duplicate
    assert b.sync(folder).received == 0
    assert synced_hash(a.graph) == synced_hash(b.graph)


def test_a_segment_of_a_newer_schema_stops_with_a_sentence_and_applies_nothing(pair):
    a, b, folder = pair
    a.graph.upsert_entity("One")
    a.sync(folder)
    a.graph.upsert_entity("Two")
    a.sync(folder)
    own = _own(folder, a)
    newest = sorted(own.glob("*.seg"))[-1]
    lines = segment_text(newest).splitlines()
    header = json.loads(lines[0])
    header["schema"] += 1
    newest.unlink()
    files.write_segment(own, header["seq"], header, [json.loads(x) for x in lines[1:]], folder_seal(own))
    with pytest.raises(SyncError, match="newer version of Limbic; update Limbic"):
        b.sync(folder)
    assert b.graph.db.scalar("SELECT count(*) FROM entities") == 0  # not even the older segment


def test_a_batch_deleting_much_of_the_graph_waits_for_confirmation(pair):
    a, b, folder = pair
    for i in range(20):
        a.graph.upsert_entity(f"E{i}")
    settle([a, b], folder)
    for i in range(12):
        a.graph.delete_entity(f"E{i}")
    a.sync(folder)
    result = b.sync(folder)
    assert result.confirm_needed and "deleted 12 of this graph's 20 entities" in result.confirm_needed[0]
    assert b.graph.db.scalar("SELECT count(*) FROM entities") == 20
    assert b.sync(folder, confirm=True).received == 12
    assert b.graph.db.scalar("SELECT count(*) FROM entities") == 8


def test_a_stop_between_the_graph_and_the_record_of_the_segment_leaves_nothing_half_applied(pair, monkeypatch):
    a, b, folder = pair
    a.graph.upsert_entity("Ada", "Person", ["one", "two"])
    a.sync(folder)

    def stop(device, seq):
        raise KeyboardInterrupt  # the process killed there

    monkeypatch.setattr(pulling, "between_apply_and_cursor", stop)
    with pytest.raises(KeyboardInterrupt):
        b.sync(folder)
    assert b.graph.db.scalar("SELECT count(*) FROM entities") == 0
    assert b.graph.db.scalar("SELECT count(*) FROM sync_applied") == 0
    monkeypatch.setattr(pulling, "between_apply_and_cursor", None)
    assert b.sync(folder).received == 1
    assert synced_hash(a.graph) == synced_hash(b.graph)


def test_joining_two_existing_graphs_merges_them_and_loses_nothing(pair):
    a, b, folder = pair
    a.graph.upsert_entity("Ada", "Person", ["from a"])
    a.graph.upsert_entity("Only A")
    b.graph.upsert_entity("Ada", "Person", ["from b"])
    b.graph.upsert_entity("Only B")
    b.graph.add_relation("Ada", "Only B", "knows")
    assert ensure_graph_id(a.graph.db) != ensure_graph_id(b.graph.db)
    settle([a, b], folder)
    assert a.graph.db.get_meta("graph_id") == b.graph.db.get_meta("graph_id")
    for r in (a, b):
        assert sorted(n for (n,) in r.graph.db.execute("SELECT name FROM entities")) == ["Ada", "Only A", "Only B"]
        ada = r.graph.entity_id("Ada")
        assert {t for (t,) in r.graph.db.execute("SELECT content FROM observations WHERE entity_id = ?", (ada,))} == {
            "from a", "from b"}
    assert synced_hash(a.graph) == synced_hash(b.graph)
    assert len(list((folder / "Limbic").iterdir())) == 1
