"""search_nodes finds what Python's ``needle in text.lower()`` finds, whatever the needle holds: LIKE's own
wildcards and escape, letters SQLite does not fold, letters that lower-case into ASCII (memory_reads.containing)."""

from __future__ import annotations

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service import memory_reads as R

TEXTS = ["100% sure", "a_b and c", "back\\slash", "plain ascii", "ÉCOLE d'été", "Straße 5", "\u212a kelvin",
         "İstanbul", "MiXeD CaSe", "under_score_", "percent %% twice", "tab\there", "ǅemal", "ΣΊΣΥΦΟΣ"]
NEEDLES = ["%", "_", "\\", "100%", "a_b", "a%b", "%%", "k", "kelvin", "école", "ss", "straße", "i̇stanbul", "mixed case",
           "xed c", "", " ", "\t", "ǆ", "σίσυφος", "σ", "e_", "\\s", "nothing", "é"]


def test_containing_finds_what_python_lower_finds(tmp_path):
    graph = Graph(Database(tmp_path / "g.db"))
    with graph.write():
        for i, text in enumerate(TEXTS):
            graph.upsert_entity(f"E{i} {text}" if i % 3 == 0 else f"E{i}", text if i % 3 == 1 else "T",
                                [text] if i % 3 == 2 else ["other"])
        graph.add_alias(graph.entity_id("E1"), "Alias_100%")
    texts = {}
    for entity_id, name, etype in graph.db.execute("SELECT id, name, entity_type FROM entities"):
        texts[entity_id] = [name, etype, *graph.get_entity(entity_id).observation_texts, *graph.aliases_of(entity_id)]
    for needle in NEEDLES:
        expected = sorted(i for i, values in texts.items() if any(needle in v.lower() for v in values))
        assert R.containing(graph, needle) == expected, needle
    assert R.containing(graph, "%")  # the cases meet something
    assert R.containing(graph, "a%b") == [] and R.containing(graph, "a_b") != R.containing(graph, "a b")
