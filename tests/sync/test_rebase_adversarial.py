"""A late change put in its place (``sync/rebase.py``) against what else lives in the file: the person's usage
signals, pins, an assistant's reads and the vectors of an entity taken back and made again; a change that no longer
applies where it is applied again; another program writing during an exchange; a stop midway; the activity log and
its revert; choices of conflicts made here or met from another device; the kept depth; a start from a snapshot and
a file put back from a backup."""

from __future__ import annotations

import pytest

from limbic.engine import check
from limbic.engine.graph import signals
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.engine.sync import apply as sync_apply, pulling, rebase, snapshot
from limbic.service import activity, sync
from tests.sync.replicas import devices, next_second, synced_hash, synced_rows
from tests.sync.test_property import _in_clock_order, _open_conflicts
from tests.sync.test_rebase import _late, _texts, takes  # noqa: F401 - the fixture is used by name


def _ada_and_cy_then_bob_late(a, b, c, folder):
    """The desktop's Bob is made first and published last; the tablet meets the laptop's Ada and Cy first."""
    for r in (a, b, c):
        r.sync(folder)
    b.graph.upsert_entity("Bob", "Person", ["one"])
    next_second()
    a.graph.upsert_entity("Ada", "Person", ["two"])
    a.graph.upsert_entity("Cy", "Person", ["three"])
    a.sync(folder)
    c.sync(folder)  # Ada and Cy


def _usage(graph: Graph) -> dict:
    """The usage signals by entity name (what a search records), and any naming an entity that is not there."""
    db = graph.db
    named = dict(db.execute("SELECT id, name FROM entities").fetchall())
    access = {named.get(i, i): n
              for i, n, _ in db.execute("SELECT entity_id, access_count, last_access FROM entity_access")}
    days = {named.get(i, i): n
            for i, _, n in db.execute("SELECT entity_id, access_date, access_count FROM entity_access_log")}
    pairs = {tuple(sorted((named.get(x, x), named.get(y, y)), key=str)): n
             for x, y, n in db.execute("SELECT entity_a_id, entity_b_id, co_count FROM co_occurrences")}
    return {"access": access, "days": days, "pairs": pairs}


def _fts(graph: Graph) -> list[tuple[int, str]]:
    return sorted(graph.db.execute("SELECT rowid, name FROM entity_fts").fetchall())


def _entities(graph: Graph) -> list[tuple[int, str]]:
    return sorted(graph.db.execute("SELECT id, name FROM entities").fetchall())


def test_the_usage_of_an_entity_taken_back_and_made_again_stays_with_it(tmp_path, takes):
    """The person searched Ada and Cy (made by the laptop); Bob, made before them, arrives later: Ada and Cy
    are taken back and made again under other local ids, and what the person's searches recorded follows them."""
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        _ada_and_cy_then_bob_late(a, b, c, folder)
        assert signals.record_access(c.graph.db, [c.graph.entity_id("Ada"), c.graph.entity_id("Cy")])
        before = _usage(c.graph)
        assert before["access"] == {"Ada": 1, "Cy": 1} and before["pairs"] == {("Ada", "Cy"): 1}
        next_second()
        b.sync(folder)
        c.sync(folder)
        assert takes == {"taken": 1, "refused": 0}  # put in its place, not left to the rules
        assert _texts(c) == ["one", "two", "three"]
        assert _usage(c.graph) == before
        assert check.check_graph(c.graph.db).consistent


def test_vectors_and_full_text_follow_the_entities_made_again(tmp_path, takes, embedder):
    """With a model, every entity has a vector and embedding state; taking Ada and Cy back (their ids now Bob's
    and Ada's) leaves each entity's full-text row and vector its own, and none for an id no entity holds."""
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        c.graph.attach_embedder(embedder)
        _ada_and_cy_then_bob_late(a, b, c, folder)
        assert c.graph.db.scalar("SELECT count(*) FROM embedding_state") == 2
        next_second()
        b.sync(folder)
        c.sync(folder)
        assert takes == {"taken": 1, "refused": 0}
        ids = [i for i, _ in _entities(c.graph)]
        assert _fts(c.graph) == _entities(c.graph)
        assert [i for (i,) in c.graph.db.execute("SELECT entity_id FROM embedding_state ORDER BY 1")] == ids
        assert c.graph.pending_embeddings() == 0
        hits = c.graph.db.execute("SELECT rowid FROM entity_fts WHERE entity_fts MATCH 'three'").fetchall()
        assert hits == [(c.graph.entity_id("Cy"),)]
        assert check.check_graph(c.graph.db).consistent


