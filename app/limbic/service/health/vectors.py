"""Meaning as evidence: nearest neighbours of every stored vector, and how close is close in this graph.

No fixed cosine cutoff separates duplicates from related entities (models differ: e5 puts almost
every pair above 0.8), so a pair's cosine is judged against the graph's own distribution of
nearest-neighbour similarities. Candidates come from the connection's vector mirror: an exact
blocked scan for small graphs, an inverted file (k-means lists, each vector in its two nearest)
for large ones, so 100k vectors never make 10^10 pairs.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field

import numpy as np

from limbic.engine.vectors import index, vector_index
from limbic.service.health.load import GraphData, Handle

logger = logging.getLogger(__name__)

EXACT_LIMIT = 12_000  # up to this many vectors every pair is compared
NEIGHBOURS = 5  # nearest neighbours kept per vector
SMALL = 1000  # up to this many vectors the graph's own distribution says little: weaker pairs are offered too
_BLOCK = 512


@dataclass
class Meaning:
    """The vectors by entity position, candidate pairs by meaning, and the nearest-neighbour distribution."""

    row_of: np.ndarray  # entity position -> mirror row (-1: no vector)
    mat: np.ndarray
    inv: np.ndarray
    mean: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float32))  # by row: mean cosine to all
    std: np.ndarray = field(default_factory=lambda: np.ones(0, dtype=np.float32))  # by row: its spread
    nearest: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float32))  # sorted nearest-neighbour z
    pairs: list[tuple[int, int]] = field(default_factory=list)  # entity positions, low first
    # Pairs each the other's nearest by meaning, with how far they stand out (z): on a small graph the
    # quantile above is learned from too few pairs, and a translation can fall under it.
    mutual: dict[tuple[int, int], float] = field(default_factory=dict)

    def percentile(self, z: float) -> float:
        """Share of the graph's nearest-neighbour pairs that stand out less than ``z`` (0..1)."""
        if not len(self.nearest):
            return 0.0
        return float(np.searchsorted(self.nearest, z, side="left")) / len(self.nearest)

    def similarity(self, a: int, b: int) -> tuple[float, float] | None:
        """Cosine of two entities' vectors and how far it stands out for both (z), or None without vectors."""
        ra, rb = int(self.row_of[a]), int(self.row_of[b])
        if ra < 0 or rb < 0 or not len(self.mean):
            return None
        sim = float(self.mat[ra] @ self.mat[rb]) * float(self.inv[ra]) * float(self.inv[rb])
        return sim, min((sim - float(self.mean[ra])) / float(self.std[ra]), (sim - float(self.mean[rb])) / float(self.std[rb]))


def empty(n: int) -> Meaning:
    """No vectors (no model yet): meaning is no evidence either way."""
    return Meaning(np.full(n, -1, dtype=np.int64), np.zeros((0, 1), dtype=np.float32), np.zeros(0, dtype=np.float32))


