"""The query-adaptive fusion and the relevance floor, on hand-made candidate lists."""

from __future__ import annotations

import math

import pytest

from limbic.engine.search import fusion, scoring
from limbic.engine.search.scoring import Candidate, MeaningStats


def make(knn: list[tuple[int, float]], fts: list[tuple[int, float]], sims: dict[int, float]) -> list[Candidate]:
    """Candidates from a KNN list [(id, similarity)], a text list [(id, bm25)] and every id's similarity."""
    cands = scoring.reciprocal_rank_fusion([(i, 1.0 - s) for i, s in knn], fts)
    for c in cands:
        c.similarity = sims[c.entity_id]
    return cands


def order(cands, meaning, signals=fusion.DEFAULT_SIGNALS):
    bases = fusion.adaptive_base_relevance(cands, "hybrid", meaning, signals)
    return [c.entity_id for _, c in sorted(zip(bases, cands), key=lambda t: -t[0])]


MEANING = MeaningStats(mean=0.1, std=0.05, count=5000)


def test_an_entity_both_branches_rank_high_leads():
    sims = {1: 0.55, 2: 0.50, 3: 0.45, 4: 0.30, 5: 0.20}
    cands = make([(1, 0.55), (2, 0.50), (3, 0.45)], [(2, -9.0), (4, -8.0), (5, -3.0)], sims)
    assert order(cands, MEANING)[0] == 2


def test_a_guessing_text_branch_does_not_take_the_top():
    # Text matched words the query shares with unrelated notes: its hits sit at the graph's mean
    # similarity (z = 0), far from meaning's best. Its standout hit must not outrank meaning's.
    sims = {1: 0.50, 2: 0.45, 3: 0.40, 11: 0.10, 12: 0.11, 13: 0.09}
    cands = make([(1, 0.50), (2, 0.45), (3, 0.40)], [(11, -12.0), (12, -4.0), (13, -3.5)], sims)
    assert fusion.confirmation(cands, *_ranked(cands), MEANING) < 0.05
    assert order(cands, MEANING)[:3] == [1, 2, 3]
    # The fixed half-and-half blend would let the text branch's best hit in at the top.
    blend = scoring.blended_base_relevance(cands, "hybrid", 0.5)
    assert 11 in [c.entity_id for _, c in sorted(zip(blend, cands), key=lambda t: -t[0])][:2]


def test_a_confirmed_text_branch_counts_fully():
    sims = {1: 0.50, 2: 0.42, 3: 0.44, 4: 0.46, 5: 0.45, 6: 0.38, 7: 0.36}
    cands = make([(1, 0.50), (5, 0.45), (2, 0.42), (6, 0.38), (7, 0.36)], [(4, -12.0), (3, -4.0), (2, -3.5)], sims)
    assert fusion.confirmation(cands, *_ranked(cands), MEANING) > 0.9
    # A text hit far ahead of its list, and about as close in meaning as meaning's own hits, leads.
    assert order(cands, MEANING)[0] == 4
    # Without the text branch's vote it would not.
    assert order(cands, MEANING, fusion.Signals(exact_similarity=True, confirmation=False))[0] == 4
    no_text = fusion.adaptive_base_relevance(cands, "semantic", MEANING)
    assert max(zip(no_text, cands), key=lambda t: t[0])[1].entity_id == 1


def test_text_only_hits_are_judged_by_their_real_similarity():
    sims = {1: 0.50, 2: 0.40, 3: 0.35, 21: 0.48, 22: 0.05}
    cands = make([(1, 0.50), (2, 0.40), (3, 0.35)], [(22, -6.0), (21, -6.0)], sims)
    with_sim = order(cands, MEANING, fusion.Signals(confirmation=False))
    without = order(cands, MEANING, fusion.Signals(confirmation=False, exact_similarity=False))
    assert with_sim.index(21) < with_sim.index(22)  # same words, but 21 also means what was asked
    assert without.index(22) < without.index(21)  # without it they tie, and the text order stands


