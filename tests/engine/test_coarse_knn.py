"""The coarse pass of a large graph's KNN (sign bits, then exact scores): its bits follow every write (this
connection's, another program's, an undo, a sync, a rollback), and it returns what the exact scan returns."""

from __future__ import annotations

import numpy as np
import pytest

from limbic.engine.graph import revert
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.engine.vectors import chunked_knn, coarse, index, vector_index
from tests.engine.test_vector_index import HashEmbedder, fill
from tests.sync.replicas import settle, two_devices

pytestmark = pytest.mark.skipif(not coarse.hamming_available(), reason="numpy without bitwise_count")


class WideEmbedder(HashEmbedder):
    """The hash-bag model with as many dimensions as the default model's (384): as many sign bits."""

    def __init__(self) -> None:
        super().__init__("hash-bag/384")
        self.dim = 384

    def encode(self, texts, kind="passage", batch_size=32, progress=None):
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.split():
                seed = int.from_bytes(word.lower().encode()[:8].ljust(8, b"_"), "little") ^ len(word)
                out[i] += np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
            out[i] /= max(float(np.linalg.norm(out[i])), 1e-9)
        return out


@pytest.fixture
def forced(monkeypatch):
    """The coarse pass on any graph, keeping a quarter of the rows (at least 24) for exact scoring."""
    monkeypatch.setattr(chunked_knn, "COARSE_FROM", 0)
    monkeypatch.setattr(chunked_knn, "COARSE_MIN", 24)
    monkeypatch.setattr(chunked_knn, "COARSE_SHARE", 4)
    monkeypatch.setattr(chunked_knn, "STATS_SAMPLE", 64)


def _mirror(g: Graph) -> vector_index.VectorMirror:
    m = vector_index.mirror_for(g.db, index.VEC_TABLE)
    m.refresh(g.db)
    return m


