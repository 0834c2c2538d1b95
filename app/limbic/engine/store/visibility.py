"""A connection that sees only part of the graph: TEMP views named like the graph's tables shadow them.

SQLite looks a table's plain name up in the connection's TEMP schema before ``main``, so a view
``temp.entities`` over ``main.entities`` that leaves some entities out is what every unqualified read on
that connection sees: by name, by id, in a join, in a count. Observations, relations (both ends),
reflections and aliases follow their entities. The change log's triggers name ``main.`` tables, so
they are untouched. A connection under the views cannot write the tables they shadow: a caller lifts
them (``lift``) before a write and narrows again (``narrow``) before the next read.

Which entities are left out is ``hidden``, SQL over ``e`` (a row of ``main.entities``). The views do not
hold it: they read a TEMP table of ids (the hidden ones, or the seen ones where those are fewer), filled
when the views are made and again only when the graph changed since (another connection's commit, or a
change of this one's log), so a read pays one look-up in a small in-memory table per row it reads.

A read of a whole table pays that look-up on every row, and once more for every view it joins. Reads made
for that case give what the views give for less: ``seen_rows`` reads ``main.`` tables and drops
the rows of unseen entities by a look-up in a Python set of ids (kept with the narrowing), and ``sum_over``
and ``count`` sum or count a table whole and take off what its unseen entities' rows hold (found by their
index), so the rows seen are not each looked up. What is unseen is decided here and nowhere else for all.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

SHADOWED = ("entities", "observations", "relations", "reflections", "entity_aliases")
IDS = "limbic_seen_ids"  # the TEMP table of ids the views read (hidden ones, or seen ones: ``_State.mode``)
# The columns holding entity ids in each table ``sum_over`` and ``count`` read (a row is unseen when one is).
ENDS = {"entities": ("id",), "observations": ("entity_id",), "relations": ("from_entity", "to_entity"),
        "entity_aliases": ("entity_id",)}


class _State:
    def __init__(self, hidden: str, mode: str, key: tuple, share: float = 0.0) -> None:
        self.hidden, self.mode, self.key = hidden, mode, key
        self.share = share  # the part of the graph's entities not seen (0 to 1)
        self.ids: frozenset[int] | None = None  # the TEMP table's ids as a set, read on first use


def _state(db: Database) -> _State | None:
    return getattr(db, "_visibility", None)


def _views(mode: str) -> dict[str, str]:
    op = "NOT IN" if mode == "hidden" else "IN"

    def seen(column: str) -> str:
        return f"{column} {op} (SELECT id FROM temp.{IDS})"

    rel_ok = f"{seen('r.from_entity')} AND {seen('r.to_entity')}"
    return {
        "entities": f"SELECT e.* FROM main.entities e WHERE {seen('e.id')}",
        "observations": f"SELECT o.* FROM main.observations o WHERE {seen('o.entity_id')}",
        "relations": f"SELECT r.* FROM main.relations r WHERE {rel_ok}",
        "reflections": (
            f"SELECT f.* FROM main.reflections f WHERE (f.entity_id IS NULL OR {seen('f.entity_id')}) "
            f"AND (f.relation_id IS NULL OR EXISTS (SELECT 1 FROM main.relations r WHERE r.id = f.relation_id AND {rel_ok}))"
        ),
        "entity_aliases": f"SELECT a.* FROM main.entity_aliases a WHERE {seen('a.entity_id')}",
    }


def _key(db: Database) -> tuple:
    """What changes when the graph may have: another connection's commit, or a new row of this one's log."""
    log = db.scalar("SELECT max(id) FROM main.change_log") if db.has_table("change_log") else None
    return int(db.scalar("PRAGMA data_version")), log


def narrow(db: Database, hidden: str) -> None:
    """From now on this connection reads the graph without the entities ``hidden`` (SQL over ``e``) matches."""
    state = _state(db)
    key = (hidden, _key(db))
    if state is not None and state.key == key:
        return
    total = int(db.scalar("SELECT count(*) FROM main.entities") or 0)
    count = int(db.scalar(f"SELECT count(*) FROM main.entities e WHERE {hidden}") or 0)
    mode = "hidden" if count * 2 <= total else "seen"
    _fill(db, f"SELECT e.id FROM main.entities e WHERE {hidden}" if mode == "hidden"
          else f"SELECT e.id FROM main.entities e WHERE NOT ({hidden})")
    if state is None or state.mode != mode:
        _make_views(db, mode)
    share = count / total if total else 0.0
    db._visibility = _State(hidden, mode, (hidden, _key(db)), share)  # noqa: SLF001 - this module's own mark


def narrow_to(db: Database, hidden_ids: list[int]) -> None:
    """Narrow a connection (a graph of the past) by ids: these entities are not seen."""
    _fill(db, None, hidden_ids)
    _make_views(db, "hidden")
    total = int(db.scalar("SELECT count(*) FROM main.entities") or 0)
    share = min(1.0, int(db.scalar(f"SELECT count(*) FROM temp.{IDS}") or 0) / total) if total else 0.0
    db._visibility = _State("", "hidden", ("ids",), share)  # noqa: SLF001


def _fill(db: Database, select: str | None, ids: list[int] | None = None) -> None:
    db.execute(f"CREATE TEMP TABLE IF NOT EXISTS {IDS} (id INTEGER PRIMARY KEY)")
    db.execute(f"DELETE FROM temp.{IDS}")
    if select is not None:
        db.execute(f"INSERT INTO temp.{IDS}(id) {select}")
    else:
        db.conn.executemany(f"INSERT OR IGNORE INTO temp.{IDS}(id) VALUES (?)", [(i,) for i in ids or ()])


def _make_views(db: Database, mode: str) -> None:
    for table in SHADOWED:
        db.execute(f"DROP VIEW IF EXISTS temp.{table}")
    for table, select in _views(mode).items():
        if db.has_table(table):
            db.execute(f"CREATE TEMP VIEW {table} AS {select}")


def lift(db: Database) -> None:
    """The whole graph again (and writable) on this connection."""
    if _state(db) is None:
        return
    for table in SHADOWED:
        db.execute(f"DROP VIEW IF EXISTS temp.{table}")
    db._visibility = None  # noqa: SLF001


def narrowed(db: Database) -> bool:
    return _state(db) is not None


def hidden_share(db: Database) -> float:
    """The part of the graph's entities the connection does not see (0 when it sees all, 1 when none)."""
    state = _state(db)
    return 0.0 if state is None else state.share


