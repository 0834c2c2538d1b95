"""A text replaced by its own words changes nothing: on the device that did it and on the others, which would
otherwise have found two rows of one text on one entity and made them one, the newer pointing at itself."""

from __future__ import annotations

from tests.sync.replicas import synced_rows, two_devices


def _superseded_by_itself(graph) -> int:
    return graph.db.scalar("SELECT count(*) FROM observations WHERE superseded_by = id")


def test_a_text_superseded_by_its_own_words_changes_nothing_anywhere(tmp_path):
    with two_devices(tmp_path, lambda g: g.upsert_entity("Ada", "Person", ["likes tea"])) as (a, b, folder):
        tea = a.graph.db.scalar("SELECT id FROM observations WHERE content = 'likes tea'")
        coffee = a.graph.supersede_observation(tea, "likes coffee")
        assert a.graph.supersede_observation(coffee, "likes coffee") == coffee  # its own words: nothing to do
        for _ in range(2):
            a.sync(folder)
            b.sync(folder)
        for r in (a, b):
            assert _superseded_by_itself(r.graph) == 0, r.device.name
            rows = r.graph.db.execute("SELECT content, superseded_at IS NOT NULL FROM observations ORDER BY id").fetchall()
            assert [tuple(x) for x in rows] == [("likes tea", 1), ("likes coffee", 0)], r.device.name
        assert synced_rows(a.graph) == synced_rows(b.graph)
