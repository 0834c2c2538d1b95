"""The SQLite connection: apsw with sqlite-vec loaded, pragmas, schema and in-place migrations."""

from __future__ import annotations

import contextlib
import logging
import os
import random
import secrets
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NoReturn

import apsw

from limbic.engine.activity import SCHEMA_V5, Recorder
from limbic.engine.changes import ChangeSet, write_log
from limbic.engine.errors import DatabaseError

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 5
BUSY_TIMEOUT_MS = 5_000
# A write waits this long in all for another process to finish its own (each attempt waits
# BUSY_TIMEOUT_MS inside SQLite, then backs off): "database is locked" never reaches the user.
WRITE_RETRY_SECONDS = 60.0
SQLITE_MAGIC = b"SQLite format 3\x00"
# The text as written (exact names and phrases, highlighting) and its words' stems (stemming.py),
# which the text branch searches.
FTS_DDL = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS entity_fts "
    'USING fts5(name, entity_type, obs_text, stem_name, stem_text, tokenize="unicode61")'
)
# Tables of a Limbic file; an SQLite file without them belongs to another program.
LIMBIC_TABLES = frozenset({"meta", "entities", "observations", "relations"})

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
# v2: exact-name look-ups ignore case; without this index each search scanned every name.
_SCHEMA_V2 = "CREATE INDEX IF NOT EXISTS entities_name_nocase ON entities(name COLLATE NOCASE);"

# v3: every commit leaves a record of what it touched, so the programs sharing the file follow
# each other (see changes.py): a revision per entity and a small, pruned change log.
_SCHEMA_V3 = """
ALTER TABLE entities ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS change_log (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    at      TEXT NOT NULL,
    origin  TEXT NOT NULL,
    writer  TEXT NOT NULL,
    changes TEXT NOT NULL
);
INSERT OR IGNORE INTO meta(key, value) VALUES ('change_epoch', lower(hex(randomblob(8))));
"""

# v4: what the seed engine knew and Limbic kept nowhere, so its files import without loss.
# An observation replaced by a newer one stays as history (superseded_by points at the newer,
# superseded_at says when); a relation can end without being deleted (active 0, ended_at);
# reflections are prose about an entity, a relation, a session or the whole graph.
_SCHEMA_V4 = """
ALTER TABLE observations ADD COLUMN superseded_by INTEGER REFERENCES observations(id) ON DELETE SET NULL;
ALTER TABLE observations ADD COLUMN superseded_at TEXT;
ALTER TABLE observations ADD COLUMN similarity_flag INTEGER NOT NULL DEFAULT 0;
ALTER TABLE relations ADD COLUMN ended_at TEXT;
CREATE TABLE IF NOT EXISTS reflections (
    id          INTEGER PRIMARY KEY,
    target_type TEXT NOT NULL CHECK (target_type IN ('entity', 'relation', 'session', 'global')),
    entity_id   INTEGER REFERENCES entities(id) ON DELETE CASCADE,
    relation_id INTEGER REFERENCES relations(id) ON DELETE CASCADE,
    target_ref  INTEGER,
    author      TEXT NOT NULL DEFAULT '',
    content     TEXT NOT NULL,
    mood        TEXT,
    created_at  TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS reflections_entity ON reflections(entity_id);
CREATE INDEX IF NOT EXISTS reflections_relation ON reflections(relation_id);
"""

_MIGRATIONS: list[str] = [_SCHEMA_V1, _SCHEMA_V2, _SCHEMA_V3, _SCHEMA_V4, SCHEMA_V5]  # v5: activity.py

# Graph files this process holds a connection to, by (device, inode), with how many connections.
# SQLite's POSIX locks belong to the process: opening and closing any other descriptor on such a
# file (or its -wal/-shm) silently drops them, so no Python code may open these files meanwhile.
_OPEN_FILES: dict[tuple[int, int], int] = {}
_OPEN_NAMES: dict[str, int] = {}
_OPEN_LOCK = threading.Lock()


def _file_key(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)  # stat opens nothing
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino)


def _companions(path: Path) -> list[str]:
    real = os.path.realpath(path)
    return [real, real + "-wal", real + "-shm", real + "-journal"]


