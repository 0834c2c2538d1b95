"""A past moment's full-text rows and borrowed vectors, made in bulk, are those an entity-by-entity pass makes."""

from __future__ import annotations

from limbic.engine.graph.graph import Graph
from limbic.engine.history import past_vectors
from limbic.engine.history.asof import graph_at
from limbic.engine.store.db import Database
from limbic.engine.vectors import index


def _busy_graph(tmp_path, clock, embedder=None) -> tuple[Graph, str]:
    g = Graph(Database(tmp_path / "g.db"), embedder)
    g.create_entity("Ann", "Person", ["lives in Oslo", "works on glaciers"])
    g.create_entity("Bob", "Person", ["plays chess"])
    g.create_entity("Cy", "Project", ["a glacier survey"])
    g.create_entity("Dee", "Person", ["never changes"])
    g.add_relation("Ann", "Cy", "leads")
    g.add_relation("Bob", "Ann", "knows")
    g.add_reflection("Ann seems tired", author="test", entity="Ann")
    clock.advance(60)
    obs = g.db.scalar("SELECT id FROM observations WHERE content = 'lives in Oslo'")
    g.supersede_observation(obs, "moved to Lisbon")
    g.end_relation("Bob", "Ann", "knows")
    then = clock.advance(60)
    clock.advance(60)
    g.rename_entity("Cy", "Cy Survey")  # changed since: its row of then cannot be borrowed
    g.add_observations("Bob", ["keeps bees"])
    clock.advance(60)
    return g, then


def _one_by_one(db: Database) -> dict[int, tuple]:
    out = {}
    for (entity_id,) in db.execute("SELECT id FROM entities").fetchall():
        src = index.load_source(db, entity_id)
        out[entity_id] = index.fts_row(src.entity_id, src.name, src.entity_type, src.observations)[1:]
    return out


def test_a_past_moments_text_index_is_the_one_made_entity_by_entity(tmp_path, clock):
    g, then = _busy_graph(tmp_path, clock)
    past = graph_at(g.db, then)
    try:
        rows = {r[0]: tuple(r[1:]) for r in past.db.execute(
            "SELECT rowid, name, entity_type, obs_text, stem_name, stem_text FROM entity_fts")}
        assert rows == _one_by_one(past.db)
        assert rows[g.entity_id("Cy Survey")][0] == "Cy"  # the name of then, not today's
        assert "moved to Lisbon" in rows[g.entity_id("Ann")][2] and "Ann seems tired" in rows[g.entity_id("Ann")][2]
        found = [r[0] for r in past.db.execute("SELECT rowid FROM entity_fts WHERE entity_fts MATCH 'glacier'")]
        assert g.entity_id("Cy Survey") in found  # and it answers
    finally:
        past.db.close()
    g.db.close()


def test_borrowed_vectors_are_todays_for_unchanged_entities_only(tmp_path, clock, embedder, monkeypatch):
    monkeypatch.setattr(past_vectors, "EMBED_AT_MOST", 0)  # the changed ones stay without a vector
    for lookups in (0, 10_000):  # one pass over all vectors, and a lookup each
        monkeypatch.setattr(past_vectors, "_LOOKUPS_AT_MOST", lookups)
        g, then = _busy_graph(tmp_path / str(lookups), clock, embedder)
        past = graph_at(g.db, then)
        try:
            borrowed, left = past_vectors.borrow_vectors(g.db, past, embedder)
            # Dee unchanged; Bob and Cy changed since, and Ann's link names Cy's old name
            assert (borrowed, left) == (1, 3)
            ann = g.entity_id("Dee")
            mine = past.db.scalar(f"SELECT embedding FROM {index.VEC_TABLE} WHERE rowid = ?", (ann,))
            assert mine == g.db.scalar(f"SELECT embedding FROM {index.VEC_TABLE} WHERE rowid = ?", (ann,))
            assert past.db.scalar(f"SELECT count(*) FROM {index.VEC_TABLE}") == 1
        finally:
            past.db.close()
        g.db.close()
