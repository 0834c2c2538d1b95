"""Scenarios aimed at the edges of the newest sync rules: every device ends with the same rows and lists the same
open conflicts, whatever order three devices meet the changes in, and no file planted in the folder can crash
or blind an exchange.

- A relation removed with its entity and kept because that deletion gave way is knowingly removed by its device
  only where nothing was written to it that its device had not seen: a write to the relation made elsewhere
  before the removal still keeps the relation's other end.
- A snapshot's conflict rows are read as the folder gives them: one of the wrong shape is passed over, the
  snapshot still starts the device, and the device can list and settle its conflicts afterwards.
- A deletion that holds closes the "delete again?" it answers, and only that: one that gives way leaves it open.
- A graph file put back from a backup is known for one by its device's snapshot too, once compaction has left
  nothing else of its device in the folder: it goes on under a new id, gets back what its old id published, and
  its new writes reach every device.
"""

from __future__ import annotations

import itertools
import json

import apsw
import pytest

from limbic.engine.graph.graph import Graph
from limbic.engine.history.valid import set_relation_validity
from limbic.engine.store.db import Database
from limbic.engine.sync import snapshot
from limbic.service import sync as service_sync
from tests.sync.replicas import Replica, devices, folder_seal, next_second, settle, synced_rows

ORDERS = ["".join(p) for p in itertools.permutations("abc")]


def _open_keys(r: Replica) -> list[str]:
    return sorted(k for (k,) in r.graph.db.execute("SELECT key FROM sync_conflicts WHERE resolved_at IS NULL"))


def _names(r: Replica) -> list[str]:
    return sorted(n for (n,) in r.graph.db.execute("SELECT name FROM entities"))


# -- a relation kept by a deletion that gave way ---------------------------------------------------------------


def _bob_knows_ada_written_on_two(a, b, c, folder) -> None:
    """Alpha's Ada, Bob and Bob → Ada on all three; then gamma dates the relation and beta writes about Ada,
    each a second apart, neither seen by alpha."""
    a.graph.upsert_entity("Ada", "Person", ["tea"])
    a.graph.upsert_entity("Bob", "Person", ["chess"])
    a.graph.add_relation("Bob", "Ada", "knows")
    settle([a, b, c], folder)
    next_second()
    set_relation_validity(c.graph, "Bob", "Ada", "knows", "2020-01-01")
    next_second()
    b.graph.add_observations("Ada", ["likes rain"])
    next_second()


@pytest.mark.parametrize("order", ORDERS)
def test_a_relation_written_elsewhere_before_its_removal_keeps_its_other_end_alike(tmp_path, order):
    """Gamma gives the relation Bob → Ada a valid time; alpha, not knowing, deletes Ada (the relation goes with
    her) and then Bob. Alpha never saw gamma's write to the relation, so neither deletion saw all of what they
    removed: every device ends with the same entities and relations, in every order of exchange."""
    with devices(tmp_path, "alpha", "beta", "gamma") as ((a, b, c), folder):
        _bob_knows_ada_written_on_two(a, b, c, folder)
        a.graph.delete_entity("Ada")
        a.graph.delete_entity("Bob")
        for key in order:
            {"a": a, "b": b, "c": c}[key].sync(folder)
        settle([a, b, c], folder)
        ends = {r.device.name: (tuple(_names(r)), r.graph.db.scalar("SELECT count(*) FROM relations")) for r in (a, b, c)}
        assert len(set(ends.values())) == 1, (order, ends)
        assert synced_rows(a.graph) == synced_rows(b.graph) == synced_rows(c.graph), order
        assert _open_keys(a) == _open_keys(b) == _open_keys(c), order


