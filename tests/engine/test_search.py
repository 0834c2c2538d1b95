"""The six-step search with the real model: the seed's cases, modes, signals and hostile queries."""

from __future__ import annotations

import shutil

import pytest

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.engine.search import scoring
from limbic.engine.search.scoring import ScoringParams
from limbic.engine.search.search import fts_branch, fts_match_expression, query_terms, search

GRAPH = {
    "CachorroSpace": ("Project", ["Built with Astro Starlight", "Accent: teal (#2dd4bf)"]),
    "Skills catalogue": ("Tool", ["Skill: dom-cachorroink", "Renders pages with ink styles"]),
    "Memory server": ("Project", ["Keeps notes as embedding storage for semantic recall"]),
    "Paella night": ("Event", ["Cooked rice with saffron and seafood for friends"]),
    "Marathon training": ("Goal", ["Run 42 km in under four hours by October"]),
    "Jazz records": ("Collection", ["Vinyl albums by Miles Davis and Coltrane"]),
    "SQLite": ("Tool", ["Embedded relational engine used by Limbic"]),
    "Decisión de diseño": ("Decision", ["Usar búsqueda híbrida con fusión de rangos recíprocos"]),
    "Garden": ("Place", ["Tomatoes, basil and peppers grow by the fence"]),
}


@pytest.fixture(scope="module")
def filled_file(tmp_path_factory, embedder):
    """GRAPH written and embedded once for the module; each test opens its own copy of the file."""
    path = tmp_path_factory.mktemp("filled") / "filled.db"
    g = Graph(Database(path), embedder)
    try:
        for name, (etype, obs) in GRAPH.items():
            g.upsert_entity(name, etype, obs)
        g.add_relation("CachorroSpace", "Skills catalogue", "uses")
    finally:
        g.db.close()
    return path


@pytest.fixture
def filled(filled_file, tmp_path, embedder):
    path = tmp_path / "test.db"
    shutil.copyfile(filled_file, path)
    g = Graph(Database(path), embedder)
    yield g
    g.db.close()


def names(response):
    return [r.name for r in response.results]


def test_exact_identifier_found_through_full_text(filled):
    resp = search(filled, "Skill: dom-cachorroink", record=False)
    assert resp.mode == "hybrid"
    top = resp.results[0]
    assert top.name == "Skills catalogue"
    assert top.fts_rank == 1 and top.branch in ("text", "both")


def test_paraphrase_found_through_meaning(filled):
    resp = search(filled, "vector database", record=False)
    # No word of the query occurs in the entity: only the meaning branch can find it.
    assert filled.entity_id("Memory server") not in fts_branch(filled, "vector database", 30)
    hit = next(r for r in resp.results if r.name == "Memory server")
    assert hit.branch == "meaning" and hit.knn_rank <= 3
    assert "Memory server" in names(resp)[:3]


def test_last_token_matches_as_prefix(filled):
    resp = search(filled, "sqli", record=False)
    assert resp.results[0].name == "SQLite"
    assert resp.results[0].fts_rank == 1


def test_exact_name_comes_first(filled):
    filled.upsert_entity("Limbic notes", "Note", ["SQLite SQLite SQLite everywhere in SQLite"])
    resp = search(filled, "sqlite", record=False)
    assert resp.results[0].name == "SQLite" and resp.results[0].exact


def test_entity_found_by_both_branches_leads(filled):
    resp = search(filled, "seafood rice saffron", record=False)
    top = resp.results[0]
    assert top.name == "Paella night" and top.branch == "both"


def test_accented_query(filled):
    resp = search(filled, "búsqueda híbrida", record=False)
    assert resp.results[0].name == "Decisión de diseño"


def test_modes(filled, text_graph):
    assert search(filled, "CachorroSpace", record=False).mode == "hybrid"
    semantic = search(filled, "automobile", record=False)
    assert semantic.mode == "semantic" and semantic.results
    assert all(r.branch == "meaning" for r in semantic.results)
    assert "rrf_score" not in semantic.to_json()["results"][0]
    text_graph.upsert_entity("SQLite", "Tool", ["database engine"])
    text_only = search(text_graph, "database", record=False)
    assert text_only.mode == "fts" and names(text_only) == ["SQLite"]
    assert text_only.results[0].distance is None
    assert search(text_graph, "nothing matches", record=False).results == []


def test_output_shape_matches_the_seed(filled):
    data = search(filled, "Astro Starlight", record=False).to_json()
    assert data["mode"] == "hybrid"
    item = data["results"][0]
    assert item["name"] == "CachorroSpace" and item["entityType"] == "Project"
    assert item["observations"] == GRAPH["CachorroSpace"][1]
    assert set(item) == {"name", "entityType", "observations", "limbic_score", "scoring", "distance", "rrf_score"}
    assert set(item["scoring"]) == {"importance", "temporal_factor", "cooc_boost"}
    fts_only = [r for r in data["results"] if r["distance"] is None]
    assert all("rrf_score" in r for r in fts_only)


