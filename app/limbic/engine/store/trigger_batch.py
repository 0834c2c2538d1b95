"""A connection's AFTER INSERT triggers run once for many inserted rows instead of once per row.

The activity log's and recorded history's triggers (``activity.py``, ``recorded.py``) each add a row
to their table for every row inserted; for a batch of hundreds of new entities their per-row cost
was most of the write. Inside a write transaction, ``deferred`` takes those triggers of the given
tables away while the caller inserts, then writes what they would have written with one
``INSERT … SELECT`` per trigger, every row under the id it would have had (so the tables read the
same, in the same order), and puts the triggers back. Only triggers this module can read are
deferred (one statement inserting one row into a table keyed by ``id``, no condition, connection-local);
if any other is there, nothing is deferred and the triggers fire as usual.

Rows of two tables noted one after the other land in the log's tables interleaved (an entity, its
observations, the next entity, ...); two statements writing them, one per table, each insert into the
middle of what the other wrote, which costs SQLite more than the values themselves. A caller whose
rows are parents each followed by its children (``Family``: new ids in a run, each child after its
parent) has them written by one statement per target that walks the parents and, after each, its
children, so every row is appended in the order of its id; the family is checked against the rows
as stored before it is written that way.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

_HEAD = re.compile(r"CREATE TRIGGER (\w+) AFTER INSERT ON main\.(\w+) BEGIN (.*); END", re.S)
_BODY = re.compile(r"INSERT INTO (main\.\w+)\(([\w, ]+)\) (?:VALUES \((.*)\)|SELECT (.*))", re.S)


@dataclass(frozen=True)
class Family:
    """Rows of ``child`` noted each right after the row of ``parent`` its ``link`` column names."""

    parent: str
    child: str
    link: str


@dataclass(frozen=True)
class _Trigger:
    name: str
    sql: str  # as sqlite_temp_master keeps it
    table: str  # the table it fires on
    target: str  # the table it writes to
    columns: str
    values: str  # the values it writes, over NEW


def _top_level_from(expressions: str) -> bool:
    """True when the expressions hold a FROM outside parentheses (a SELECT with a source of its own)."""
    depth, quoted = 0, False
    upper = expressions.upper()
    for i, ch in enumerate(expressions):
        if ch == "'":
            quoted = not quoted
        elif not quoted and ch == "(":
            depth += 1
        elif not quoted and ch == ")":
            depth -= 1
        elif not quoted and depth == 0 and upper.startswith(" FROM ", i):
            return True
    return False


@functools.lru_cache(maxsize=256)  # the same few triggers, read again by every batch
def _read(name: str, table: str, sql: str) -> _Trigger | None:
    head = _HEAD.fullmatch(sql)
    if head is None or head.group(2) != table or ";" in head.group(3):
        return None
    body = _BODY.fullmatch(head.group(3))
    if body is None:
        return None
    values = body.group(3) if body.group(3) is not None else body.group(4)
    if _top_level_from(values) or re.search(r"\bid\b", body.group(2)):
        return None
    return _Trigger(name, sql, table, body.group(1), body.group(2), values)


def _triggers(db: Database, tables: Sequence[str]) -> list[_Trigger] | None:
    """The connection's AFTER INSERT triggers on ``tables``, read; None when one cannot be deferred."""
    marks = ",".join("?" * len(tables))
    out = []
    for name, table, sql in db.execute(
        f"SELECT name, tbl_name, sql FROM sqlite_temp_master WHERE type = 'trigger' AND tbl_name IN ({marks})", tables
    ):
        if " AFTER INSERT " not in sql.split(" BEGIN ", 1)[0]:
            continue  # an update's or a deletion's: the caller only inserts
        trigger = _read(name, table, sql)
        if trigger is None:
            return None
        out.append(trigger)
    pairs = [(t.table, t.target) for t in out]
    if len(pairs) != len(set(pairs)):
        return None  # two triggers of one table writing to one table: their order would matter
    for target in {t.target for t in out}:
        columns = {r[1]: r[5] for r in db.execute(f"PRAGMA {target.split('.')[0]}.table_info({target.split('.')[1]})")}
        if columns.get("id") != 1:
            return None
    return out


class Noted:
    """What the caller inserted, called with (table, id) after each row, in order. ``deferring``: the triggers
    were taken away, so the rows may also be inserted a table at a time (each row noted in the order
    the triggers would have seen it); otherwise they fire as each row is inserted, and the order of the
    inserts is the order of what they write."""

    def __init__(self, deferring: bool) -> None:
        self.deferring = deferring
        self.rows: list[tuple[str, int]] = []

    def __call__(self, table: str, row_id: int) -> None:
        if self.deferring:
            self.rows.append((table, row_id))

    def extend(self, rows: Sequence[tuple[str, int]]) -> None:
        if self.deferring:
            self.rows.extend(rows)


