"""Exact KNN over every vector of every entity: the first vector, raised towards the best window.

The first vectors (one per embedded entity) and the further windows of long entities
(``index_chunks.py``) are two in-memory mirrors (``vector_index.py``). A query is one matrix-vector
product over each; the windows' similarities are folded into their entity's with a per-entity
maximum over an index array (the position of each window's entity among the first vectors, cached
until either mirror changes). With no windows this is the first mirror's scan alone.

How far a window may raise its entity depends on the query (``passage_weight``). A short query
(a question, a claim, a few words) asks for a passage: the entity is scored by its best window.
A query as long as a window is itself a text, and asks for texts like it as a whole (an argument's
counter-argument, a document's duplicate): there a window of another text on the same subject
matches a part of the query better than the right text as a whole does, so windows count less the
longer the query is, and not at all from a window's length on (their scan is then skipped).
Measured on five collections (docs/search.md): the best window alone gained on short queries
(SciFact +0.011 nDCG@10) and lost on long ones (ArguAna -0.020); this rule keeps the first and
loses nothing on the second.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence

import numpy as np

from limbic.engine.vectors import vector_index
from limbic.engine.store.db import Database
from limbic.engine.vectors.index_chunks import CHUNK_TABLE, SLOT_BITS
from limbic.engine.vectors.vector_index import SimilarityStats

# The last scan's similarities of every entity, per first mirror: the fusion asks, right after the
# KNN branch, for the similarity of the text branch's hits it did not reach, with the same vector.
_last_scan: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

# Each windows mirror's rows among the first vectors, kept while neither mirror changed.
_owners: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _unit(vector: np.ndarray, dim: int) -> np.ndarray:
    q = np.asarray(vector, dtype=np.float32).reshape(-1)
    if q.shape[0] != dim:
        raise ValueError(f"A {q.shape[0]}-dimension query cannot search {dim}-dimension vectors.")
    norm = float(np.linalg.norm(q))
    return q / norm if norm > 0 else q


def _windows(db: Database, table: str):
    """The windows' mirror, brought up to date, or None when there are none."""
    if table != vector_index.FIRST_TABLE or not db.has_table(CHUNK_TABLE):
        return None
    mirror = vector_index.mirror_for(db, CHUNK_TABLE, follow_log=False)
    mirror.refresh(db)
    return mirror if len(mirror) else None


def _positions(first: vector_index.VectorMirror, windows: vector_index.VectorMirror) -> np.ndarray:
    """Each window's row among the first vectors (-1 when its entity has none)."""
    key = (id(first), first.version, id(windows), windows.version)
    cached = _owners.get(windows)
    if cached is not None and cached[0] == key:
        return cached[1]
    pos = first.positions((windows.rows_unchecked()[0] >> SLOT_BITS).tolist())
    _owners[windows] = (key, pos)
    return pos


def passage_weight(query_tokens: int, window_tokens: int) -> float:
    """How far a window may raise its entity for a query of ``query_tokens``: 1 for a short query,
    falling linearly to 0 for one as long as a window (``window_tokens``)."""
    if window_tokens <= 0:
        return 0.0
    return min(1.0, max(0.0, 1.0 - query_tokens / window_tokens))


def _raise(first: np.ndarray, best: np.ndarray, weight: float) -> np.ndarray:
    return best if weight >= 1.0 else first + np.float32(weight) * (best - first)


# From this many windows their scan runs on a thread of its own beside the first vectors' (numpy
# releases the GIL in it): on the 100k benchmark the KNN branch then costs what it did without
# windows (10.8 against 14.6 ms, p50). Below it a thread's hand-over costs more than it saves.
PARALLEL_WINDOWS = 4096
_scanner: list = []
_scanner_lock = threading.Lock()


def _scan_thread():
    with _scanner_lock:
        if not _scanner:
            from concurrent.futures import ThreadPoolExecutor

            _scanner.append(ThreadPoolExecutor(1, thread_name_prefix="limbic-windows"))
        return _scanner[0]


def _scan_key(first: vector_index.VectorMirror, windows, q: np.ndarray, weight: float) -> tuple:
    return first.version, None if windows is None else (id(windows), windows.version), weight, q.tobytes()


# From this many vectors (first vectors and windows together) the scan is BLAS's matrix-vector product
# (OpenBLAS's sgemv, in the calling thread: Limbic sets OPENBLAS_NUM_THREADS=1 before numpy loads,
# limbic/__init__.py) instead of einsum, which on the 100k benchmark graph takes about 1.5 times as long
# (docs/search.md, "The scan of a large graph"). Below it einsum stays: the same sums in the same order
# as ever, so a graph of that size (every tuning collection, the golden queries) is answered as it always
# was, to the last bit. The two differ by float32 rounding (a few 1e-8), not in what they compute.
BLAS_FROM = 50_000