def test_base_relevance_is_relative_and_never_zero():
    sims = {1: 0.5, 2: 0.3, 3: 0.1}
    cands = make([(1, 0.5), (2, 0.3), (3, 0.1)], [(3, -2.0)], sims)
    bases = fusion.adaptive_base_relevance(cands, "hybrid", MEANING)
    assert max(bases) == pytest.approx(1.0) and min(bases) > 0
    semantic = fusion.adaptive_base_relevance(cands[:1], "semantic", MEANING)
    assert semantic == [1.0]
    assert fusion.adaptive_base_relevance([], "hybrid", MEANING) == []


def test_noise_ceiling_grows_with_the_graph():
    assert scoring.noise_ceiling(9) == pytest.approx(1.49, abs=0.02)
    assert scoring.noise_ceiling(5000) == pytest.approx(3.67, abs=0.02)
    assert scoring.noise_ceiling(100_000) > scoring.noise_ceiling(5000)
    assert scoring.noise_ceiling(1) == -math.inf


def test_floor_only_when_nothing_but_chance_level_meaning():
    meaning = MeaningStats(mean=0.1, std=0.05, count=100)  # ceiling ≈ 2.5 standard deviations
    weak = make([(1, 0.2), (2, 0.19)], [], {1: 0.2, 2: 0.19})  # z = 2.0
    strong = make([(1, 0.3), (2, 0.19)], [], {1: 0.3, 2: 0.19})  # z = 4.0
    assert scoring.below_floor(weak, meaning)
    assert not scoring.below_floor(strong, meaning)
    with_text = make([(1, 0.2)], [(2, -1.0)], {1: 0.2, 2: 0.12})
    assert not scoring.below_floor(with_text, meaning)  # a word of the query is in the graph
    assert not scoring.below_floor(weak, meaning, keep={2})  # an exact name match


def _ranked(cands):
    by_knn = sorted((c for c in cands if c.knn_rank), key=lambda c: c.knn_rank)
    by_fts = sorted((c for c in cands if c.fts_rank), key=lambda c: c.fts_rank)
    return by_knn, by_fts


def test_a_tiny_graph_falls_back_to_found_or_not():
    # Two entities: meaning's z-scores would be ±1 whatever the similarities; the only entity that
    # holds the query's words must lead.
    sims = {1: 0.50, 2: 0.45}
    cands = make([(1, 0.50), (2, 0.45)], [(2, -3.0)], sims)
    assert order(cands, MeaningStats(mean=0.475, std=0.025, count=2))[0] == 2


def test_one_outstanding_hit_does_not_shrink_the_votes_for_the_rest():
    # The best text hit is the query itself (or holds its rare identifier): however far ahead it
    # is, the other hits keep their z-scores, and the meaning branch keeps its say over them.
    rest = [10.0, 9.0, 7.5, 7.0, 6.0, 5.0]
    near = fusion._standardise({2: 10.0, 3: 9.0}, [12.0, *rest], population=1000)
    far = fusion._standardise({2: 10.0, 3: 9.0}, [300.0, *rest], population=1000)
    assert near == far
    assert near[0][2] > 1.0  # the runner-up still stands out from the rest
    # All but the best equal: the best's lead is what there is to go by.
    flat, _ = fusion._standardise({1: 12.0, 2: 5.0}, [12.0, 5.0, 5.0, 5.0, 5.0], population=1000)
    assert flat[1] > 1.5 and flat[2] < 0


def test_a_copy_of_the_query_leads_without_scrambling_the_rest():
    # ArguAna's case: the best text hit is the query itself, far ahead of everything. The others
    # must keep the order the two branches give them, not fall to a floor where they tie.
    knn = [(1, 0.98)] + [(10 + j, 0.70 - 0.01 * j) for j in range(30)]
    fts = [(1, -400.0)] + [(10 + j, -30.0 + 0.5 * j) for j in range(30)]
    sims = dict(knn)
    cands = make(knn, fts, sims)
    ranked = order(cands, MeaningStats(mean=0.55, std=0.05, count=5000))
    assert ranked[0] == 1
    assert ranked[1:6] == [10, 11, 12, 13, 14]
    bases = fusion.adaptive_base_relevance(cands, "hybrid", MeaningStats(mean=0.55, std=0.05, count=5000))
    assert len({round(b, 15) for b in bases}) == len(bases)  # no two candidates tie at the floor
