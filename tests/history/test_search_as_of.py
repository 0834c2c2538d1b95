"""Search of a past date ranks the texts of then, borrowing today's vectors only for texts that did not change."""

from __future__ import annotations

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service.history import search_as_of


def test_search_as_of_finds_what_was_written_then_not_now(tmp_path, embedder, clock):
    g = Graph(Database(tmp_path / "g.db"), embedder)
    clock.advance(60)
    g.create_entity("Ann", "Person", ["lives in Oslo and works on glaciers"])
    g.create_entity("Bob", "Person", ["plays chess in cafes"])
    then = clock.advance(86_400)
    clock.advance(60)
    obs = g.db.scalar("SELECT id FROM observations WHERE content LIKE 'lives in Oslo%'")
    g.supersede_observation(obs, "moved to Lisbon to study tides")
    clock.advance(86_400)

    now_names = [r.name for r in search_as_of(g, "Lisbon tides", clock(), 2)[0].results]
    past, by_words = search_as_of(g, "Oslo glaciers", then, 2)
    assert now_names[0] == "Ann"
    assert past.results[0].name == "Ann"
    assert by_words == 0  # Ann's text of then was embedded again, Bob's vector is today's
    assert past.results[0].branch == "both"
    later, _ = search_as_of(g, "Lisbon tides", then, 2)
    assert "Ann" not in [r.name for r in later.results if r.branch in ("text", "both")]
    g.db.close()


def test_past_texts_beyond_the_limit_are_found_by_their_words_and_counted(tmp_path, embedder, clock, monkeypatch):
    from limbic.engine.history import past_vectors

    monkeypatch.setattr(past_vectors, "EMBED_AT_MOST", 0)
    g = Graph(Database(tmp_path / "g.db"), embedder)
    clock.advance(60)
    g.create_entity("Ann", "Person", ["lives in Oslo and works on glaciers"])
    g.create_entity("Bob", "Person", ["plays chess in cafes"])
    then = clock.advance(86_400)
    clock.advance(60)
    g.add_observations("Ann", ["keeps bees"])
    response, by_words = search_as_of(g, "Oslo glaciers", then, 2)
    assert by_words == 1
    assert [r.branch for r in response.results if r.name == "Ann"] == ["text"]
    g.db.close()
