"""The SQLite connection: apsw with sqlite-vec loaded, pragmas, schema and in-place migrations."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from pathlib import Path

import apsw
import sqlite_vec

from limbic.engine.errors import DatabaseError

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 1
BUSY_TIMEOUT_MS = 5_000

_SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS entities (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    entity_type TEXT NOT NULL DEFAULT 'Generic',
    status      TEXT NOT NULL DEFAULT 'active',
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS observations (
    id         INTEGER PRIMARY KEY,
    entity_id  INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    content    TEXT NOT NULL,
    kind       TEXT NOT NULL DEFAULT 'note',
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS observations_entity ON observations(entity_id, id);
CREATE TABLE IF NOT EXISTS relations (
    id            INTEGER PRIMARY KEY,
    from_entity   INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    to_entity     INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    relation_type TEXT NOT NULL,
    context       TEXT,
    active        INTEGER NOT NULL DEFAULT 1,
    created_at    TEXT NOT NULL,
    UNIQUE (from_entity, to_entity, relation_type)
);
CREATE INDEX IF NOT EXISTS relations_to ON relations(to_entity);
CREATE TABLE IF NOT EXISTS entity_access (
    entity_id    INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
    access_count INTEGER NOT NULL DEFAULT 0,
    last_access  TEXT
);
CREATE TABLE IF NOT EXISTS entity_access_log (
    entity_id    INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    access_date  TEXT NOT NULL,
    access_count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (entity_id, access_date)
);
CREATE TABLE IF NOT EXISTS co_occurrences (
    entity_a_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    entity_b_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    co_count    INTEGER NOT NULL DEFAULT 0,
    last_co     TEXT,
    PRIMARY KEY (entity_a_id, entity_b_id),
    CHECK (entity_a_id < entity_b_id)
);
CREATE INDEX IF NOT EXISTS co_occurrences_b ON co_occurrences(entity_b_id);
-- Which text each stored vector was made from: an edit re-embeds only when this changes.
CREATE TABLE IF NOT EXISTS embedding_state (
    entity_id INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
    text_hash TEXT NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS entity_fts
    USING fts5(name, entity_type, obs_text, tokenize="unicode61");
"""

# Each entry upgrades the schema from version i to i + 1.
_MIGRATIONS: list[str] = [_SCHEMA_V1]


def _friendly(path: Path, exc: Exception) -> DatabaseError:
    if isinstance(exc, (apsw.NotADBError, apsw.CorruptError)):
        return DatabaseError(f"{path} is not a Limbic database or is damaged.")
    if isinstance(exc, apsw.BusyError):
        return DatabaseError(f"{path} is locked by another program; try again in a moment.")
    if isinstance(exc, (apsw.CantOpenError, apsw.ReadOnlyError, apsw.PermissionsError)):
        return DatabaseError(f"{path} cannot be opened for writing (check the file and folder permissions).")
    return DatabaseError(f"{path} cannot be used: {exc}")


class Database:
    """One connection to a graph file. Owned by one thread; not shared."""

    def __init__(self, path: Path | str, readonly: bool = False) -> None:
        self.path = Path(path) if str(path) != ":memory:" else Path(":memory:")
        self.readonly = readonly
        if str(self.path) != ":memory:" and not readonly:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise DatabaseError(f"The folder {self.path.parent} cannot be created: {exc.strerror}.") from exc
        flags = apsw.SQLITE_OPEN_READONLY if readonly else apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE
        try:
            self.conn = apsw.Connection(str(self.path), flags=flags)
            self.conn.setbusytimeout(BUSY_TIMEOUT_MS)
            self.conn.enable_load_extension(True)
            self.conn.load_extension(sqlite_vec.loadable_path())
            self.conn.enable_load_extension(False)
            self._depth = 0
            # Check the version before anything writes: a newer or foreign file stays untouched.
            self._check_version()
            self._configure()
            if not readonly:
                self._migrate()
        except DatabaseError:
            self._close_quietly()
            raise
        except apsw.Error as exc:
            self._close_quietly()
            raise _friendly(self.path, exc) from exc

    def _close_quietly(self) -> None:
        conn = getattr(self, "conn", None)
        if conn is not None:
            with contextlib.suppress(apsw.Error):
                conn.close()

    def _configure(self) -> None:
        self.conn.execute("PRAGMA foreign_keys = ON")
        if not self.readonly and str(self.path) != ":memory:":
            mode = self.conn.execute("PRAGMA journal_mode = WAL").fetchall()
            logger.debug("journal mode %s", mode)
        self.conn.execute("PRAGMA synchronous = NORMAL")

    def user_version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchall()[0][0])

    def _check_version(self) -> int:
        version = self.user_version()
        if version > SCHEMA_VERSION:
            raise DatabaseError(
                f"{self.path} was written by a newer version of Limbic (schema {version}); "
                f"this version reads schema {SCHEMA_VERSION} or older. Update Limbic to open it."
            )
        return version

    def _migrate(self) -> None:
        version = self._check_version()
        if version == SCHEMA_VERSION:
            return
        if version > 0:
            logger.info("upgrading %s from schema %d to %d", self.path, version, SCHEMA_VERSION)
        with self.transaction():
            for step in range(version, SCHEMA_VERSION):
                self.conn.execute(_MIGRATIONS[step])
            self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @contextlib.contextmanager
    def transaction(self) -> Iterator[apsw.Connection]:
        """An IMMEDIATE write transaction; nested calls join the outer one."""
        if self._depth:
            self._depth += 1
            try:
                yield self.conn
            finally:
                self._depth -= 1
            return
        self.conn.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield self.conn
        except BaseException:
            self._depth = 0
            with contextlib.suppress(apsw.Error):
                self.conn.execute("ROLLBACK")
            raise
        self._depth = 0
        self.conn.execute("COMMIT")

    @property
    def in_transaction(self) -> bool:
        return self._depth > 0

    def execute(self, sql: str, params: tuple | dict = ()) -> apsw.Cursor:
        return self.conn.execute(sql, params)

    def executemany(self, sql: str, rows) -> apsw.Cursor:
        return self.conn.executemany(sql, rows)

    def one(self, sql: str, params: tuple | dict = ()):
        """The first row of a query, or None."""
        for row in self.conn.execute(sql, params):
            return row
        return None

    def scalar(self, sql: str, params: tuple | dict = ()):
        row = self.one(sql, params)
        return None if row is None else row[0]

    def get_meta(self, key: str) -> str | None:
        return self.scalar("SELECT value FROM meta WHERE key = ?", (key,))

    def set_meta(self, key: str, value: str) -> None:
        self.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    def del_meta(self, key: str) -> None:
        self.execute("DELETE FROM meta WHERE key = ?", (key,))

    def has_table(self, name: str) -> bool:
        return self.scalar("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)) is not None

    def data_version(self) -> int:
        """Changes when another connection commits; lets the app notice outside writes."""
        return int(self.scalar("PRAGMA data_version"))

    def close(self) -> None:
        self._close_quietly()