def test_a_change_that_fails_where_it_is_applied_again_leaves_the_late_change_to_the_rules(tmp_path, takes,
                                                                                          monkeypatch):
    """A change applied before, taken back, that cannot apply after the late one (whatever a file makes the apply
    meet): nothing is set aside of a segment applied long ago, the sync does not stop, the late change applies by
    the rules."""
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        _late(a, b, c, folder)
        real = sync_apply.Applier.apply_change

        def picky(self, change):
            if self.remote == a.device.id and self.graph.entity_id("Bob") is not None:
                raise ValueError("not after Bob")
            return real(self, change)

        monkeypatch.setattr(sync_apply.Applier, "apply_change", picky)
        result = c.sync(folder)
        assert result.skipped == [] and result.waiting == []
        assert result.received == 1
        assert takes["taken"] == 1  # taken back, then given up: the transaction rolled back whole
        assert _texts(c) == ["two", "one"]  # by the rules, where it arrived
        assert check.check_graph(c.graph.db).consistent


def _state(graph: Graph) -> dict:
    db = graph.db
    out = {"rows": synced_rows(graph, updated=True)}
    for table in ("sync_replay", "sync_applied", "change_log", "change_item", "history", "sync_stamp", "sync_conflicts",
                  "activity_session", "entity_fts"):
        out[table] = sorted(map(tuple, db.execute(f"SELECT * FROM {table}").fetchall()), key=repr)
    for schema in ("sqlite_master", "sqlite_temp_master"):
        rows = db.execute(f"SELECT type, name, tbl_name, sql FROM {schema}").fetchall()
        out[schema] = sorted(map(tuple, rows), key=repr)
    out["meta"] = sorted(db.execute("SELECT key, value FROM meta WHERE key LIKE 'sync_replay%'").fetchall())
    return out


def test_a_stop_while_applying_again_leaves_every_table_and_trigger_as_it_was(tmp_path, takes, monkeypatch):
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        _ada_and_cy_then_bob_late(a, b, c, folder)
        next_second()
        b.sync(folder)
        before = _state(c.graph)
        assert before["sqlite_master"] and any(row[0] == "trigger" for row in before["sqlite_master"])

        def stop(device, seq):
            if device == a.device.id:
                raise RuntimeError("stopped")

        monkeypatch.setattr(pulling, "between_apply_and_cursor", stop)
        with pytest.raises(RuntimeError):
            c.sync(folder)
        assert _state(c.graph) == before
        monkeypatch.setattr(pulling, "between_apply_and_cursor", None)
        c.graph.upsert_entity("Dee", "Person", ["after the stop"])  # the triggers log a write as before
        assert c.graph.db.scalar("SELECT count(*) FROM change_log WHERE origin NOT LIKE 'sync:%'") == 1
        assert c.graph.db.scalar("SELECT count(*) FROM history WHERE kind = 'entity'") == 3


def test_another_program_writing_between_two_exchanges_is_never_taken_back(tmp_path, takes, monkeypatch):
    """``limbic mcp`` (another connection on the file) writes Dee after the tablet met Ada, during the exchange that
    brings Bob (after the tablet published): Dee stays; Dee touches neither Ada nor Bob, so Ada is taken back
    and Bob put in its place around it."""
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        for r in (a, b, c):
            r.sync(folder)
        b.graph.upsert_entity("Bob", "Person", ["one"])
        next_second()
        a.graph.upsert_entity("Ada", "Person", ["two"])
        a.sync(folder)
        c.sync(folder)
        next_second()
        b.sync(folder)
        other = Graph(Database(c.path))
        real = pulling.apply_queues

        def meanwhile(*args, **kwargs):
            other.upsert_entity("Dee", "Person", ["written by another program"])
            return real(*args, **kwargs)

        monkeypatch.setattr(pulling, "apply_queues", meanwhile)
        try:
            c.sync(folder)
        finally:
            other.db.close()
        assert takes == {"taken": 1, "refused": 0}
        assert sorted(_texts(c)) == ["one", "two", "written by another program"]
        monkeypatch.setattr(pulling, "apply_queues", real)
        for r in (c, a, b, c):
            r.sync(folder)
        assert synced_hash(a.graph) == synced_hash(b.graph) == synced_hash(c.graph)
        assert "Dee" in {n for (n,) in a.graph.db.execute("SELECT name FROM entities")}


