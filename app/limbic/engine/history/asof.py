"""The graph of a past moment, rebuilt row for row from the recorded history into a graph in memory.

A version holds its row's whole value, so the rebuilt graph has the ids, texts and times the file
had then, and everything that reads a graph (export, an entity's page, search by text) reads it
unchanged. Its vectors are not rebuilt: search of a past moment ranks by text, names and links.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import apsw

from limbic.engine.graph.graph import Graph
from limbic.engine.history import past_index
from limbic.engine.store.db import Database
from limbic.engine.store.recorded import COLUMNS, TABLE
from limbic.engine.vectors.index import FTS_CONTENT, FTS_STEMS_KEY

_ORDER = ("entity", "observation", "relation", "reflection", "alias")  # parents before the rows that name them


def versions_at(db: Database, at: str, kind: str | None = None) -> Iterator[tuple[str, int, str | None, dict]]:
    """(kind, row id, global id, value) of every row as it was recorded at ``at``."""
    where = "recorded_from <= ? AND (recorded_to IS NULL OR recorded_to > ?)"
    params: tuple = (at, at)
    if kind is not None:
        where += " AND kind = ?"
        params += (kind,)
    for k, row_id, gid, value in db.execute(
        f"SELECT kind, row_id, gid, value FROM history WHERE {where} ORDER BY kind, row_id", params
    ):
        yield k, row_id, gid, json.loads(value)


# An empty full-text row beside no entity: the opening takes the index as present and does not fill it.
_NO_TEXT_INDEX = "INSERT INTO entity_fts(rowid, name, entity_type, obs_text, stem_name, stem_text) VALUES (0, '', '', '', '', '')"


def rebuild(db: Database, at: str, text_index: bool = True) -> Database:
    """A new in-memory graph file holding the rows ``db`` held at ``at`` (a stored time).

    ``text_index`` False: its full-text index is left empty (an export or an entity's page does not
    read it, and filling it is most of the cost on a large graph).
    """
    past = Database(":memory:")
    conn = past.conn
    conn.execute("PRAGMA foreign_keys = OFF")  # an observation names the newer one that superseded it
    # The copy's indexes are made once its rows are in: one sort each instead of an insert per row.
    indexes = conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN "
        f"({', '.join(repr(TABLE[k]) for k in _ORDER)})").fetchall()
    conn.execute("BEGIN")
    try:
        for name, _sql in indexes:
            conn.execute(f"DROP INDEX {name}")
        for kind in _ORDER:
            # One query per table, its columns read out of the JSON by SQLite, streamed into the copy;
            # a later version of a row doubled by damage replaces the earlier (limbic check mends them).
            cols = COLUMNS[kind]
            conn.executemany(
                f"INSERT OR REPLACE INTO {TABLE[kind]}(id, gid, {', '.join(cols)}) "
                f"VALUES (?, ?, {', '.join('?' * len(cols))})",
                db.execute(_select_sql(kind), (at,)),
            )
        for _name, sql in indexes:
            _make_index(conn, sql)
        # The full-text rows are made here, in bulk, so the opening finds them present and current.
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (FTS_STEMS_KEY, FTS_CONTENT))
        if text_index:
            past_index.fill_text_index(past, db)
        else:
            conn.execute(_NO_TEXT_INDEX)
        conn.execute("COMMIT")
    except BaseException:
        past.close()  # an in-memory file: closing drops it
        raise
    conn.execute("PRAGMA foreign_keys = ON")
    return past


def _make_index(conn, sql: str) -> None:
    """Create one of the copy's indexes; a unique one that damage doubled keeps one row of each value."""
    try:
        conn.execute(sql)
    except apsw.ConstraintError:
        table, expr = re.search(r"ON (\w+)\((.*)\)$", sql).groups()
        conn.execute(f"DELETE FROM {table} WHERE ({expr}) IS NOT NULL AND rowid NOT IN "
                     f"(SELECT max(rowid) FROM {table} WHERE ({expr}) IS NOT NULL GROUP BY {expr})")
        conn.execute(sql)


def _select_sql(kind: str) -> str:
    return ("SELECT row_id, gid, " + ", ".join(f"json_extract(value, '$.{c}')" for c in COLUMNS[kind])
            + f" FROM history WHERE kind = '{kind}' AND recorded_from <= ?1 "
            "AND (recorded_to IS NULL OR recorded_to > ?1)")  # in the order written: of two, the later wins


def graph_at(db: Database, at: str, text_index: bool = True) -> Graph:
    """The graph of ``at``, read-only by intent (writing to it changes nothing in the file)."""
    return Graph(rebuild(db, at, text_index))
