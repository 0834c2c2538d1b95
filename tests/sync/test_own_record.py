"""This device's own writes kept for a rebase (engine/sync/own.py): what is recorded, when, and how much."""

from __future__ import annotations

import json

from limbic.engine.graph.activity_log import mark_reviewed
from limbic.engine.sync import own, rebase
from tests.sync.replicas import devices


def _records(r) -> list[tuple]:
    return r.graph.db.execute("SELECT low, high, steps, own FROM sync_replay ORDER BY id").fetchall()


def test_a_write_waits_above_every_stamp_until_it_is_published_then_holds_its_changes(tmp_path):
    with devices(tmp_path, "laptop", "desktop") as ((a, b), folder):
        a.sync(folder)
        a.graph.upsert_entity("Ada", "Person", ["likes tea"])
        [(low, high, steps, cids)] = _records(a)
        assert low == high == own.PENDING and json.loads(steps) == [] and len(json.loads(cids)) == 1
        a.sync(folder)
        write, publish = _records(a)
        assert write[3] is None and write[0] != own.PENDING and write[1] == publish[1]  # its place: the publish's
        published = json.loads(write[2])
        assert [step[1] for step in published] == [a.device.id]
        assert published[0][5]["items"][0]["a"]["name"] == "Ada"
        assert json.loads(publish[2]) == []  # the publish's own record: the stamps it set, no change to apply


def test_a_graph_not_syncing_records_nothing(tmp_path):
    with devices(tmp_path, "laptop") as ((a,), _folder):
        a.graph.upsert_entity("Ada", "Person", ["likes tea"])
        assert not a.graph.db.has_table("sync_replay")


def test_marking_changes_reviewed_records_nothing(tmp_path):
    with devices(tmp_path, "laptop") as ((a,), folder):
        a.graph.upsert_entity("Ada", "Person", ["likes tea"])
        a.sync(folder)
        before = len(_records(a))
        assert mark_reviewed(a.graph.db, everything=True) > 0
        assert len(_records(a)) == before


def test_what_is_kept_stays_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(rebase, "KEEP", 20)
    monkeypatch.setattr(own, "PRUNE_EVERY", 8)
    with devices(tmp_path, "laptop") as ((a,), folder):
        a.sync(folder)
        for i in range(100):
            a.graph.upsert_entity(f"Entity {i}", "Note", [f"text {i}"])
            if i % 10 == 9:
                a.sync(folder)
        kept = a.graph.db.scalar("SELECT sum(count) FROM sync_replay")
        assert kept <= 20 + 8 + 10  # the depth kept, what was written between two looks, one publish's worth
        floor = a.graph.db.get_meta(rebase.CUT_KEY)
        assert floor is not None and floor > "0000000000000000.0000000000"  # what was dropped can no longer be taken back


def test_a_record_that_cannot_be_made_never_stops_the_write(tmp_path, monkeypatch):
    """The person's write is kept; nothing seen so far can be taken back any more (the rules decide below it)."""
    from limbic.engine.sync import state

    with devices(tmp_path, "laptop") as ((a,), folder):
        a.sync(folder)
        before = len(_records(a))

        def broken(db):
            raise MemoryError("no room for the record")

        monkeypatch.setattr(own, "_record", broken)
        a.graph.upsert_entity("Ada", "Person", ["likes tea"])
        assert a.graph.entity_id("Ada") is not None  # written all the same
        assert len(_records(a)) == before
        assert a.graph.db.get_meta(rebase.CUT_KEY) == state.norm(a.graph.db.get_meta(state.HLC_KEY) or "0.0")


def test_looking_for_records_in_a_table_of_an_earlier_version_writes_nothing(tmp_path):
    """``above`` runs outside any write: a record table made by an earlier version (no ``own`` column) is read as
    it is, and the column is added by the next write, inside it."""
    with devices(tmp_path, "laptop") as ((a,), folder):
        a.sync(folder)
        a.graph.upsert_entity("Ada", "Person", ["likes tea"])
        a.sync(folder)
        db = a.graph.db
        with db.transaction():
            db.execute("ALTER TABLE sync_replay DROP COLUMN own")
        changes = db.conn.total_changes()
        kept = rebase.above(db, "0000000000000000.0000000000", [])
        assert kept is not None and all(k.own is None for k in kept)
        assert db.conn.total_changes() == changes
        assert "own" not in {r[1] for r in db.execute("PRAGMA table_info(sync_replay)")}
        a.graph.upsert_entity("Bob", "Person", ["likes chess"])  # the next write's record adds it
        assert "own" in {r[1] for r in db.execute("PRAGMA table_info(sync_replay)")}
