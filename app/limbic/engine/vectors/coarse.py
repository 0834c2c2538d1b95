"""A coarse first pass over many vectors: one sign bit per dimension, compared by Hamming distance.

The exact scan of every float32 vector reads 1.5 KB per vector (204 MB for 133,000 vectors of 384
dimensions), and on a machine whose cores are busy it is bounded by memory, not arithmetic. The sign
bits of the same vectors are 48 bytes each (6.4 MB for 133,000): the rows nearest the query by
Hamming distance are found in about a millisecond, and only those are scored exactly
(``chunked_knn``). The bits are of each unit vector minus the centre of the vectors (their mean when
the bits were first built): an embedding model's vectors all lean one way (e5's cosine similarities
sit near 0.8), so signs taken around zero would be nearly alike for every row.

What the sign bits lose is measured in docs/search.md ("Large graphs: a coarse pass first"): a few of
the exact top hundred may rank below the rows kept for scoring and be left out. Every score that is
returned is exact.
"""

from __future__ import annotations

import numpy as np

# The weights of the dimensions in the distance: integers 0..7, three bit planes.
WEIGHT_BITS = 3
WEIGHT_LEVELS = (1 << WEIGHT_BITS) - 1
# The weighted distance is taken over this many times the rows asked for, the nearest by the plain count.
PLAIN_FIRST = 4

# Rows per block while building the bits: the unit vectors are made a block at a time, never the
# whole matrix at once (that would double the mirror's memory for a moment).
_BLOCK = 8192


def _pack(rows: np.ndarray, centre: np.ndarray) -> np.ndarray:
    return np.packbits(rows - centre > 0, axis=1)


class SignBits:
    """The sign bits of a mirror's rows, row for row, kept in step as rows are set and moved."""

    def __init__(self, mat: np.ndarray, inv: np.ndarray) -> None:
        """Bits of ``mat[i] * inv[i]`` (rows scaled to unit length); the centre is their mean."""
        n, dim = mat.shape
        self.dim = dim
        total = np.zeros(dim, dtype=np.float64)
        for start in range(0, n, _BLOCK):
            total += (mat[start : start + _BLOCK] * inv[start : start + _BLOCK, None]).sum(0, dtype=np.float64)
        self.centre = (total / max(n, 1)).astype(np.float32)
        # Whole 64-bit words per row, so that a row is compared a word at a time.
        self.width = -(-dim // 64) * 8
        self.bits = np.zeros((max(n, 1), self.width), dtype=np.uint8)
        for start in range(0, n, _BLOCK):
            block = mat[start : start + _BLOCK] * inv[start : start + _BLOCK, None]
            self.bits[start : start + len(block), : -(-dim // 8)] = _pack(block, self.centre)

    @property
    def nbytes(self) -> int:
        return int(self.bits.nbytes + self.centre.nbytes)

    def set_rows(self, positions: np.ndarray, unit_rows: np.ndarray) -> None:
        """Rows ``positions`` now hold these unit vectors."""
        if not len(positions):
            return
        needed = int(positions.max()) + 1
        if needed > len(self.bits):
            grown = np.zeros((max(needed, int(len(self.bits) * 1.25)), self.width), dtype=np.uint8)
            grown[: len(self.bits)] = self.bits
            self.bits = grown
        self.bits[positions, : -(-self.dim // 8)] = _pack(np.asarray(unit_rows, dtype=np.float32), self.centre)

    def move(self, source: int, target: int) -> None:
        """Row ``source`` was moved into row ``target``."""
        self.bits[target] = self.bits[source]

    def nearest(self, query: np.ndarray, n: int, count: int) -> np.ndarray:
        """The positions (unordered) of the ``count`` rows among the first ``n`` nearest the unit
        ``query``; every row when ``count >= n``.

        Near by a weighted Hamming distance: each dimension whose sign differs from the query's counts
        as far as the query stands from the centre there (``|q - centre|``, rounded to 0..7 of its
        largest), so dimensions where the query's own sign is nearly a coin toss count little. It is
        summed a bit plane of the weights at a time (three popcounts), over the rows the plain count of
        differing signs puts nearest (``PLAIN_FIRST`` times ``count``), and keeps about a tenth more
        of the exact top hundred than the plain count alone (docs/search.md).
        """
        if count >= n:
            return np.arange(n)
        width = -(-self.dim // 8)
        centred = query.reshape(-1) - self.centre
        qbits = np.zeros(self.width, dtype=np.uint8)
        qbits[:width] = np.packbits(centred > 0)
        qwords = qbits.view(np.uint64)
        words = self.bits[:n].view(np.uint64)
        rows = None
        if PLAIN_FIRST * count < n:  # the plain count first, over every row; the weighted one over its best
            rows = np.argpartition(_popcount(words ^ qwords), PLAIN_FIRST * count - 1)[: PLAIN_FIRST * count]
            words = words[rows]
        away = np.abs(centred)
        levels = np.rint(away * (WEIGHT_LEVELS / max(float(away.max()), 1e-12))).astype(np.uint8)
        differ = words ^ qwords
        dist = np.zeros(len(words), dtype=np.uint16)
        for plane in range(WEIGHT_BITS):
            mask = np.zeros(self.width, dtype=np.uint8)
            mask[:width] = np.packbits((levels >> plane) & 1)
            dist += _popcount(differ & mask.view(np.uint64)) << plane
        best = np.argpartition(dist, count - 1)[:count]
        return best if rows is None else rows[best]


def _popcount(words: np.ndarray) -> np.ndarray:
    """Set bits per row of a (rows, words) uint64 array, as uint16."""
    counts = np.bitwise_count(words)
    total = counts[:, 0].astype(np.uint16)
    for j in range(1, counts.shape[1]):  # a column at a time: faster than a sum over 6 columns
        total += counts[:, j]
    return total


def hamming_available() -> bool:
    """numpy 2.0 and later count bits (``np.bitwise_count``)."""
    return hasattr(np, "bitwise_count")
