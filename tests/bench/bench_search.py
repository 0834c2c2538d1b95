"""Search latency end to end beside its physical reference, the KNN branch alone, and KNN exactness."""

from __future__ import annotations

import itertools
import logging
import time
from pathlib import Path

import numpy as np

from limbic.engine.vectors import index, vector_index
from limbic.engine.store.db import Database
from limbic.engine.vectors.embeddings import Embedder
from limbic.engine.graph.graph import Graph
from limbic.engine.search.scoring import ScoringParams
from limbic.engine.search.search import fts_branch, search
from tests.bench.common import record_shapes, stats_ms

logger = logging.getLogger(__name__)

LIMIT = 10
# The three timed passes of each query (the reference, search, search recording its signals), in
# the six orders taken in turn: none of them always runs first or second after another.
ORDERS = list(itertools.permutations(("reference", "search", "recording")))


def read_matrix(db: Database) -> tuple[np.ndarray, np.ndarray]:
    """Every stored vector as one float32 matrix, read through vec0 (independent of the mirror)."""
    rows = db.execute(f"SELECT rowid, embedding FROM {index.VEC_TABLE}").fetchall()
    ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    mat = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1).copy()
    return ids, mat


def numpy_knn(ids: np.ndarray, mat: np.ndarray, vector: np.ndarray, k: int) -> list[int]:
    """The reference: exact brute force over a float32 matrix of unit vectors."""
    sims = mat @ vector
    top = np.argpartition(-sims, k - 1)[:k] if k < len(sims) else np.arange(len(sims))
    return ids[top[np.argsort(-sims[top])]].tolist()


def vec0_knn(db: Database, vector: np.ndarray, k: int) -> list[int]:
    """sqlite-vec's own exact scan (the pre-mirror KNN branch)."""
    sql = f"SELECT rowid FROM {index.VEC_TABLE} WHERE embedding MATCH ? AND k = ? ORDER BY distance"
    return [r[0] for r in db.execute(sql, (vector.astype(np.float32).tobytes(), k))]


def exact64(mat64: np.ndarray, ids: np.ndarray, vector: np.ndarray, k: int) -> list[int]:
    """Ground truth in float64 (rows normalised), ties broken by id."""
    dist = 1.0 - mat64 @ (vector.astype(np.float64) / np.linalg.norm(vector))
    order = np.lexsort((ids, dist))[:k]
    return ids[order].tolist()


def run(path: Path, embedder: Embedder, queries: list[tuple[str, str]], label: str, vec0_queries: int) -> dict:
    """Measure one graph; ``vec0_queries`` bounds the slow sqlite-vec scans at large sizes."""
    recorder = record_shapes(embedder)
    db = Database(path)
    graph = Graph(db, embedder)
    try:
        n = graph.counts()["entities"]
        k = ScoringParams().expansion_factor * LIMIT
        mirror = vector_index.mirror_for(db, index.VEC_TABLE)
        t0 = time.perf_counter()
        mirror.load(db)
        mirror_load = time.perf_counter() - t0
        t0 = time.perf_counter()
        ref_ids, ref_mat = read_matrix(db)
        scan_load = time.perf_counter() - t0
        texts = [q for _, q in queries]
        vectors = []
        # CPU time of the process (every thread) beside the wall clock: on a machine shared with other
        # work the wall clock also counts waiting for a processor.
        ref_cpu: list[float] = []
        e2e_cpu: list[float] = []

        def reference(q: str) -> tuple[float, float, float]:
            # The reference: encode, exact numpy KNN, the FTS query alone.
            cpu = time.process_time()
            a = time.perf_counter()
            vec = embedder.encode_query(q)
            b = time.perf_counter()
            numpy_knn(ref_ids, ref_mat, vec, k)
            c = time.perf_counter()
            fts_branch(graph, q, k)
            d = time.perf_counter()
            ref_cpu.append(time.process_time() - cpu)
            vectors.append(vec)
            return b - a, c - b, d - c

        def plain(q: str) -> float:
            cpu = time.process_time()
            a = time.perf_counter()
            search(graph, q, record=False)
            took = time.perf_counter() - a
            e2e_cpu.append(time.process_time() - cpu)
            return took

        def recording(q: str) -> float:
            a = time.perf_counter()
            search(graph, q, record=True)
            return time.perf_counter() - a

        # Warm-up: every query once through every pass, so that no pass finds what another left
        # warm (pages, caches, the side reader) only because it runs second.
        for q in texts:
            reference(q)
            plain(q)
            recording(q)
        vectors.clear()
        ref_cpu.clear()
        e2e_cpu.clear()
        recorder.take()

        ref, ref_encode, ref_knn, ref_fts, e2e, e2e_rec, knn_mirror, knn_vec0 = ([] for _ in range(8))
        for i, q in enumerate(texts):
            # The passes interleaved, each query in another of their six orders.
            for which in ORDERS[i % len(ORDERS)]:
                if which == "reference":
                    enc, knn, fts = reference(q)
                    ref_encode.append(enc)
                    ref_knn.append(knn)
                    ref_fts.append(fts)
                    ref.append(enc + knn + fts)
                elif which == "search":
                    e2e.append(plain(q))
                else:
                    e2e_rec.append(recording(q))
            # The KNN branch alone: the mirror now, sqlite-vec's scan before.
            vec = vectors[-1]
            a = time.perf_counter()
            mirror.knn(db, vec, k)
            b = time.perf_counter()
            knn_mirror.append(b - a)
            if i < vec0_queries:
                vec0_knn(db, vec, k)
                knn_vec0.append(time.perf_counter() - b)
        shapes, _ = recorder.take()
        query_lengths = [s for _, s in shapes]
        out = {
            "label": label,
            "entities": n,
            "queries": len(texts),
            "search_ms": stats_ms(e2e),
            "search_recording_ms": stats_ms(e2e_rec),
            "reference_ms": stats_ms(ref),
            "reference_parts_ms": {"encode": stats_ms(ref_encode), "numpy_knn": stats_ms(ref_knn), "fts": stats_ms(ref_fts)},
            "knn_ms": {"mirror": stats_ms(knn_mirror), "sqlite_vec_scan": stats_ms(knn_vec0)},
            "ratio_p50": round(float(np.median(e2e)) / float(np.median(ref)), 3),
            "ratio_recording_p50": round(float(np.median(e2e_rec)) / float(np.median(ref)), 3),
            "cpu_ms": {"search": stats_ms(e2e_cpu), "reference": stats_ms(ref_cpu)},
            "ratio_p95": round(float(np.percentile(e2e, 95)) / float(np.percentile(ref, 95)), 3),
            "order": "interleaved after a warm-up pass over every query",
            "mirror_load_ms": round(mirror_load * 1000, 1),
            "vec0_scan_load_ms": round(scan_load * 1000, 1),
            "mirror_mib": round(mirror.nbytes / (1 << 20), 1),
            "query_seq_len": {"max": max(query_lengths), "median": float(np.median(query_lengths))},
            "exactness": exactness(db, mirror, ref_ids, ref_mat, vectors, vec0_queries),
            "by_kind": by_kind([kind for kind, _ in queries], e2e, ref, ref_fts),
        }
        logger.info("%s: search p50 %.1f ms vs reference %.1f ms", label, out["search_ms"]["p50"], out["reference_ms"]["p50"])
        return out
    finally:
        db.close()


