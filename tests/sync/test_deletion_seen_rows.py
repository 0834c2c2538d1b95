"""A deletion gives way to what its device had not seen, not to a row its device had removed itself.

One device deletes Ada (her relation to Bob goes with her), then Bob. Another, not knowing, writes about Ada:
her deletion gives way, and her relation to Bob stays with her. Bob's deletion then meets that relation,
which it does not name — but its device had seen it and removed it, so Bob goes (and the relation with him)
on every device, in every order the three meet the changes.
"""

from __future__ import annotations

import itertools

import pytest

from tests.sync.replicas import Replica, settle, synced_rows


@pytest.mark.parametrize("order", ["".join(p) for p in itertools.permutations("abc")])
def test_a_relation_kept_by_a_deletion_that_gave_way_does_not_keep_its_other_end(tmp_path, order):
    folder = tmp_path / "folder"
    folder.mkdir()
    a, b, c = replicas = [Replica(tmp_path, n) for n in ("alpha", "beta", "gamma")]
    try:
        a.graph.upsert_entity("Ada", "Person", ["tea"])
        a.graph.upsert_entity("Bob", "Person", ["chess"])
        a.graph.add_relation("Bob", "Ada", "knows")
        settle(replicas, folder)
        c.graph.add_reflection("Ada matters", author="gamma", entity="Ada")  # not knowing of what follows
        a.graph.delete_entity("Ada")
        a.graph.delete_entity("Bob")
        for key in order:
            {"a": a, "b": b, "c": c}[key].sync(folder)
        settle(replicas, folder)
        for r in replicas:
            names = sorted(n for (n,) in r.graph.db.execute("SELECT name FROM entities"))
            assert names == ["Ada"], (order, r.device.name)
            assert r.graph.db.scalar("SELECT count(*) FROM relations") == 0, (order, r.device.name)
        assert synced_rows(a.graph) == synced_rows(b.graph) == synced_rows(c.graph)
    finally:
        for r in replicas:
            r.close()