def test_an_older_write_to_a_kept_relation_arriving_between_the_two_deletions_keeps_its_other_end(tmp_path):
    """Beta meets Ada's deletion (which gives way to its own write), then gamma's older write to the relation,
    then Bob's deletion: the relation holds a write alpha never saw, though stamped before its removal."""
    with devices(tmp_path, "alpha", "beta", "gamma") as ((a, b, c), folder):
        _bob_knows_ada_written_on_two(a, b, c, folder)
        a.graph.delete_entity("Ada")
        a.sync(folder)
        b.sync(folder)  # Ada's deletion gives way to beta's text: the relation stays, removed by alpha
        next_second()
        a.graph.delete_entity("Bob")
        a.sync(folder)
        c.sync(folder)
        b.sync(folder)  # gamma's write to the relation, older than both deletions, then Bob's deletion
        settle([a, b, c], folder)
        for r in (a, b, c):
            assert _names(r) == ["Ada", "Bob"], r.device.name
            assert r.graph.db.scalar("SELECT valid_from FROM relations") == "2020-01-01", r.device.name
        assert synced_rows(a.graph) == synced_rows(b.graph) == synced_rows(c.graph)
        assert _open_keys(a) == _open_keys(b) == _open_keys(c)


@pytest.mark.parametrize("order", ORDERS)
def test_a_relation_written_elsewhere_after_its_removal_keeps_its_other_end_alike(tmp_path, order):
    """As above, with gamma's write to the relation made after alpha's deletions (a later stamp)."""
    with devices(tmp_path, "alpha", "beta", "gamma") as ((a, b, c), folder):
        a.graph.upsert_entity("Ada", "Person", ["tea"])
        a.graph.upsert_entity("Bob", "Person", ["chess"])
        a.graph.add_relation("Bob", "Ada", "knows")
        settle([a, b, c], folder)
        next_second()
        b.graph.add_observations("Ada", ["likes rain"])
        next_second()
        a.graph.delete_entity("Ada")
        a.graph.delete_entity("Bob")
        next_second()
        set_relation_validity(c.graph, "Bob", "Ada", "knows", "2020-01-01")
        for key in order:
            {"a": a, "b": b, "c": c}[key].sync(folder)
        settle([a, b, c], folder)
        for r in (a, b, c):  # the write to the relation came after both deletions: it keeps Bob, and Ada
            assert _names(r) == ["Ada", "Bob"], (order, r.device.name)
            assert r.graph.db.scalar("SELECT count(*) FROM relations") == 1, (order, r.device.name)
        assert synced_rows(a.graph) == synced_rows(b.graph) == synced_rows(c.graph), order
        assert _open_keys(a) == _open_keys(b) == _open_keys(c), order


# -- a snapshot's conflict rows, planted ----------------------------------------------------------------------


def _plant_snapshot(a: Replica, folder, tmp_path, edit) -> object:
    """A copy of alpha's graph, changed by ``edit`` (an apsw connection), planted as the only file of a device
    the others never heard of: a device meeting it starts from it."""
    import hashlib

    raw = tmp_path / "raw.db"
    a.graph.db.execute("VACUUM INTO ?", (str(raw),))
    conn = apsw.Connection(str(raw))
    conn.execute("INSERT INTO sync_applied(device, seq) VALUES ('feedfacefeedface', 5)")
    edit(conn)
    conn.close()
    graph_dir = next((folder / "Limbic").iterdir())
    directory = graph_dir / "feedfacefeedface"
    directory.mkdir()
    data = raw.read_bytes()
    seal = folder_seal(next(p for p in graph_dir.iterdir() if p.is_dir() and p != directory))
    if seal is not None:
        data = seal.seal(data, "snapshot", directory.name, 5)
    path = directory / f"snapshot-000005-{hashlib.sha256(data).hexdigest()[:16]}.db"
    path.write_bytes(data)
    return path


_COLUMNS = ("kind", "gid", "entity_gid", "field", "rule", "kept", "lost", "kept_device", "lost_device",
            "kept_stamp", "lost_stamp", "mine_kept", "at", "resolved_at", "resolution", "key")
_GOOD = {"kind": "entity", "field": "type", "rule": "field", "kept": json.dumps("Friend"),
         "lost": json.dumps("Person"), "kept_device": "feedfacefeedface", "lost_device": "0123456789abcdef",
         "kept_stamp": "", "lost_stamp": "", "mine_kept": 1, "at": "2026-01-01T00:00:00Z", "resolved_at": None,
         "resolution": None}

