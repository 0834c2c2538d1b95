"""Recorded time kept for good: every version of every entity, observation, relation and reflection.

The activity log (activity.py) says who changed what, but it is pruned after its retention; this
table is never pruned. Each row is one *version* of one stored row: its kind, local id and global
id, its whole value as JSON (the table's columns, so the graph of any moment can be rebuilt row for
row), and the recorded period ``[recorded_from, recorded_to)`` in the stored time format. An open
version (``recorded_to`` NULL) is the row as it is now; a deletion closes the last version with
``ended = 'delete'``, which is the tombstone: its value is the row's last value.

Like the activity recorder, connection-local (TEMP) triggers write the versions inside the same
transaction as the change, so every writer is recorded. Their clock is ``values.now_utc`` read once
per transaction through an SQL function registered on the connection: a whole commit has one time,
and a program (or a test) that sets the clock sets history's too.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING

from limbic.engine.store import values as _values
from limbic.engine.store import activity as _activity
from limbic.engine.store.activity import ITEM_COLUMNS, NEXT_CHANGE_SQL

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

HISTORY_DDL = """
CREATE TABLE IF NOT EXISTS history (
    id            INTEGER PRIMARY KEY,
    kind          TEXT NOT NULL,
    row_id        INTEGER NOT NULL,
    gid           TEXT,
    value         TEXT NOT NULL,
    recorded_from TEXT NOT NULL,
    recorded_to   TEXT,
    ended         TEXT,
    change_id     INTEGER,
    who           TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS history_open ON history(kind, row_id) WHERE recorded_to IS NULL;
CREATE INDEX IF NOT EXISTS history_from ON history(recorded_from);
CREATE INDEX IF NOT EXISTS history_to ON history(recorded_to) WHERE recorded_to IS NOT NULL;
"""
# Where the activity log's folding starts: the earliest moment an upgraded file's history reaches.
SINCE_KEY = "history_since"

TABLE = {"entity": "entities", "observation": "observations", "relation": "relations", "reflection": "reflections",
         "alias": "entity_aliases"}
# The columns a version keeps (all but the id, the global id and the revision counter).
COLUMNS = {
    "entity": ("name", "entity_type", "status", "created_at", "updated_at"),
    "observation": ("entity_id", "content", "kind", "created_at", "superseded_by", "superseded_at",
                    "similarity_flag", "valid_from", "valid_until"),
    "relation": ("from_entity", "to_entity", "relation_type", "context", "active", "created_at", "ended_at",
                 "valid_from", "valid_until"),
    "reflection": ("target_type", "entity_id", "relation_id", "target_ref", "author", "content", "mood",
                   "created_at"),
    "alias": ("entity_id", "alias", "created_at"),
}
# The activity log's item keys under the column names a version uses.
_ITEM_KEYS = ITEM_COLUMNS
_NEXT = "(" + NEXT_CHANGE_SQL + ")"
logger = logging.getLogger(__name__)


def _json(kind: str, row: str) -> str:
    return "json_object(" + ", ".join(f"'{c}', {row}.{c}" for c in COLUMNS[kind]) + ")"


def trigger_ddl(kind: str) -> list[str]:
    """The TEMP triggers that keep ``kind``'s versions (see the module's docstring)."""
    table, now, who = TABLE[kind], "limbic_history_now()", "limbic_history_who()"
    open_of = f"kind = '{kind}' AND row_id = {{r}}.id AND recorded_to IS NULL"
    insert = (
        "INSERT INTO main.history(kind, row_id, gid, value, recorded_from, change_id, who) "
        f"SELECT '{kind}', NEW.id, NEW.gid, {_json(kind, 'NEW')}, {now}, {_NEXT}, {who}"
    )
    changed = " OR ".join(f"OLD.{c} IS NOT NEW.{c}" for c in COLUMNS[kind]) + " OR OLD.id IS NOT NEW.id"
    return [
        f"CREATE TEMP TRIGGER IF NOT EXISTS limbic_history_{kind}_add AFTER INSERT ON main.{table} BEGIN "
        f"{insert}; END",
        # A row changed twice by one commit keeps one version for that commit: the later value.
        f"CREATE TEMP TRIGGER IF NOT EXISTS limbic_history_{kind}_change AFTER UPDATE ON main.{table} "
        f"WHEN {changed} BEGIN "
        f"UPDATE main.history SET recorded_to = {now}, ended = 'change' WHERE {open_of.format(r='OLD')} "
        f"AND (change_id IS NOT {_NEXT} OR OLD.id IS NOT NEW.id); "
        f"UPDATE main.history SET value = {_json(kind, 'NEW')}, gid = NEW.gid WHERE {open_of.format(r='NEW')}; "
        f"{insert} WHERE NOT EXISTS (SELECT 1 FROM main.history WHERE {open_of.format(r='NEW')}); END",
        f"CREATE TEMP TRIGGER IF NOT EXISTS limbic_history_{kind}_gone AFTER DELETE ON main.{table} BEGIN "
        f"UPDATE main.history SET recorded_to = {now}, ended = 'delete' WHERE {open_of.format(r='OLD')}; END",
        # A global id given after the insert (schema 7's trigger) belongs to the open version.
        f"CREATE TEMP TRIGGER IF NOT EXISTS limbic_history_{kind}_gid AFTER UPDATE OF gid ON main.{table} "
        f"WHEN OLD.gid IS NOT NEW.gid BEGIN "
        f"UPDATE main.history SET gid = NEW.gid WHERE {open_of.format(r='NEW')}; END",
    ]


class _Clock:
    """One time per write transaction (the commit's), and who is writing, for the triggers."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._for: object = None
        self._at = ""

    def now(self) -> str:
        current = self.db.changes  # a new object for every write transaction (db.transaction)
        if current is None or current is not self._for:
            self._for, self._at = current, self.db.moment()
        return self._at

    def who(self) -> str:
        rec = self.db.activity
        return ":".join(x for x in (rec.origin, rec.client, rec.tool) if x)


_NEEDED = ("kind", "row_id", "gid", "value", "recorded_from", "recorded_to", "ended", "change_id", "who")


def has_history(db: Database) -> bool:
    """True when the file keeps recorded-time history (schema 8)."""
    return db.has_table("history")


def history_ok(db: Database) -> bool:
    """True when the history table has the shape the triggers write (a damaged one turns recording off, not writing)."""
    return set(_NEEDED) <= {r[1] for r in db.execute("PRAGMA table_info(history)")}


def install(db: Database) -> None:
    """Inside a write transaction: this connection's history triggers, where the file has the table."""
    if db.readonly or not has_history(db):
        return
    if not history_ok(db):
        logger.warning("the history table of %s is damaged: changes are not recorded in it", db.path)
        return
    clock = getattr(db, "_history_clock", None)
    if clock is None:
        clock = _Clock(db)
        db._history_clock = clock  # type: ignore[attr-defined]
        # Deterministic: one value for the whole of one statement (as they are), so a statement writing many
        # versions at once (trigger_batch.py) asks once instead of once per row.
        db.conn.create_scalar_function("limbic_history_now", clock.now, 0, deterministic=True)
        db.conn.create_scalar_function("limbic_history_who", clock.who, 0, deterministic=True)
    for kind, table in TABLE.items():
        if db.has_table(table):
            for ddl in trigger_ddl(kind):
                db.execute(ddl)


_activity.INSTALLERS.append(lambda db: install(db))  # looked up at each call: a benchmark may switch it off


# -- schema 8: the table, and what an older file's activity log still holds folded in ------------------


def _item_value(kind: str, data: dict, at: str) -> dict:
    value = {column: data.get(key) for key, column in _ITEM_KEYS[kind].items()}
    if kind == "entity":
        value["updated_at"] = at  # the log did not keep it: the time of the change is the best guess
    if kind == "observation":
        value["similarity_flag"] = 0
    return value


def _current(conn, kind: str) -> dict[int, tuple[str | None, dict]]:
    table = TABLE[kind]
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchall():
        return {}
    has_gid = "gid" in {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
    cols = ", ".join(COLUMNS[kind])
    out = {}
    for row in conn.execute(f"SELECT id, {'gid' if has_gid else 'NULL'}, {cols} FROM {table}"):
        out[row[0]] = (row[1], dict(zip(COLUMNS[kind], row[2:])))
    return out


def _updated_times(conn) -> dict[int, list[str]]:
    """Per entity, the times its log says it was added or changed: when its updated_at was set."""
    out: dict[int, list[str]] = {}
    for at, changes in conn.execute("SELECT at, changes FROM change_log ORDER BY id"):
        try:
            data = json.loads(changes)
        except ValueError:
            continue
        for entity_id in {*data.get("added", ()), *data.get("changed", ())}:
            out.setdefault(entity_id, []).append(at)
    return out


def _split_updated(row: tuple, times) -> list[tuple]:
    """An entity's version cut where its updated_at changed within it, each part with that time.

    Schema 7's log kept no updated_at, so a version of it from the log would show one time for
    its whole period; the log's times of the entity's changes say when it moved on. A version of
    today's row is cut only up to its updated_at (a later change left it as it was).
    """
    kind, row_id, gid, value, start, end, ended, change_id = row
    last = value.get("updated_at") if end is None else None
    cuts = sorted({t for t in times if t > (start or "") and (end is None or t < end) and (last is None or t <= last)})
    if not cuts:
        return [row]
    bounds = [start, *cuts]
    parts = []
    for i, begin in enumerate(bounds):
        final = i == len(bounds) - 1
        part = value if final and end is None else {**value, "updated_at": begin or value.get("updated_at")}
        parts.append((kind, row_id, gid, part, begin, end if final else bounds[i + 1],
                      ended if final else "change", change_id if final else None))
    return parts


def fold(conn) -> str:
    """Write the versions an older file can still tell: its log's before/after rows, then today's rows.

    Returns the earliest time the history now reaches (kept in meta as ``history_since``).
    """
    has_log = bool(conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'change_item'").fetchall())
    items: dict[tuple[str, int], list] = {}
    if has_log:
        for kind, row_id, op, before, after, at, change_id in conn.execute(
            "SELECT i.kind, i.row_id, i.op, i.before, i.after, l.at, i.change_id FROM change_item i "
            "JOIN change_log l ON l.id = i.change_id ORDER BY i.change_id, i.id"
        ):
            if kind in TABLE:
                items.setdefault((kind, row_id), []).append((op, before, after, at, change_id))
    rows = []  # (kind, row_id, gid, value, from, to, ended, change_id)
    since = None
    for kind in TABLE:
        current = _current(conn, kind)
        keys = {k for k in items if k[0] == kind} | {(kind, i) for i in current}
        for key in keys:
            row_id = key[1]
            open_value: dict | None = None
            open_from = ""
            for op, before, after, at, change_id in items.get(key, ()):
                if open_value is None and before:  # its earlier life was pruned: known from the log's before
                    b = json.loads(before)
                    open_value, open_from = _item_value(kind, b, at), b.get("created_at") or at
                if open_value is not None:
                    rows.append((kind, row_id, None, open_value, open_from, at,
                                 "delete" if op == "remove" else "change", change_id))
                open_value = _item_value(kind, json.loads(after), at) if after else None
                open_from = at
            if row_id in current:
                gid, value = current[row_id]
                start = open_from if open_value is not None else (value.get("created_at") or "")
                rows.append((kind, row_id, gid, value, start, None, None, None))
    bumps = _updated_times(conn) if has_log else {}
    rows = [part for row in rows for part in (_split_updated(row, bumps.get(row[1], ())) if row[0] == "entity" else [row])]
    for kind, row_id, gid, value, start, end, ended, change_id in rows:
        start = start or "0001-01-01 00:00:00"
        since = start if since is None or start < since else since
        conn.execute(
            "INSERT INTO history(kind, row_id, gid, value, recorded_from, recorded_to, ended, change_id, who) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'upgrade')",
            (kind, row_id, gid, json.dumps(value, ensure_ascii=False), start, end, ended, change_id),
        )
    since = since or _values.now_utc()
    pruned = conn.execute("SELECT value FROM meta WHERE key = 'change_pruned_upto'").fetchall()
    if pruned and has_log:
        # Before the oldest change the pruned log still holds, rows deleted since are not known.
        oldest = conn.execute("SELECT min(at) FROM change_log WHERE id > ?", (int(pruned[0][0] or 0),)).fetchall()
        since = max(since, (oldest[0][0] if oldest and oldest[0][0] else _values.now_utc()))
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (SINCE_KEY, since))
    return since


# Valid time: when an observation or a relation held in the world (a date or a date and time), if known.
VALID_COLUMNS = {"observations": ("valid_from", "valid_until"), "relations": ("valid_from", "valid_until")}


def SCHEMA_V8(conn) -> None:  # noqa: N802 - one of the migrations, named like the others
    """Schema 8: valid time, and the history table with what the file can still tell folded in."""
    for table, columns in VALID_COLUMNS.items():
        have = {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
        for column in columns:
            if column not in have:
                conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} TEXT")
    fresh = not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'history'").fetchall()
    conn.execute(HISTORY_DDL)
    if fresh:
        fold(conn)
