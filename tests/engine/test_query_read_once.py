"""A query is read once: every step of a search gets what reading it learned, and the answers are unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from limbic.engine.search.flat_terms import text_rows
from limbic.engine.search.query import Query
from limbic.engine.search.text_branch import text_plan
from tests.bench import search_golden

GOLDEN = Path(__file__).with_name("search_golden.json")


@pytest.fixture(scope="module")
def golden_graph(tmp_path_factory, embedder):
    """The small graph made with the vectors the golden file was written with, not this machine's model run."""
    vectors = search_golden.Vectors.load(embedder, search_golden.vectors_path(GOLDEN))
    graph, queries = search_golden.build_small(tmp_path_factory.mktemp("golden") / "golden.db", vectors)
    yield graph, queries, vectors
    graph.db.close()


def test_every_mode_answers_as_the_golden_file_says(golden_graph):
    """Every mode's top ten, the text branch and the exact tiers, to 1e-9, as written by
    ``python -m tests.bench.search_golden tests/engine/search_golden.json``, on the vectors written beside it."""
    graph, queries, vectors = golden_graph
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert [e["query"] for e in expected] == [q[:100] for q in queries]
    got = search_golden.snapshot(graph, queries)
    # A query naming a time is answered differently since time is matched (test_search_time.py):
    # every other answer must be as it was.
    timeless = [Query.read(q).time is None for q in queries]
    assert timeless.count(False) == 2  # "... in 2001." and "Session 2026-03-28"
    # So is a query holding a word the graph lacks but spells nearly (docs/search.md, "Near spellings"):
    # "diagnosed" meets "diagnosis", "metastases" "metastasis", "blockade" "blocked", "phrase" "phase".
    rows = text_rows(graph.db)
    plain = [not text_plan(graph.db, Query.read(q), rows, meaning=True).near for q in queries]
    assert plain.count(False) == 4
    changed = [(e["query"], k) for e, g, t, p in zip(expected, got, timeless, plain) if t and p
               for k in e if e[k] != g.get(k)]
    assert not changed, f"{len(changed)} answers changed, first {changed[:5]}"
    assert not vectors.missing, f"texts the golden file's vectors do not hold (write it again): {vectors.missing[:3]}"


class _CountingPattern:
    """A compiled pattern that counts its ``findall`` calls: how often a text is split into words."""

    def __init__(self, pattern, calls: list[str]):
        self._pattern, self._calls = pattern, calls

    def findall(self, text, *args):
        self._calls.append(text)
        return self._pattern.findall(text, *args)

    def __getattr__(self, name):
        return getattr(self._pattern, name)


@pytest.fixture
def splits(monkeypatch):
    """Every split of a text into words by the search and the stemmer, as the texts split."""
    import importlib

    calls: list[str] = []
    for name in ("limbic.engine.search.search", "limbic.engine.search.query", "limbic.engine.text.stemming"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "_TOKEN"):
            monkeypatch.setattr(module, "_TOKEN", _CountingPattern(module._TOKEN, calls))
    return calls


@pytest.mark.parametrize("query, step", [
    ("ventana rota del coche", "cross-language"),  # no word of it in the graph: meaning without its language
    ("qqq xq", "no word"),  # nothing readable: only the entities holding its letters
    ("LMB-1042", "exact"),  # an identifier, held as a phrase and as a name
    ("doctor appoi", "prefix"),  # the last word unfinished
])
def test_a_search_splits_its_query_once(golden_graph, splits, monkeypatch, query, step):
    from limbic.engine.search import crosslingual, readable
    from limbic.engine.search.search import search

    graph, _, _ = golden_graph
    reached: list[str] = []
    spy = {"cross-language": (crosslingual, "language_free"), "no word": (readable, "literal_holders")}.get(step)
    if spy:
        real = getattr(*spy)
        monkeypatch.setattr(*spy, lambda *a, **kw: reached.append(step) or real(*a, **kw))
    response = search(graph, query, record=False)
    assert not spy or reached == [step], f"the {step} step was not reached"
    assert step != "exact" or response.results[0].exact
    assert len(splits) == 1, f"{query!r} was split {len(splits)} times: {splits}"


def test_a_query_is_read_into_one_frozen_value():
    import dataclasses

    from limbic.engine.search.query import Query

    q = Query.read("¿Cuándo es la cita con el médico?")
    assert q.terms == ("cuándo", "es", "la", "cita", "con", "el", "médico")
    assert q.content == ("cita", "médico") and q.language == "es" and not q.identifier
    assert q.stems == (("cita", "cit"), ("médico", "medic"))
    assert Query.read("LMB-1042").identifier and Query.read("doctor appoi").open_word == "appoi"
    assert Query.read("doctor appoi ").open_word is None and Query.read("a\x00b").text == "a b"
    with pytest.raises(dataclasses.FrozenInstanceError):
        q.text = "other"  # type: ignore[misc]


def test_whether_a_query_holds_a_word_is_judged_once(monkeypatch, text_graph):
    from limbic.engine.search import readable
    from limbic.engine.search.query import Query

    judged: list[list[str]] = []
    real = readable.readable
    monkeypatch.setattr(readable, "readable", lambda db, terms, rows: judged.append(terms) or real(db, terms, rows))
    q = Query.read("qqq xq")
    assert q.readable(text_graph.db, 0) is False and q.readable(text_graph.db, 0) is False
    assert judged == [["qqq", "xq"]]


def test_the_evaluation_reads_each_query_once_for_every_ranking(golden_graph, splits):
    from limbic.engine.evaluation import Collection, evaluate

    graph, _, _ = golden_graph
    queries = {"q1": "vitamin d deficiency", "q2": "LMB-1042 backup crash"}
    results = evaluate(graph, Collection([], queries, {"q1": {"d1": 1}, "q2": {"d2": 1}}))
    assert set(results) >= {"bm25", "knn", "rrf", "hybrid"}
    assert sorted(splits) == sorted(queries.values())
