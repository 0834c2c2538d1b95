"""Word stems in the full-text index: per language, searched as both, and the once-only re-index of older files."""

from __future__ import annotations

from limbic.engine.text import stemming
from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from limbic.engine.vectors.index import FTS_CONTENT, FTS_STEMS_KEY
from limbic.engine.search.search import search


def test_the_language_is_told_by_its_common_words():
    assert stemming.language(stemming.words("Hice las copias de seguridad de los discos")) == "es"
    assert stemming.language(stemming.words("I made the backups of the disks")) == "en"
    assert stemming.language(stemming.words("Pilot Custom 74")) == "en"  # says nothing: English rules
    assert stemming.stem_columns("Copias", "Tarea", ["Hacer las copias de seguridad cada semana"])[0] == "copi"
    assert stemming.stem_columns("Backups", "Task", ["Run the backups every week"])[0] == "backup"


def test_other_forms_of_a_word_are_found_in_english_and_in_spanish(text_graph):
    text_graph.upsert_entity("Nightly job", "Task", ["The server backups run every night"])
    text_graph.upsert_entity("Tarea semanal", "Tarea", ["Hacer las copias de seguridad de los discos cada semana"])
    text_graph.upsert_entity("Garden", "Place", ["Tomatoes and basil by the fence"])
    for query, name in (("backup", "Nightly job"), ("running", "Nightly job"), ("copia", "Tarea semanal"),
                        ("discos semanales", "Tarea semanal"), ("tomato", "Garden")):
        results = search(text_graph, query, record=False).results
        assert results and results[0].name == name, (query, [r.name for r in results])


def test_exact_names_still_come_first(text_graph):
    text_graph.upsert_entity("Running", "Hobby", ["Half marathon in Valencia"])
    for i in range(5):
        text_graph.upsert_entity(f"Log {i}", "Note", ["Running again: ran 10 km, runs every week, running shoes"])
    assert search(text_graph, "running", record=False).results[0].name == "Running"
    assert search(text_graph, "running", record=False).results[0].exact


def test_an_index_without_stems_is_rebuilt_once(tmp_path):
    path = tmp_path / "old.db"
    g = Graph(Database(path))
    g.upsert_entity("Nightly job", "Task", ["The server backups run every night"])
    g.upsert_entity("Garden", "Place", ["Tomatoes and basil"])
    # As a file written before the index held stems: three columns, and no record of stems.
    with g.db.transaction():
        g.db.execute("DROP TABLE entity_fts")
        g.db.execute('CREATE VIRTUAL TABLE entity_fts USING fts5(name, entity_type, obs_text, tokenize="unicode61")')
        g.db.execute("INSERT INTO entity_fts(rowid, name, entity_type, obs_text) SELECT e.id, e.name, e.entity_type, "
                     "group_concat(o.content, ' | ') FROM entities e JOIN observations o ON o.entity_id = e.id GROUP BY e.id")
        g.db.execute("DELETE FROM meta WHERE key = ?", (FTS_STEMS_KEY,))
    g.db.close()
    g = Graph(Database(path))
    try:
        assert g.fts_rebuilt == 2
        assert g.db.get_meta(FTS_STEMS_KEY) == FTS_CONTENT
        assert search(g, "backup", record=False).results[0].name == "Nightly job"
    finally:
        g.db.close()
    g = Graph(Database(path))
    try:
        assert g.fts_rebuilt == 0  # once only
    finally:
        g.db.close()


def test_a_new_file_starts_with_todays_full_text_table_and_says_nothing_of_repairs(tmp_path, caplog):
    from limbic.engine.store import tables

    with caplog.at_level("INFO", logger="limbic"):
        g = Graph(Database(tmp_path / "new.db"))
    try:
        assert tables.problems(g.db) == {}
        sql = g.db.one("SELECT sql FROM sqlite_master WHERE name = 'entity_fts'")[0]
        assert "stem_text" in sql
        assert not [r for r in caplog.records if "recreated" in r.getMessage() or "malformed" in r.getMessage()]
    finally:
        g.db.close()