def is_open_graph_file(path: Path | str) -> bool:
    """True if ``path`` is a graph file (or its -wal/-shm/-journal) this process has open in SQLite.

    Code that reads or writes a user-chosen file calls this first: opening such a file outside
    SQLite would drop the process's locks on it.
    """
    path = Path(path)
    with _OPEN_LOCK:
        if not _OPEN_FILES and not _OPEN_NAMES:
            return False
        key = _file_key(path)
        if key is not None and key in _OPEN_FILES:
            return True
        return os.path.realpath(path) in _OPEN_NAMES


def _register_open(path: Path, delta: int) -> None:
    if str(path) == ":memory:":
        return
    with _OPEN_LOCK:
        key = _file_key(path)
        if key is not None:
            n = _OPEN_FILES.get(key, 0) + delta
            if n > 0:
                _OPEN_FILES[key] = n
            else:
                _OPEN_FILES.pop(key, None)
        for name in _companions(path):
            n = _OPEN_NAMES.get(name, 0) + delta
            if n > 0:
                _OPEN_NAMES[name] = n
            else:
                _OPEN_NAMES.pop(name, None)


def _friendly(path: Path, exc: Exception) -> DatabaseError:
    if isinstance(exc, (apsw.NotADBError, apsw.CorruptError)):
        return DatabaseError(f"{path} is not a Limbic database or is damaged.")
    if isinstance(exc, apsw.BusyError):
        return DatabaseError(f"{path} is locked by another program; try again in a moment.")
    if isinstance(exc, (apsw.CantOpenError, apsw.ReadOnlyError, apsw.PermissionsError)):
        return DatabaseError(f"{path} cannot be opened for writing (check the file and folder permissions).")
    if isinstance(exc, apsw.FullError):
        return DatabaseError(f"The disk holding {path} is full; nothing was changed.")
    if isinstance(exc, apsw.IOError):
        return DatabaseError(f"{path} cannot be read or written (a disk or file-system error); nothing was changed.")
    return DatabaseError(f"{path} cannot be used: {exc}")


def _write_error(db: Database, exc: BaseException) -> DatabaseError | None:
    """A sentence for an SQLite error met while writing, or None for errors that are not about the file."""
    if isinstance(exc, apsw.ReadOnlyError):
        return DatabaseError(db.readonly_note or f"{db.path} is open read-only; the change was not saved.")
    if isinstance(exc, apsw.BusyError):
        return DatabaseError(f"{db.path} is busy with another program's write; the change was not saved, try again.")
    if isinstance(exc, (apsw.CorruptError, apsw.NotADBError)):
        return DatabaseError(f"{db.path} is damaged; the change was not saved (run `limbic check`).")
    if isinstance(exc, (apsw.FullError, apsw.IOError)):
        return _friendly(db.path, exc)
    return None


def inspect_file(path: Path) -> None:
    """Refuse, without writing to it, a file that is not an intact SQLite database; an empty file is fine."""
    if path.is_dir():
        raise DatabaseError(f"{path} is a folder, not a graph file.")
    if is_open_graph_file(path):
        return  # already open here, so already judged; reading it now would drop our locks
    try:
        with open(path, "rb") as fh:
            head = fh.read(100)
            size = os.fstat(fh.fileno()).st_size
    except OSError as exc:
        raise DatabaseError(f"{path} cannot be read ({exc.strerror}).") from None
    if size == 0:
        return
    if len(head) < 100 or not head.startswith(SQLITE_MAGIC):
        raise DatabaseError(f"{path} is not a Limbic database (it is not an SQLite file) or is damaged.")
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65_536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise DatabaseError(f"{path} is damaged: its header is not valid.")
    pages = int.from_bytes(head[28:32], "big")
    # The page count in the header is trusted only when it was written with the change counter
    # (bytes 92-95 equal bytes 24-27). With a live write-ahead log the main file can lag behind
    # mid-checkpoint, so the size is judged only when there is no log.
    wal = path.with_name(path.name + "-wal")
    has_wal = wal.exists() and wal.stat().st_size > 0
    if head[24:28] == head[92:96] and pages and size < pages * page_size and not has_wal:
        raise DatabaseError(
            f"{path} is damaged: the file is shorter than its header says (it was probably cut off while being copied)."
        )


def _folder_writable(path: Path) -> bool:
    return os.access(path.parent if str(path.parent) else Path("."), os.W_OK)


