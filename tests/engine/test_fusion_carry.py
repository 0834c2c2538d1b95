"""The meaning vote weighs how much each text carries (``ScoringParams.carry``, by how short the query is; measured)."""

from __future__ import annotations

from limbic.engine.search import fusion
from limbic.engine.search.candidates import Candidate, MeaningStats


def _candidates() -> list[Candidate]:
    # Meaning prefers the short generic turn a little; the long one also holds the query's rare words.
    sims = [0.80, 0.78] + [0.40 - 0.01 * i for i in range(8)]
    sizes = [20, 180] + [150] * 8
    out = []
    for i, (sim, size) in enumerate(zip(sims, sizes)):
        out.append(Candidate(i + 1, distance=1.0 - sim, knn_rank=i + 1, similarity=sim, size=size,
                             fts_rank=1 if i == 1 else None, bm25=-3.0 if i == 1 else None))
    return out


def test_a_short_text_votes_less_by_meaning_when_carry_is_on():
    cands = _candidates()
    stats = MeaningStats(0.3, 0.1, 1000)
    plain = fusion.adaptive_base_relevance(cands, "semantic", stats)
    carried = fusion.adaptive_base_relevance(cands, "semantic", stats, carry=1.0)
    assert plain[0] > plain[1]  # by meaning alone the short turn wins
    assert carried[1] > carried[0]  # weighed by what it carries, it no longer does
    assert fusion.adaptive_base_relevance(cands, "semantic", stats, carry=0.0) == plain


def test_what_a_text_carries_is_its_rare_words_not_its_length(graph):
    from limbic.engine.search import carry
    from limbic.engine.search.flat_terms import text_rows

    for i in range(30):
        graph.upsert_entity(f"Turn {i}", "Turn", [f"John: thanks, I will see you at the party then, take care {i}"])
    generic = graph.upsert_entity("Long goodbye", "Turn", ["John: thanks, I will, I will, see you, take care, see you at the party then"])
    specific = graph.upsert_entity("Zanzibar", "Turn", ["Maria: Zanzibar cloves"])
    cands = [Candidate(generic), Candidate(specific)]
    carry.measure(graph.db, cands, text_rows(graph.db))
    # The longer text of the graph's commonest words carries less than three rare words.
    assert cands[1].size > cands[0].size > 0


def test_the_carry_can_spare_what_full_text_found():
    cands = _candidates()
    stats = MeaningStats(0.3, 0.1, 1000)
    cands[1].size = 10  # the text hit now carries least
    both = fusion.adaptive_base_relevance(cands, "semantic", stats, carry=1.0)
    spared = fusion.adaptive_base_relevance(cands, "semantic", stats, carry=1.0, carry_unshared=True)
    assert both[0] > both[1]  # damped, the text hit falls behind
    assert spared[1] == max(spared)  # spared, it is not damped; the meaning-only short turn is


def test_a_query_as_long_as_a_window_is_not_carried(graph, monkeypatch):
    from dataclasses import replace

    from limbic.engine.search.scoring import ScoringParams
    from limbic.engine.search.search import search

    graph.upsert_entity("Short", "Turn", ["Maria: thanks, bye!"])
    graph.upsert_entity("Cloves", "Turn", ["Maria: we brought cloves back from Zanzibar, the spice market smelled of them"])
    seen: list[float] = []
    weigh = fusion.adaptive_base_relevance

    def spy(*args, carry=0.0, **kwargs):
        seen.append(carry)
        return weigh(*args, carry=carry, **kwargs)

    monkeypatch.setattr(fusion, "adaptive_base_relevance", spy)
    by_query = replace(ScoringParams(), carry=1.0, carry_by_query=True)
    search(graph, " ".join(["Maria told John about the spice market in Zanzibar and the cloves"] * 30), record=False,
           params=by_query)
    search(graph, "what did Maria bring from Zanzibar?", record=False, params=by_query)
    search(graph, "what did Maria bring from Zanzibar?", record=False, params=replace(by_query, carry_by_query=False))
    long_carry, short_carry, plain = seen
    assert long_carry == 0.0  # a whole text asks for its like: no carry
    assert 0.5 < short_carry < 1.0  # a question is carried, a little less as it grows
    assert plain == 1.0


def test_by_default_a_short_generic_turn_no_longer_outranks_on_meaning_alone(graph, monkeypatch):
    from limbic.engine.search.scoring import ScoringParams
    from limbic.engine.search.search import search

    graph.upsert_entity("Short", "Turn", ["Maria: thanks, bye!"])
    graph.upsert_entity("Cloves", "Turn", ["Maria: we brought cloves back from Zanzibar, the spice market smelled of them"])
    seen: list[float] = []
    weigh = fusion.adaptive_base_relevance

    def spy(*args, carry=0.0, **kwargs):
        seen.append(carry)
        return weigh(*args, carry=carry, **kwargs)

    monkeypatch.setattr(fusion, "adaptive_base_relevance", spy)
    search(graph, "what did Maria bring from Zanzibar?", record=False, params=ScoringParams())
    (used,) = seen
    assert used > 0  # the default settings carry a question
    cands = _candidates()
    stats = MeaningStats(0.3, 0.1, 1000)
    carried = weigh(cands, "semantic", stats, carry=used)
    assert weigh(cands, "semantic", stats)[0] > weigh(cands, "semantic", stats)[1]  # uncarried, the short turn wins
    assert carried[1] > carried[0]  # carried as search does by default, the text with the rare words wins
