"""A change met below changes already applied is put in its place: the device takes back what came after it and
applies everything again in clock order, in one transaction (``sync/rebase.py``). Where it cannot (a change of
its own in the way, below what is kept, a graph changed as the record does not foresee) the rules decide."""

from __future__ import annotations

import json
import random

import pytest

from limbic.engine import check
from limbic.engine.sync import pulling, rebase
from tests.sync.replicas import devices, next_second, synced_hash, synced_rows
from tests.sync.test_property import WRITES, _in_clock_order, _open_conflicts, _write


@pytest.fixture
def takes(monkeypatch):
    """How many times a device took back changes it had applied, and how many times it could not."""
    counts = {"taken": 0, "refused": 0}
    real = rebase.take_back

    def counted(db, rows):
        try:
            out = real(db, rows)
        except rebase.CannotTakeBack:
            counts["refused"] += 1
            raise
        counts["taken"] += 1
        return out

    monkeypatch.setattr(rebase, "take_back", counted)
    return counts


def _late(a, b, c, folder):
    """The desktop's Bob is made first and published last; the tablet meets the laptop's Ada first."""
    for r in (a, b, c):
        r.sync(folder)
    b.graph.upsert_entity("Bob", "Person", ["one"])
    next_second()
    a.graph.upsert_entity("Ada", "Person", ["two"])
    a.graph.add_relation("Ada", "Ada", "self")
    a.sync(folder)
    c.sync(folder)  # Ada
    next_second()
    b.sync(folder)  # Bob, below Ada in clock order


def _texts(r) -> list[str]:
    return [t for (t,) in r.graph.db.execute("SELECT content FROM observations ORDER BY id")]


def test_a_late_change_is_put_in_its_place(tmp_path, takes):
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        _late(a, b, c, folder)
        result = c.sync(folder)
        assert takes == {"taken": 1, "refused": 0}
        assert result.received == 1 and result.received_segments == 1  # what was taken back is not counted again
        assert _texts(c) == ["one", "two"]  # numbered as one machine making them in clock order numbers them
        applied = [o for (o,) in c.graph.db.execute("SELECT origin FROM change_log WHERE origin LIKE 'sync:%' ORDER BY id")]
        assert applied == ["sync:desktop", "sync:laptop"]  # the activity log in clock order, no change twice
        assert c.graph.db.scalar("SELECT count(*) FROM history WHERE kind = 'entity'") == 2
        # The full-text rows follow: one for each entity as it is now, none for an id taken back.
        ids = [i for (i,) in c.graph.db.execute("SELECT id FROM entities ORDER BY id")]
        assert [i for (i,) in c.graph.db.execute("SELECT rowid FROM entity_fts ORDER BY rowid")] == ids
        assert check.check_graph(c.graph.db).consistent
        a.sync(folder)
        b.sync(folder)
        assert synced_hash(a.graph) == synced_hash(b.graph) == synced_hash(c.graph)


def test_a_rebase_stopped_midway_leaves_the_graph_as_it_was(tmp_path, takes, monkeypatch):
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        _late(a, b, c, folder)
        before = synced_rows(c.graph, updated=True), c.graph.db.scalar("SELECT max(id) FROM change_log")

        def stop(device, seq):
            if device == a.device.id:  # the laptop's segment, applied again after the desktop's
                raise KeyboardInterrupt

        monkeypatch.setattr(pulling, "between_apply_and_cursor", stop)
        with pytest.raises(KeyboardInterrupt):
            c.sync(folder)
        assert (synced_rows(c.graph, updated=True), c.graph.db.scalar("SELECT max(id) FROM change_log")) == before
        assert c.graph.db.scalar("SELECT count(*) FROM sync_replay") == 1  # still ready to be taken back
        monkeypatch.setattr(pulling, "between_apply_and_cursor", None)
        c.sync(folder)
        assert _texts(c) == ["one", "two"]


def test_changes_marked_reviewed_are_still_put_in_their_place(tmp_path, takes):
    """Marking the Activity panel's changes reviewed is not a change and keeps no record: the changes applied since
    are taken back all the same (their marks go with them), and come back unread, applied again."""
    from limbic.engine.graph.activity_log import mark_reviewed

    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        _late(a, b, c, folder)
        assert mark_reviewed(c.graph.db, everything=True) > 0
        c.sync(folder)
        assert takes == {"taken": 1, "refused": 0}
        assert _texts(c) == ["one", "two"]
        unread = [o for (o,) in c.graph.db.execute("SELECT origin FROM change_log WHERE reviewed_at IS NULL")]
        assert unread == ["sync:desktop", "sync:laptop"]