ODD = {
    "a value that is no JSON": {"kept": "{not json"},
    "a value that is a number": {"lost": 7},
    "a value that is bytes": {"kept": b"\xff\x00"},
    "no device": {"kept_device": None},
    "a device that is a number": {"lost_device": 42},
    "a side that is text": {"mine_kept": "yes"},
    "no time": {"at": None},
    "a stamp that is no stamp": {"kept_stamp": None},
    "a resolution that is a number": {"resolved_at": 3, "resolution": 9},
    "a value nested past any depth": {"kept": "[" * 100_000 + "]" * 100_000},
    "a kind that is no table": {"kind": "bogus"},
    "an alias's entity that is a list": {"kind": "alias", "field": "entity", "kept": "[1, 2]"},
}


@pytest.mark.parametrize("odd", list(ODD.values()), ids=list(ODD))
def test_a_planted_snapshot_with_an_odd_conflict_row_still_starts_a_device(tmp_path, odd):
    with devices(tmp_path, "alpha", "beta") as ((a, b), folder):
        a.graph.upsert_entity("Ada", "Person", ["tea"])
        a.sync(folder)
        gid = a.graph.db.scalar("SELECT gid FROM entities")

        def edit(conn):
            conn.execute("DROP TABLE sync_conflicts")  # no column types: each value stays as planted
            conn.execute(f"CREATE TABLE sync_conflicts(id INTEGER PRIMARY KEY, {', '.join(_COLUMNS)})")
            rows = [{**_GOOD, "gid": gid, "entity_gid": gid, "key": "good"},
                    {**_GOOD, "gid": gid, "entity_gid": gid, "key": "odd", "kept": json.dumps("Rival"), **odd}]
            for row in rows:
                conn.execute(f"INSERT INTO sync_conflicts({', '.join(_COLUMNS)}) VALUES "
                             f"({', '.join('?' * len(_COLUMNS))})", tuple(row[k] for k in _COLUMNS))

        path = _plant_snapshot(a, folder, tmp_path, edit)
        result = b.sync(folder)
        assert not any(s.path == path for s in result.skipped), result.skipped
        assert b.graph.entity_id("Ada") is not None  # it started from the snapshot
        listed = service_sync.list_conflicts(b.graph)  # the listing reads every row kept
        assert [(c.mine, c.theirs) for c in listed] == [("Friend", "Person")]
        assert service_sync.list_conflicts(b.graph, resolved=True) == listed
        service_sync.resolve_conflict(b.graph, listed[0].id, "theirs")
        settle([a, b], folder)
        assert service_sync.list_conflicts(b.graph) == []


# -- a deletion that holds answers an open "delete again?" ------------------------------------------------------


def _deleted_elsewhere_first(a, b, c, folder):
    a.graph.set_entity_type("Bob", "Tea")
    next_second()
    b.graph.delete_entity("Bob")  # after the change, not knowing of it
    next_second()
    a.graph.delete_entity("Bob")  # after its own change, not knowing of beta's deletion: it holds


def _deleted_elsewhere_before_the_change(a, b, c, folder):
    b.graph.delete_entity("Bob")
    next_second()
    a.graph.set_entity_type("Bob", "Tea")  # not knowing of beta's deletion
    a.graph.delete_entity("Bob")


def _changed_on_a_third_after_both(a, b, c, folder):
    a.graph.set_entity_type("Bob", "Tea")
    a.graph.delete_entity("Bob")
    next_second()
    b.graph.delete_entity("Bob")
    next_second()
    c.graph.add_observations("Bob", ["plays go"])  # neither deletion saw it: Bob stays, and both ask


