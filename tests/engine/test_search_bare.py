"""An entity that is only a name never ranks above one whose observations hold the query, unless its name is the query."""

from __future__ import annotations

import pytest

from limbic.engine.search.search import search


@pytest.fixture
def notes(graph):
    graph.upsert_entity("Home server", "Machine", ["Nightly restic backups of the photos to the NAS at 2am",
                                                   "Runs Debian 12 with ZFS"])
    graph.upsert_entity("Maria", "Person", ["Plays the cello in the city orchestra", "Allergic to cats"])
    graph.upsert_entity("Sourdough recipe", "Recipe", ["Feed the starter twelve hours before baking"])
    graph.upsert_entity("Fountain pen", "Object", ["Lamy 2000 with blue ink, bought in Berlin"])
    for name in ("Backups", "Photos", "Music", "Cello lessons"):
        graph.upsert_entity(name, "Topic", [])  # named, nothing written yet
    return graph


def _names(graph, query: str) -> list[str]:
    return [r.name for r in search(graph, query, 10, record=False).results]


@pytest.mark.parametrize(("query", "holder", "bare"), [
    ("where are the photo backups", "Home server", ["Backups", "Photos"]),
    ("who plays music", "Maria", ["Music"]),
    ("cello", "Maria", ["Cello lessons"]),  # a name that holds the query is not the query
])
def test_a_bare_entity_follows_the_note_whose_observations_hold_the_query(notes, query, holder, bare):
    names = _names(notes, query)
    for name in bare:
        assert names.index(holder) < names.index(name), names


def test_a_bare_entity_named_exactly_so_still_comes_first(notes):
    assert _names(notes, "backups")[0] == "Backups"
    assert _names(notes, "Cello lessons")[0] == "Cello lessons"


def test_bare_entities_keep_their_order_among_themselves_and_stay_found(notes):
    names = _names(notes, "where are the photo backups")
    assert names.index("Backups") < names.index("Photos")  # the name holding both words first
    assert names[0] == "Home server"
