"""Query-adaptive fusion of the meaning and text branches: each query's own lists say how much to trust each.

A fixed half-and-half blend of min-max scores gives each branch's best hit full marks even when
that branch is guessing, and a guessing branch then fills the top of the page. Here each branch's
scores are standardised over its own top hits (z-scores): a hit's weight is how far it stands
above the rest of its own list, so one clear winner leads by much and an evenly trailing list
by little. A candidate one branch did not reach still gets that branch's opinion: its exact
cosine similarity (the vectors are in memory), or, for full text, the lowest score of the list.
The two votes count alike: both are standardised to the same scale, and no per-query weight of
one against the other was found that knows which branch is right (the "confirmation" weight that
scaled the text vote by how far the model confirms its best hits is off by default: it did not
correlate with which branch was right, and it cost nDCG@10 on four of five collections; docs/search.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from limbic.engine.search.candidates import Candidate, MeaningStats

# Each branch is standardised over its best STATS_DEPTH hits, and search retrieves at least that
# many from each, so a page of 10 ranks as an evaluation at depth 100 does. 100 rather than 30:
# measured better on both tuning collections and on weak text (README).
STATS_DEPTH = 100
MIN_SPREAD_HITS = 3
# A hit this many standard deviations above its list is as far ahead as can matter. Without a cap
# a copy of the query (z ≈ 50 once the best hit is out of the spread) put every other candidate
# more than 30 below it, where the base relevance bottoms out and the page lost its order
# (ArguAna nDCG@10 0.29); with it 0.519 (README).
Z_CAP = 10.0


@dataclass(frozen=True)
class Signals:
    """Which per-query evidence the fusion uses (the ablation turns them on and off one by one)."""

    standardise: bool = True  # z-scores over each branch's top hits; off: min-max (every branch's best = 1)
    exact_similarity: bool = True  # text-only hits get their real cosine; off: they count as missed by meaning
    confirmation: bool = False  # on: text is trusted as far as the model confirms its best hits


DEFAULT_SIGNALS = Signals()


def _spread(values: list[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def _standardise(values: dict[int, float], ranked: list[float], population: int) -> tuple[dict[int, float], float]:
    """z-scores against the mean and spread of ``ranked`` (a branch's top scores, best first).

    Also returns the value for a candidate the branch did not return: the z-score of its last
    counted hit. A list too short to estimate a spread (fewer than three hits) or with none (all
    equal) is standardised on what it does say, "found" or "not found" among ``population``
    entities: m hits of n give z = √((n − m)/m) to a hit and −√(m/(n − m)) to the rest, so being
    the only entity holding a rare word ("1702") counts as much as it is rare.

    The best hit stays out of the mean and spread (when there are more than MIN_SPREAD_HITS): one
    outstanding hit (a note that is the query itself, or the one holding its rare identifier) would
    widen the spread and shrink every other hit's z-score, so the branch's votes for the rest would
    count for less than the other branch's. Measured with the default model (README): ArguAna
    nDCG@10 0.503 → 0.519 (plain RRF 0.514), SciFact 0.728 either way.
    """
    top = ranked[:STATS_DEPTH]
    mean, std = _spread(top[1:] if len(top) > MIN_SPREAD_HITS else top)
    if std <= 0:  # all but the best are equal: the spread the best makes is all there is
        mean, std = _spread(top)
    if std <= 0 or len(top) < MIN_SPREAD_HITS:
        found, total = len(ranked), max(population, len(ranked))
        if total <= found:
            return {i: 0.0 for i in values}, 0.0
        return {i: math.sqrt((total - found) / found) for i in values}, -math.sqrt(found / (total - found))
    return {i: min(Z_CAP, (v - mean) / std) for i, v in values.items()}, min(Z_CAP, (top[-1] - mean) / std)


def _min_max_ref(values: dict[int, float], ranked: list[float]) -> dict[int, float]:
    top = ranked[:STATS_DEPTH]
    lo, hi = min(top), max(top)
    if hi <= lo:
        return {i: 1.0 for i in values}
    return {i: max(0.0, (v - lo) / (hi - lo)) for i, v in values.items()}


def adaptive_base_relevance(
    candidates: Sequence[Candidate],
    mode: str,
    meaning: MeaningStats | None,
    signals: Signals = DEFAULT_SIGNALS,
    carry: float = 0.0,
    carry_unshared: bool = False,
) -> list[float]:
    """Base relevance in [0, 1] from both branches, each weighted by its own evidence for this query.

    ``carry`` > 0: a candidate's positive meaning vote shrinks as its text carries less than the
    candidates' median (``Candidate.size``), (size / median) ** carry: a text that says nothing
    specific, near the query in meaning, says less than one as near that does. ``carry_unshared``:
    only for candidates the text branch did not find (sharing none of the query's words that count).
    """
    n = len(candidates)
    if n == 0:
        return []
    by_knn = sorted((c for c in candidates if c.knn_rank is not None), key=lambda c: c.knn_rank)
    by_fts = sorted((c for c in candidates if c.fts_rank is not None and c.bm25 is not None), key=lambda c: c.fts_rank)
    sims_ranked = [1.0 - c.distance for c in by_knn if c.distance is not None]
    population = meaning.count if meaning is not None else n
    text_ranked = [-c.bm25 for c in by_fts]

    sem: dict[int, float] = {}
    if sims_ranked:
        raw = {}
        for i, c in enumerate(candidates):
            if c.distance is not None:
                raw[i] = 1.0 - c.distance
            elif signals.exact_similarity and c.similarity is not None:
                raw[i] = c.similarity
        if signals.standardise:
            sem, floor = _standardise(raw, sims_ranked, population)
            lowest = min(floor, min(sem.values()))
            sem = {i: sem.get(i, lowest) for i in range(n)}
        else:
            sem = _min_max_ref(raw, sims_ranked)
        if carry > 0:
            sem = _carried(sem, candidates, carry, carry_unshared)
    text: dict[int, float] = {}
    if text_ranked:
        # Past the branch's best STATS_DEPTH hits, and for hits it did not return, full text says the
        # same thing: "not among my best". So the order of the top does not depend on the depth asked.
        cut = text_ranked[:STATS_DEPTH][-1]
        raw = {i: max(-c.bm25, cut) for i, c in enumerate(candidates) if c.bm25 is not None and c.fts_rank is not None}
        if signals.standardise:
            text, floor = _standardise(raw, text_ranked, population)
            text = {i: text.get(i, floor) for i in range(n)}
        else:
            text = _min_max_ref(raw, text_ranked)

    if mode == "semantic" or not text:
        return _relative([sem.get(i, 0.0) for i in range(n)])
    if mode == "fts" or not sem:
        return _relative([text.get(i, 0.0) for i in range(n)])

    w_text = 1.0
    if signals.confirmation and meaning is not None:
        w_text = confirmation(candidates, by_knn, by_fts, meaning)
    fused = [sem.get(i, 0.0) + w_text * text.get(i, 0.0) for i in range(n)]
    return _relative(fused)


def _carried(sem: dict[int, float], candidates: Sequence[Candidate], carry: float, unshared: bool = False) -> dict[int, float]:
    """Positive meaning votes scaled by how much each text carries against the candidates' median."""
    sizes = sorted(c.size for c in candidates if c.size)
    if not sizes:
        return sem
    median = sizes[len(sizes) // 2]
    out = dict(sem)
    for i, c in enumerate(candidates):
        v = out.get(i)
        if unshared and c.bm25 is not None:
            continue
        if v is not None and v > 0 and c.size is not None and c.size < median:
            out[i] = v * (max(c.size, median * 1e-3) / median) ** carry
    return out


def _relative(scores: list[float]) -> list[float]:
    """exp(score − best): 1 for the best candidate, e⁻¹ one standard deviation below; never 0.

    Never 0, so usage (importance, recency) can still lift a hit that relevance alone ranks
    last, and the lift means the same anywhere in the list.
    """
    best = max(scores)
    return [math.exp(max(-30.0, v - best)) for v in scores]


CONFIRM_TOP = 10


def confirmation(candidates: Sequence[Candidate], by_knn: list[Candidate], by_fts: list[Candidate], meaning: MeaningStats) -> float:
    """How far the model confirms the text branch: its best hits' similarity against meaning's own best, in [0, 1].

    Both are measured as z-scores over the whole graph for this query. When full text matched
    words the query shares with unrelated notes, its best hits are no closer in meaning than
    any entity, and the text branch's vote shrinks; when it found what meaning finds, it counts fully.
    """
    def z(c: Candidate) -> float | None:
        return meaning.z(c.similarity) if c.similarity is not None else None

    text_z = [v for v in (z(c) for c in by_fts[:CONFIRM_TOP]) if v is not None]
    own_z = [v for v in (z(c) for c in by_knn[:CONFIRM_TOP]) if v is not None]
    if not text_z or not own_z:
        return 1.0
    own = sum(own_z) / len(own_z)
    if own <= 0:
        return 1.0
    return min(1.0, max(0.0, (sum(text_z) / len(text_z)) / own))