def _changed_on_a_third_between(a, b, c, folder):
    b.graph.delete_entity("Bob")
    next_second()
    c.graph.add_observations("Bob", ["plays go"])  # after beta's deletion, not knowing of it
    next_second()
    a.graph.set_entity_type("Bob", "Tea")
    a.graph.delete_entity("Bob")  # saw neither: it gives way to gamma's text too


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("scenario, alive", [
    (_deleted_elsewhere_first, False),
    (_deleted_elsewhere_before_the_change, False),
    (_changed_on_a_third_after_both, True),
    (_changed_on_a_third_between, True),
], ids=lambda v: v.__name__.strip("_") if callable(v) else None)
def test_a_deletion_that_holds_or_gives_way_leaves_the_same_questions_open(tmp_path, scenario, alive, order):
    with devices(tmp_path, "alpha", "beta", "gamma") as ((a, b, c), folder):
        a.graph.upsert_entity("Bob", "Person", ["chess"])
        settle([a, b, c], folder)
        next_second()
        scenario(a, b, c, folder)
        for key in order:
            {"a": a, "b": b, "c": c}[key].sync(folder)
        settle([a, b, c], folder)
        for r in (a, b, c):
            assert (r.graph.entity_id("Bob") is not None) == alive, (order, r.device.name)
        assert synced_rows(a.graph) == synced_rows(b.graph) == synced_rows(c.graph), order
        assert _open_keys(a) == _open_keys(b) == _open_keys(c), order
        assert bool(_open_keys(a)) == alive, order  # kept: each deletion that gave way asks; gone: none does


def test_a_keep_chosen_before_a_holding_deletion_arrives_leaves_nothing_open(tmp_path):
    """Gamma lists beta's deletion against alpha's change and keeps Bob; alpha, which saw its change and
    nothing of the choice (which writes nothing), deletes Bob after: that deletion holds everywhere."""
    with devices(tmp_path, "alpha", "beta", "gamma") as ((a, b, c), folder):
        a.graph.upsert_entity("Bob", "Person", ["chess"])
        settle([a, b, c], folder)
        next_second()
        b.graph.delete_entity("Bob")
        next_second()
        a.graph.set_entity_type("Bob", "Tea")  # not knowing of beta's deletion
        a.sync(folder)
        b.sync(folder)
        c.sync(folder)
        (asked,) = service_sync.list_conflicts(c.graph)
        assert asked.deleter is not None
        service_sync.resolve_conflict(c.graph, asked.id, "mine" if asked.deleter == "theirs" else "theirs")
        next_second()
        a.graph.delete_entity("Bob")  # before hearing of beta's deletion or gamma's choice
        a.sync(folder)
        settle([a, b, c], folder)
        for r in (a, b, c):
            assert r.graph.entity_id("Bob") is None, r.device.name
            assert service_sync.list_conflicts(r.graph) == [], r.device.name
        assert synced_rows(a.graph) == synced_rows(b.graph) == synced_rows(c.graph)


# -- a device starting again from a snapshot ----------------------------------------------------------------------


def _restore(r: Replica, backup) -> None:
    """What `limbic restore` does: the older file put back in place of the graph."""
    r.close()
    for suffix in ("-wal", "-shm"):
        r.path.with_name(r.path.name + suffix).unlink(missing_ok=True)
    r.path.write_bytes(backup.read_bytes())
    r.graph = Graph(Database(r.path))


def test_a_device_restored_over_a_conflict_of_two_others_lists_it_as_they_do(tmp_path, monkeypatch):
    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 1)
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        a.graph.upsert_entity("Ada", "Person", ["one"])
        settle([a, b, c], folder)
        backup = c.path.with_name("tablet-backup.db")
        c.graph.db.execute("VACUUM INTO ?", (str(backup),))
        next_second()
        a.graph.set_entity_type("Ada", "Friend")
        b.graph.set_entity_type("Ada", "Colleague")  # not knowing of the laptop's
        next_second()
        c.graph.add_observations("Ada", ["two"])
        settle([a, b, c], folder)  # every segment applied everywhere: compaction leaves the snapshots
        _restore(c, backup)  # the tablet's folder holds only its snapshot: it published "two" after the backup
        settle([a, b, c], folder)
        c.graph.add_observations("Ada", ["three"])  # under a new id: the others had applied the old one's first
        settle([a, b, c], folder)
        for r in (a, b, c):
            texts = sorted(t for (t,) in r.graph.db.execute("SELECT content FROM observations"))
            assert texts == ["one", "three", "two"], r.device.name
        assert synced_rows(a.graph) == synced_rows(b.graph) == synced_rows(c.graph)
        assert len(_open_keys(a)) == 1 and _open_keys(a) == _open_keys(b) == _open_keys(c)


