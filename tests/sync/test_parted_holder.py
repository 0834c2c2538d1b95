"""A name held here by a row going by a global id that was once merged into a row no longer here (a merge
parted again keeps its own id, which the merge had pointed at the other row): a creation of that name from
another device used to stop the apply (reading that row by its global id found nothing) and had its whole
segment set aside."""

from __future__ import annotations

from tests.sync.replicas import devices


def test_a_creation_meets_a_name_held_by_a_row_whose_id_was_merged_away(tmp_path):
    with devices(tmp_path, "laptop", "desktop") as ((a, b), folder):
        b.sync(folder)
        b.graph.upsert_entity("Ada", "Person", ["desktop's"])
        held = "0" * 31 + "1"  # smaller than any id drawn: the one a merge with the laptop's Ada keeps
        with b.graph.db.transaction():  # the id once merged into a row that is no longer here
            b.graph.db.execute("UPDATE entities SET gid = ? WHERE name = 'Ada'", (held,))
            b.graph.db.execute("INSERT INTO sync_alias(gid, target) VALUES (?, ?)", (held, "0" * 32))
        a.graph.upsert_entity("Ada", "Person", ["laptop's"])
        a.sync(folder)
        result = b.sync(folder)
        assert not [s for s in result.skipped if "set aside" in s.why], result.skipped
        assert result.received == 1
        assert b.graph.db.scalar("SELECT count(*) FROM entities WHERE name = 'Ada'") == 1  # one Ada, as on one machine
        assert b.graph.db.scalar("SELECT 1 FROM observations WHERE content = ?", ("desktop's",))
