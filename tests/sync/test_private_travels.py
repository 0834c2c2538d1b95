"""An entity's private mark travels: made on one device it arrives on the others, through segments and snapshots,
is logged in words, and is taken back by a revert like any other change."""

from __future__ import annotations

import time

from limbic.engine.graph import activity_log, revert
from limbic.engine.sync import snapshot
from tests.sync.replicas import Replica, settle, synced_hash, two_devices


def _seed(graph):
    graph.upsert_entity("Clinic", "Health", ["blood test on Monday"])
    graph.upsert_entity("Ada", "Person", ["plays chess"])
    graph.add_relation("Ada", "Clinic", "visits")


def _private(replica, name: str) -> int:
    return replica.graph.db.scalar("SELECT private FROM entities WHERE name = ?", (name,))


def test_a_private_mark_made_on_one_device_arrives_on_the_other_and_back(tmp_path):
    with two_devices(tmp_path, _seed) as (a, b, folder):
        assert _private(b, "Clinic") == 0
        assert a.graph.set_private("Clinic", True)
        settle([a, b], folder)
        assert _private(b, "Clinic") == 1
        assert _private(b, "Ada") == 0
        b.graph.set_private("Clinic", False)
        settle([a, b], folder)
        assert _private(a, "Clinic") == 0
        assert synced_hash(a.graph) == synced_hash(b.graph)


def test_marked_on_both_sides_differently_settles_on_one_value(tmp_path):
    with two_devices(tmp_path, _seed) as (a, b, folder):
        a.graph.set_private("Clinic", True)
        b.graph.set_status("Clinic", "done")
        settle([a, b], folder)
        assert (_private(a, "Clinic"), _private(b, "Clinic")) == (1, 1)
        assert synced_hash(a.graph) == synced_hash(b.graph)


def test_a_new_device_gets_the_mark_from_a_snapshot(tmp_path, monkeypatch):
    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 2)
    folder = tmp_path / "folder"
    folder.mkdir()
    a = Replica(tmp_path, "laptop")
    _seed(a.graph)
    a.graph.set_private("Clinic", True)
    b = Replica(tmp_path, "desktop")
    settle([a, b], folder)
    assert _private(b, "Clinic") == 1
    for i in range(4):  # a snapshot is written and a's first segments compacted away
        a.graph.upsert_entity(f"E{i}", "T", [f"note {i}"])
        settle([a, b], folder, rounds=1)
    c = Replica(tmp_path, "phone")
    settle([a, b, c], folder)
    assert _private(c, "Clinic") == 1
    for r in (a, b, c):
        r.close()


def test_a_private_mark_is_logged_in_words_and_taken_back_by_a_revert(tmp_path):
    a = Replica(tmp_path, "laptop")
    try:
        _seed(a.graph)
        assert not a.graph.set_private("Ada", False)  # nothing to change: nothing logged
        a.graph.set_private("Clinic", True)
        last = a.graph.db.scalar("SELECT max(id) FROM change_log")
        assert [c.summary for c in activity_log.load_changes(a.graph.db, [last])] == ["marked “Clinic” private"]
        revert.apply(a.graph, [last])
        assert _private(a, "Clinic") == 0
    finally:
        a.close()


def _scope(replica, client: str):
    from limbic.engine.store import scopes

    found = scopes.get(replica.graph.db, client)
    return None if found is None else (found.read, found.write)


def test_an_assistants_scope_travels_and_the_later_choice_wins_everywhere(tmp_path):
    from limbic.engine.sync.scope_travel import set_scope

    with two_devices(tmp_path, _seed) as (a, b, folder):
        set_scope(a.graph.db, "claude-code", ["Decision", "Session"], "none")
        set_scope(a.graph.db, "", "all", "none")  # the default for assistants not seen before
        settle([a, b], folder)
        assert _scope(b, "claude-code") == (("Decision", "Session"), "none")
        assert _scope(b, "") == ("all", "none")
        # Chosen on both before either heard of the other: the later one, on both.
        set_scope(b.graph.db, "claude-code", "all", "all")
        time.sleep(0.01)  # a later moment: stamps count milliseconds, and a fast disk writes both in one
        set_scope(a.graph.db, "claude-code", "none", "none")
        settle([a, b], folder)
        assert _scope(a, "claude-code") == _scope(b, "claude-code") == ("none", "none")


def test_a_new_device_gets_the_scopes_from_a_snapshot(tmp_path, monkeypatch):
    from limbic.engine.sync.scope_travel import set_scope

    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 2)
    folder = tmp_path / "folder"
    folder.mkdir()
    a = Replica(tmp_path, "laptop")
    _seed(a.graph)
    set_scope(a.graph.db, "work", ["Person"], "none")
    b = Replica(tmp_path, "desktop")
    settle([a, b], folder)
    for i in range(4):  # a snapshot is written and a's first segments compacted away
        a.graph.upsert_entity(f"E{i}", "T", [f"note {i}"])
        settle([a, b], folder, rounds=1)
    c = Replica(tmp_path, "phone")
    settle([a, b, c], folder)
    assert _scope(c, "work") == (("Person",), "none")
    for r in (a, b, c):
        r.close()


def test_a_scope_that_is_not_one_is_refused_whole():
    import pytest

    from limbic.engine.errors import ValidationError
    from limbic.engine.store.db import Database
    from limbic.engine.sync.scope_travel import receive

    db = Database(":memory:")
    good = {"client": "x", "read": "all", "write": "none", "at": "", "stamp": "1.1", "device": "d"}
    for bad in ({**good, "read": "everything"}, {**good, "client": 5}, {**good, "stamp": None}, "x"):
        with pytest.raises(ValidationError), db.transaction():
            receive(db, [good, bad])
        assert db.scalar("SELECT count(*) FROM assistant_scopes") == 0
