"""The graph's vocabulary is read once per connection and followed through the change log, never per search."""

from __future__ import annotations

from limbic.engine.search import lexicon
from limbic.engine.search.search import search


def _counting(monkeypatch) -> list[int]:
    loads: list[int] = []
    real = lexicon.Lexicon.load
    monkeypatch.setattr(lexicon.Lexicon, "load", lambda self, db: loads.append(1) or real(self, db))
    return loads


def _truth(db, term: str) -> int:
    db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.truth USING fts5vocab(main, entity_fts, 'row')")
    return int(db.scalar("SELECT doc FROM temp.truth WHERE term = ?", (term,)) or 0)


def test_counts_follow_what_is_written_without_reading_again(text_graph, monkeypatch):
    loads = _counting(monkeypatch)
    db = text_graph.db
    for i in range(3):
        text_graph.upsert_entity(f"Garden {i}", "Project", ["Tomatoes and basil in the kitchen"])
    lex = lexicon.lexicon(db)
    assert lex.doc("kitchen") == 3 and lex.doc("tomato") == 3  # stems counted too
    text_graph.upsert_entity("Garden 3", "Project", ["A kitchen shelf of saffron"])
    text_graph.add_observations("Garden 0", ["Saffron too"])
    lex = lexicon.lexicon(db)
    assert (lex.doc("kitchen"), lex.doc("saffron"), lex.doc("shelf")) == (4, 2, 1)
    assert {t: lex.doc(t) for t in ("kitchen", "saffron", "shelf")} == {t: _truth(db, t) for t in ("kitchen", "saffron", "shelf")}
    for _ in range(5):  # searching reads nothing again
        search(text_graph, "kitchen saffron", record=False)
    assert len(loads) == 1


def test_a_word_removed_is_counted_again_once_enough_changed(text_graph, monkeypatch):
    loads = _counting(monkeypatch)
    db = text_graph.db
    names = [f"Note {i}" for i in range(lexicon.MIN_DRIFT + 2)]
    for name in names:
        text_graph.upsert_entity(name, "Note", ["about the harbour"])
    assert lexicon.lexicon(db).doc("harbour") == len(names)
    text_graph.delete_entity(names[0])
    # The log says an entity went, not which words it held: the count waits for the next reading.
    assert lexicon.lexicon(db).doc("harbour") == len(names) and len(loads) == 1
    for name in names[1:]:
        text_graph.delete_entity(name)
    assert lexicon.lexicon(db).doc("harbour") == 0 == _truth(db, "harbour")
    assert len(loads) == 2
