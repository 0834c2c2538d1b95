"""Reads for answers that need only names, types and texts (a whole graph for an assistant), straight
from SQLite rows into tuples: building an ``Entity`` with its ``Observation`` objects for each of
10,000 entities took most of a ``read_graph``."""

from __future__ import annotations

from collections.abc import Sequence

from limbic.engine.store.db import Database

CHUNK = 500  # ids per query (SQLite's variable limit is far above; this keeps each statement small)


def entity_texts(db: Database, ids: Sequence[int]) -> dict[int, tuple[str, str, list[str]]]:
    """id -> (name, type, current observation texts in order) for the entities among ``ids``."""
    out: dict[int, tuple[str, str, list[str]]] = {}
    current = " AND superseded_at IS NULL" if db.has_history() else ""
    ids = list(ids)
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        marks = ",".join("?" * len(chunk))
        for entity_id, name, entity_type in db.execute(
                f"SELECT id, name, entity_type FROM entities WHERE id IN ({marks})", chunk):
            out[entity_id] = (name, entity_type, [])
        for entity_id, content in db.execute(
                f"SELECT entity_id, content FROM observations WHERE entity_id IN ({marks}){current} ORDER BY id", chunk):
            out[entity_id][2].append(content)
    return out


def active_relation_triples(db: Database) -> list[tuple[str, str, str]]:
    """(from name, to name, type) of every active relation, oldest first."""
    return list(db.execute(
        "SELECT a.name, b.name, r.relation_type FROM relations r JOIN entities a ON a.id = r.from_entity "
        "JOIN entities b ON b.id = r.to_entity WHERE r.active = 1 ORDER BY r.id"))
