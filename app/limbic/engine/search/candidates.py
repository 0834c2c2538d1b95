"""What fusion and scoring both work on: a fused candidate, and how meaning spreads for one query."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MeaningStats:
    """How one query's cosine similarity spreads over all ``count`` entities with a vector."""

    mean: float
    std: float
    count: int

    def z(self, similarity: float) -> float:
        """How many standard deviations a similarity stands above the graph's mean for this query."""
        return (similarity - self.mean) / self.std if self.std > 0 else 0.0


@dataclass
class Candidate:
    """A fused candidate: where each branch ranked it, its RRF score and the branches' raw scores."""

    entity_id: int
    rrf_score: float = 0.0
    distance: float | None = None
    knn_rank: int | None = None
    fts_rank: int | None = None
    bm25: float | None = None  # FTS5's bm25(): lower is better
    similarity: float | None = None  # cosine similarity to the query, also for text-only hits
    size: float | None = None  # how much its text carries (engine/search/carry.py), read only when weighed

    @property
    def branch(self) -> str:
        """Which branch found it: "both", "meaning" or "text"."""
        if self.knn_rank is not None and self.fts_rank is not None:
            return "both"
        return "meaning" if self.knn_rank is not None else "text"