class Database:
    """One connection to a graph file. Owned by one thread; not shared."""

    def __init__(self, path: Path | str, readonly: bool = False) -> None:
        self.path = Path(path) if str(path) != ":memory:" else Path(":memory:")
        if self.path.is_symlink():
            # Resolved once: backups, journals and messages all follow the real file, not the link.
            self.path = Path(os.path.realpath(self.path))
        self.readonly = readonly
        # Why a file asked for writing was opened read-only; the app and the CLI show it.
        self.readonly_note: str | None = None
        self.write_retry_seconds = WRITE_RETRY_SECONDS
        self._depth = 0
        self._seen_version: int | None = None
        self._registered = False
        self._side: SideReader | None = None
        self._side_failed = False
        self._change_log: bool | None = None
        self._history: bool | None = None
        # Who writes through this connection (its origin and session, activity.py) and a token
        # telling this connection's own rows apart from other writers'.
        self.activity = Recorder(self)
        self.writer_id = secrets.token_hex(8)
        self.changes: ChangeSet | None = None  # what the open write transaction touched
        self.commit_listeners: list[Callable[[ChangeSet], None]] = []
        self.rollback_listeners: list[Callable[[], None]] = []
        memory = str(self.path) == ":memory:"
        if not memory and self.path.exists():
            inspect_file(self.path)
            if not readonly and not (os.access(self.path, os.W_OK) and _folder_writable(self.path)):
                what = "file" if not os.access(self.path, os.W_OK) else "folder holding it"
                self.readonly = True
                self.readonly_note = (
                    f"{self.path} is opened read-only because the {what} cannot be written; no change can be saved."
                )
                logger.info("%s", self.readonly_note)
        elif not memory and readonly:
            raise DatabaseError(f"{self.path} does not exist.")
        elif not memory:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise DatabaseError(f"The folder {self.path.parent} cannot be created: {exc.strerror}.") from exc
            if not _folder_writable(self.path):
                raise DatabaseError(f"A new graph cannot be created in {self.path.parent}: the folder is read-only.")
        try:
            self._open_connection(immutable=False)
        except apsw.Error as exc:
            self._close_quietly()
            if not (self.readonly and isinstance(exc, (apsw.ReadOnlyError, apsw.CantOpenError))):
                raise _friendly(self.path, exc) from exc
            # A write-ahead-log file whose folder cannot be written has nowhere for its shared
            # index: it can still be read as an unchanging file, unless a log holds newer commits.
            wal = self.path.with_name(self.path.name + "-wal")
            if wal.exists() and wal.stat().st_size > 0:
                raise DatabaseError(
                    f"{self.path} cannot be read from a read-only folder while its journal ({wal.name}) holds changes."
                ) from exc
            try:
                self._open_connection(immutable=True)
            except DatabaseError:
                self._close_quietly()
                raise
            except apsw.Error as exc2:
                self._close_quietly()
                raise _friendly(self.path, exc2) from exc2
        except DatabaseError:
            self._close_quietly()
            raise
        if not self.readonly and not memory:
            from limbic.engine.backup import clean_stale_parts  # backup needs an open Database

            clean_stale_parts(self.path)

    def _open_connection(self, immutable: bool) -> None:
        flags = apsw.SQLITE_OPEN_READONLY if self.readonly else apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE
        name = str(self.path)
        if immutable:
            name = "file:" + urllib.parse.quote(str(self.path.resolve())) + "?immutable=1"
            flags |= apsw.SQLITE_OPEN_URI
        self.conn = apsw.Connection(name, flags=flags)
        self.conn.setbusytimeout(BUSY_TIMEOUT_MS)
        self.conn.enable_load_extension(True)
        import sqlite_vec  # imports numpy: done when a file opens (on the engine's thread), not at start-up

        self.conn.load_extension(sqlite_vec.loadable_path())
        self.conn.enable_load_extension(False)
        # Everything is read and judged before the first write: a foreign, damaged or newer
        # file is refused untouched.
        version = self._check_version()
        if self.readonly and version == 0 and str(self.path) != ":memory:":
            raise DatabaseError(f"{self.path} holds no graph yet and cannot be written.")
        self._configure()
        if not self.readonly:
            self._migrate()
        self._seen_version = self.data_version()
        if not self._registered:
            _register_open(self.path, +1)
            self._registered = True

    def _close_quietly(self) -> None:
        side = getattr(self, "_side", None)
        if side is not None:
            self._side = None
            side.close()
        conn = getattr(self, "conn", None)
        if conn is not None:
            with contextlib.suppress(apsw.Error):
                conn.close()
        if getattr(self, "_registered", False):
            _register_open(self.path, -1)
            self._registered = False

    def _configure(self) -> None:
        self.conn.execute("PRAGMA foreign_keys = ON")
        if not self.readonly and str(self.path) != ":memory:":
            mode = self._retry_busy(lambda: self.conn.execute("PRAGMA journal_mode = WAL").fetchall())
            logger.debug("journal mode %s", mode)
        # FULL: a commit is on disk before it is reported, so a power cut loses no saved edit
        # (NORMAL would survive a killed process but could drop the last commits).
        self.conn.execute("PRAGMA synchronous = FULL")

    def _retry_busy(self, step):
        """Run ``step`` again with backoff while another process holds the lock, up to the write budget."""
        deadline = time.monotonic() + self.write_retry_seconds
        delay = 0.02
        while True:
            try:
                return step()
            except apsw.BusyError:
                if time.monotonic() >= deadline:
                    raise DatabaseError(
                        f"{self.path} has been busy with another program's write for over "
                        f"{self.write_retry_seconds:.0f} seconds; nothing was changed, try again when it has finished."
                    ) from None
                logger.info("%s is busy; retrying", self.path)
                time.sleep(delay * (1 + random.random()))  # jitter: two waiting writers do not wake together
                delay = min(delay * 2, 1.0)

    def user_version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchall()[0][0])

    def _check_version(self) -> int:
        version = self.user_version()
        tables = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        foreign = (version == 0 and bool(tables)) or (bool(tables) and not LIMBIC_TABLES <= tables)
        if foreign and str(self.path) != ":memory:":
            raise DatabaseError(f"{self.path} is an SQLite database of another program, not a Limbic graph; it was left as it is.")
        if version > SCHEMA_VERSION:
            raise DatabaseError(
                f"{self.path} was written by a newer version of Limbic (schema {version}); "
                f"this version reads schema {SCHEMA_VERSION} or older. Update Limbic to open it."
            )
        if version < 0 or (version > 0 and not tables):
            raise DatabaseError(
                f"{self.path} is an SQLite file marked as schema {version} but holds no Limbic graph; "
                "it was not written by Limbic and was left as it is."
            )
        return version

    def _migrate(self) -> None:
        version = self._check_version()
        if version == SCHEMA_VERSION:
            return
        if version > 0:
            logger.info("upgrading %s from schema %d to %d", self.path, version, SCHEMA_VERSION)
            from limbic.engine.backup import backup_database  # backup needs an open Database

            backup_database(self, reason=f"before-schema-{SCHEMA_VERSION}")
        with self.transaction():
            for step in range(version, SCHEMA_VERSION):
                self.conn.execute(_MIGRATIONS[step])
            self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        self._change_log = None  # the log and the activity tables may be new: look for them again
        self.activity.reset()

    @contextlib.contextmanager
    def transaction(self, retry: bool = True) -> Iterator[apsw.Connection]:
        """An IMMEDIATE write transaction; nested calls join the outer one.

        While another process writes, starting waits with backoff (``retry``) instead of failing;
        SQLite errors about the file become one plain sentence and the transaction rolls back.
        ``retry=False`` is for best-effort writes: no waiting, and SQLite's own errors as they are.
        """
        if self._depth:
            self._depth += 1
            try:
                yield self.conn
            finally:
                self._depth -= 1
            return
        begin = lambda: self.conn.execute("BEGIN IMMEDIATE")  # noqa: E731
        try:
            self._retry_busy(begin) if retry else begin()
        except apsw.Error as exc:
            friendly = _write_error(self, exc) if retry else None
            if friendly is None:
                raise
            raise friendly from exc
        self._depth = 1
        self.changes = ChangeSet()
        try:
            if self._has_change_log():
                self.activity.ensure_installed()  # this connection's triggers record every row written
            yield self.conn
            done = self.changes
            if self._has_change_log():
                write_log(self, done)  # nothing when nothing changed
        except BaseException as exc:
            self._depth = 0
            self._abort(exc, retry)
        self._depth = 0
        commit = lambda: self.conn.execute("COMMIT")  # noqa: E731
        try:
            # A busy COMMIT leaves the transaction open, so it can simply be tried again.
            self._retry_busy(commit) if retry else commit()
        except BaseException as exc:
            self._abort(exc, retry)
        self.changes = None
        self.activity.committed()
        if not done.empty:
            for listener in list(self.commit_listeners):
                listener(done)

    def _has_change_log(self) -> bool:
        if self._change_log is None:
            self._change_log = self.has_table("change_log")
        return self._change_log

    def _abort(self, exc: BaseException, friendly_errors: bool) -> NoReturn:
        """Roll back and re-raise; SQLite's errors become one sentence when the caller asked for it."""
        with contextlib.suppress(apsw.Error):
            self.conn.execute("ROLLBACK")
        self.changes = None
        self.activity.rolled_back()
        for listener in list(self.rollback_listeners):
            listener()
        friendly = _write_error(self, exc) if friendly_errors and isinstance(exc, apsw.Error) else None
        if friendly is None:
            raise exc
        raise friendly from exc

    def note(self, kind: str, ids) -> None:
        """Record in the open write transaction that these entities were ``kind`` (added, changed, ...)."""
        if self.changes is not None:
            getattr(self.changes, kind).update(ids)

    def note_flag(self, flag: str) -> None:
        """Set a flag (``names``, ``vectors_reset``) on the open write transaction's changes."""
        if self.changes is not None:
            setattr(self.changes, flag, True)

    @property
    def origin(self) -> str:
        """Who writes through this connection: app, cli, import or assistant (see ``activity.Recorder``)."""
        return self.activity.origin

    @origin.setter
    def origin(self, value: str) -> None:
        self.activity.set_origin(value)

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

    def has_history(self) -> bool:
        """True when the file has schema 4's columns (a read-only older file cannot be upgraded)."""
        if self._history is None:
            self._history = "superseded_at" in {r[1] for r in self.execute("PRAGMA table_info(observations)")}
        return self._history

    def data_version(self) -> int:
        """Changes when another connection commits; lets the app notice outside writes."""
        return int(self.scalar("PRAGMA data_version"))

    def changed_by_others(self) -> bool:
        """True once after another connection or process committed since the last call.

        Cheap enough to poll about once a second from the thread that owns this connection;
        this connection's own writes never count.
        """
        if self.in_transaction:
            return False
        version = self.data_version()
        changed = self._seen_version is not None and version != self._seen_version
        self._seen_version = version
        return changed

    def close(self) -> None:
        self._close_quietly()

    def interrupt(self) -> None:
        """Stop what this connection (and its side reader) is running at SQLite's next step."""
        self.conn.interrupt()
        side = self._side
        if side is not None:
            side.interrupt()

    def side_reader(self) -> SideReader | None:
        """A second, read-only connection to this file with a thread of its own, opened on first use.

        Search runs its full-text branch there while this thread encodes the query and scans the
        vectors. None for an in-memory graph, or when the file cannot be opened a second time.
        """
        if self._side is None and not self._side_failed and str(self.path) != ":memory:":
            try:
                self._side = SideReader(self.path)
            except (DatabaseError, apsw.Error, OSError) as exc:
                logger.info("no side reader for %s: %s", self.path, exc)
                self._side_failed = True
        return self._side


class SideReader:
    """A read-only connection to an open graph file and one thread that alone uses it.

    It is SQLite's own second connection to the file (never a plain open, which would drop the
    process's locks), so it shares the file safely; it sees every commit, its own read
    transactions last one statement each.
    """

    def __init__(self, path: Path) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.db = Database(path, readonly=True)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="limbic-side-reader")

    def submit(self, fn, *args):
        """Run ``fn(db, *args)`` on the side thread; a Future of its result."""
        return self._pool.submit(fn, self.db, *args)

    def interrupt(self) -> None:
        with contextlib.suppress(apsw.Error):
            self.db.conn.interrupt()

    def close(self) -> None:
        self.interrupt()  # a search still running there stops at its next step
        self._pool.shutdown(wait=True, cancel_futures=True)
        self.db.close()