def test_the_activity_log_after_a_rebase_shows_each_change_once_and_reverts_it(tmp_path, takes):
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        _ada_and_cy_then_bob_late(a, b, c, folder)
        next_second()
        b.sync(folder)
        c.sync(folder)
        assert takes["taken"] == 1
        panel = activity.panel_data(c.graph)
        shown = [(s.origin, ch.id) for s in panel.sessions for ch in s.changes]
        assert len(shown) == len(set(i for _, i in shown)) == 2  # the desktop's change and the laptop's, once each
        assert sorted(o for o, _ in shown) == ["sync:desktop", "sync:laptop"]
        laptop = next(i for o, i in shown if o == "sync:laptop")
        plan = activity.plan_revert(c.graph, [laptop])
        assert not any(p.conflict for p in plan.pieces)
        activity.revert_changes(c.graph, [laptop])
        assert sorted(n for (n,) in c.graph.db.execute("SELECT name FROM entities")) == ["Bob"]
        assert _fts(c.graph) == _entities(c.graph)
        for r in (c, a, b):
            r.sync(folder)
        assert synced_hash(a.graph) == synced_hash(b.graph) == synced_hash(c.graph)
        assert sorted(n for (n,) in a.graph.db.execute("SELECT name FROM entities")) == ["Bob"]


@pytest.mark.parametrize("keep", [1, 2, 3])
def test_a_small_kept_depth_never_takes_back_less_than_lies_above(tmp_path, takes, monkeypatch, keep):
    """However little is kept, a late change either goes in its place (the graph equal to the clock-order
    oracle's) or is left to the rules: never a take-back of part of what lies above it."""
    monkeypatch.setattr(rebase, "KEEP", keep)
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        for r in (a, b, c):
            r.sync(folder)
        b.graph.upsert_entity("Bob", "Person", ["one"])
        next_second()
        for name in ("Ada", "Cy", "Dee"):
            a.graph.upsert_entity(name, "Person", [name.lower()])
            a.sync(folder)
            c.sync(folder)
        b.sync(folder)
        c.sync(folder)
        texts = _texts(c)
        if takes["taken"]:
            assert texts == ["one", "ada", "cy", "dee"]
            oracle = _in_clock_order(tmp_path, folder, c.graph.db.get_meta("graph_id"))
            try:
                assert synced_hash(c.graph) == synced_hash(oracle.graph)
            finally:
                oracle.close()
        else:
            assert texts == ["ada", "cy", "dee", "one"]
        assert takes["taken"] == (keep >= 3)


def test_a_group_too_large_to_keep_is_never_taken_back(tmp_path, takes, monkeypatch):
    monkeypatch.setattr(rebase, "KEEP_ITEMS", 2)
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        for r in (a, b, c):
            r.sync(folder)
        b.graph.upsert_entity("Bob", "Person", ["one"])
        next_second()
        a.graph.upsert_entity("Ada", "Person", ["two", "three", "four"])
        a.sync(folder)
        c.sync(folder)
        assert not c.graph.db.has_table("sync_replay") or not c.graph.db.scalar("SELECT count(*) FROM sync_replay")
        b.sync(folder)
        c.sync(folder)
        assert takes == {"taken": 0, "refused": 0}
        assert _texts(c) == ["two", "three", "four", "one"]


def test_a_device_started_from_a_snapshot_takes_back_only_what_it_applied_after(tmp_path, takes, monkeypatch):
    """The tablet starts from the laptop's snapshot (Ada and Cy; their segments compacted away), then applies Dee;
    the desktop's Bob, made after Cy and before Dee, arrives last: Dee is taken back, what the snapshot brought
    stays, and Bob goes in its place."""
    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 2)
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        for r in (a, b):
            r.sync(folder)
        for name in ("Ada", "Cy"):
            a.graph.upsert_entity(name, "Person", [name.lower()])
            a.sync(folder)
        b.sync(folder)
        a.sync(folder)  # every device applied Ada and Cy: compacted, the snapshot covers them
        assert not list(folder.rglob("000001-*.seg"))
        c.sync(folder)  # the tablet starts from the snapshot
        floor = c.graph.db.get_meta(rebase.CUT_KEY)
        assert floor is not None
        b.graph.upsert_entity("Bob", "Person", ["one"])
        next_second()
        a.graph.upsert_entity("Dee", "Person", ["dee"])
        a.sync(folder)
        c.sync(folder)
        b.sync(folder)
        c.sync(folder)
        assert takes == {"taken": 1, "refused": 0}
        assert _texts(c) == ["ada", "cy", "one", "dee"]
        assert c.graph.db.get_meta(rebase.CUT_KEY) == floor
        for r in (a, b, c):
            r.sync(folder)
        assert synced_hash(a.graph) == synced_hash(b.graph) == synced_hash(c.graph)
        assert check.check_graph(c.graph.db).consistent


