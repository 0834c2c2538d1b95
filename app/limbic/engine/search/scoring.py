"""Reciprocal Rank Fusion and limbic scoring: pure functions and every constant they use."""

from __future__ import annotations

import math
from statistics import NormalDist
from collections.abc import Mapping, Sequence, Set
from dataclasses import asdict, dataclass, field, fields, replace

from limbic.engine.search import fusion
# The candidate types live below both this module and fusion (re-exported: callers import them from here).
from limbic.engine.search.candidates import Candidate, MeaningStats

__all__ = ["Candidate", "MeaningStats", "ScoringParams"]

# Over-retrieval per branch, RRF smoothing, limbic weights (SPEC §5).
EXPANSION_FACTOR = 3
RRF_K = 60
BETA_SAL = 0.5
BETA_DEG = 0.15
D_MAX = 15
ALPHA_CONS = 0.2
LAMBDA_HOURLY = 0.0001
TEMPORAL_FLOOR = 0.1
COOC_TEMPORAL_FLOOR = 0.1
GAMMA = 0.01
# Seed base relevance for an FTS-only hit: 0.2 + 0.6 × norm_rrf.
FTS_ONLY_FLOOR = 0.2
FTS_ONLY_SPAN = 0.6
# Weight of the meaning branch in the blended base relevance (the text branch gets 1 - BLEND_ALPHA).
BLEND_ALPHA = 0.5
# An archived entity's final score is multiplied by this: still found, but after live ones
# (the seed engine de-boosts archived entities the same way; its factor is not documented).
ARCHIVED_FACTOR = 0.5

BASE_ADAPTIVE = "adaptive"  # default: each branch weighted by how far its own hits stand out (per query)
BASE_BLEND = "blend"  # α·minmax(cosine) + (1-α)·minmax(BM25), a fixed half each
BASE_FUSED = "fused"  # RRF score / best RRF score in the batch (plain RRF order)
BASE_SEED = "seed"  # the seed's: cosine similarity for KNN hits, 0.2 + 0.6 × norm_rrf otherwise
BASE_CHOICES = (BASE_ADAPTIVE, BASE_BLEND, BASE_FUSED, BASE_SEED)


@dataclass(frozen=True)
class ScoringParams:
    """All tunable constants; the settings may override any of them."""

    expansion_factor: int = EXPANSION_FACTOR
    rrf_k: float = RRF_K
    beta_sal: float = BETA_SAL
    beta_deg: float = BETA_DEG
    d_max: float = D_MAX
    alpha_cons: float = ALPHA_CONS
    lambda_hourly: float = LAMBDA_HOURLY
    temporal_floor: float = TEMPORAL_FLOOR
    cooc_temporal_floor: float = COOC_TEMPORAL_FLOOR
    gamma: float = GAMMA
    blend_alpha: float = BLEND_ALPHA
    base_relevance: str = field(default=BASE_ADAPTIVE)
    floor: bool = True  # say "no good match" when only chance-level meaning hits were found
    # What happened in the time a query names ("in June 2023") ranks before the rest, which follows
    # (docs/search.md, "Questions that name a time": a multiplier was measured against it).
    time_first: bool = True
    # How far the meaning vote for a text that carries less than the candidates' median shrinks: its
    # positive z-score times (carried / median) ** carry, at most 1. 0: off. 0.5 by query is the
    # setting that keeps every tuning collection within 0.005 of the ranking without it (docs/search.md).
    carry: float = 0.5
    # The carry only for candidates the text branch did not find.
    carry_unshared: bool = False
    # The carry as far as the query is short: full for a question, none for a query as long as the
    # model's window (as windows count, ``chunked_knn.passage_weight``).
    carry_by_query: bool = True

    @classmethod
    def from_overrides(cls, overrides: Mapping[str, object] | None) -> ScoringParams:
        """Defaults with the known keys of ``overrides`` applied (unknown keys are ignored)."""
        params = cls()
        if not overrides:
            return params
        known = {f.name: f.type for f in fields(cls)}
        changes: dict[str, object] = {}
        for key, value in overrides.items():
            key = key.lower()
            if key not in known:
                continue
            if key == "base_relevance":
                if value in BASE_CHOICES:
                    changes[key] = value
            elif key in ("floor", "time_first", "carry_unshared", "carry_by_query"):
                changes[key] = bool(value)
            elif key == "expansion_factor":
                changes[key] = max(1, int(value))  # type: ignore[arg-type]
            else:
                changes[key] = float(value)  # type: ignore[arg-type]
        return replace(params, **changes)

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def noise_ceiling(count: int) -> float:
    """The z-score the best of ``count`` unrelated entities reaches by chance.

    The expected largest of n standard normal values (Blom's approximation, Φ⁻¹((n − 0.375)/(n + 0.25))):
    about 1.5 for 9 entities, 2.5 for 100, 3.7 for 5,000, 4.4 for 100,000. A meaning-only hit
    below it is no more similar to the query than chance makes the best of the graph.
    """
    if count < 2:
        return -math.inf
    return NormalDist().inv_cdf((count - 0.375) / (count + 0.25))