@contextlib.contextmanager
def deferred(db: Database, tables: Sequence[str], family: Family | None = None) -> Iterator[Noted]:
    """Inside a write transaction: insert rows into ``tables``, noting each (table, id) in order with the given
    ``Noted``; the rows their AFTER INSERT triggers would have written are written when the block ends
    (``family``: how the rows of two of the tables may be, see the module's docstring)."""
    triggers = _triggers(db, tables)
    if not triggers:
        yield Noted(False)
        return
    noted = Noted(True)
    inserted = noted.rows
    for t in triggers:
        db.execute(f"DROP TRIGGER temp.{t.name}")
    try:
        yield noted
    finally:
        for t in triggers:
            db.execute("CREATE TEMP TRIGGER " + t.sql.removeprefix("CREATE TRIGGER "))
    runs = _runs(db, family, inserted) if family is not None else None
    for target in dict.fromkeys(t.target for t in triggers):
        writers = {t.table: t for t in triggers if t.target == target}
        base = int(db.scalar(f"SELECT coalesce(max(id), 0) + 1 FROM {target}"))
        if runs is not None and set(writers) == {family.parent, family.child}:
            sql = _family_sql(target, writers[family.parent], writers[family.child], family)
            if sql is not None:
                db.execute(sql, (base, *runs))
                continue
        positions: dict[str, dict[str, int]] = {table: {} for table in writers}
        for table, row_id in inserted:
            if table in writers:
                positions[table][str(row_id)] = base
                base += 1
        for table, t in writers.items():
            if positions[table]:
                db.execute(
                    f"INSERT INTO {target}(id, {t.columns}) SELECT p.value, {t.values} "
                    f"FROM json_each(?1) AS p CROSS JOIN main.{table} AS NEW ON NEW.id = CAST(p.key AS INTEGER)",
                    (json.dumps(positions[table], separators=(",", ":")),),  # {"row id": its row's id, ...}
                )


def _runs(db: Database, family: Family, rows: Sequence[tuple[str, int]]) -> tuple[int, int, int, int] | None:
    """(first parent id, last, first child id, last) when ``rows`` are parents with ids in a run, each followed by
    its children (ids in a run too), and no other child names one of these parents; else None."""
    if not rows or rows[0][0] != family.parent:
        return None
    parent = next_parent = next_child = None
    links: list[int] = []  # the parent each child was noted after
    for table, row_id in rows:
        if table == family.parent and row_id == (next_parent or row_id):
            parent, next_parent = row_id, row_id + 1
        elif table == family.child and row_id == (next_child or row_id):
            next_child = row_id + 1
            links.append(parent)
        else:
            return None
    if not links:
        return None
    first, last, last_child = rows[0][1], next_parent - 1, next_child - 1
    first_child = last_child - len(links) + 1
    stored = [r[0] for r in db.execute(f"SELECT {family.link} FROM main.{family.child} WHERE id BETWEEN ? AND ? "
                                       "ORDER BY id", (first_child, last_child))]
    others = db.scalar(f"SELECT count(*) FROM main.{family.child} WHERE {family.link} BETWEEN ? AND ?", (first, last))
    return (first, last, first_child, last_child) if stored == links and others == len(links) else None


_NEW = re.compile(r"\bNEW\.")


def _split(expressions: str) -> list[str]:
    """The expressions of a list, split where a comma stands outside parentheses and quotes."""
    out, depth, quoted, start = [], 0, False, 0
    for i, ch in enumerate(expressions):
        if ch == "'":
            quoted = not quoted
        elif not quoted and ch in "()":
            depth += 1 if ch == "(" else -1
        elif not quoted and depth == 0 and ch == ",":
            out.append(expressions[start:i].strip())
            start = i + 1
    return out + [expressions[start:].strip()]


@functools.lru_cache(maxsize=64)  # the same few triggers, for every batch
def _family_sql(target: str, parent: _Trigger, child: _Trigger, family: Family) -> str | None:
    """One INSERT of both triggers' rows into ``target``, parents and children in the order they were noted, each
    under its id (parameters: the first id, then ``_runs``); None when the two triggers write other columns."""
    if parent.columns != child.columns or re.search(r"\bNEW\b(?!\.)", parent.values + child.values):
        return None
    of_parent, of_child = _split(parent.values), _split(child.values)
    if len(of_parent) != len(of_child):
        return None
    values = []
    for a, b in zip(of_parent, of_child):
        a, b = _NEW.sub("PARENT_ROW.", a), _NEW.sub("CHILD_ROW.", b)
        values.append(a if a == b else f"CASE WHEN ROW_PART.part = 0 THEN {a} ELSE {b} END")
    link = family.link
    # A parent's id: the first id, its place among the parents, and the children before it (the first child of a
    # later parent, in the order of the index on (link, id), less the first child's id).
    position = (f"CASE WHEN ROW_PART.part = 0 THEN ?1 + (PARENT_ROW.id - ?2) + coalesce((SELECT LATER.id FROM "
                f"main.{family.child} AS LATER WHERE LATER.{link} BETWEEN PARENT_ROW.id AND ?3 ORDER BY LATER.{link}, "
                "LATER.id LIMIT 1), ?5 + 1) - ?4 ELSE ?1 + (PARENT_ROW.id - ?2) + 1 + (CHILD_ROW.id - ?4) END")
    return (f"INSERT INTO {target}(id, {parent.columns}) SELECT {position}, {', '.join(values)} "
            f"FROM main.{family.parent} AS PARENT_ROW CROSS JOIN (SELECT 0 AS part UNION ALL SELECT 1) AS ROW_PART "
            f"LEFT JOIN main.{family.child} AS CHILD_ROW ON ROW_PART.part = 1 AND CHILD_ROW.{link} = PARENT_ROW.id "
            "AND CHILD_ROW.id BETWEEN ?4 AND ?5 "
            "WHERE PARENT_ROW.id BETWEEN ?2 AND ?3 AND (ROW_PART.part = 0 OR CHILD_ROW.id IS NOT NULL)")
