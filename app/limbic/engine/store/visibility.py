"""A connection that sees only part of the graph: TEMP views named like the graph's tables shadow them.

SQLite looks a table's plain name up in the connection's TEMP schema before ``main``, so a view
``temp.entities`` over ``main.entities`` narrowed by a condition is what every unqualified read on
that connection sees: by name, by id, in a join, in a count. Observations, relations (both ends),
reflections and aliases follow their entities. The change log's triggers name ``main.`` tables, so
they are untouched. A connection under a view cannot write the tables it shadows: a caller lifts
it (``lift``) before a write and puts it back before the next read.

``condition`` is SQL over ``e`` (a row of ``main.entities``): which entities are seen. ``hidden_ids``
are, besides, entities never seen whatever the condition says (a graph of the past carries today's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

SHADOWED = ("entities", "observations", "relations", "reflections", "entity_aliases")
HIDDEN_TABLE = "limbic_hidden_ids"


def _seen(column: str, condition: str) -> str:
    return f"EXISTS (SELECT 1 FROM main.entities e WHERE e.id = {column} AND {condition})"


def _views(condition: str) -> dict[str, str]:
    rel_ok = f"{_seen('r.from_entity', condition)} AND {_seen('r.to_entity', condition)}"
    return {
        "entities": f"SELECT e.* FROM main.entities e WHERE {condition}",
        "observations": f"SELECT o.* FROM main.observations o WHERE {_seen('o.entity_id', condition)}",
        "relations": f"SELECT r.* FROM main.relations r WHERE {rel_ok}",
        "reflections": (
            f"SELECT f.* FROM main.reflections f WHERE (f.entity_id IS NULL OR {_seen('f.entity_id', condition)}) "
            f"AND (f.relation_id IS NULL OR EXISTS (SELECT 1 FROM main.relations r WHERE r.id = f.relation_id AND {rel_ok}))"
        ),
        "entity_aliases": f"SELECT a.* FROM main.entity_aliases a WHERE {_seen('a.entity_id', condition)}",
    }


def install(db: Database, condition: str, hidden_ids: list[int] | None = None) -> None:
    """From now on this connection reads only the entities ``condition`` keeps (and not ``hidden_ids``)."""
    lift(db)
    if hidden_ids:
        db.execute(f"CREATE TEMP TABLE IF NOT EXISTS {HIDDEN_TABLE} (id INTEGER PRIMARY KEY)")
        db.execute(f"DELETE FROM temp.{HIDDEN_TABLE}")
        db.conn.executemany(f"INSERT OR IGNORE INTO temp.{HIDDEN_TABLE}(id) VALUES (?)", [(i,) for i in hidden_ids])
        condition = f"({condition}) AND e.id NOT IN (SELECT id FROM temp.{HIDDEN_TABLE})"
    for table, select in _views(condition).items():
        if db.has_table(table):
            db.execute(f"CREATE TEMP VIEW {table} AS {select}")
    db.visible_condition = condition


def lift(db: Database) -> None:
    """The whole graph again (and writable) on this connection."""
    if getattr(db, "visible_condition", None) is None:
        return
    for table in SHADOWED:
        db.execute(f"DROP VIEW IF EXISTS temp.{table}")
    db.visible_condition = None


def narrowed(db: Database) -> bool:
    return getattr(db, "visible_condition", None) is not None


def hidden_count(db: Database, cap: int) -> int:
    """How many entities the connection does not see now (0 when it sees all), counted up to ``cap``."""
    condition = getattr(db, "visible_condition", None)
    if condition is None:
        return 0
    return int(db.scalar(f"SELECT count(*) FROM (SELECT 1 FROM main.entities e WHERE NOT ({condition}) LIMIT ?)",
                         (cap,)) or 0)


def hidden_ids(db: Database) -> list[int]:
    """The entities the connection does not see now (none when it sees all)."""
    condition = getattr(db, "visible_condition", None)
    if condition is None:
        return []
    return [r[0] for r in db.execute(f"SELECT e.id FROM main.entities e WHERE NOT ({condition})")]


def carry(db: Database, other: Database) -> None:
    """Narrow ``other`` (a graph of the past, rebuilt from this one's history) as this connection is: what it
    does not see now stays unseen there, whatever it was then."""
    condition = getattr(db, "visible_condition", None)
    if condition is not None:
        install(other, condition, hidden_ids(db))
