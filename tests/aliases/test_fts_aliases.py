"""The words of an entity's aliases are in its full-text row: "apple" finds the entity also known as "Big Apple",
and every path that gives, takes off or brings back an alias keeps the row in step."""

from __future__ import annotations

import pytest

from limbic import service
from limbic.engine.check import check_graph
from limbic.engine.graph.graph import Graph
from limbic.engine.search.search import search
from limbic.engine.store.db import Database
from limbic.engine.text import stemming
from limbic.engine.vectors import index
from limbic.engine.vectors.entity_text import EntitySource
from limbic.service import organise, undo
from limbic.service.aliases import change_alias
from tests.sync.replicas import settle, two_devices


def _found(g, words: str) -> list[str]:
    return [r.name for r in search(g, words, record=False).results]


def _stem_name(g, name: str) -> str:
    return g.db.scalar("SELECT stem_name FROM entity_fts WHERE rowid = ?", (g.entity_id(name),))


@pytest.fixture
def g(text_graph):
    text_graph.upsert_entity("New York City", "Place", ["the largest city of the United States"])
    text_graph.upsert_entity("Boston", "Place", ["a city in New England"])
    return text_graph


def test_a_word_of_an_alias_finds_its_entity_until_the_alias_is_taken_off(g):
    assert "New York City" not in _found(g, "apple")
    g.add_alias("New York City", "Big Apple")
    assert _found(g, "apple")[0] == "New York City"
    assert _found(g, "apples")[0] == "New York City"  # by its stem, as the name's words are found
    g.remove_alias("New York City", "big apple")
    assert "New York City" not in _found(g, "apple")
    assert check_graph(g.db).consistent


def test_an_alias_does_not_change_the_embedded_text():
    plain = EntitySource(1, "New York City", "Place", ("a city",), ())
    assert EntitySource(1, "New York City", "Place", ("a city",), (), ("Big Apple",)).digest() == plain.digest()


def test_the_editor_step_and_its_undo_and_redo_keep_the_row_in_step(g):
    city = g.entity_id("New York City")
    step = service.run(g, change_alias, city, "Big Apple", True).value
    assert "appl" in _stem_name(g, "New York City").split()
    undo.undo_step(g, step)
    assert "appl" not in _stem_name(g, "New York City").split()
    undo.redo_step(g, step)
    assert _found(g, "apple")[0] == "New York City"


def test_a_merge_moves_the_words_to_the_survivor_and_undo_moves_them_back(g):
    g.upsert_entity("NYC", "Place", ["never sleeps"])
    g.add_alias("NYC", "Big Apple")
    step = organise.merge_entities(g, "NYC", "New York City")
    assert _found(g, "apple")[0] == "New York City" and _found(g, "nyc")[0] == "New York City"
    undo.undo_step(g, step)
    assert _found(g, "apple")[0] == "NYC"
    assert "appl" not in _stem_name(g, "New York City").split()


def test_an_alias_from_another_device_is_indexed_where_it_arrives(tmp_path):
    def places(graph):
        graph.upsert_entity("New York City", "Place", ["a big city"])

    with two_devices(tmp_path, places) as (a, b, folder):
        a.graph.add_alias("New York City", "Big Apple")
        settle([a, b], folder)
        assert _found(b.graph, "apple")[0] == "New York City"
        a.graph.remove_alias("New York City", "Big Apple")
        settle([a, b], folder)
        assert "New York City" not in _found(b.graph, "apple")


def test_a_file_indexed_before_aliases_were_re_indexes_only_the_entities_with_aliases(tmp_path):
    path = tmp_path / "old.db"
    g = Graph(Database(path))
    g.upsert_entity("New York City", "Place", ["a big city"])
    g.upsert_entity("Boston", "Place", ["a city in New England"])
    g.add_alias("New York City", "Big Apple")
    # As an older Limbic left it: the same stems, the name's words alone.
    with g.db.transaction():
        for entity_id, name, etype in g.db.execute("SELECT id, name, entity_type FROM entities").fetchall():
            src = index.load_source(g.db, entity_id)
            g.db.execute("DELETE FROM entity_fts WHERE rowid = ?", (entity_id,))
            g.db.execute(index.FTS_INSERT, index.fts_row(entity_id, name, etype, src.observations))
        g.db.set_meta(index.FTS_STEMS_KEY, stemming.STEMMER_VERSION)
    assert "New York City" not in _found(g, "apple")
    g.db.close()
    g = Graph(Database(path))
    try:
        assert g.fts_rebuilt == 1  # one entity has aliases: Boston's row is left as it was
        assert g.db.get_meta(index.FTS_STEMS_KEY) == index.FTS_CONTENT
        assert _found(g, "apple")[0] == "New York City" and _found(g, "england")[0] == "Boston"
    finally:
        g.db.close()


def test_the_graph_of_a_past_moment_is_found_by_the_aliases_it_had_then(g):
    import time

    from limbic.engine.history.asof import rebuild
    from limbic.engine.store.values import now_utc

    g.add_alias("New York City", "Big Apple")
    time.sleep(1.1)  # stored times are whole seconds: the removal must come after the moment asked for
    then = now_utc()
    time.sleep(1.1)
    g.remove_alias("New York City", "Big Apple")
    assert "New York City" not in _found(g, "apple")
    past = Graph(rebuild(g.db, then))
    try:  # today's row of the city (no alias) is not borrowed for the moment it had one
        assert _found(past, "apple")[0] == "New York City" and _found(past, "england")[0] == "Boston"
    finally:
        past.db.close()