def seen_rows(db: Database, sql: str, params: tuple = (), ends: tuple[int, ...] = (0,)) -> Iterable[tuple]:
    """The rows of ``sql`` this connection sees: those whose entity ids, the values at the positions ``ends``,
    are all seen. ``sql`` reads ``main.`` tables (no view narrows it), so a whole table is read once and each
    row pays a look-up in a set, not one in the TEMP table per row and per table it joins."""
    state = _state(db)
    rows = db.execute(sql, params)
    if state is None:
        return rows
    ids = _ids(db, state)
    if state.mode == "hidden":
        if len(ends) == 1:
            (a,) = ends
            return (row for row in rows if row[a] not in ids)
        if len(ends) == 2:
            a, b = ends
            return (row for row in rows if row[a] not in ids and row[b] not in ids)
        return (row for row in rows if not any(row[i] in ids for i in ends))
    return (row for row in rows if all(row[i] in ids for i in ends))


def sum_over(db: Database, table: str, expression: str, where: str = "") -> int | float:
    """``sum(expression)`` over the rows of ``table`` (one of ``ENDS``) this connection sees where ``where``
    holds (SQL over that table's own columns). Few unseen: the sum over the whole table less the one over
    the unseen entities' rows, which their index finds; many unseen: the sum through the views."""
    return _additive(db, table, f"coalesce(sum({expression}), 0)", where)


def sum_bound(db: Database, table: str, expression: str, where: str = "") -> int | float:
    """``sum(expression)`` over the whole of ``table``, hidden rows too: never less than ``sum_over``'s (the
    expression not negative) and the same when nothing is hidden, for a comparison with a cap (what passes
    whole passes seen) that costs no look-up of the hidden rows."""
    if table not in ENDS:
        raise ValueError(f"{table} is not a table whose rows belong to entities by their ids alone")
    return db.scalar(f"SELECT coalesce(sum({expression}), 0) FROM main.{table}" + (f" WHERE {where}" if where else ""))


def count(db: Database, table: str, where: str = "") -> int:
    """How many rows of ``table`` (one of ``ENDS``) this connection sees where ``where`` holds, as ``sum_over``
    counts (a table counted whole costs what its pages do, not what its rows do)."""
    return int(_additive(db, table, "count(*)", where))


def _additive(db: Database, table: str, aggregate: str, where: str) -> int | float:
    if table not in ENDS:
        raise ValueError(f"{table} is not a table whose rows belong to entities by their ids alone")
    state = _state(db)
    if state is None or state.mode != "hidden":
        return db.scalar(f"SELECT {aggregate} FROM {table}" + (f" WHERE {where}" if where else ""))
    unseen = " OR ".join(f"{column} IN (SELECT id FROM temp.{IDS})" for column in ENDS[table])
    whole = db.scalar(f"SELECT {aggregate} FROM main.{table}" + (f" WHERE {where}" if where else ""))
    return whole - db.scalar(f"SELECT {aggregate} FROM main.{table} WHERE ({unseen})" + (f" AND ({where})" if where else ""))


def _ids(db: Database, state: _State) -> frozenset[int]:
    if state.ids is None:
        state.ids = frozenset(r[0] for r in db.execute(f"SELECT id FROM temp.{IDS}"))
    return state.ids


def hidden_ids(db: Database) -> list[int]:
    """The entities the connection does not see now (none when it sees all)."""
    state = _state(db)
    if state is None:
        return []
    if state.mode == "hidden":
        return [r[0] for r in db.execute(f"SELECT id FROM temp.{IDS}")]
    return [r[0] for r in db.execute(f"SELECT id FROM main.entities WHERE id NOT IN (SELECT id FROM temp.{IDS})")]


def carry(db: Database, other: Database) -> None:
    """Narrow ``other`` (a graph of the past, rebuilt from this one's history) as this connection is: what it
    does not see now stays unseen there, whatever it was then."""
    state = _state(db)
    if state is None:
        return
    then = {r[0] for r in other.execute(f"SELECT e.id FROM main.entities e WHERE {state.hidden}")} if state.hidden else set()
    narrow_to(other, sorted(set(hidden_ids(db)) | then))
