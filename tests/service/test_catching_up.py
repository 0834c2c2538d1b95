"""Search while embedding catches up: most of the graph without a vector is answered by its words, not by
a meaning vote over the few entities that have one."""

from __future__ import annotations

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service import catching_up
from limbic.service.filters import filtered_search

PEOPLE = [("Ana Ruiz", "Nurse at the Hospital Clínico, night shifts"),
          ("Tomás Ferreira", "Tech lead, plays chess on Sundays"),
          ("Lucía Gómez", "Physiotherapist who runs half marathons")]


def _graph_half_embedded(path, embedder) -> None:
    g = Graph(Database(path), embedder)
    for name, text in PEOPLE:
        g.upsert_entity(name, "Person", [text])
    g.db.close()
    plain = Graph(Database(path))  # no model: what an import writes before its vectors come
    for i in range(8):
        plain.upsert_entity(f"Proyecto Boreal {i}", "Project",
                            [f"Presupuesto del Proyecto Boreal, fase {i}: {10 + i} mil euros para sensores"])
    plain.db.close()


def test_a_hybrid_search_is_answered_by_words_while_most_entities_wait(tmp_path, embedder):
    path = tmp_path / "g.db"
    _graph_half_embedded(path, embedder)
    g = Graph(Database(path), embedder)
    try:
        assert catching_up.vector_share(g) == 3 / 11
        response = filtered_search(g, "Proyecto Boreal presupuesto", limit=20)
        names = [r.name for r in response.results]
        assert names and all(n.startswith("Proyecto Boreal") for n in names), names  # no unrelated person
        assert response.mode == "fts"  # the window says "Hybrid · words only"
        # Meaning alone, when asked for, still answers from what has a vector.
        assert catching_up.branches_for(g, "meaning") == "meaning"
        g.embed_pending()
        assert catching_up.vector_share(g) == 1.0
        assert filtered_search(g, "Proyecto Boreal presupuesto", limit=20).mode == "hybrid"
    finally:
        g.db.close()


def test_the_count_of_what_waits_is_said_in_the_status_bar(qtbot):
    from limbic.ui.shell.status import StatusPanel

    status = StatusPanel()
    qtbot.addWidget(status)
    status.set_counts({"entities": 2051, "relations": 10}, 2050)
    assert "2,050 by words only" in status.counts.text()
    assert "2,050 entities wait for embedding" in status.counts.toolTip()
    status.set_counts({"entities": 2051, "relations": 10}, 0)
    assert "words only" not in status.counts.text() and not status.counts.toolTip()
