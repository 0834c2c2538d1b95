"""The derived and signal tables of a graph file: what each must look like, and recreating one.

Derived tables (the full-text index, the record of which text each vector was made from) are
rebuilt from the graph; signal tables (usage history) start empty when they were lost. Neither
ever holds anything the graph needs, so either can be recreated without touching the graph.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timezone

import apsw

from limbic.engine.store.db import FTS_DDL, Database

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class TableSpec:
    name: str
    ddl: str
    columns: tuple[str, ...]
    primary_key: tuple[str, ...] = ()  # in key order; what ON CONFLICT upserts rely on
    derived: bool = True  # False: usage history, kept aside (not dropped) when malformed
    module: str | None = None  # a virtual table's module


TABLES: tuple[TableSpec, ...] = (
    TableSpec("entity_fts", FTS_DDL, ("name", "entity_type", "obs_text", "stem_name", "stem_text"), module="fts5"),
    TableSpec(
        "embedding_state",
        "CREATE TABLE IF NOT EXISTS embedding_state (\n"
        "    entity_id INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,\n"
        "    text_hash TEXT NOT NULL,\n"
        "    chunked   INTEGER NOT NULL DEFAULT 0\n)",
        ("entity_id", "text_hash", "chunked"),
        ("entity_id",),
    ),
    TableSpec(
        "embedding_chunks",
        "CREATE TABLE IF NOT EXISTS embedding_chunks (\n"
        "    id        INTEGER PRIMARY KEY,\n"
        "    entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,\n"
        "    text_hash TEXT NOT NULL\n)",
        ("id", "entity_id", "text_hash"),
        ("id",),
    ),
    TableSpec(
        "entity_access",
        "CREATE TABLE IF NOT EXISTS entity_access (\n"
        "    entity_id    INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,\n"
        "    access_count INTEGER NOT NULL DEFAULT 0,\n"
        "    last_access  TEXT\n)",
        ("entity_id", "access_count", "last_access"),
        ("entity_id",),
        derived=False,
    ),
    TableSpec(
        "entity_access_log",
        "CREATE TABLE IF NOT EXISTS entity_access_log (\n"
        "    entity_id    INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,\n"
        "    access_date  TEXT NOT NULL,\n"
        "    access_count INTEGER NOT NULL DEFAULT 0,\n"
        "    PRIMARY KEY (entity_id, access_date)\n)",
        ("entity_id", "access_date", "access_count"),
        ("entity_id", "access_date"),
        derived=False,
    ),
    TableSpec(
        "co_occurrences",
        "CREATE TABLE IF NOT EXISTS co_occurrences (\n"
        "    entity_a_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,\n"
        "    entity_b_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,\n"
        "    co_count    INTEGER NOT NULL DEFAULT 0,\n"
        "    last_co     TEXT,\n"
        "    PRIMARY KEY (entity_a_id, entity_b_id),\n"
        "    CHECK (entity_a_id < entity_b_id)\n)",
        ("entity_a_id", "entity_b_id", "co_count", "last_co"),
        ("entity_a_id", "entity_b_id"),
        derived=False,
    ),
    # What each commit touched, for the programs sharing the file (changes.py): a lost log comes back
    # empty, and a reader that finds its position gone re-reads everything.
    TableSpec(
        "change_log",
        "CREATE TABLE IF NOT EXISTS change_log (\n"
        "    id          INTEGER PRIMARY KEY AUTOINCREMENT,\n"
        "    at          TEXT NOT NULL,\n"
        "    origin      TEXT NOT NULL,\n"
        "    writer      TEXT NOT NULL,\n"
        "    changes     TEXT NOT NULL,\n"
        "    session     INTEGER,\n"
        "    tool        TEXT NOT NULL DEFAULT '',\n"
        "    reviewed_at TEXT,\n"
        "    reverted_by INTEGER,\n"
        "    reverts     TEXT\n);\n"
        "CREATE INDEX IF NOT EXISTS change_log_session ON change_log(session);\n"
        # A recreated log continues after the ids its surviving items name.
        "INSERT OR REPLACE INTO sqlite_sequence(rowid, name, seq) SELECT (SELECT rowid FROM sqlite_sequence "
        "WHERE name = 'change_log'), 'change_log', max(coalesce((SELECT max(change_id) FROM change_item), 0), "
        "coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'change_log'), 0)) "
        "WHERE (SELECT 1 FROM sqlite_master WHERE name = 'change_item')",
        ("id", "at", "origin", "writer", "changes"),
        ("id",),
    ),
)
BY_NAME_V5 = {
    # Who changed what (activity.py): history the person reviews, set aside (not dropped) when malformed.
    name: TableSpec(name, ddl, columns, key, derived=False)
    for name, ddl, columns, key in (
        (
            "activity_session",
            "CREATE TABLE IF NOT EXISTS activity_session (id INTEGER PRIMARY KEY AUTOINCREMENT, origin TEXT NOT NULL, "
            "client TEXT NOT NULL DEFAULT '', client_version TEXT NOT NULL DEFAULT '', started TEXT NOT NULL, "
            "writer TEXT NOT NULL DEFAULT '')",
            ("id", "origin", "client", "client_version", "started", "writer"),
            ("id",),
        ),
        (
            "change_item",
            "CREATE TABLE IF NOT EXISTS change_item (id INTEGER PRIMARY KEY, change_id INTEGER NOT NULL, "
            "kind TEXT NOT NULL, op TEXT NOT NULL, row_id INTEGER NOT NULL, entity_id INTEGER, other_id INTEGER, "
            "before TEXT, after TEXT);\n"
            "CREATE INDEX IF NOT EXISTS change_item_change ON change_item(change_id);\n"
            "CREATE INDEX IF NOT EXISTS change_item_entity ON change_item(entity_id);\n"
            "CREATE INDEX IF NOT EXISTS change_item_other ON change_item(other_id) WHERE other_id IS NOT NULL",
            ("id", "change_id", "kind", "op", "row_id", "entity_id", "other_id", "before", "after"),
            ("id",),
        ),
        (
            "activity_read",
            "CREATE TABLE IF NOT EXISTS activity_read (session INTEGER NOT NULL, entity_id INTEGER, "
            "tool TEXT NOT NULL DEFAULT '', at TEXT NOT NULL);\n"
            "CREATE INDEX IF NOT EXISTS activity_read_entity ON activity_read(entity_id);\n"
            "CREATE INDEX IF NOT EXISTS activity_read_session ON activity_read(session)",
            ("session", "entity_id", "tool", "at"),
            (),
        ),
    )
}
TABLES = TABLES + tuple(BY_NAME_V5.values())
BY_NAME = {t.name: t for t in TABLES}
# SQLite indexes of the schema: each holds nothing its table does not, so a lost one is recreated.
INDEXES = (
    "CREATE INDEX IF NOT EXISTS observations_entity ON observations(entity_id, id)",
    "CREATE INDEX IF NOT EXISTS relations_to ON relations(to_entity)",
    # Each entity's degree in search's signals: counted from these alone, no relation row read.
    "CREATE INDEX IF NOT EXISTS relations_active_from ON relations(from_entity) WHERE active = 1",
    "CREATE INDEX IF NOT EXISTS relations_active_to ON relations(to_entity) WHERE active = 1",
    "CREATE INDEX IF NOT EXISTS co_occurrences_b ON co_occurrences(entity_b_id)",
    "CREATE INDEX IF NOT EXISTS entities_name_nocase ON entities(name COLLATE NOCASE)",
)
MISSING, MALFORMED = "missing", "malformed"


def _state(db: Database, spec: TableSpec) -> str | None:
    row = db.one("SELECT type, sql FROM sqlite_master WHERE name = ?", (spec.name,))
    if row is None:
        return MISSING
    kind, sql = row[0], (row[1] or "").lower()
    if kind != "table" or (spec.module is not None and f"using {spec.module}" not in sql):
        return MALFORMED
    if spec.module is None and "virtual table" in sql:
        return MALFORMED
    try:
        info = db.execute(f'PRAGMA table_info("{spec.name}")').fetchall()
    except apsw.Error:
        return MALFORMED
    columns = {r[1]: r[5] for r in info}
    if not set(spec.columns) <= set(columns):
        return MALFORMED
    key = [c for c, position in sorted(columns.items(), key=lambda kv: kv[1]) if position]
    if spec.module is None and tuple(key) != spec.primary_key:
        return MALFORMED  # the upserts that record signals need exactly this key
    return None


def problems(db: Database) -> dict[str, str]:
    """Each derived or signal table that is missing or does not have the shape Limbic writes."""
    found = {}
    for spec in TABLES:
        state = _state(db, spec)
        if state:
            found[spec.name] = state
    return found


def missing_indexes(db: Database) -> list[str]:
    """The schema's SQLite indexes that are not in the file."""
    names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    wanted = [ddl.split(" ON ")[0].split()[-1] for ddl in INDEXES]
    return [n for n in wanted if n not in names]