def test_a_published_change_of_its_own_is_taken_back_and_applied_again_in_its_place(tmp_path, takes):
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        _late(a, b, c, folder)
        c.graph.upsert_entity("Cy", "Person", ["mine"])  # the tablet writes after meeting Ada, before Bob arrives
        c.sync(folder)  # publishes Cy (above Ada), then meets Bob, below both
        assert takes == {"taken": 1, "refused": 0}
        assert _texts(c) == ["one", "two", "mine"]  # numbered as one machine making them in clock order numbers them
        origins = [o for (o,) in c.graph.db.execute(
            "SELECT origin FROM change_log cl WHERE EXISTS (SELECT 1 FROM change_item ci WHERE ci.change_id = cl.id "
            "AND ci.kind = 'entity' AND json_extract(ci.after, '$.name') = 'Cy')")]
        assert origins == ["sync:=tablet"]  # applied again under this device's name, marked as its own
        kept = [json.loads(s) for (s,) in c.graph.db.execute("SELECT steps FROM sync_replay")]
        devices_kept = [step[1] for steps in kept for step in steps]
        assert [d for i, d in enumerate(devices_kept) if d not in devices_kept[:i]] == [b.device.id, a.device.id, c.device.id]
        for r in (a, b, c, a, b):
            r.sync(folder)
        assert synced_hash(a.graph) == synced_hash(b.graph) == synced_hash(c.graph)
        assert "Cy" in {n for (n,) in a.graph.db.execute("SELECT name FROM entities")}


def test_a_graph_changed_where_the_record_does_not_foresee_is_left_to_the_rules(tmp_path, takes):
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        _late(a, b, c, folder)
        with c.graph.db.transaction():  # a write no log saw: the row is not what the record says it left
            c.graph.db.execute("UPDATE entities SET revision = revision + 5 WHERE name = 'Ada'")
        c.sync(folder)
        assert takes == {"taken": 0, "refused": 1}
        assert sorted(n for (n,) in c.graph.db.execute("SELECT name FROM entities")) == ["Ada", "Bob"]
        assert c.graph.db.scalar("SELECT revision FROM entities WHERE name = 'Ada'") >= 5  # nothing half taken back


def test_a_change_later_than_what_is_kept_is_left_to_the_rules(tmp_path, takes, monkeypatch):
    monkeypatch.setattr(rebase, "KEEP", 1)
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        for r in (a, b, c):
            r.sync(folder)
        b.graph.upsert_entity("Bob", "Person", ["one"])
        next_second()
        a.graph.upsert_entity("Ada", "Person", ["two"])
        a.sync(folder)
        c.sync(folder)
        a.graph.upsert_entity("Cy", "Person", ["three"])
        a.sync(folder)
        c.sync(folder)  # only the last group is kept now: Ada's can no longer be taken back
        b.sync(folder)
        c.sync(folder)
        assert takes["taken"] == 0
        assert _texts(c) == ["two", "three", "one"]


@pytest.mark.parametrize("seed", range(8))
def test_a_device_that_only_receives_ends_as_the_clock_order_whatever_it_meets_first(tmp_path, takes, seed):
    """Two devices write at random (the same names, texts, edits, deletions, renames, relations) and exchange at
    random; a third only receives, at random moments (and meets at least one change late). Every late change
    is put in its place, so the third device holds what one graph given every change in clock order holds,
    conflicts included."""
    rng = random.Random(seed)
    with devices(tmp_path, "alpha", "beta", "gamma") as ((a, b, c), folder):
        for _ in range(24):
            who = rng.choice((a, b))
            _write(who, rng.choice([*WRITES, "delete"]), rng.randrange(4), rng.randrange(4))
            if rng.random() < 0.3:
                next_second()
            if rng.random() < 0.4:
                who.sync(folder)
            if rng.random() < 0.3:
                c.sync(folder)
        b.graph.upsert_entity("Late", "Person", ["made before the last of alpha's"])
        next_second()
        a.graph.upsert_entity("Later", "Person", ["made after beta's last"])
        a.sync(folder)
        c.sync(folder)
        b.sync(folder)  # beta's last change, below alpha's last in clock order, reaches gamma after it
        c.sync(folder)
        for _ in range(3):
            for r in (a, b, c):
                r.sync(folder)
        graph_id = c.graph.db.get_meta("graph_id")
        oracle = _in_clock_order(tmp_path, folder, graph_id)
        try:
            assert synced_hash(c.graph) == synced_hash(oracle.graph)
            assert [k[0] for k in _open_conflicts(c)] == [k[0] for k in _open_conflicts(oracle)]
        finally:
            oracle.close()
        assert takes["taken"] >= 1 and takes["refused"] == 0
        assert check.check_graph(c.graph.db).consistent