class FailedAgain(BaseException):
    """Not an error of the apply's (which sets those aside): the test stopping a sync that would not end."""


def test_a_change_applied_again_that_fails_does_not_hold_its_device_back(tmp_path, takes, monkeypatch):
    """As above, with a newer segment of the laptop met in the same exchange: it is applied, not set aside, and the
    sync ends (before, the late change's group failed again and again)."""
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        _late(a, b, c, folder)
        a.graph.upsert_entity("Cy", "Person", ["three"])
        a.sync(folder)  # the laptop meets Bob below its own Ada and Cy, and puts it in its place
        assert takes["taken"] == 1
        real = sync_apply.Applier.apply_change
        failed = []

        def picky(self, change):
            made = [i["a"].get("name") for i in change.get("items", []) if i.get("k") == "entity" and i.get("a")]
            if "Ada" in made and self.graph.entity_id("Bob") is not None:
                failed.append(made)
                if len(failed) > 3:
                    raise FailedAgain  # the same group failing over and over: stop the test
                raise ValueError("not after Bob")
            return real(self, change)

        monkeypatch.setattr(sync_apply.Applier, "apply_change", picky)
        result = c.sync(folder)
        assert len(failed) == 1 and takes["taken"] == 2
        assert result.skipped == [] and result.waiting == []
        assert _texts(c) == ["two", "one", "three"]


def _conflict_then_zed_late(tmp_path, folder, a, b, c, d):
    """The laptop types Ada Tea, the desktop Chess, neither seeing the other; the phone's Zed, made before both,
    is published last. The tablet meets both types in one exchange and lists the conflict."""
    a.graph.upsert_entity("Ada", "Person", ["two"])
    for r in (a, b, c, d):
        r.sync(folder)
    d.graph.upsert_entity("Zed", "Person", ["zed"])
    next_second()
    a.graph.set_entity_type("Ada", "Tea")
    b.graph.set_entity_type("Ada", "Chess")
    a.sync(folder)
    b.sync(folder)
    a.sync(folder)
    c.sync(folder)
    assert [x.field for x in sync.list_conflicts(c.graph)] == ["type"]


@pytest.mark.parametrize("keep", ["mine", "theirs"])
def test_a_conflict_chosen_here_before_a_late_change_is_kept(tmp_path, takes, keep):
    """The person on the tablet chooses before the phone's Zed, made before the group that listed the conflict,
    arrives: the choice is a change of this device's own, published with the exchange that meets Zed. Choosing
    the value the graph does not hold writes it; choosing the value it holds writes only the choice. Either is
    taken back with the group and applied again after Zed (the choice as it travels), and nothing is lost."""
    with devices(tmp_path, "laptop", "desktop", "tablet", "phone") as ((a, b, c, d), folder):
        _conflict_then_zed_late(tmp_path, folder, a, b, c, d)
        chosen = sync.resolve_conflict(c.graph, sync.list_conflicts(c.graph)[0].id, keep)
        kind = c.graph.db.scalar("SELECT entity_type FROM entities WHERE name = 'Ada'")
        d.sync(folder)
        before = dict(takes)
        c.sync(folder)
        assert takes == {"taken": before["taken"] + 1, "refused": before["refused"]}
        assert c.graph.db.scalar("SELECT entity_type FROM entities WHERE name = 'Ada'") == kind
        assert sync.list_conflicts(c.graph) == [] and chosen.resolved == keep
        assert "Zed" in {n for (n,) in c.graph.db.execute("SELECT name FROM entities")}
        for r in (a, b, c, d, a, b):
            r.sync(folder)
        assert len({synced_hash(r.graph) for r in (a, b, c, d)}) == 1
        assert all(sync.list_conflicts(r.graph) == [] for r in (a, b, c, d))
        assert a.graph.db.scalar("SELECT entity_type FROM entities WHERE name = 'Ada'") == kind


