"""The formulas of SPEC §4–5, each checked against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from limbic.engine.search import scoring
from limbic.engine.search.scoring import Candidate, ScoringParams


def test_rrf_reproduces_the_seed_worked_example():
    # The seed prints four decimals, truncated.
    # KNN ranks A, B, x, x, D; FTS ranks C, D, A.
    knn = [(1, 0.1), (2, 0.2), (90, 0.3), (91, 0.4), (4, 0.5)]
    fts = [3, 4, 1]
    fused = {c.entity_id: c for c in scoring.reciprocal_rank_fusion(knn, fts, k=60)}
    assert fused[1].rrf_score == pytest.approx(0.0322, abs=1e-4)  # KNN 1 + FTS 3
    assert fused[2].rrf_score == pytest.approx(0.0161, abs=1e-4)  # KNN 2 alone
    assert fused[3].rrf_score == pytest.approx(0.0164, abs=1e-4)  # FTS 1 alone
    assert fused[4].rrf_score == pytest.approx(0.0315, abs=1e-4)  # KNN 5 + FTS 2
    order = [c.entity_id for c in scoring.reciprocal_rank_fusion(knn, fts, k=60)]
    assert order[:4] == [1, 4, 3, 2]


def test_rrf_keeps_distance_and_ranks_per_branch():
    fused = {c.entity_id: c for c in scoring.reciprocal_rank_fusion([(7, 0.25)], [8, 7])}
    assert fused[7].distance == 0.25 and fused[7].knn_rank == 1 and fused[7].fts_rank == 2
    assert fused[7].branch == "both"
    assert fused[8].distance is None and fused[8].branch == "text"


def test_rrf_counts_a_duplicate_once():
    fused = scoring.reciprocal_rank_fusion([(1, 0.1), (1, 0.2)], [1, 1])
    assert len(fused) == 1
    assert fused[0].rrf_score == pytest.approx(2 / 61)


def test_min_max_edge_cases():
    assert scoring.min_max([]) == []
    assert scoring.min_max([0.5]) == [1.0]
    assert scoring.min_max([0.3, 0.3]) == [1.0, 1.0]
    assert scoring.min_max([1.0, 2.0, 3.0]) == [0.0, 0.5, 1.0]


def test_base_relevances():
    assert scoring.cosine_relevance(0.25) == 0.75
    assert scoring.cosine_relevance(1.7) == 0.0  # never negative
    assert scoring.fts_only_relevance(0.0) == pytest.approx(0.2)
    assert scoring.fts_only_relevance(1.0) == pytest.approx(0.8)
    cands = [Candidate(1, 0.03, 0.4, 1, 1), Candidate(2, 0.02, None, None, 2), Candidate(3, 0.01, None, None, 3)]
    seed = scoring.seed_base_relevance(cands, "hybrid")
    assert seed == pytest.approx([0.6, 0.2 + 0.6 * 0.5, 0.2])
    fused = scoring.fused_base_relevance(cands, "hybrid")
    assert fused == pytest.approx([1.0, 2 / 3, 1 / 3])
    # Semantic mode has no fusion: cosine similarity is the relevance.
    assert scoring.fused_base_relevance([Candidate(1, 0.0, 0.3, 1)], "semantic") == pytest.approx([0.7])
    # Full-text mode: the seed's normalised RRF for every hit.
    assert scoring.seed_base_relevance(cands, "fts")[0] == pytest.approx(0.8)


def test_importance_is_neutral_without_usage():
    assert scoring.importance(0, 0, 5, 0, 0) == 0.0


def test_importance_formula():
    p = ScoringParams()
    # Most used entity, degree 15 (capped), single-day history: consolidation factor 1.
    assert scoring.importance(8, 8, 40, 1, 1, p) == pytest.approx(1 * (1 + 0.15))
    # Half the log-uses, degree 0, 3 of 7 days.
    expected = (math.log2(4) / math.log2(16)) * 1 * (1 + 0.2 * math.log2(4) / math.log2(8))
    assert scoring.importance(3, 15, 0, 3, 7, p) == pytest.approx(expected)


def test_temporal_decays_to_a_floor():
    p = ScoringParams()
    assert scoring.temporal(0, p) == 1.0
    assert scoring.temporal(2900, p) == pytest.approx(math.exp(-0.29))
    assert scoring.temporal(1e7, p) == 0.1
    assert scoring.temporal(-5, p) == 1.0  # clock skew never boosts


def test_cooc_boost():
    p = ScoringParams()
    assert scoring.cooc_boost([], p) == 0.0
    assert scoring.cooc_boost([(3, 0.0), (1, 0.0)], p) == pytest.approx(2 + 1)
    assert scoring.cooc_boost([(1, 1e9)], p) == pytest.approx(0.1)


def test_limbic_score_composition():
    p = ScoringParams()
    assert scoring.limbic_score(0.5, 1.0, 0.9, 10, p) == pytest.approx(0.5 * 1.5 * 0.9 * 1.1)


def test_params_overrides_ignore_unknown_and_bad_choices():
    p = ScoringParams.from_overrides({"RRF_K": 30, "gamma": "0.5", "nope": 1, "base_relevance": "weird"})
    assert p.rrf_k == 30 and p.gamma == 0.5 and p.base_relevance == scoring.BASE_ADAPTIVE
    assert ScoringParams.from_overrides({"base_relevance": "seed"}).base_relevance == scoring.BASE_SEED
    assert ScoringParams.from_overrides({"expansion_factor": 0}).expansion_factor == 1


def test_blended_base_relevance():
    cands = [
        Candidate(1, 0.03, distance=0.2, knn_rank=1, fts_rank=2, bm25=-5.0),  # both branches
        Candidate(2, 0.02, distance=0.6, knn_rank=2),  # meaning only, the weaker cosine
        Candidate(3, 0.02, fts_rank=1, bm25=-9.0),  # text only, the best BM25
        Candidate(4, 0.01, fts_rank=3, bm25=-1.0),  # text only, the weakest BM25
    ]
    base = scoring.blended_base_relevance(cands, "hybrid", 0.5)
    # cosine 0.8 / 0.4 → 1 / 0; -bm25 9 / 5 / 1 → 1 / 0.5 / 0
    assert base == pytest.approx([0.5 * 1 + 0.5 * 0.5, 0.0, 0.5, 0.0])
    assert scoring.blended_base_relevance(cands, "hybrid", 1.0) == pytest.approx([1.0, 0.0, 0.0, 0.0])
    # One branch only: that branch's own scale.
    assert scoring.blended_base_relevance(cands[1:2], "semantic") == pytest.approx([0.4])
    assert scoring.blended_base_relevance(cands[2:], "fts") == pytest.approx([1.0, 0.0])
    params = ScoringParams(base_relevance=scoring.BASE_BLEND)
    assert scoring.base_relevance(cands, "hybrid", params) == pytest.approx(base)


def test_rrf_accepts_scored_text_hits():
    fused = scoring.reciprocal_rank_fusion([(1, 0.3)], [(2, -4.0), (1, -2.0)])
    by_id = {c.entity_id: c for c in fused}
    assert by_id[2].bm25 == -4.0 and by_id[1].bm25 == -2.0 and by_id[1].distance == 0.3