def _spread(mat: np.ndarray, inv: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's mean cosine to every row and its standard deviation, from the first two moments (no n×n)."""
    dim = mat.shape[1]
    total = np.zeros(dim, dtype=np.float64)
    second = np.zeros((dim, dim), dtype=np.float64)
    for start in range(0, len(mat), 8192):
        unit = mat[start : start + 8192] * inv[start : start + 8192, None]
        total += unit.sum(axis=0)
        second += unit.T.astype(np.float64) @ unit
    mu = (total / len(mat)).astype(np.float32)
    cov = (second / len(mat)).astype(np.float32)
    mean = np.empty(len(mat), dtype=np.float32)
    var = np.empty(len(mat), dtype=np.float32)
    for start in range(0, len(mat), 8192):
        unit = mat[start : start + 8192] * inv[start : start + 8192, None]
        mean[start : start + 8192] = unit @ mu
        var[start : start + 8192] = np.einsum("ij,ij->i", unit @ cov, unit)
    std = np.sqrt(np.maximum(var - mean * mean, 1e-6))
    return mean, std


def meaning(graph, data: GraphData, handle: Handle, keep_quantile: float = 0.75) -> Meaning:
    """Nearest neighbours by cosine, each judged by how far it stands out from the entity's similarity to all.

    A pair's z is how many standard deviations its cosine lies above the mean cosine of each of its
    two entities to the whole graph (the smaller of the two); pairs kept are those that stand out more
    than ``keep_quantile`` of the graph's nearest-neighbour pairs.
    """
    if not graph.db.has_table(index.VEC_TABLE):
        return empty(len(data))
    ids, mat, inv = vector_index.rows(graph.db, index.VEC_TABLE)
    row_of = np.full(len(data), -1, dtype=np.int64)
    pos_of_row = np.full(len(ids), -1, dtype=np.int64)
    for r, eid in enumerate(ids.tolist()):
        p = data.pos.get(eid)
        if p is not None:
            row_of[p] = r
            pos_of_row[r] = p
    out = Meaning(row_of, mat, inv)
    n = len(ids)
    if n < 3:
        return out
    out.mean, out.std = _spread(mat, inv)
    if n <= EXACT_LIMIT:
        a, b, s = _exact(mat, inv, handle)
    else:
        a, b, s = _inverted(mat, inv, handle)
    z = np.minimum((s - out.mean[a]) / out.std[a], (s - out.mean[b]) / out.std[b])
    best = np.full(n, -np.inf, dtype=np.float32)
    np.maximum.at(best, a, z)
    np.maximum.at(best, b, z)
    out.nearest = np.sort(best[np.isfinite(best)])
    if n <= SMALL:
        top = np.full(n, -np.inf, dtype=np.float32)
        np.maximum.at(top, a, s)
        np.maximum.at(top, b, s)
        both = (s >= top[a]) & (s >= top[b])
        for x, y, zz in zip(pos_of_row[a[both]].tolist(), pos_of_row[b[both]].tolist(), z[both].tolist()):
            if x >= 0 and y >= 0:
                out.mutual[(min(x, y), max(x, y))] = float(zz)
    if len(out.nearest):
        cut = float(np.quantile(out.nearest, keep_quantile))
        keep = z >= cut
        pa, pb = pos_of_row[a[keep]], pos_of_row[b[keep]]
        ok = (pa >= 0) & (pb >= 0)
        out.pairs = [(int(min(x, y)), int(max(x, y))) for x, y in zip(pa[ok].tolist(), pb[ok].tolist())]
    logger.info("health: %d vectors, %d meaning pairs kept", n, len(out.pairs))
    return out


def _top_pairs(sims: np.ndarray, rows: np.ndarray, cols: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each row of ``sims`` its ``k`` best columns, as (row id, column id, sim) arrays."""
    k = min(k, sims.shape[1] - 1)
    if k <= 0:
        e = np.zeros(0, dtype=np.int64)
        return e, e, np.zeros(0, dtype=np.float32)
    top = np.argpartition(-sims, k - 1, axis=1)[:, :k]
    vals = np.take_along_axis(sims, top, axis=1)
    return np.repeat(rows, k), cols[top.reshape(-1)], vals.reshape(-1)


def _unique_pairs(a: np.ndarray, b: np.ndarray, s: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    ok = lo != hi
    lo, hi, s = lo[ok], hi[ok], s[ok]
    key = lo.astype(np.int64) * n + hi
    _, first = np.unique(key, return_index=True)
    return lo[first], hi[first], s[first]


def _exact(mat: np.ndarray, inv: np.ndarray, handle: Handle) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair compared, a block of rows at a time."""
    n = len(mat)
    unit = mat * inv[:, None]
    cols = np.arange(n, dtype=np.int64)
    parts = []
    for start in range(0, n, _BLOCK):
        handle.step("meaning", start, n)
        stop = min(n, start + _BLOCK)
        sims = unit[start:stop] @ unit.T
        sims[np.arange(stop - start), np.arange(start, stop)] = -2.0  # not its own neighbour
        parts.append(_top_pairs(sims, cols[start:stop], cols, NEIGHBOURS))
    a, b, s = (np.concatenate(x) for x in zip(*parts))
    return _unique_pairs(a, b, s, n)


def _inverted(mat: np.ndarray, inv: np.ndarray, handle: Handle, seed: int = 5) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Approximate neighbours: k-means lists, every vector in its two nearest lists, pairs within each list."""
    n = len(mat)
    lists = max(16, int(2 * math.sqrt(n)))
    rng = np.random.default_rng(seed)
    sample = rng.choice(n, size=min(n, lists * 40), replace=False)
    cent = mat[sample[:lists]] * inv[sample[:lists], None]
    train = mat[sample] * inv[sample, None]
    for it in range(6):  # spherical k-means on the sample
        handle.step("meaning", it, 6 + 1)
        near = np.argmax(train @ cent.T, axis=1)
        sums = np.zeros_like(cent)
        np.add.at(sums, near, train)
        norms = np.linalg.norm(sums, axis=1)
        filled = norms > 0
        cent[filled] = sums[filled] / norms[filled, None]
    first = np.empty(n, dtype=np.int64)
    second = np.empty(n, dtype=np.int64)
    for start in range(0, n, 4096):
        sims = mat[start : start + 4096] @ cent.T  # the row's own norm does not change its nearest list
        two = np.argpartition(-sims, 1, axis=1)[:, :2]
        first[start : start + 4096], second[start : start + 4096] = two[:, 0], two[:, 1]
    member = np.concatenate([first, second])
    rows = np.concatenate([np.arange(n, dtype=np.int64)] * 2)
    order = np.argsort(member, kind="stable")
    member, rows = member[order], rows[order]
    bounds = np.searchsorted(member, np.arange(lists + 1))
    parts = []
    for c in range(lists):
        if c % 32 == 0:
            handle.step("meaning", c, lists)
        members = rows[bounds[c] : bounds[c + 1]]
        if len(members) < 2:
            continue
        unit = mat[members] * inv[members, None]
        sims = unit @ unit.T
        np.fill_diagonal(sims, -2.0)
        parts.append(_top_pairs(sims, members, members, NEIGHBOURS))
    if not parts:
        e = np.zeros(0, dtype=np.int64)
        return e, e, np.zeros(0, dtype=np.float32)
    a, b, s = (np.concatenate(x) for x in zip(*parts))
    return _unique_pairs(a, b, s, n)