def below_floor(candidates: Sequence[Candidate], meaning: MeaningStats, keep: Set[int] = frozenset()) -> bool:
    """True when nothing is a real match: no text hit, and meaning's best is what chance gives.

    "zz" or "asdf" share no word with the graph, and the model still ranks every entity by
    similarity; a best hit that stands no higher above the graph's mean than the best of as
    many unrelated entities would (``noise_ceiling``) means there is no good match to show.
    """
    if any(c.bm25 is not None or c.entity_id in keep for c in candidates):
        return False
    best = max((c.similarity for c in candidates if c.similarity is not None), default=None)
    return best is None or meaning.z(best) < noise_ceiling(meaning.count)


def reciprocal_rank_fusion(
    semantic: Sequence[tuple[int, float]],
    fulltext: Sequence[int] | Sequence[tuple[int, float]],
    k: float = RRF_K,
) -> list[Candidate]:
    """Fuse a KNN list [(id, distance)] and an FTS list [id] or [(id, bm25)], both best first: Σ 1/(k + rank)."""
    by_id: dict[int, Candidate] = {}
    for rank, (entity_id, distance) in enumerate(semantic, start=1):
        cand = by_id.setdefault(entity_id, Candidate(entity_id))
        if cand.knn_rank is None:
            cand.knn_rank, cand.distance = rank, float(distance)
            cand.rrf_score += 1.0 / (k + rank)
    for rank, item in enumerate(fulltext, start=1):
        entity_id, bm25 = item if isinstance(item, tuple) else (item, None)
        cand = by_id.setdefault(entity_id, Candidate(entity_id))
        if cand.fts_rank is None:
            cand.fts_rank, cand.bm25 = rank, bm25
            cand.rrf_score += 1.0 / (k + rank)
    # Ties keep the order of first appearance (KNN first): sorted() is stable.
    return sorted(by_id.values(), key=lambda c: -c.rrf_score)


def min_max(values: Sequence[float]) -> list[float]:
    """Min-max normalise to [0, 1]; all-equal values (range 0) normalise to 1."""
    if not values:
        return []
    lo, hi = min(values), max(values)
    span = hi - lo
    if span <= 0:
        return [1.0 for _ in values]
    return [(v - lo) / span for v in values]


def cosine_relevance(distance: float) -> float:
    """Similarity from cosine distance, never below 0."""
    return max(0.0, 1.0 - distance)


def fts_only_relevance(norm_rrf: float) -> float:
    """The seed's base relevance of a hit that only full text found: in [0.2, 0.8]."""
    return FTS_ONLY_FLOOR + FTS_ONLY_SPAN * norm_rrf


def seed_base_relevance(candidates: Sequence[Candidate], mode: str) -> list[float]:
    """The seed's base relevance: cosine for KNN hits, 0.2 + 0.6 × norm_rrf for the rest."""
    norms = min_max([c.rrf_score for c in candidates])
    out = []
    for cand, norm in zip(candidates, norms):
        if mode != "fts" and cand.distance is not None:
            out.append(cosine_relevance(cand.distance))
        else:
            out.append(fts_only_relevance(norm))
    return out