def _product(mat: np.ndarray, q: np.ndarray, blas: bool) -> np.ndarray:
    return mat @ q if blas else np.einsum("ij,j->i", mat, q)


def _entity_similarities(db: Database, table: str, q: np.ndarray, weight: float):
    """(ids of the first mirror, each entity's similarity: its first vector's raised towards its best window's)."""
    first = vector_index.mirror_for(db, table)
    first.refresh(db)
    ids, mat, inv = first.rows_unchecked()
    if not len(ids):
        return ids, np.zeros(0, dtype=np.float32)
    q = _unit(q, first.dim)
    windows = _windows(db, table) if weight > 0 else None
    job = None
    blas = len(mat) + (len(windows) if windows is not None else 0) >= BLAS_FROM
    if windows is not None:
        _, wmat, winv = windows.rows_unchecked()
        scan = lambda: _product(wmat, q, blas) * winv  # noqa: E731
        job = _scan_thread().submit(scan) if len(wmat) >= PARALLEL_WINDOWS else None
    sims = _product(mat, q, blas) * inv
    _last_scan[first] = (_scan_key(first, windows, q, weight), sims)  # replaced below when windows raise it
    if windows is not None:
        pos = _positions(first, windows)
        wsims = job.result() if job is not None else scan()
        keep = pos >= 0
        if not keep.all():
            pos, wsims = pos[keep], wsims[keep]
        best = sims.copy()
        np.maximum.at(best, pos, wsims)
        sims = _raise(sims, best, weight)
        _last_scan[first] = (_scan_key(first, windows, q, weight), sims)
    return ids, sims


def knn_with_stats(db: Database, table: str, vector: np.ndarray, k: int,
                   weight: float = 1.0) -> tuple[list[tuple[int, float]], SimilarityStats]:
    """The ``k`` nearest entities (id, cosine distance of their similarity), nearest first; ties by id.

    ``weight``: how far windows raise their entity (``passage_weight``). The mean and spread are
    of every entity's similarity.
    """
    ids, sims = _entity_similarities(db, table, vector, weight)
    n = len(ids)
    k = min(int(k), n)
    if k <= 0:
        return [], SimilarityStats(0.0, 0.0, 0)
    top = np.argpartition(-sims, k - 1)[:k] if k < n else np.arange(n)
    top_ids = ids[top]
    dist = (np.float32(1.0) - sims[top]).astype(np.float32)
    order = np.lexsort((top_ids, dist))
    stats = SimilarityStats(float(sims.mean()), float(sims.std()), n)
    return [(int(top_ids[i]), float(dist[i])) for i in order], stats


def knn(db: Database, table: str, vector: np.ndarray, k: int, weight: float = 1.0) -> list[tuple[int, float]]:
    return knn_with_stats(db, table, vector, k, weight)[0]


def similarities(db: Database, table: str, vector: np.ndarray, wanted: Sequence[int],
                 weight: float = 1.0) -> dict[int, float]:
    """Each wanted entity's similarity to the query, as ``knn`` scores it (entities with no vector are left out).

    Read from the last scan when it was of this vector, weight and state of the mirrors.
    """
    first = vector_index.mirror_for(db, table)
    first.refresh(db)
    windows = _windows(db, table) if weight > 0 else None
    last = _last_scan.get(first)
    if last is not None and len(first) and last[0] == _scan_key(first, windows, _unit(vector, first.dim), weight):
        sims = last[1]
        return {int(i): float(sims[p]) for i, p in zip(wanted, first.positions(wanted)) if p >= 0}
    out = first.similarities(db, vector, wanted)
    if windows is None or not out:
        return out
    wids, wmat, winv = windows.rows_unchecked()
    owners = wids >> SLOT_BITS
    rows = np.flatnonzero(np.isin(owners, np.fromiter(out, dtype=np.int64, count=len(out))))
    if len(rows):
        q = _unit(vector, windows.dim)
        wsims = (wmat[rows] @ q) * winv[rows]
        best: dict[int, float] = {}
        for owner, s in zip(owners[rows].tolist(), wsims.tolist()):
            if s > best.get(owner, out[owner]):
                best[owner] = s
        for owner, s in best.items():
            out[owner] = float(_raise(np.float32(out[owner]), np.float32(s), weight))
    return out
