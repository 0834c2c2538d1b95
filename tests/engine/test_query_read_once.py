"""A query is read once: every step of a search gets what reading it learned, and the answers are unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.bench import search_golden

GOLDEN = Path(__file__).with_name("search_golden.json")


@pytest.fixture(scope="module")
def golden_graph(tmp_path_factory, embedder):
    graph, queries = search_golden.build_small(tmp_path_factory.mktemp("golden") / "golden.db", embedder)
    yield graph, queries
    graph.db.close()


def test_every_mode_answers_as_the_golden_file_says(golden_graph):
    """Every mode's top ten, the text branch and the exact tiers, to 1e-9, as written by
    ``python -m tests.bench.search_golden tests/engine/search_golden.json`` before the query was read once."""
    graph, queries = golden_graph
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert [e["query"] for e in expected] == [q[:100] for q in queries]
    got = search_golden.snapshot(graph, queries)
    changed = [(e["query"], k) for e, g in zip(expected, got) for k in e if e[k] != g.get(k)]
    assert not changed, f"{len(changed)} answers changed, first {changed[:5]}"