def test_a_write_made_on_a_restored_file_before_it_syncs_reaches_every_device(tmp_path, monkeypatch):
    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 1)
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        a.graph.upsert_entity("Ada", "Person", ["one"])
        settle([a, b, c], folder)
        next_second()
        c.graph.add_observations("Ada", ["two"])
        backup = c.path.with_name("tablet-backup.db")
        c.graph.db.execute("VACUUM INTO ?", (str(backup),))
        settle([a, b, c], folder)
        _restore(c, backup)
        next_second()
        c.graph.add_observations("Ada", ["three"])  # on the file put back, before its first exchange
        settle([a, b, c], folder)
        for r in (a, b, c):
            texts = sorted(t for (t,) in r.graph.db.execute("SELECT content FROM observations"))
            assert texts == ["one", "three", "two"], r.device.name
        assert synced_rows(a.graph) == synced_rows(b.graph) == synced_rows(c.graph)


@pytest.mark.xfail(strict=True, reason=(
    "still listed apart: the file put back holds the tablet's Tea unpublished, which the old id published since; "
    "under its new id the tablet publishes it again, so Chess from the laptop's snapshot replaces a value of a "
    "device it had not seen, a conflict on the tablet alone (the graphs are equal). Which changes of the file the "
    "old id published is not known once its segments are compacted (its change ids go on differently in each "
    "file), and taking every waiting change as published would drop writes made on the file after it was put back"))
def test_a_device_restored_from_before_it_published_a_change_does_not_publish_it_again(tmp_path, monkeypatch):
    """The backup holds the tablet's Tea not yet published; the tablet published it, the laptop replaced it
    knowingly with Chess. Put back, the file's Tea is no new write: Chess stays, and nothing is in conflict."""
    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 1)
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        a.graph.upsert_entity("Ada", "Person", ["one"])
        settle([a, b, c], folder)
        next_second()
        c.graph.set_entity_type("Ada", "Tea")
        backup = c.path.with_name("tablet-backup.db")
        c.graph.db.execute("VACUUM INTO ?", (str(backup),))
        settle([a, b, c], folder)
        next_second()
        a.graph.set_entity_type("Ada", "Chess")  # it saw the tablet's Tea
        settle([a, b, c], folder)
        _restore(c, backup)
        settle([a, b, c], folder)
        for r in (a, b, c):
            assert r.graph.get_entity("Ada").entity_type == "Chess", r.device.name
            assert _open_keys(r) == [], r.device.name
        assert synced_rows(a.graph) == synced_rows(b.graph) == synced_rows(c.graph)


# -- segments of several devices met in one exchange ----------------------------------------------------------


def test_interleaved_segments_of_two_devices_met_at_once_end_as_met_one_by_one(tmp_path):
    """Alpha's and beta's segments interleave in clock order (alpha, beta, alpha, beta), neither seeing the other's:
    gamma, meeting all four in one exchange, ends with the rows and the open conflicts of delta, which met them
    one at a time in clock order."""
    with devices(tmp_path, "alpha", "beta", "gamma", "delta") as ((a, b, c, d), folder):
        a.graph.upsert_entity("Ada", "Person", ["one"])
        settle([a, b, c, d], folder)
        for who, kind in ((a, "Tea"), (b, "Chess"), (a, "Rain"), (b, "Snow")):
            next_second()
            who.graph.set_entity_type("Ada", kind)
            who.graph.add_observations("Ada", [f"{kind} from {who.device.name}"])
            who.sync(folder)
            d.sync(folder)  # one segment at a time
        c.sync(folder)  # all four at once
        assert c.graph.get_entity("Ada").entity_type == d.graph.get_entity("Ada").entity_type == "Snow"
        assert synced_rows(c.graph) == synced_rows(d.graph)
        assert _open_keys(c) == _open_keys(d) and len(_open_keys(c)) == 3  # Tea, Chess and Rain each lost unseen
        settle([a, b, c, d], folder)
        assert synced_rows(a.graph) == synced_rows(b.graph) == synced_rows(c.graph) == synced_rows(d.graph)
        assert _open_keys(a) == _open_keys(b) == _open_keys(c) == _open_keys(d)


