"""Word stems in the full-text index: per language, searched as both, and the once-only re-index of older files."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

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


def _columns_word_by_word(name, entity_type, observations, aliases=()):
    """What the stem columns hold, written the plain way: each text split and each word stemmed on its own."""
    def split(text):
        return [w.lower() for w in re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", text))]

    head = [w for part in (name, *aliases) for w in split(part)]
    body = [w for part in (entity_type, *observations) for w in split(part)]
    lang = stemming.language(body + head)
    return " ".join(stemming.stem(w, lang) for w in head), " ".join(stemming.stem(w, lang) for w in body)


_PIECES = ["Backups", "copias", "de", "la", "the", "and", "Ñandú", "ﬁle", "Ⅻ", "İstanbul", "straße", "x_y", "A1",
           "über", "él", "é", "—", "  ", "LMB-42", "ＦＵＬＬ", "\u0301", "ß", "Σίσυφος", "k8s", "de la", "of the"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_PIECES), max_size=12).map(" ".join), min_size=2, max_size=6),
       st.integers(0, 2))
def test_stem_columns_are_the_stems_of_each_word_on_its_own(texts, aliases):
    """Split in one pass (ASCII) or text by text, counted in C: the same columns as word by word."""
    name, entity_type, *rest = texts
    args = (name, entity_type, rest[aliases:], rest[:aliases])
    assert stemming.stem_columns(*args) == _columns_word_by_word(*args)


def test_a_long_text_is_told_by_its_first_words_and_stemmed_whole():
    spanish = " ".join(["las copias de seguridad"] * 120)  # 480 words, Spanish all through
    english = " ".join(["the backups of the disks"] * 100)
    for observations in ([spanish, english], [english, spanish], [english + " ñandú", spanish]):
        assert stemming.stem_columns("Discos", "Tarea", observations) == _columns_word_by_word("Discos", "Tarea", observations)
    assert stemming.stem_columns("Discos", "Tarea", [spanish, english])[0] == "disc"


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=40))
def test_ascii_text_splits_into_the_words_the_full_text_index_sees(text):
    assert stemming.words(text) == [w.lower() for w in re.findall(r"[^\W_]+", text)]
