"""Search while embedding catches up: the meaning vote counts only once vectors cover most of the graph.

During an import of thousands of entities their vectors come later, batch by batch. Until then the
meaning branch can only rank the entities that already have one: asked "Proyecto Boreal presupuesto" a
minute into importing 2,000 project notes, it put twenty unrelated people first, each marked "meaning".
While fewer than ``MEANING_AT_LEAST`` of the entities have a vector, a hybrid search is answered by the
words alone (the window and the command line say how many wait); a search asked for meaning only still
uses meaning.
"""

from __future__ import annotations

from limbic.engine.graph.graph import Graph

MEANING_AT_LEAST = 0.5  # the share of entities with a vector from which the meaning vote counts


def vector_share(graph: Graph) -> float:
    """The share of the graph's entities that have a vector for the loaded model (1.0 for an empty graph)."""
    if graph.embedder is None:
        return 0.0
    row = graph.db.one("SELECT (SELECT count(*) FROM entities), (SELECT count(*) FROM embedding_state)")
    entities, embedded = (int(row[0]), int(row[1])) if row else (0, 0)
    return 1.0 if entities == 0 else min(1.0, embedded / entities)


def branches_for(graph: Graph, branches: str) -> str:
    """``branches`` as asked, or "words" for a hybrid search while most of the graph has no vector yet."""
    if branches != "both" or graph.embedder is None:
        return branches
    return "words" if vector_share(graph) < MEANING_AT_LEAST else branches
