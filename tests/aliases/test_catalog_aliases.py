"""The window's catalog carries aliases, and its changes name the aliases of each entity they touch."""

from __future__ import annotations

from limbic import service
from limbic.service import organise, undo
from limbic.service.aliases import change_alias
from limbic.service.catalog import catalog_delta, read_catalog


def test_the_catalog_and_its_changes_carry_aliases(text_graph):
    g = text_graph
    g.create_entity("New York City", "Place", ["a big city"])
    g.create_entity("NYC", "Place", ["never sleeps"])
    g.create_entity("Alice", "Person")
    g.add_alias("NYC", "Big Apple")
    city, nyc = g.entity_id("New York City"), g.entity_id("NYC")
    assert read_catalog(g).aliases == {nyc: ["Big Apple"]}

    merged = service.run(g, organise.merge_entities, "NYC", "New York City")
    delta = catalog_delta(g, merged.changes)
    assert delta.aliases[city] == ["NYC", "Big Apple"] and nyc in delta.removed

    taken = service.run(g, change_alias, city, "Big Apple", False)
    assert catalog_delta(g, taken.changes).aliases == {city: ["NYC"]}

    service.run(g, undo.undo_step, taken.value)
    back = service.run(g, undo.undo_step, merged.value)
    delta = catalog_delta(g, back.changes)
    nyc = g.entity_id("NYC")
    assert delta.names[nyc] == "NYC" and delta.aliases[nyc] == ["Big Apple"] and delta.aliases[city] == []
