"""Exact KNN over every vector of every entity, each entity scored by its best one.

The first vectors (one per embedded entity) and the further windows of long entities
(``index_chunks.py``) are two in-memory mirrors (``vector_index.py``). A query is one matrix-vector
product over each; the windows' similarities are folded into their entity's with a per-entity
maximum over an index array (the position of each window's entity among the first vectors, cached
until either mirror changes). With no windows this is the first mirror's scan alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from limbic.engine import vector_index
from limbic.engine.db import Database
from limbic.engine.index_chunks import CHUNK_TABLE, SLOT_BITS
from limbic.engine.vector_index import SimilarityStats

_owners: dict[int, tuple[tuple[int, int, int, int], np.ndarray]] = {}


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
    cached = _owners.get(id(windows))
    if cached is not None and cached[0] == key:
        return cached[1]
    pos = first.positions((windows.rows_unchecked()[0] >> SLOT_BITS).tolist())
    _owners[id(windows)] = (key, pos)
    return pos


def _entity_similarities(db: Database, table: str, q: np.ndarray):
    """(first mirror, similarity of every entity with a first vector: the best of its vectors)."""
    first = vector_index.mirror_for(db, table)
    first.refresh(db)
    ids, mat, inv = first.rows_unchecked()
    if not len(ids):
        return ids, np.zeros(0, dtype=np.float32)
    q = _unit(q, first.dim)
    # einsum runs in this thread (see vector_index.knn_with_stats).
    sims = np.einsum("ij,j->i", mat, q) * inv
    windows = _windows(db, table)
    if windows is not None:
        pos = _positions(first, windows)
        _, wmat, winv = windows.rows_unchecked()
        wsims = np.einsum("ij,j->i", wmat, q) * winv
        keep = pos >= 0
        if not keep.all():
            pos, wsims = pos[keep], wsims[keep]
        np.maximum.at(sims, pos, wsims)
    return ids, sims


def knn_with_stats(db: Database, table: str, vector: np.ndarray, k: int) -> tuple[list[tuple[int, float]], SimilarityStats]:
    """The ``k`` nearest entities (id, cosine distance of their best vector), nearest first; ties by id.

    The mean and spread are of every entity's best similarity.
    """
    ids, sims = _entity_similarities(db, table, vector)
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


def knn(db: Database, table: str, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
    return knn_with_stats(db, table, vector, k)[0]


def similarities(db: Database, table: str, vector: np.ndarray, wanted: Sequence[int]) -> dict[int, float]:
    """Each wanted entity's best similarity to the query (entities with no vector are left out)."""
    first = vector_index.mirror_for(db, table)
    out = first.similarities(db, vector, wanted)
    windows = _windows(db, table)
    if windows is None or not out:
        return out
    wids, wmat, winv = windows.rows_unchecked()
    owners = wids >> SLOT_BITS
    rows = np.flatnonzero(np.isin(owners, np.fromiter(out, dtype=np.int64, count=len(out))))
    if len(rows):
        q = _unit(vector, windows.dim)
        wsims = (wmat[rows] @ q) * winv[rows]
        for owner, s in zip(owners[rows].tolist(), wsims.tolist()):
            if s > out[owner]:
                out[owner] = s
    return out
