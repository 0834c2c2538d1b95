"""The scan of a large graph (BLAS's matrix-vector product) answers as the scan of a small one (einsum) does,
and a graph below the size keeps einsum's sums to the last bit."""

from __future__ import annotations

import numpy as np
import pytest

from limbic.engine.search.search import knn_branch
from limbic.engine.vectors import chunked_knn, index, vector_index
from tests.engine.test_chunks import brute_force, cgraph, filler  # noqa: F401 (cgraph is a fixture)


def _fill(g, n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    with g.write():
        for i in range(n):
            g.upsert_entity(f"E{i}", "Thing", filler(int(rng.integers(1, 25)), i))


def _both(g, q: np.ndarray, k: int, monkeypatch) -> tuple:
    with monkeypatch.context() as m:
        m.setattr(chunked_knn, "BLAS_FROM", 0)
        blas = chunked_knn.knn_with_stats(g.db, index.VEC_TABLE, q, k)
    with monkeypatch.context() as m:
        m.setattr(chunked_knn, "BLAS_FROM", 10**12)
        einsum = chunked_knn.knn_with_stats(g.db, index.VEC_TABLE, q, k)
    return blas, einsum


def test_blas_scan_returns_the_exact_top_and_scores(cgraph, monkeypatch):  # noqa: F811
    _fill(cgraph, 150, 3)
    assert len(chunked_knn._windows(cgraph.db, index.VEC_TABLE)) > 100  # windows raise entities too
    rng = np.random.default_rng(4)
    for _ in range(20):
        q = rng.standard_normal(24).astype(np.float32)
        (blas, bstats), (einsum, estats) = _both(cgraph, q, 20, monkeypatch)
        assert [i for i, _ in blas] == [i for i, _ in einsum] == brute_force(cgraph, q, 20)
        np.testing.assert_allclose([d for _, d in blas], [d for _, d in einsum], atol=1e-6)
        assert bstats.mean == pytest.approx(estats.mean, abs=1e-6)
        assert bstats.std == pytest.approx(estats.std, abs=1e-6)
        assert bstats.count == estats.count == 150


def test_blas_scan_follows_writes_and_its_similarities_are_the_scans(cgraph, monkeypatch):  # noqa: F811
    monkeypatch.setattr(chunked_knn, "BLAS_FROM", 0)
    _fill(cgraph, 80, 5)
    q = cgraph.embedder.encode_query("zebra marmalade")
    knn_branch(cgraph, q, 5)
    new = cgraph.upsert_entity("Far", "Log", filler(20, 9) + ["zebra marmalade"])
    cgraph.delete_entity("E3")
    got = knn_branch(cgraph, q, 10)
    assert [i for i, _ in got] == brute_force(cgraph, q, 10) and new in {i for i, _ in got}
    assert cgraph.entity_id("E3") is None
    wanted = [i for i, _ in got]
    sims = chunked_knn.similarities(cgraph.db, index.VEC_TABLE, q, wanted)
    assert [sims[i] for i in wanted] == pytest.approx([1.0 - d for _, d in got], abs=1e-6)


def test_a_graph_below_the_size_keeps_einsums_sums_to_the_last_bit(cgraph, monkeypatch):  # noqa: F811
    _fill(cgraph, 60, 7)
    assert chunked_knn.BLAS_FROM > 60 + 200
    q = np.random.default_rng(1).standard_normal(24).astype(np.float32)
    ids, sims = chunked_knn._entity_similarities(cgraph.db, index.VEC_TABLE, q, 0.0)  # first vectors only
    mirror = vector_index.mirror_for(cgraph.db, index.VEC_TABLE)
    _, mat, inv = mirror.rows_unchecked()
    unit = q / np.float32(np.linalg.norm(q))
    assert np.array_equal(sims, np.einsum("ij,j->i", mat, unit) * inv)  # bit for bit
    monkeypatch.setattr(chunked_knn, "BLAS_FROM", 0)
    _, blas = chunked_knn._entity_similarities(cgraph.db, index.VEC_TABLE, q, 0.0)
    assert np.array_equal(blas, (mat @ unit) * inv)
