"""Refusals name what was refused: a reflection is not called an observation, and a merge whose two entities
share a status does not offer that status twice as the choice."""

from __future__ import annotations

import pytest

from limbic.engine.errors import ValidationError
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service.memory_history import add_reflection


@pytest.fixture
def graph(tmp_path):
    g = Graph(Database(tmp_path / "g.db"))
    g.upsert_entity("A", "Thing", ["one"])
    g.upsert_entity("B", "Thing", ["two"])
    yield g
    g.db.close()


def test_an_oversized_reflection_is_called_a_reflection(graph):
    with pytest.raises(ValidationError) as refused:
        add_reflection(graph, "global", content="x" * 10_000_000)
    assert str(refused.value) == "A reflection can be at most 200,000 characters long."
    assert graph.all_reflections() == []


def test_a_reflection_line_of_an_import_is_called_a_reflection():
    from limbic.engine.formats.jsonl import parse_lines_full
    from limbic.engine.errors import ImportFileError

    line = '{"type": "reflection", "about": "global", "content": "' + "x" * 200_001 + '"}'
    with pytest.raises(ImportFileError, match="A reflection can be at most"):
        parse_lines_full(iter([(1, line)]), "m.jsonl")


def test_merge_with_a_status_neither_entity_has_says_the_one_they_share(graph):
    from limbic.service.health.merge import plan_merge

    with pytest.raises(ValidationError) as refused:
        plan_merge(graph, "A", "B", status="weird")
    said = str(refused.value)
    assert said == "Both entities' status is “active”, so the merged entity keeps it and cannot be “weird”."
    graph.db.execute("UPDATE entities SET status = 'paused' WHERE name = 'A'")
    with pytest.raises(ValidationError, match="can be “active” or “paused”, not “weird”"):
        plan_merge(graph, "A", "B", status="weird")