def fused_base_relevance(candidates: Sequence[Candidate], mode: str) -> list[float]:
    """Base relevance that keeps the fusion: the RRF score relative to the batch's best.

    In semantic mode there is no fusion, so cosine similarity is the relevance.
    """
    if mode == "semantic":
        return [cosine_relevance(c.distance if c.distance is not None else 1.0) for c in candidates]
    best = max((c.rrf_score for c in candidates), default=0.0)
    if best <= 0:
        return [1.0 for _ in candidates]
    return [c.rrf_score / best for c in candidates]


def blended_base_relevance(candidates: Sequence[Candidate], mode: str, alpha: float = BLEND_ALPHA) -> list[float]:
    """α × min-max(cosine similarity) + (1 - α) × min-max(BM25), each over the hits of its branch.

    A branch that did not find a candidate adds 0 for it, so an entity both branches found
    leads, and each branch's own confidence counts, not only its rank order. With one
    branch only (semantic or full-text mode) that branch's normalised score is the relevance.
    """
    sims = {i: cosine_relevance(c.distance) for i, c in enumerate(candidates) if c.distance is not None}
    texts = {i: -c.bm25 for i, c in enumerate(candidates) if c.bm25 is not None}
    if mode == "semantic" or not texts:
        return [sims.get(i, 0.0) for i in range(len(candidates))]
    norm_sim = dict(zip(sims, min_max(list(sims.values()))))
    norm_text = dict(zip(texts, min_max(list(texts.values()))))
    if mode == "fts" or not sims:
        return [norm_text.get(i, 0.0) for i in range(len(candidates))]
    return [alpha * norm_sim.get(i, 0.0) + (1 - alpha) * norm_text.get(i, 0.0) for i in range(len(candidates))]


def base_relevance(
    candidates: Sequence[Candidate], mode: str, params: ScoringParams, meaning: MeaningStats | None = None
) -> list[float]:
    """The base relevance the settings chose (adaptive by default)."""
    if params.base_relevance == BASE_SEED:
        return seed_base_relevance(candidates, mode)
    if params.base_relevance == BASE_FUSED:
        return fused_base_relevance(candidates, mode)
    if params.base_relevance == BASE_BLEND:
        return blended_base_relevance(candidates, mode, params.blend_alpha)
    return fusion.adaptive_base_relevance(candidates, mode, meaning, carry=params.carry,
                                          carry_unshared=params.carry_unshared)


def importance(
    access_count: int,
    max_access: int,
    degree: int,
    access_days: int,
    max_access_days: int,
    params: ScoringParams = ScoringParams(),
) -> float:
    """Salience from use, graph degree and multi-day consolidation; 0 when nothing was used yet."""
    if max_access <= 0:
        return 0.0
    use = math.log2(1 + access_count) / math.log2(1 + max_access)
    deg = 1 + params.beta_deg * min(degree, params.d_max) / params.d_max
    if max_access_days <= 1:
        cons = 1.0
    else:
        cons = 1 + params.alpha_cons * math.log2(1 + access_days) / math.log2(1 + max_access_days)
    return use * deg * cons


def temporal(hours: float, params: ScoringParams = ScoringParams()) -> float:
    """Exponential decay since the last access (or creation), never below the floor."""
    return max(params.temporal_floor, math.exp(-params.lambda_hourly * max(0.0, hours)))


def cooc_boost(
    pairs: Sequence[tuple[int, float]],
    params: ScoringParams = ScoringParams(),
) -> float:
    """Σ log2(1 + co_count) × decayed recency, over (co_count, hours since last_co) with other candidates."""
    total = 0.0
    for co_count, hours in pairs:
        decay = max(params.cooc_temporal_floor, math.exp(-params.lambda_hourly * max(0.0, hours)))
        total += math.log2(1 + co_count) * decay
    return total


def limbic_score(
    base: float, importance_value: float, temporal_value: float, cooc: float, params: ScoringParams
) -> float:
    """base × (1 + β_sal × importance) × temporal × (1 + γ × cooc)."""
    return base * (1 + params.beta_sal * importance_value) * temporal_value * (1 + params.gamma * cooc)


def status_factor(status: str | None) -> float:
    """The multiplier an entity's status applies to its final score (archived ranks lower)."""
    return ARCHIVED_FACTOR if status == "archived" else 1.0