def test_search_records_access_and_co_occurrence(filled):
    resp = search(filled, "Astro Starlight", limit=3)
    ids = sorted(r.entity_id for r in resp.results)
    db = filled.db
    counts = dict(db.execute("SELECT entity_id, access_count FROM entity_access"))
    assert counts == {i: 1 for i in ids}
    assert db.scalar("SELECT count(*) FROM entity_access_log") == len(ids)
    pairs = db.execute("SELECT entity_a_id, entity_b_id, co_count FROM co_occurrences ORDER BY 1, 2").fetchall()
    assert pairs == [(a, b, 1) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    search(filled, "Astro Starlight", limit=3)
    assert db.scalar("SELECT max(access_count) FROM entity_access") == 2
    assert db.scalar("SELECT max(access_count) FROM entity_access_log") == 2


def test_no_record_search_leaves_no_trace(filled):
    search(filled, "Astro Starlight", record=False)
    db = filled.db
    for table in ("entity_access", "entity_access_log", "co_occurrences"):
        assert db.scalar(f"SELECT count(*) FROM {table}") == 0


def test_usage_history_lifts_an_entity(filled):
    quiet = search(filled, "projects", record=False)
    target = quiet.results[-1].name
    tid = filled.entity_id(target)
    filled.db.execute("INSERT INTO entity_access(entity_id, access_count, last_access) VALUES (?, 50, datetime('now'))", (tid,))
    loud = search(filled, "projects", record=False)
    before = next(r for r in quiet.results if r.name == target)
    after = next(r for r in loud.results if r.name == target)
    assert after.importance > 0 and after.limbic_score > before.limbic_score


def test_seed_base_relevance_is_selectable(filled):
    params = ScoringParams(base_relevance=scoring.BASE_SEED)
    resp = search(filled, "Astro Starlight", record=False, params=params)
    for r in resp.results:
        if r.distance is not None:
            assert r.base_relevance == pytest.approx(max(0.0, 1 - r.distance))
        else:
            assert 0.2 <= r.base_relevance <= 0.8


def test_entity_type_filter(filled):
    resp = search(filled, "project tool", record=False, entity_type="Tool")
    assert resp.results and {r.entity_type for r in resp.results} == {"Tool"}


ADVERSARIAL = [
    '"', '""', '"unbalanced', "*", "-", "-foo", ":", "name:", "name: x", "(", ")", "(a OR", "^", "^start",
    "NEAR", "NEAR(a b)", "AND", "OR", "NOT", "a AND", "NOT b", "AND OR NOT", "", "   ", "\t\n",
    "x" * 10_000, "word " * 2_000, "🙂🚀", "🙂 sqlite", "שלום עולם", "مرحبا بالعالم", "café crème brûlée",
    "Ω≈ç√∫", "\x00", "a\x00b", "\ud800", "'; DROP TABLE entities; --", "{}", "[]", "\\", "%_%",
    "entity_fts", "rowid:1", "* OR *", "a*b", "\"a\" \"b\"", "+", "'", "`", "$", "col:val*",
]


@pytest.mark.parametrize("query", ADVERSARIAL)
def test_hostile_queries_never_fail(filled, query):
    resp = search(filled, query, record=False)
    assert resp.mode in ("hybrid", "semantic")
    assert isinstance(resp.results, list)
    assert filled.counts()["entities"] == len(GRAPH)


@pytest.mark.parametrize("query", ["NOT", "AND sqlite", "sqlite OR", '"sqlite', "sqlite*", "-sqlite", "(sqlite)"])
def test_operators_are_ordinary_words(filled, query):
    expr = fts_match_expression(query)
    for word in ("NOT", "AND", "OR", "NEAR"):
        assert f" {word} " not in expr.replace(" OR ", " | ") or word == "OR"
    if "sqlite" in query:
        assert search(filled, query, record=False).results[0].name == "SQLite"


def test_query_terms_follow_unicode61():
    assert query_terms("Skill: dom-cachorroink") == ["skill", "dom", "cachorroink"]
    assert query_terms("snake_case") == ["snake", "case"]
    assert query_terms("🙂") == []
    assert fts_match_expression("   ") is None
    assert fts_match_expression("sqli") == '{stem_name stem_text} : ("sqli" OR "sqli"*)'
    assert fts_match_expression("sqli ") == '{stem_name stem_text} : ("sqli")'
    # Each word as its English and its Spanish stem.
    assert fts_match_expression("copias running ") == '{stem_name stem_text} : ("copia" OR "copi" OR "run" OR "running")'


def test_identifier_phrase_ranks_first(filled):
    filled.upsert_entity("Session 2026-03-28", "Session", ["Planned the ranking work"])
    filled.upsert_entity("Session 2026-03-29", "Session", ["Reviewed 2026 roadmap and 28 tickets from 03 sprint"])
    filled.upsert_entity("Ticket LMB-1042", "Task", ["Crash when importing a file with a BOM"])
    filled.upsert_entity("Ticket LMB-1043", "Task", ["LMB importer: 1042 lines were skipped"])
    assert search(filled, "2026-03-28", record=False).results[0].name == "Session 2026-03-28"
    resp = search(filled, "lmb-1042", record=False)
    assert resp.results[0].name == "Ticket LMB-1042" and resp.results[0].exact
    assert not any(r.exact for r in resp.results[1:])


def test_exact_name_outside_both_branches_is_still_found(filled):
    # Many entities mention the word; the one named exactly so must lead even when both
    # branches are saturated with others.
    for i in range(40):
        filled.upsert_entity(f"Note {i}", "Note", ["Garden tools and garden chores, garden garden"])
    resp = search(filled, "GARDEN", limit=3, record=False)
    assert resp.results[0].name == "Garden" and resp.results[0].exact


def test_access_and_co_occurrence_can_be_recorded_apart(filled):
    from limbic.engine.graph import signals

    a, b, c = (filled.entity_id(n) for n in ("SQLite", "Garden", "Jazz records"))
    assert signals.record_access(filled.db, [a], together=[a, b, c])
    db = filled.db
    assert dict(db.execute("SELECT entity_id, access_count FROM entity_access")) == {a: 1}
    assert db.scalar("SELECT count(*) FROM co_occurrences WHERE co_count = 1") == 3
    assert signals.record_access(filled.db, [b], together=[])
    assert db.scalar("SELECT sum(co_count) FROM co_occurrences") == 3
