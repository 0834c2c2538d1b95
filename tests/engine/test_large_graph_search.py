"""What search does differently on a large graph, with its thresholds lowered so 40 entities stand in for 100,000.

Terms held by more than half the entities leave the full-text query (FTS5 gives them no weight),
a finished last word is not searched as a prefix, and the text branch runs on a second read-only
connection beside the vector scan. None of it may change which entities are found or their order.
"""

from __future__ import annotations

import shutil

import pytest

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.engine.search import flat_terms as flat_module
from limbic.engine.search import search as search_module
from limbic.engine.graph import signals
from limbic.engine.search.search import fts_match_expression, run_fts, search, text_plan, text_rows

# 40 entities: "kitchen" in 30 of them (more than half), "saffron" in 4, "teacher" in 8.
ENTITIES = [
    (f"Note {i:02d}", "Note", [
        ("Cleaned the kitchen shelves" if i < 30 else "Tidied the garage")
        + (", saffron on the top shelf" if i % 10 == 3 else "")
        + (", the teacher called" if i % 5 == 1 else ""),
    ])
    for i in range(40)
]


@pytest.fixture(scope="module")
def crowded_file(tmp_path_factory, embedder):
    """ENTITIES and a "Kitchen" written and embedded once for the module; each test opens its own copy."""
    path = tmp_path_factory.mktemp("crowded") / "crowded.db"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(flat_module, "FLAT_ROWS", 10)
        g = Graph(Database(path), embedder)
        try:
            for name, etype, obs in ENTITIES:
                g.upsert_entity(name, etype, obs)
            g.upsert_entity("Kitchen", "Place", ["Where the cooking happens"])
        finally:
            g.db.close()
    return path


@pytest.fixture
def crowded(crowded_file, tmp_path, embedder, monkeypatch):
    monkeypatch.setattr(flat_module, "FLAT_ROWS", 10)  # the rules apply from 20 entities
    path = tmp_path / "test.db"
    shutil.copyfile(crowded_file, path)
    g = Graph(Database(path), embedder)
    yield g
    g.db.close()


def holders(graph, word: str) -> set[int]:
    return {r[0] for r in graph.db.execute("SELECT rowid FROM entity_fts WHERE entity_fts MATCH ?", (f'"{word}"',))}


def test_a_term_in_most_entities_leaves_the_query_and_the_order_of_the_rest_stays(crowded, monkeypatch):
    rows = text_rows(crowded.db)
    assert rows == 41
    plan = text_plan(crowded.db, "kitchen saffron", rows, meaning=True)
    assert plan.expr == '{stem_name stem_text} : ("saffron")'  # a finished last word: no prefix either
    kept = run_fts(crowded.db, plan.expr, 100)
    monkeypatch.setattr(flat_module, "FLAT_ROWS", 10**9)  # every term, as on a small graph
    everything = run_fts(crowded.db, text_plan(crowded.db, "kitchen saffron", rows, meaning=True).expr, 100)
    saffron = holders(crowded, "saffron")
    assert len(everything) > len(kept) == len(saffron) == 4
    # The entities holding the informative word come first in the same order either way.
    assert [i for i, _ in kept] == [i for i, _ in everything][:4]


def test_an_unfinished_last_word_is_still_completed(crowded):
    rows = text_rows(crowded.db)
    # "saff" as a whole stem is held by no entity: only its completions are searched.
    assert text_plan(crowded.db, "garage saff", rows, meaning=True).expr == '{stem_name stem_text} : ("garag" OR "saff"*)'
    assert text_plan(crowded.db, "garage saffron", rows, meaning=True).expr == '{stem_name stem_text} : ("garag" OR "saffron")'


def test_a_query_of_only_flat_words_is_answered_by_meaning_and_exact_names(crowded):
    plan = text_plan(crowded.db, "kitchen", text_rows(crowded.db), meaning=True)
    assert plan.flat and plan.expr is None
    resp = search(crowded, "kitchen", record=False)
    assert not resp.no_match and resp.mode == "semantic"
    assert resp.results[0].name == "Kitchen" and resp.results[0].exact


def test_without_a_model_the_flat_words_are_still_searched(tmp_path, monkeypatch):
    from limbic.engine.store.db import Database
    from limbic.engine.graph.graph import Graph

    monkeypatch.setattr(flat_module, "FLAT_ROWS", 10)
    g = Graph(Database(tmp_path / "words.db"))
    try:
        for name, etype, obs in ENTITIES:
            g.upsert_entity(name, etype, obs)
        resp = search(g, "kitchen", limit=50, record=False)
        assert resp.mode == "fts"
        assert {r.entity_id for r in resp.results} == holders(g, "kitchen")
    finally:
        g.db.close()


