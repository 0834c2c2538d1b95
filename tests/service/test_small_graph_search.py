"""A real word is answered on a graph of five entities: too few words of its own to judge letters by."""

from __future__ import annotations

import pytest

from limbic.service import memory, memory_search

FIVE = [
    {"name": "Marta Ruiz", "entityType": "person", "observations": ["Plays the cello in a string quartet"]},
    {"name": "Sourdough loaf", "entityType": "recipe", "observations": ["Flour, water, salt and starter", "Bake at 230 degrees for 40 minutes"]},
    {"name": "Project Falcon", "entityType": "project", "observations": ["Migrating the billing service to Postgres"]},
    {"name": "Lisbon trip", "entityType": "event", "observations": ["Flight on 12 May, hotel in Alfama"]},
    {"name": "Dentist", "entityType": "person", "observations": ["Dr. Okafor, appointment every six months"]},
]


@pytest.fixture
def five(graph):
    memory.create_entities(graph, FIVE)
    graph.embed_pending()
    return graph


@pytest.mark.parametrize("query", ["music", "baking", "musical instrument", "bread"])
def test_a_real_word_is_answered_on_a_five_entity_graph(five, query):
    out = memory_search.search(five, query, record=False)
    assert out["results"] and "no_good_match" not in out, query
    names = [r["name"] for r in out["results"]]
    assert "Marta Ruiz" in names or "Sourdough loaf" in names, names


@pytest.mark.parametrize("query", ["qwertyuiop", "asdf", "xkcdq"])
def test_random_letters_still_find_nothing_on_a_five_entity_graph(five, query):
    out = memory_search.search(five, query, record=False)
    assert out["results"] == [] and out.get("no_good_match") is True, query
