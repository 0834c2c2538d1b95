"""Search's exact-name tier: an exact alias ranks its entity like its exact name would."""

from __future__ import annotations

from limbic.engine.search.search import search


def _fill(g):
    g.upsert_entity("New York City", "Place", ["The largest city of the United States, on the Hudson"])
    g.upsert_entity("Travel notes", "Note", ["NYC trip in May: museums, NYC pizza, the NYC subway"])
    g.upsert_entity("Boston", "Place", ["A city in New England"])
    g.add_alias("New York City", "NYC")


def test_an_exact_alias_ranks_its_entity_first_in_words(text_graph):
    _fill(text_graph)
    top = search(text_graph, "nyc", record=False).results[0]
    assert top.name == "New York City" and top.exact


def test_an_exact_alias_ranks_its_entity_first_with_the_model(graph):
    _fill(graph)
    graph.embed_pending()
    top = search(graph, "NYC", record=False).results[0]
    assert top.name == "New York City" and top.exact
    assert not any(r.exact for r in search(graph, "Big Apple", record=False).results)