def recreate(db: Database, names: dict[str, str]) -> list[str]:
    """Recreate these tables empty, inside the caller's transaction; returns what was set aside.

    A malformed derived table is dropped; a malformed signal table is renamed aside (its rows
    stay in the file) rather than dropped.
    """
    kept = []
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S")
    for name, state in names.items():
        spec = BY_NAME[name]
        if state == MALFORMED:
            kind = db.scalar("SELECT type FROM sqlite_master WHERE name = ?", (name,))
            if spec.derived or kind != "table":
                db.execute(f'DROP {"VIEW" if kind == "view" else "TABLE"} IF EXISTS "{name}"')
            else:
                aside = f"{name}_unreadable_{stamp}"
                db.execute(f'ALTER TABLE "{name}" RENAME TO "{aside}"')
                kept.append(aside)
        db.execute(spec.ddl)
        logger.info("recreated the %s table (%s)", name, state)
    for ddl in INDEXES:
        db.execute(ddl)
    return kept


def ensure_present(db: Database) -> list[str]:
    """Recreate (empty) lost derived and signal tables and malformed derived ones; returns their names.

    A malformed signal table waits for `limbic check --repair`, which keeps its rows aside;
    until then searches simply see no usage history.
    """
    if db.readonly:
        return []
    missing = {n: s for n, s in problems(db).items() if s == MISSING or BY_NAME[n].derived}
    if missing:
        with db.transaction():
            recreate(db, missing)
    return sorted(missing)