# -- a first publish that carries values changed since the row was made ---------------------------------------


@pytest.mark.parametrize("order", ORDERS)
def test_a_type_and_a_text_changed_before_a_first_publish_are_listed_alike(tmp_path, order):
    """Beta's Ada, retyped and with its text edited before beta first joins: its publish carries Tea and the edited
    text, made without seeing alpha's older Ada. Every device lists the same conflicts, beta too."""
    with devices(tmp_path, "alpha", "beta", "gamma") as ((a, b, c), folder):
        c.sync(folder)
        next_second()  # both made in one second: one creation time, no conflict over it
        a.graph.upsert_entity("Ada", "Person", ["tea from alpha"])
        a.sync(folder)
        b.graph.upsert_entity("Ada", "Person", ["tea from beta"])
        b.graph.set_entity_type("Ada", "Tea")
        b.graph.edit_observation(b.graph.db.scalar("SELECT id FROM observations"), "tea edited on beta")
        for key in order:
            {"a": a, "b": b, "c": c}[key].sync(folder)
        settle([a, b, c], folder)
        assert synced_rows(a.graph) == synced_rows(b.graph) == synced_rows(c.graph), order
        assert _open_keys(a) == _open_keys(b) == _open_keys(c), order
        assert [x.field for x in service_sync.list_conflicts(b.graph)] == ["type"], order


# -- a removed text back beside a text of its words --------------------------------------------------------------


@pytest.mark.parametrize("order", ORDERS)
def test_a_removed_text_back_beside_the_same_words_said_again_ends_alike(tmp_path, order):
    """Alpha removes "one"; beta, not knowing, gives it a valid time (it comes back); gamma, knowing of the removal
    only, says "one" again: a new text, not an edit. Every device ends with the same texts and conflicts: gamma,
    whose own text lies above the valid time in clock order, takes its own write back and applies it again after
    the valid time, as the others do (own.py), where the rules listed the conflicts with its own text's values."""
    from limbic.engine.history.valid import set_observation_validity

    with devices(tmp_path, "alpha", "beta", "gamma") as ((a, b, c), folder):
        a.graph.upsert_entity("Ada", "Person", ["one", "two"])
        settle([a, b, c], folder)
        next_second()
        a.graph.delete_observation(a.graph.db.scalar("SELECT id FROM observations WHERE content = 'one'"))
        a.sync(folder)
        c.sync(folder)
        next_second()
        set_observation_validity(b.graph, b.graph.db.scalar("SELECT id FROM observations WHERE content = 'one'"),
                                 "2020-01-01", None)
        next_second()
        c.graph.add_observations("Ada", ["one"])
        for key in order:
            {"a": a, "b": b, "c": c}[key].sync(folder)
        settle([a, b, c], folder)
        assert synced_rows(a.graph) == synced_rows(b.graph) == synced_rows(c.graph), order
        assert _open_keys(a) == _open_keys(b) == _open_keys(c), order
        assert b.graph.db.scalar("SELECT count(*) FROM observations WHERE content = 'one'") >= 1


def test_a_file_planted_as_a_snapshot_in_a_devices_own_folder_does_not_make_it_a_restore(tmp_path):
    """Only a snapshot of its own that opens says a device published more than its file knows: a file planted
    under a snapshot's name in its folder is no reason to go on under a new id."""
    import hashlib

    with devices(tmp_path, "alpha", "beta") as ((a, b), folder):
        a.graph.upsert_entity("Ada", "Person", ["tea"])
        settle([a, b], folder)
        own = next((folder / "Limbic").iterdir()) / a.device.id
        data = b"SQLite format 3\x00" + b"\x00" * 100
        (own / f"snapshot-000099-{hashlib.sha256(data).hexdigest()[:16]}.db").write_bytes(data)
        before = a.device.id
        result = a.sync(folder)
        assert a.device.id == before and result.device_note is None
        a.graph.add_observations("Ada", ["rain"])
        settle([a, b], folder)
        assert synced_rows(a.graph) == synced_rows(b.graph)
