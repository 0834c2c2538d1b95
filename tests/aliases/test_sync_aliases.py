"""Aliases travel through a sync folder; the same alias given to two entities on two devices is a conflict."""

from __future__ import annotations

import pytest

from limbic.engine.sync import conflicts
from tests.sync.replicas import settle, two_devices


def _two_places(graph):
    graph.upsert_entity("New York City", "Place")
    graph.upsert_entity("Newcastle", "Place")


@pytest.fixture
def pair(tmp_path):
    with two_devices(tmp_path, _two_places) as devices:
        yield devices


def _aliases(replica) -> dict[str, list[str]]:
    g = replica.graph
    return {g.db.scalar("SELECT name FROM entities WHERE id = ?", (i,)): v for i, v in g.aliases_by_entity().items()}


def test_an_alias_added_and_removed_travels(pair):
    a, b, folder = pair
    a.graph.add_alias("New York City", "NYC")
    settle([a, b], folder)
    assert _aliases(b) == {"New York City": ["NYC"]}
    b.graph.remove_alias("New York City", "NYC")
    settle([a, b], folder)
    assert _aliases(a) == {}


def test_an_alias_in_a_first_publish_travels(tmp_path):
    def city(graph):
        graph.upsert_entity("New York City", "Place")
        graph.add_alias("New York City", "Big Apple")

    with two_devices(tmp_path, city) as (_, b, _):
        assert _aliases(b) == {"New York City": ["Big Apple"]}


def test_the_same_alias_on_two_entities_keeps_one_owner_everywhere_and_shows_the_other(pair):
    a, b, folder = pair
    a.graph.add_alias("New York City", "NY")
    b.graph.add_alias("Newcastle", "ny")
    settle([a, b], folder)
    assert _aliases(a) == _aliases(b) and len(_aliases(a)) == 1  # one owner, the same on both devices
    assert conflicts.list_conflicts(a.graph) and conflicts.list_conflicts(b.graph)  # never a silent loss


def test_the_alias_conflict_names_both_entities(pair):
    a, b, folder = pair
    a.graph.add_alias("New York City", "NY")
    b.graph.add_alias("Newcastle", "NY")
    settle([a, b], folder)
    (conflict,) = conflicts.list_conflicts(a.graph)
    sentence = conflict.sentence()
    assert "New York City" in sentence and "Newcastle" in sentence, sentence
