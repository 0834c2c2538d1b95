"""The SQLite connection: apsw with sqlite-vec loaded, pragmas, schema and in-place migrations."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import random
import secrets
import time
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import apsw

from limbic.engine.store import values as _values
from limbic.engine.store.activity import Recorder
from limbic.engine.errors import DatabaseError
from limbic.engine.store.durability import make_durable
from limbic.engine.store.journal_watch import JournalWatch, held_elsewhere, lost_log, note_lost, refusal, rescue
# The schema (its DDL and one migration per version) and what this process knows of the files it
# has open live below this module (re-exported: callers use them from here).
from limbic.engine.store.open_files import (  # noqa: F401 - SQLITE_MAGIC, is_open_graph_file: used from here
    SQLITE_MAGIC,
    friendly_error as _friendly,
    inspect_file,
    is_open_graph_file,
    register_open as _register_open,
    write_error as _write_error,
)
from limbic.engine.store.schema import FTS_DDL, LIMBIC_TABLES
from limbic.engine.store.schema import MIGRATIONS as _MIGRATIONS
from limbic.engine.store.schema import SCHEMA_V1 as _SCHEMA_V1  # noqa: F401 - tests build old files from it

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 11
BUSY_TIMEOUT_MS = 5_000
# A write waits this long in all for another process to finish its own (each attempt waits
# BUSY_TIMEOUT_MS inside SQLite, then backs off): "database is locked" never reaches the user.
WRITE_RETRY_SECONDS = 60.0


def _folder_writable(path: Path) -> bool:
    return os.access(path.parent if str(path.parent) else Path("."), os.W_OK)


class DatabaseHooks:
    """What other engine modules add to every connection, so that this module knows nothing of them:
    ``changes.py`` sets ``new_changes`` (a write's ChangeSet), logs it ``before_commit``; sync's ``own.py`` records
    writes ``after_begin``; ``backup.py`` cleans up ``on_writable_open``, backs up ``before_upgrade``.
    """

    def __init__(self) -> None:
        self.new_changes: Callable[[], Any] | None = None  # an object with ``.empty`` and sets to note into
        self.after_begin: list[Callable[[Database], None]] = []
        self.before_commit: list[Callable[[Database, Any], None]] = []
        self.on_writable_open: list[Callable[[Database], None]] = []
        self.before_upgrade: list[Callable[[Database, int], None]] = []


HOOKS = DatabaseHooks()


class _Gone(Exception):
    """The graph file or its write-ahead log was taken away under an open write (``kind``: "main" or "wal")."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


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
        self.changes: Any = None  # what the open write transaction touched (HOOKS.new_changes)
        self.commit_listeners: list[Callable[[Any], None]] = []
        self.rollback_listeners: list[Callable[[], None]] = []
        # Watches the file and its log under a writable connection; once either is taken away,
        # every later write is refused with this sentence (journal_watch.py).
        self._watch: JournalWatch | None = None
        self._refused: str | None = None
        # Why the file is known to have lost commits (a write-ahead log removed before they reached it).
        self.lost_note: str | None = None
        memory = str(self.path) == ":memory:"
        if not memory and self.path.exists():
            inspect_file(self.path)
            if not is_open_graph_file(self.path):
                self.lost_note = lost_log(self.path)  # only now: opening the file makes SQLite rebuild that evidence
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
                raise (held_elsewhere(self.path, exc) if self.lost_note else _friendly(self.path, exc)) from exc
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
            for hook in list(HOOKS.on_writable_open):
                hook(self)
        self.lost_note = note_lost(self, self.lost_note)

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
        if not self.readonly and str(self.path) != ":memory:":
            self._watch = JournalWatch(self.conn, suspect=self.lost_note is not None)
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
        make_durable(self.conn)  # synchronous FULL, and on macOS the drive's cache written too (durability.py)

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
        version, names = self.conn.execute(  # one statement, one snapshot: a file being made is never seen half made
            "SELECT (SELECT user_version FROM pragma_user_version), (SELECT json_group_array(name) FROM sqlite_master "
            "WHERE type = 'table')").fetchall()[0]
        tables = set(json.loads(names))
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
            for hook in list(HOOKS.before_upgrade):
                hook(self, SCHEMA_VERSION)
        with self.transaction():
            version = self._check_version()  # again under the lock: another program may have upgraded it since
            if version == 0:  # a new file gets today's full-text table at once (schema 1's would be replaced)
                self.conn.execute(FTS_DDL)
            for migration in _MIGRATIONS[version:SCHEMA_VERSION]:
                migration(self.conn) if callable(migration) else self.conn.execute(migration)
            if version != SCHEMA_VERSION:
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
        if self._refused:
            raise DatabaseError(self._refused)
        begin = lambda: self.conn.execute("BEGIN IMMEDIATE")  # noqa: E731
        try:
            self._retry_busy(begin) if retry else begin()
        except apsw.Error as exc:
            friendly = _write_error(self, exc) if retry else None
            if friendly is None:
                raise
            raise friendly from exc
        self._depth = 1
        self.changes = HOOKS.new_changes() if HOOKS.new_changes is not None else None
        try:
            for opened in list(HOOKS.after_begin):
                opened(self)
            self._look()  # a file or log taken away is noticed before the write is done, and again before it is kept
            if self.has_change_log():
                self.activity.ensure_installed()  # this connection's triggers record every row written
            yield self.conn
            done = self.changes
            for hook in list(HOOKS.before_commit):
                hook(self, done)  # the change log: nothing when nothing changed
            self._look()
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
        # Taken away during the commit itself: the commit is acknowledged only once it is in the file.
        kind = self._watch.problem() if self._watch is not None else None
        lost = self._lose(kind, committed=True) if kind else None
        if done is not None and not done.empty:
            for listener in list(self.commit_listeners):
                listener(done)
        if lost:
            raise DatabaseError(lost)

    def _look(self) -> None:
        kind = self._watch.problem() if self._watch is not None else None
        if kind:
            raise _Gone(kind)

    def _lose(self, kind: str, committed: bool = False) -> str | None:
        """Copy what the connection holds into the file and refuse later writes; the sentence for this one, if any.

        None when a commit that was already made is now in the graph file, on disk.
        """
        saved = kind == "wal" and rescue(self.conn)
        self._refused = refusal(self.path, kind, saved)
        logger.warning("%s", self._refused)
        if committed and saved:
            return None
        return refusal(self.path, kind, saved, committed)

    def has_change_log(self) -> bool:
        """Whether the file has a change log (files from before it, opened read-only, may not)."""
        if self._change_log is None:
            self._change_log = self.has_table("change_log")
        return self._change_log

    def _abort(self, exc: BaseException, friendly_errors: bool) -> NoReturn:
        """Roll back and re-raise; SQLite's errors become one sentence when the caller asked for it."""
        with contextlib.suppress(apsw.Error):
            self.conn.execute("ROLLBACK")
        if isinstance(exc, _Gone):
            exc = DatabaseError(self._lose(exc.kind))  # after the rollback: a checkpoint needs no open write
        self.changes = None
        self.activity.rolled_back()
        for listener in list(self.rollback_listeners):
            listener()
        friendly = _write_error(self, exc) if friendly_errors and isinstance(exc, apsw.Error) else None
        if friendly is None:
            raise exc
        raise friendly from exc

    def moment(self) -> str:
        """The open write transaction's one time, for its writes and its change_log row (so ``updated_at`` is the
        change's time, which another device applying the change sets too); outside one, now."""
        if self.changes is not None and getattr(self, "_moment_for", None) is not self.changes:
            self._moment_for, self._moment = self.changes, _values.now_utc()
        return self._moment if self.changes is not None else _values.now_utc()

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
        """Changes when another connection commits; lets the app notice outside writes.

        The front ends poll it: a graph file or log taken away is noticed here between writes too,
        so what was acknowledged before the log went reaches the file within a poll.
        """
        if self._watch is not None and self._refused is None and self.conn.get_autocommit():
            if kind := self._watch.problem():
                self._lose(kind)
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
