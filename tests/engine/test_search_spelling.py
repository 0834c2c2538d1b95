"""A query word the graph does not hold also matches the graph's words spelt nearly like it, below an exact match."""

from __future__ import annotations

from limbic.engine.search import spelling
from limbic.engine.search.search import search


def _names(graph, query: str, n: int = 10) -> list[str]:
    return [r.name for r in search(graph, query, n, record=False).results]


def test_a_misspelt_query_finds_what_the_right_spelling_finds(sample):
    # Before near spellings: meaning alone answered, restic came 4th behind a clock and a renovation.
    assert _names(sample, "restik bakups", 2) == _names(sample, "restic backups", 2)
    assert _names(sample, "restik bakups", 2) == ["Decision: nightly backups with restic", "restic"]
    assert _names(sample, "restik", 1) == ["restic"]


def test_the_breakdown_says_which_spelling_it_met(sample):
    response = search(sample, "restik bakups", 5, record=False)
    by_name = {r.name: r for r in response.results}
    assert by_name["restic"].spelling_note.startswith("spelt like 'restic'")
    item = next(i for i in response.to_json()["results"] if i["name"] == "restic")
    assert item["scoring"]["spelling"] == by_name["restic"].spelling_note
    # A query spelt right says nothing new: its reply is as it was.
    right = search(sample, "restic backups", 5, record=False)
    assert all(r.spelling_note is None for r in right.results)
    assert all("spelling" not in i["scoring"] for i in right.to_json()["results"])


def test_a_near_spelling_counts_below_the_same_word_typed_right():
    # Entity 1 holds a word typed right, entity 2 the same score's worth through a near spelling.
    exact = [(1, -4.0)]
    with_near = [(1, -4.0), (2, -4.0), (3, -6.0)]
    combined = spelling.combine(exact, with_near, 10)
    assert combined == [(1, -4.0), (3, -3.0), (2, -2.0)]
    # A hit holding both: its exact share in full, its near share at NEAR_WEIGHT.
    assert spelling.combine([(1, -2.0)], [(1, -5.0)], 10) == [(1, -2.0 - 3.0 * spelling.NEAR_WEIGHT)]


def test_which_words_are_respelt(text_graph):
    text_graph.upsert_entity("Kitchen garden", "Project", ["Tomatoes, basil and saffron", "Water every morning"])
    text_graph.upsert_entity("Photo archive", "Project", ["Nightly backups of the photographs"])
    db = text_graph.db
    near = spelling.near_spellings
    assert near(db, ["saffran"]) == {"saffran": ("saffron",)}  # one edit, five to seven letters
    assert near(db, ["tomatos"]) == {}  # its stem is held (tomato): found already
    assert near(db, ["photografs"]) == {"photografs": ("photographs",)}  # two edits from eight letters
    assert near(db, ["tomatoes", "basil"]) == {}  # words the graph holds are never respelt
    assert near(db, ["backup"]) == {}  # held as a stem ("backups" → backup)
    assert near(db, ["basl"]) == {}  # too short: one edit from too many words
    assert near(db, ["baffron"]) == {}  # a slip of the first letter is not followed
    assert near(db, ["photogr"], unfinished="photogr") == {}  # still being typed: the prefix finds it
    assert near(db, ["zzzzzzz"]) == {}


def test_a_passage_is_not_respelt(text_graph):
    text_graph.upsert_entity("Kitchen garden", "Project", ["Tomatoes, basil and saffron"])
    question = search(text_graph, "tomatos", record=False)
    assert [r.name for r in question.results] == ["Kitchen garden"]
    passage = search(text_graph, "tomatos " + "lorem " * spelling.MAX_QUERY_WORDS, record=False)
    assert passage.results == [] or all(not r.spelt_like for r in passage.results)


def test_the_vocabulary_follows_the_graph_without_being_read_again(text_graph, monkeypatch):
    from limbic.engine.search import lexicon

    loads = []
    real = lexicon.Lexicon.load
    monkeypatch.setattr(lexicon.Lexicon, "load", lambda self, db: loads.append(1) or real(self, db))
    text_graph.upsert_entity("Kitchen garden", "Project", ["Tomatoes and basil"])
    assert [r.name for r in search(text_graph, "zebrra", record=False).results] == []
    text_graph.upsert_entity("Zoo", "Place", ["The zebra was fed at noon"])
    hits = search(text_graph, "zebrra", record=False).results
    assert [r.name for r in hits] == ["Zoo"] and hits[0].spelling_note == "spelt like 'zebra'"
    text_graph.upsert_entity("Kitchen garden", "Project", ["Tomatoes and basil", "A scarecrow"])
    assert [r.name for r in search(text_graph, "scarecrov", record=False).results] == ["Kitchen garden"]
    assert len(loads) == 1  # read once; what was written since came from the change log
