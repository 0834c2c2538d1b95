"""The changes of segments met in one exchange apply one at a time in clock order, interleaved across devices,
while each segment still applies wholly or not at all with the record of its sequence (``sync/pulling.py``)."""

from __future__ import annotations

import pytest

from limbic.engine.sync import pulling
from tests.sync.replicas import devices, next_second, synced_hash
from tests.sync.test_hostile_folder import _lines, _plant


@pytest.fixture
def interleaved(tmp_path):
    """The laptop's one segment holds a write before and one after the desktop's only one."""
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        yield _write(a, b, c, folder)


def _write(a, b, c, folder):
    for r in (a, b, c):
        r.sync(folder)  # joined, with nothing yet: the next changes are stamped when made
    a.graph.upsert_entity("Ada", "Person", ["one"])
    next_second()
    b.graph.upsert_entity("Bob", "Person", ["two"])
    b.sync(folder)  # the desktop's segment, which the laptop has not met when it writes next
    next_second()
    a.graph.upsert_entity("Cy", "Person", ["three"])
    a.sync(folder)  # one segment: Ada, then Cy; the desktop's is applied after it is published
    return a, b, c, folder


def test_a_third_device_applies_two_devices_changes_one_at_a_time_in_clock_order(interleaved):
    a, b, c, folder = interleaved
    segments = list((folder / "Limbic").rglob("*.seg"))
    assert len([p for p in segments if p.parent.name == a.device.id]) == 1  # both of its writes in one
    c.sync(folder)
    texts = [t for (t,) in c.graph.db.execute("SELECT content FROM observations ORDER BY id")]
    assert texts == ["one", "two", "three"]  # numbered here in the order they were made
    applied = [origin for (origin,) in c.graph.db.execute(
        "SELECT origin FROM change_log WHERE origin LIKE 'sync:%' ORDER BY id")]
    # Each device's run is a change of its own in the activity log, under its name.
    assert applied == ["sync:laptop", "sync:desktop", "sync:laptop"]
    assert dict(c.graph.db.execute("SELECT device, seq FROM sync_applied")) == {a.device.id: 1, b.device.id: 1}
    a.sync(folder)
    b.sync(folder)
    assert synced_hash(a.graph) == synced_hash(b.graph) == synced_hash(c.graph)


def test_a_stop_inside_an_interleaved_group_leaves_none_of_its_segments(interleaved, monkeypatch):
    a, b, c, folder = interleaved
    def stop(device, seq):
        raise KeyboardInterrupt  # the process killed where the desktop's segment has ended, the laptop's not

    monkeypatch.setattr(pulling, "between_apply_and_cursor", stop)
    before = c.graph.db.scalar("SELECT count(*) FROM change_log")
    with pytest.raises(KeyboardInterrupt):
        c.sync(folder)
    assert c.graph.db.scalar("SELECT count(*) FROM entities") == 0
    assert c.graph.db.scalar("SELECT count(*) FROM sync_applied") == 0
    assert c.graph.db.scalar("SELECT count(*) FROM change_log") == before  # no change of a run stays logged
    monkeypatch.setattr(pulling, "between_apply_and_cursor", None)
    assert c.sync(folder).received_segments == 2
    assert sorted(n for (n,) in c.graph.db.execute("SELECT name FROM entities")) == ["Ada", "Bob", "Cy"]


def test_a_segment_that_cannot_apply_in_an_interleaved_group_is_set_aside_alone(interleaved):
    a, b, c, folder = interleaved
    graph_dir = next((folder / "Limbic").iterdir())
    mallory = "feedfacefeedface"
    fine = {"k": "entity", "op": "add", "gid": "e" * 32, "b": None, "a": {"name": "Planted", "type": "Person"}}
    odd = {"k": "entity", "op": "add", "gid": "f" * 32, "b": None, "a": {"name": "Odd", "status": "weird-status"}}
    # Its changes come before and after every real one: one group holds all three devices' segments.
    bad = _plant(graph_dir / mallory, 1, _lines(mallory, {"stamp": "1.0", "items": [fine]},
                                                {"stamp": "9999999999999.0", "items": [odd]}))
    result = c.sync(folder)
    assert any(s.path == bad and s.why.startswith("set aside") for s in result.skipped), result.skipped
    assert result.received_segments == 2
    assert sorted(n for (n,) in c.graph.db.execute("SELECT name FROM entities")) == ["Ada", "Bob", "Cy"]
    texts = [t for (t,) in c.graph.db.execute("SELECT content FROM observations ORDER BY id")]
    assert texts == ["one", "two", "three"]  # the others still in clock order


def test_a_held_deletion_in_an_interleaved_group_holds_back_only_its_device(tmp_path):
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        for i in range(12):
            a.graph.upsert_entity(f"E{i}")
        for r in (a, b, c, a, b, c):
            r.sync(folder)
        for i in range(11):
            a.graph.delete_entity(f"E{i}")  # most of the graph, at once: the fail-safe asks first
        next_second()
        b.graph.upsert_entity("Bob", "Person", ["two"])
        b.sync(folder)
        next_second()
        a.graph.delete_entity("E11")
        a.sync(folder)
        result = c.sync(folder)
        assert result.confirm_needed and "deleted 12 of this graph's 12 entities" in result.confirm_needed[0]
        assert c.graph.entity_id("Bob") is not None  # the desktop's segment is not held with the laptop's
        assert c.graph.db.scalar("SELECT count(*) FROM entities WHERE name LIKE 'E%'") == 12
        c.sync(folder, confirm=True)
        assert sorted(n for (n,) in c.graph.db.execute("SELECT name FROM entities")) == ["Bob"]