def _assert_bits_match_rows(g: Graph) -> coarse.SignBits:
    """The bits kept (made before the writes and followed since) equal the rows' bits made now."""
    m = _mirror(g)
    bits = m.sign_bits()
    _, mat, inv = m.rows_unchecked()
    width = -(-m.dim // 8)
    want = np.packbits(mat * inv[:, None] - bits.centre > 0, axis=1)
    assert np.array_equal(bits.bits[: len(m), :width], want)
    return bits


def _coarse_then_exact(g: Graph, q: np.ndarray, k: int, monkeypatch) -> tuple[list, list]:
    got = chunked_knn.knn(g.db, index.VEC_TABLE, q, k)
    with monkeypatch.context() as m:
        m.setattr(chunked_knn, "COARSE_FROM", 10**12)
        want = chunked_knn.knn(g.db, index.VEC_TABLE, q, k)
    return got, want


def test_the_coarse_pass_returns_the_exact_top_ten(tmp_path, forced, monkeypatch):
    g = Graph(Database(tmp_path / "g.db"), WideEmbedder())
    try:
        fill(g, 400)
        texts = [t for (t,) in g.db.execute("SELECT content FROM observations ORDER BY id LIMIT 30")]
        assert len(_mirror(g)) == 400
        for text in texts:
            q = g.embedder.encode_query(text)
            got, want = _coarse_then_exact(g, q, 10, monkeypatch)
            assert got == want  # the same entities, the same distances, the same order
    finally:
        g.db.close()


def test_left_out_entities_get_their_exact_similarity_and_the_spread_is_near(tmp_path, forced, monkeypatch):
    g = Graph(Database(tmp_path / "g.db"), WideEmbedder())
    try:
        fill(g, 400)
        q = g.embedder.encode_query("w1 w2 w3")
        ids, sims = chunked_knn._entity_similarities(g.db, index.VEC_TABLE, q, 1.0)  # the exact scan
        exact = dict(zip(ids.tolist(), sims.tolist()))
        _, stats = chunked_knn.knn_with_stats(g.db, index.VEC_TABLE, q, 10)
        kept = chunked_knn._last_scan[_mirror(g)][1]
        assert np.isnan(kept).sum() > 200  # most entities were left out of exact scoring
        got = chunked_knn.similarities(g.db, index.VEC_TABLE, q, list(exact))
        assert got == pytest.approx(exact, abs=1e-6)
        assert stats.count == 400
        assert stats.mean == pytest.approx(float(sims.mean()), abs=0.25 * float(sims.std()))
        assert stats.std == pytest.approx(float(sims.std()), rel=0.3)
    finally:
        g.db.close()


def test_bits_follow_this_connection_another_and_an_undo(tmp_path, forced, monkeypatch):
    path = tmp_path / "shared.db"
    a = Graph(Database(path), WideEmbedder())
    b = Graph(Database(path), WideEmbedder())
    try:
        fill(a, 200)
        q = a.embedder.encode_query("zebra giraffe okapi")
        chunked_knn.knn(a.db, index.VEC_TABLE, q, 5)
        bits = _assert_bits_match_rows(a)
        loads = _mirror(a).loads

        mine = a.upsert_entity("Savanna", "Place", ["zebra giraffe okapi"])  # this connection
        assert _coarse_then_exact(a, q, 5, monkeypatch)[0][0][0] == mine
        theirs = b.upsert_entity("Veldt", "Place", ["zebra giraffe okapi lion"])  # another program
        b.delete_entity("E3")
        b.upsert_entity("E7", "Thing", ["zebra okapi now"])
        got, want = _coarse_then_exact(a, q, 10, monkeypatch)
        # The three that share the query's words, as the exact scan ranks them (below them: chance).
        assert got[:3] == want[:3] and {i for i, _ in got[:3]} == {mine, theirs, a.entity_id("E7")}
        assert a.entity_id("E3") is None
        assert _assert_bits_match_rows(a) is bits and _mirror(a).loads == loads  # followed, not rebuilt

        a.delete_entity("Savanna")
        revert.apply(a, [a.db.activity.last_change_id])  # undo the delete
        got, want = _coarse_then_exact(a, q, 10, monkeypatch)
        assert got[:3] == want[:3] and a.entity_id("Savanna") in {i for i, _ in got[:3]}
        _assert_bits_match_rows(a)
    finally:
        a.db.close()
        b.db.close()


def test_a_rolled_back_write_leaves_no_bits_behind(tmp_path, forced, monkeypatch):
    g = Graph(Database(tmp_path / "g.db"), WideEmbedder())
    try:
        fill(g, 200)
        q = g.embedder.encode_query("zebra giraffe okapi")
        chunked_knn.knn(g.db, index.VEC_TABLE, q, 5)
        with pytest.raises(RuntimeError):
            with g.write():
                g.upsert_entity("Savanna", "Place", ["zebra giraffe okapi"])
                raise RuntimeError("taken back")
        q = g.embedder.encode_query(g.db.scalar("SELECT content FROM observations ORDER BY id LIMIT 1"))
        got, want = _coarse_then_exact(g, q, 10, monkeypatch)
        assert got[:3] == want[:3] and len(_mirror(g)) == 200
        _assert_bits_match_rows(g)
    finally:
        g.db.close()


def test_bits_follow_what_arrives_by_sync(tmp_path, forced, monkeypatch):
    def seed(g: Graph) -> None:
        g.attach_embedder(WideEmbedder())
        fill(g, 120)

    with two_devices(tmp_path, seed=seed, settled=False) as (laptop, desktop, folder):
        desktop.graph.attach_embedder(WideEmbedder())
        settle([laptop, desktop], folder)
        q = desktop.graph.embedder.encode_query("zebra giraffe okapi")
        chunked_knn.knn(desktop.graph.db, index.VEC_TABLE, q, 5)
        assert len(_mirror(desktop.graph)) == 120
        laptop.graph.upsert_entity("Savanna", "Place", ["zebra giraffe okapi"])
        laptop.graph.delete_entity("E5")
        settle([laptop, desktop], folder)
        new = desktop.graph.entity_id("Savanna")
        got, want = _coarse_then_exact(desktop.graph, q, 10, monkeypatch)
        assert got[0] == want[0] and got[0][0] == new
        assert len(_mirror(desktop.graph)) == 120
        _assert_bits_match_rows(desktop.graph)