def by_kind(kinds: list[str], e2e: list[float], ref: list[float], fts: list[float]) -> dict:
    """p50 per kind of query: which kinds of text cost what."""
    out = {}
    for kind in sorted(set(kinds)):
        pick = [i for i, k in enumerate(kinds) if k == kind]
        out[kind] = {
            "n": len(pick),
            "search_p50": stats_ms([e2e[i] for i in pick])["p50"],
            "reference_p50": stats_ms([ref[i] for i in pick])["p50"],
            "fts_p50": stats_ms([fts[i] for i in pick])["p50"],
        }
    return out


def exactness(db, mirror, ids, mat, query_vectors: list[np.ndarray], vec0_queries: int, hard: int = 100) -> dict:
    """How often the mirror's top-10 equals exact KNN's: real queries, and near-duplicate probes.

    Near-duplicate probes (a stored vector plus a little noise) have many close neighbours:
    the hardest case for rounding. Compared with float64 ground truth and with sqlite-vec.
    """
    rng = np.random.default_rng(5)
    probes = mat[rng.choice(len(mat), size=min(hard, len(mat)), replace=False)]
    probes = probes + rng.standard_normal(probes.shape).astype(np.float32) * 0.02
    probes /= np.linalg.norm(probes, axis=1, keepdims=True)
    mat64 = mat.astype(np.float64)
    mat64 /= np.clip(np.linalg.norm(mat64, axis=1, keepdims=True), 1e-12, None)
    out = {}
    for name, vecs in (("queries", query_vectors), ("near_duplicates", list(probes))):
        same64 = same_set64 = same_vec0 = same_set_vec0 = checked_vec0 = 0
        for j, v in enumerate(vecs):
            got = [i for i, _ in mirror.knn(db, v, LIMIT)]
            truth = exact64(mat64, ids, v, LIMIT)
            same64 += got == truth
            same_set64 += set(got) == set(truth)
            if j < vec0_queries:
                theirs = vec0_knn(db, v, LIMIT)
                checked_vec0 += 1
                same_vec0 += got == theirs
                same_set_vec0 += set(got) == set(theirs)
        out[name] = {
            "n": len(vecs),
            "same_order_as_float64": round(same64 / len(vecs), 4),
            "same_set_as_float64": round(same_set64 / len(vecs), 4),
            "n_vs_sqlite_vec": checked_vec0,
            "same_order_as_sqlite_vec": round(same_vec0 / checked_vec0, 4) if checked_vec0 else None,
            "same_set_as_sqlite_vec": round(same_set_vec0 / checked_vec0, 4) if checked_vec0 else None,
        }
    return out