def test_a_late_change_in_the_middle_of_a_segment_takes_back_only_the_records_after_it(tmp_path, takes, monkeypatch):
    """A segment is recorded a few changes at a time (``pulling.CHUNK``), so taking its rows holds the engine
    thread briefly; a change whose place lies inside it takes back only the records after that place."""
    monkeypatch.setattr(pulling, "CHUNK", 2)
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        for r in (a, b, c):
            r.sync(folder)
        for i in range(3):
            a.graph.upsert_entity(f"Early {i}", "Topic", [f"early {i}"])
        next_second()
        b.graph.upsert_entity("Between", "Topic", ["between"])
        next_second()
        for i in range(4):
            a.graph.upsert_entity(f"Late {i}", "Topic", [f"late {i}"])
        a.sync(folder)  # one segment of seven changes
        c.sync(folder)
        records = c.graph.db.scalar("SELECT count(*) FROM sync_replay")
        assert records >= 3
        b.sync(folder)  # the desktop meets the laptop's early texts below its own Between: it takes that back
        assert takes == {"taken": 1, "refused": 0}
        assert _texts(b) == ["early 0", "early 1", "early 2", "between", "late 0", "late 1", "late 2", "late 3"]
        c.sync(folder)
        assert takes == {"taken": 2, "refused": 0}
        assert c.graph.db.scalar("SELECT count(*) FROM sync_replay") < records + 2  # the early records stayed
        assert _texts(c) == ["early 0", "early 1", "early 2", "between", "late 0", "late 1", "late 2", "late 3"]
        # Every item of the log belongs to a change of the log: nothing of a record taken back is left behind.
        assert c.graph.db.scalar("SELECT count(*) FROM change_item WHERE change_id NOT IN (SELECT id FROM change_log)") == 0
        assert check.check_graph(c.graph.db).consistent
        oracle = _in_clock_order(tmp_path, folder, c.graph.db.get_meta("graph_id"))
        try:
            assert synced_hash(c.graph) == synced_hash(oracle.graph)
        finally:
            oracle.close()


@pytest.mark.parametrize(("written", "rebased"), [("bob", False), ("Dee", True)])
def test_a_write_of_another_program_just_before_the_rebase(tmp_path, takes, monkeypatch, written, rebased):
    """Whether a change of this device's own lies in the way is looked at again inside the rebase's transaction:
    another program on the same file (``limbic mcp``) may write between the first look and that transaction. A
    write to the late change's entity (its name, in another case) is in the way: the rules decide; one to an
    entity neither the late change nor those taken back touch is not: the rebase goes on around it."""
    from limbic.engine.graph.graph import Graph
    from limbic.engine.store.db import Database

    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        _late(a, b, c, folder)
        real, looks = rebase.above, []

        def above(db, low, late=None):
            looks.append(low)
            out = real(db, low, late)
            if len(looks) == 1:  # after the first look, outside the transaction, the other program writes
                other = Graph(Database(c.graph.db.path))
                try:
                    other.upsert_entity(written, "Person", ["written by an assistant"])
                finally:
                    other.db.close()
            return out

        monkeypatch.setattr(rebase, "above", above)
        c.sync(folder)
        assert len(looks) == 2 and takes["taken"] == int(rebased)
        names = sorted(n.casefold() for (n,) in c.graph.db.execute("SELECT name FROM entities"))
        assert names == ["ada", "bob", *(["dee"] if rebased else [])]  # "bob" and Bob are one entity
        texts = sorted(t for (t,) in c.graph.db.execute("SELECT o.content FROM observations o JOIN entities e "
                                                        "ON e.id = o.entity_id WHERE e.name = ? COLLATE NOCASE", ("Bob",)))
        assert texts == (["one"] if rebased else ["one", "written by an assistant"])
        for r in (a, b, c, a, b):
            r.sync(folder)
        assert synced_hash(a.graph) == synced_hash(b.graph) == synced_hash(c.graph)


def test_a_write_between_two_of_its_own_is_weighed_where_it_lies(tmp_path, takes):
    """The laptop types Ada *Tea* and then back to *Person*, publishing each; the tablet's *Chess*, made before both
    and published after, reaches the laptop below its own two writes. In clock order *Tea* replaced *Chess* unseen
    and *Person* replaced *Tea* knowingly: every device lists the one conflict, *Chess*/*Tea* (by the rules the
    laptop listed *Person*/*Chess* besides, and the two values of the other the wrong way round)."""
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        a.graph.upsert_entity("Ada", "Person", ["one"])
        for r in (a, b, c):
            r.sync(folder)
        c.graph.set_entity_type("Ada", "Chess")
        next_second()
        a.graph.set_entity_type("Ada", "Tea")
        a.sync(folder)
        next_second()
        a.graph.set_entity_type("Ada", "Person")
        a.sync(folder)
        c.sync(folder)  # publishes Chess, below both of the laptop's writes
        a.sync(folder)  # meets it below its own two
        assert takes["taken"] >= 1
        for r in (b, c, a, b):
            r.sync(folder)
        listed = {r.device.name: [(k, kept, lost) for k, _, _, _, kept, lost in _open_conflicts(r)] for r in (a, b, c)}
        assert all(len(v) == 1 and {v[0][1], v[0][2]} == {'"Chess"', '"Tea"'} for v in listed.values()), listed
        assert len({tuple(k for k, *_ in v) for v in listed.values()}) == 1, listed
        assert {r.graph.db.scalar("SELECT entity_type FROM entities WHERE name = 'Ada'") for r in (a, b, c)} == {"Person"}
        oracle = _in_clock_order(tmp_path, folder, a.graph.db.get_meta("graph_id"))
        try:
            assert synced_hash(oracle.graph) == synced_hash(a.graph)
            assert [k for k, *_ in _open_conflicts(oracle)] == [k for k, *_ in _open_conflicts(a)]
        finally:
            oracle.close()
