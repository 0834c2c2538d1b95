""""Not a duplicate" (and the like) remembered in the graph file, so a dismissed finding does not come back.

The table is created on the first dismissal (``IF NOT EXISTS``, no schema change): a file
without it has dismissed nothing, and older versions of Limbic ignore it. A finding is keyed by
its kind and the ids of its entities, so a rename does not bring it back; deleting an entity
drops its dismissals with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from limbic.engine.errors import ValidationError
from limbic.engine.graph.graph import Graph, now_utc

DISMISSALS_DDL = """CREATE TABLE IF NOT EXISTS health_dismissals (
    kind         TEXT NOT NULL,
    entity_key   TEXT NOT NULL,
    dismissed_at TEXT NOT NULL,
    PRIMARY KEY (kind, entity_key)
)"""
DISMISSAL_TRIGGER = """CREATE TRIGGER IF NOT EXISTS health_dismissals_gone AFTER DELETE ON entities BEGIN
    DELETE FROM health_dismissals WHERE (',' || entity_key || ',') LIKE ('%,' || old.id || ',%');
END"""


def key_of(ids: Sequence[int]) -> str:
    """The order-free key of a finding's entities."""
    return ",".join(str(i) for i in sorted(set(int(i) for i in ids)))


def dismissed(graph: Graph) -> set[tuple[str, str]]:
    """Every (kind, entity key) the person dismissed (read-only)."""
    if not graph.db.has_table("health_dismissals"):
        return set()
    return {(k, e) for k, e in graph.db.execute("SELECT kind, entity_key FROM health_dismissals")}


def dismiss(graph: Graph, kind: str, ids: Sequence[int]) -> None:
    """Remember that this finding is not a problem (for duplicates: these are not the same thing)."""
    if len(set(ids)) < 1:
        raise ValidationError("A dismissal needs at least one entity.")
    with graph.write(embed=False):
        for i in ids:
            graph.get_entity(int(i))  # NotFoundError for an entity gone meanwhile
        graph.db.execute(DISMISSALS_DDL)
        graph.db.execute(DISMISSAL_TRIGGER)
        graph.db.execute("INSERT OR REPLACE INTO health_dismissals(kind, entity_key, dismissed_at) VALUES (?, ?, ?)",
                         (kind, key_of(ids), now_utc()))


def undismiss(graph: Graph, kind: str, ids: Sequence[int]) -> bool:
    """Forget a dismissal (its undo); returns whether there was one."""
    if not graph.db.has_table("health_dismissals"):
        return False
    with graph.write(embed=False):
        graph.db.execute("DELETE FROM health_dismissals WHERE kind = ? AND entity_key = ?", (kind, key_of(ids)))
        return graph.db.conn.changes() > 0