def test_a_choice_met_from_another_device_is_applied_again_in_its_place(tmp_path, takes):
    """The laptop's person chooses; the tablet applies the choice, then meets the phone's Zed, made before it all:
    the choice is taken back and applied again after Zed, and the tablet holds what the clock order holds."""
    with devices(tmp_path, "laptop", "desktop", "tablet", "phone") as ((a, b, c, d), folder):
        _conflict_then_zed_late(tmp_path, folder, a, b, c, d)
        sync.resolve_conflict(a.graph, sync.list_conflicts(a.graph)[0].id, "theirs")
        next_second()
        a.sync(folder)
        c.sync(folder)
        assert sync.list_conflicts(c.graph) == []
        d.sync(folder)
        before = dict(takes)
        c.sync(folder)
        assert takes == {"taken": before["taken"] + 1, "refused": before["refused"]}
        assert sync.list_conflicts(c.graph) == []
        oracle = _in_clock_order(tmp_path, folder, c.graph.db.get_meta("graph_id"))
        try:
            assert synced_hash(c.graph) == synced_hash(oracle.graph)
            assert _open_conflicts(c) == _open_conflicts(oracle)
        finally:
            oracle.close()
        assert check.check_graph(c.graph.db).consistent


def test_a_file_put_back_from_a_backup_puts_a_late_change_in_its_place_by_what_it_holds(tmp_path, takes):
    """The tablet's file is put back from a backup taken after it met Ada and before Cy; it meets Cy again, then
    the desktop's Bob made before both: what the backup kept and what was applied since are taken back alike."""
    from limbic.service import backups

    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        for r in (a, b, c):
            r.sync(folder)
        b.graph.upsert_entity("Bob", "Person", ["one"])
        next_second()
        a.graph.upsert_entity("Ada", "Person", ["two"])
        a.sync(folder)
        c.sync(folder)
        saved, _ = backups.take_backup(c.graph)
        a.graph.upsert_entity("Cy", "Person", ["three"])
        a.sync(folder)
        c.sync(folder)
        backups.restore_backup(c.graph, str(saved))
        assert _texts(c) == ["two"]
        c.sync(folder)
        assert _texts(c) == ["two", "three"]
        b.sync(folder)
        c.sync(folder)
        assert takes == {"taken": 1, "refused": 0}
        assert _texts(c) == ["one", "two", "three"]
        oracle = _in_clock_order(tmp_path, folder, c.graph.db.get_meta("graph_id"))
        try:
            assert synced_hash(c.graph) == synced_hash(oracle.graph)
        finally:
            oracle.close()
        assert _fts(c.graph) == _entities(c.graph)
        assert check.check_graph(c.graph.db).consistent


def test_what_an_assistant_read_stays_with_the_entity_made_again(tmp_path, takes):
    """An assistant read Ada on the tablet; Ada is taken back and made again under another local id (hers now
    Bob's): the reads are still Ada's, none is Bob's."""
    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        _ada_and_cy_then_bob_late(a, b, c, folder)
        activity.act_as(c.graph, "mcp-1", "mcp", client="Claude")
        activity.record_reads(c.graph, "open_nodes", [c.graph.entity_id("Ada")])
        before = c.graph.entity_id("Ada")
        assert [r.count for r in activity.reads_of(c.graph, before)] == [1]
        next_second()
        b.sync(folder)
        c.sync(folder)
        assert takes["taken"] == 1 and c.graph.entity_id("Ada") != before
        assert [r.count for r in activity.reads_of(c.graph, c.graph.entity_id("Ada"))] == [1]
        assert activity.reads_of(c.graph, c.graph.entity_id("Bob")) == []


def test_a_pin_stays_on_the_entity_made_again(tmp_path, takes):
    """The person pinned Ada and Cy on the tablet; taken back and made again under other local ids (Ada's now
    Bob's), they are still the ones pinned."""
    from limbic.service import organise

    with devices(tmp_path, "laptop", "desktop", "tablet") as ((a, b, c), folder):
        _ada_and_cy_then_bob_late(a, b, c, folder)
        for name in ("Ada", "Cy"):
            organise.set_pinned(c.graph, c.graph.entity_id(name), True)
        next_second()
        b.sync(folder)
        c.sync(folder)
        assert takes["taken"] == 1
        assert sorted(c.graph.db.scalar("SELECT name FROM entities WHERE id = ?", (i,))
                      for i in organise.pinned_ids(c.graph)) == ["Ada", "Cy"]
        assert check.check_graph(c.graph.db).consistent
