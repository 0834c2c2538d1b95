"""A text superseded on one device, then its entity deleted there while another device made the same name: the
deletion gives way and the entity comes back with its texts. The older text points at its newer one again on
every device, as where the texts arrive as additions (it came back before its newer text existed there)."""

from __future__ import annotations

import itertools

import pytest

from tests.sync.replicas import Replica, settle, synced_rows


@pytest.mark.parametrize("published", [True, False], ids=["seen", "unseen"])
@pytest.mark.parametrize("order", ["".join(p) for p in itertools.permutations("abc")])
def test_a_superseded_text_back_with_its_entity_points_at_its_newer_text_everywhere(tmp_path, order, published):
    folder = tmp_path / "folder"
    folder.mkdir()
    a, b, c = replicas = [Replica(tmp_path, n) for n in ("alpha", "beta", "gamma")]
    try:
        settle(replicas, folder)
        a.graph.upsert_entity("Ada", "Person", ["likes tea"])
        if published:  # the others know the text before it is superseded
            settle(replicas, folder)
        tea = a.graph.db.scalar("SELECT id FROM observations WHERE content = 'likes tea'")
        a.graph.supersede_observation(tea, "likes coffee")
        a.graph.delete_entity("Ada")
        b.graph.upsert_entity("Ada", "Person", ["likes cats"])  # not knowing of the deletion: it gives way
        for key in order:
            {"a": a, "b": b, "c": c}[key].sync(folder)
        settle(replicas, folder)
        for r in replicas:
            pointed = r.graph.db.scalar(
                "SELECT n.content FROM observations o JOIN observations n ON n.id = o.superseded_by "
                "WHERE o.content = 'likes tea'")
            assert pointed == "likes coffee", r.device.name
        assert synced_rows(a.graph) == synced_rows(b.graph) == synced_rows(c.graph)
    finally:
        for r in replicas:
            r.close()
