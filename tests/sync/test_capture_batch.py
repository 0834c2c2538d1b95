"""A publish reads its changes' rows and global ids in a few queries for the whole batch, not a few per change."""

from __future__ import annotations

from limbic.engine.sync import capture, state
from tests.sync.replicas import Replica


class _Undo(Exception):
    """Raised to roll the probe's transaction back: the changes stay unpublished."""


def _queries_to_capture(replica: Replica) -> tuple[int, list[dict]]:
    """How many SQL reads capturing the unpublished changes ran, and what it captured (rolled back)."""
    db = replica.graph.db
    count = 0

    def trace(cursor, sql, bindings):
        nonlocal count
        count += sql.lstrip().upper().startswith("SELECT")  # the reads (the stamps written are one per field)
        return True

    try:
        with db.transaction():
            db.conn.exec_trace = trace
            try:
                changes, _ = capture.unpublished(db, replica.device.id)
            finally:
                db.conn.exec_trace = None
            raise _Undo
    except _Undo:
        pass
    return count, changes


def test_the_queries_of_a_publish_do_not_grow_with_its_changes(tmp_path):
    folder = tmp_path / "f"
    folder.mkdir()
    a = Replica(tmp_path, "a")
    try:
        a.graph.upsert_entity("Start")
        a.sync(folder)
        for i in range(3):
            a.graph.upsert_entity(f"Few {i}", observations=[f"note {i}"])
        few, changes = _queries_to_capture(a)
        assert len(changes) == 3
        for i in range(40):
            a.graph.upsert_entity(f"Many {i}", observations=[f"note {i}"])
        many, changes = _queries_to_capture(a)
        assert len(changes) == 43  # the first three still unpublished (the probe rolls back)
        assert many == few  # it read each change's rows, and two queries per global id, one change at a time
    finally:
        a.close()


def test_a_row_deleted_later_in_the_same_batch_is_named_by_the_id_it_had(tmp_path):
    folder = tmp_path / "f"
    folder.mkdir()
    a = Replica(tmp_path, "a")
    try:
        a.graph.upsert_entity("Start")
        a.sync(folder)
        a.graph.upsert_entity("Gone", observations=["a note on it"])
        gid = a.graph.db.scalar("SELECT gid FROM entities WHERE name = 'Gone'")
        obs = a.graph.db.scalar("SELECT gid FROM observations WHERE content = 'a note on it'")
        a.graph.delete_entity("Gone")
        assert a.graph.db.scalar("SELECT count(*) FROM entities WHERE name = 'Gone'") == 0
        _, changes = _queries_to_capture(a)
        items = [i for c in changes for i in c["items"]]
        added = [i for i in items if i["op"] == "add"]
        assert {i["gid"] for i in added} == {gid, obs}
        assert [i["a"]["entity"] for i in added if i["k"] == "observation"] == [gid]
        assert any(i["op"] == "remove" and i["gid"] == gid for i in items)
        for change in changes:  # the same ids as asked one by one
            for item in change["items"]:
                assert item["gid"] in {state.gid_at(a.graph.db, item["k"], r, change["cid"]) for (r,) in a.graph.db.execute(
                    "SELECT row_id FROM change_item WHERE change_id = ? AND kind = ?", (change["cid"], item["k"]))}
    finally:
        a.close()
