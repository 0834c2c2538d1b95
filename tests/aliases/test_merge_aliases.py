"""A merge keeps the merged-away name (and its aliases) as aliases of the survivor; undo takes them back."""

from __future__ import annotations

import pytest

from limbic.engine.errors import NotFoundError
from limbic.service import organise, undo
from limbic.service.health.merge import merge, plan_merge


@pytest.fixture
def g(text_graph):
    text_graph.create_entity("New York City", "Place", ["a big city"])
    text_graph.create_entity("NYC", "Place", ["never sleeps"])
    text_graph.add_alias("NYC", "Big Apple")
    return text_graph


@pytest.mark.parametrize("how", ["organise", "health"])
def test_a_merged_away_name_finds_the_survivor(g, how):
    if how == "health":
        assert plan_merge(g, "NYC", "New York City").aliases == ["NYC", "Big Apple"]  # the preview says so
        step = merge(g, "NYC", "New York City")
    else:
        step = organise.merge_entities(g, "NYC", "New York City")
    city = g.entity_id("New York City")
    assert g.aliases_of(city) == ["NYC", "Big Apple"]
    assert g.resolve("nyc") == city and g.resolve("big apple") == city
    undo.undo_step(g, step)
    assert g.get_entity("NYC").observation_texts == ["never sleeps"]
    assert g.aliases_of("New York City") == [] and g.aliases_of("NYC") == ["Big Apple"]
    undo.redo_step(g, step)
    assert g.resolve("NYC") == g.entity_id("New York City")
    with pytest.raises(NotFoundError):
        g.resolve("Gotham")


def test_the_merge_preview_says_which_names_the_survivor_keeps(g):
    from limbic.ui.health.wording import plan_html

    assert "Also known as afterwards:</b> “NYC”, “Big Apple”" in plan_html(plan_merge(g, "NYC", "New York City"))