def test_a_stem_no_entity_holds_leaves_the_query_and_no_score_changes(crowded):
    rows = text_rows(crowded.db)
    # "teacher" is searched as its English stem and its Spanish one ("teach"), which this English
    # graph holds nowhere in its stem columns.
    plan = text_plan(crowded.db, "teacher saffron", rows, meaning=True)
    assert plan.expr == '{stem_name stem_text} : ("teacher" OR "saffron")'
    full = fts_match_expression("teacher saffron", prefix=False)  # every stem
    assert full == '{stem_name stem_text} : ("teacher" OR "teach" OR "saffron")'
    assert run_fts(crowded.db, plan.expr, 100) == run_fts(crowded.db, full, 100)


def test_a_stem_left_out_as_absent_is_searched_once_a_note_holds_it(crowded):
    rows = text_rows(crowded.db)
    assert '"teach"' not in text_plan(crowded.db, "teacher saffron", rows, meaning=True).expr
    # A Spanish note: its stem column holds "teach" (the Spanish stem of the word as written).
    crowded.upsert_entity("Nota de cocina", "Note", ["La teacher de los niños llamó por la mañana para la reunión"])
    rows = text_rows(crowded.db)
    plan = text_plan(crowded.db, "teacher saffron", rows, meaning=True)
    assert '"teach"' in plan.expr
    assert crowded.entity_id("Nota de cocina") in {i for i, _ in run_fts(crowded.db, plan.expr, 100)}


@pytest.mark.parametrize("query", ["kitchen saffron", "teacher", "garage shelves", "the teacher called about saffron", "Note 07"])
def test_the_side_reader_gives_the_same_answer(crowded, monkeypatch, query):
    monkeypatch.setattr(search_module, "SIDE_READER_ROWS", 10**9)
    alone = search(crowded, query, record=False)
    assert crowded.db._side is None
    monkeypatch.setattr(search_module, "SIDE_READER_ROWS", 1)
    beside = search(crowded, query, record=False)
    assert crowded.db._side is not None  # the text branch ran on the second connection
    assert [(r.entity_id, r.branch, r.fts_rank, r.exact) for r in beside.results] == [
        (r.entity_id, r.branch, r.fts_rank, r.exact) for r in alone.results]
    assert [round(r.limbic_score, 6) for r in beside.results] == [round(r.limbic_score, 6) for r in alone.results]


def test_the_side_reader_closes_with_the_graph_and_sees_new_commits(crowded, monkeypatch):
    monkeypatch.setattr(search_module, "SIDE_READER_ROWS", 1)
    search(crowded, "saffron", record=False)
    side = crowded.db._side
    crowded.upsert_entity("Spice rack", "Place", ["Saffron, cumin and paprika in jars"])
    assert "Spice rack" in [r.name for r in search(crowded, "saffron cumin", record=False).results]
    crowded.db.close()
    assert crowded.db._side is None
    with pytest.raises(Exception):
        side.db.execute("SELECT 1")  # its connection is closed too
    assert side._pool._shutdown


def test_inside_a_write_the_search_reads_this_connection_only(crowded, monkeypatch):
    monkeypatch.setattr(search_module, "SIDE_READER_ROWS", 1)
    target = crowded.entity_id("Note 03")
    with crowded.db.transaction():
        crowded.db.execute("DELETE FROM entity_fts WHERE rowid = ?", (target,))
        found = [r.entity_id for r in search(crowded, "saffron", record=False).results if r.fts_rank is not None]
        assert target not in found  # the uncommitted change is seen: no other connection was asked
    assert crowded.db._side is None


def test_signals_loaded_in_two_steps_equal_signals_loaded_at_once(crowded):
    ids = [crowded.entity_id(f"Note {i:02d}") for i in range(12)]
    search(crowded, "saffron", record=True)  # access counts and co-occurrences among the hits
    search(crowded, "teacher", record=True)
    signals.load_signals(crowded.db, ids[:6])  # the memory holds these six; the other six are read next
    other = Database(crowded.db.path)  # a connection that reads all twelve at once
    try:
        assert signals.load_signals(crowded.db, ids) == signals.load_signals(other, ids)
    finally:
        other.close()
    assert any(s.cooc for s in signals.load_signals(crowded.db, ids).values())


def test_the_stems_known_are_forgotten_past_their_bound(crowded, monkeypatch):
    rows = text_rows(crowded.db)
    monkeypatch.setattr(flat_module, "MAX_KNOWN_STEMS", 2)
    words = ("teacher", "saffron", "garage", "shelves", "cleaned", "tidied", "called", "cooking", "happens")
    for word in words:
        text_plan(crowded.db, word, rows, meaning=True)
    # Without the bound every word's stems stay known (more than nine); with it, one query's past it at most.
    assert len(flat_module._absent_cache[crowded.db][1]) <= 2 + 2
    assert text_plan(crowded.db, "teacher saffron", rows, meaning=True).expr == '{stem_name stem_text} : ("teacher" OR "saffron")'
