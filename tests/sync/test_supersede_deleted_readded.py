"""A text superseded on one device while another deleted its entity and made it again with the same text: the
deletion gives way to the supersede, so the old text comes back superseded, and the same words said again
are a row of their own — on every device, whatever order the changes meet it in, as in clock order."""

from __future__ import annotations

import itertools

import pytest

from tests.sync.replicas import devices, settle, synced_rows


@pytest.mark.parametrize("order", ["".join(p) for p in itertools.permutations("abc")])
def test_a_text_superseded_elsewhere_comes_back_superseded_beside_the_same_words_said_again(tmp_path, order):
    with devices(tmp_path, "alpha", "beta", "gamma") as (replicas, folder):
        a, b, c = replicas
        a.graph.upsert_entity("Ada", "Person", ["likes tea"])
        settle(replicas, folder)
        a.graph.delete_entity("Ada")
        tea = c.graph.db.scalar("SELECT id FROM observations WHERE content = 'likes tea'")
        c.graph.supersede_observation(tea, "likes coffee")  # not knowing of the deletion
        a.graph.upsert_entity("Ada", "Person", ["likes tea"])  # the same words, on a new Ada
        for key in order:
            {"a": a, "b": b, "c": c}[key].sync(folder)
        settle(replicas, folder)
        for r in replicas:
            texts = r.graph.db.execute(
                "SELECT o.content, n.content FROM observations o LEFT JOIN observations n ON n.id = o.superseded_by "
                "ORDER BY o.content, n.content").fetchall()
            assert texts == [("likes coffee", None), ("likes tea", None), ("likes tea", "likes coffee")], r.device.name
        assert synced_rows(a.graph) == synced_rows(b.graph) == synced_rows(c.graph)
