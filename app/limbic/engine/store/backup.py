"""Rolling backups of a graph file with SQLite's online backup API, and restoring one."""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import re
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

import apsw

from limbic import config, osfiles
from limbic.engine.store import db as _db
from limbic.engine.errors import DatabaseError, OtherGraphError
from limbic.engine.store.graph_identity import GRAPH_ID_KEY, ensure_graph_id, other_graph

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

logger = logging.getLogger(__name__)

KEEP_BACKUPS = 10
KEEP_RESTORE_POINTS = 3  # backups taken before a restore, kept beyond KEEP_BACKUPS
RESTORE_POINT = "before-restore"
SUFFIX = ".bak"
# Pages copied per step: small steps let another process write between them.
STEP_PAGES = 1024
# What an interrupted copy leaves behind, and how old it must be before it is taken for abandoned.
_PART_TAILS = (".part", ".part-journal", ".part-wal", ".part-shm")
STALE_PART_SECONDS = 60.0
_STAMP = "%Y%m%dT%H%M%S"
_NAME = re.compile(r"^(?P<stamp>\d{8}T\d{6})(?P<us>\d{6})-(?P<reason>[a-z0-9-]+)\.bak$")


@dataclass(frozen=True)
class BackupFile:
    """One rolling backup: where it is, when it was taken and why."""

    path: Path
    taken: datetime
    reason: str

    @property
    def size(self) -> int:
        return self.path.stat().st_size


def _fsync_dir(folder: Path) -> None:
    # Makes the rename itself durable; not possible (nor needed) on every platform.
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _copy(source: apsw.Connection, dest_path: Path) -> None:
    """Copy a live database into a new file, page by page, as one consistent snapshot."""
    dest = apsw.Connection(str(dest_path))
    try:
        with dest.backup("main", source, "main") as job:
            while not job.done:
                job.step(STEP_PAGES)
        # A backup is one self-contained file: no write-ahead log to carry around with it.
        dest.execute("PRAGMA journal_mode = DELETE")
    finally:
        dest.close()


def list_backups(db_path: Path) -> list[BackupFile]:
    """The backups of a graph file, oldest first."""
    folder = config.backup_dir(Path(db_path))
    found = []
    if not folder.is_dir():
        return found
    for path in folder.iterdir():
        m = _NAME.match(path.name)
        if m:
            taken = datetime.strptime(m["stamp"], _STAMP).replace(microsecond=int(m["us"]), tzinfo=timezone.utc)
            found.append(BackupFile(path, taken, m["reason"]))
    return sorted(found, key=lambda b: b.path.name)


def _cause(exc: BaseException) -> str:
    """The real reason a copy failed, in words (SQLite's own text can say "not an error")."""
    code = getattr(exc, "errno", None)
    if isinstance(exc, apsw.FullError) or code == errno.ENOSPC:
        return "the disk is full"
    if isinstance(exc, (apsw.ReadOnlyError, apsw.CantOpenError, apsw.PermissionsError)) or code in (
        errno.EACCES, errno.EPERM, errno.EROFS,
    ):
        return "the folder cannot be written"
    if isinstance(exc, (apsw.BusyError, apsw.LockedError)):
        return "another program kept the file busy"
    if isinstance(exc, (apsw.CorruptError, apsw.NotADBError)):
        return "the file is damaged"
    if isinstance(exc, apsw.IOError) or code == errno.EIO:
        return "a disk or file-system error"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return f"an unexpected {type(exc).__name__}"


def _part_in_use(part: Path) -> bool:
    """Whether another connection (in any process) still holds the lock of a copy being written."""
    try:
        conn = apsw.Connection(str(part), flags=apsw.SQLITE_OPEN_READWRITE)
    except apsw.Error:
        return False
    try:
        conn.setbusytimeout(0)
        conn.execute("BEGIN EXCLUSIVE")
        conn.execute("ROLLBACK")
        return False
    except apsw.BusyError:
        return True
    except apsw.Error:
        return False  # not even a database: nobody is writing it as one
    finally:
        with contextlib.suppress(apsw.Error):
            conn.close()


def clean_stale_parts(db_path: Path, min_age: float = STALE_PART_SECONDS) -> list[Path]:
    """Delete what a killed backup left (``.bak.part`` and its ``-journal``); returns what was deleted.

    A copy is left alone while another connection holds its lock or it changed in the last
    ``min_age`` seconds (a backup finishing in another process).
    """
    folder = config.backup_dir(Path(db_path))
    gone: list[Path] = []
    if not folder.is_dir():
        return gone
    parts: dict[Path, list[Path]] = {}
    try:
        entries = list(folder.iterdir())
    except OSError:
        return gone
    for path in entries:
        for tail in _PART_TAILS:
            if path.name.endswith(SUFFIX + tail):
                parts.setdefault(path.with_name(path.name[: len(path.name) - len(tail) + len(".part")]), []).append(path)
    now = time.time()
    for part, files in parts.items():
        try:
            if any(now - f.stat().st_mtime < min_age for f in files):
                continue
        except OSError:
            continue
        if part.exists() and _part_in_use(part):
            continue
        for f in [*files, *(part.with_name(part.name + t) for t in ("-journal", "-wal", "-shm"))]:
            with contextlib.suppress(OSError):
                f.unlink()
                gone.append(f)
    if gone:
        logger.info("removed %d files left by an interrupted backup in %s", len(gone), folder)
    return sorted(set(gone))


def retention(backups: list[BackupFile], keep: int = KEEP_BACKUPS, protect: Path | None = None) -> dict[Path, str]:
    """Which backups pruning keeps, each with why: the newest ``keep``, the newest restore points, ``protect``."""
    keep = max(1, keep)
    why: dict[Path, str] = {}
    # The backup being restored stays, even when it is the oldest: the next oldest goes instead.
    for b in backups:
        if protect is not None and _same(b.path, protect):
            why[b.path] = "it is being restored"
    count = max(0, keep - len(why))
    # A restore replaces the whole graph: what it replaced is kept besides the count, so that a
    # mistaken restore can always be undone, whatever --keep says.
    for b in [b for b in reversed(backups) if b.reason == RESTORE_POINT][:KEEP_RESTORE_POINTS]:
        why.setdefault(b.path, f"the graph as it was before a restore (the newest {KEEP_RESTORE_POINTS} are kept)")
    for b in [b for b in reversed(backups) if b.path not in why][:count]:
        why[b.path] = f"one of the newest {keep}"
    return why


def prune(db_path: Path, keep: int = KEEP_BACKUPS, protect: Path | None = None) -> list[Path]:
    """Delete the backups ``retention`` does not keep; returns what was deleted (callers say so)."""
    backups = list_backups(db_path)
    gone = clean_stale_parts(db_path, min_age=3600)
    kept = retention(backups, keep, protect)
    for old in backups:
        if old.path not in kept:
            try:
                osfiles.unlink(old.path)
            except FileNotFoundError:
                continue
            except OSError as exc:  # held by another program, or read-only: the backup stands, the next prune tries
                logger.warning("an older backup %s could not be deleted now (%s); it is kept", old.path, exc)
                continue
            gone.append(old.path)
    return gone


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def backup_database(db: Database, reason: str = "manual", keep: int = KEEP_BACKUPS, protect: Path | None = None,
                    pruned: list[Path] | None = None) -> Path:
    """Take a consistent copy of an open graph into its backup folder; prunes as ``retention`` says.

    The copy is written under a temporary name and renamed when complete, so a crash never
    leaves a half-written file that looks like a backup. ``pruned`` receives what was deleted.
    """
    ensure_graph_id(db)  # every backup carries the graph's id, which a restore compares
    reason = re.sub(r"[^a-z0-9-]+", "-", reason.lower()).strip("-") or "manual"
    folder = config.backup_dir(db.path)
    now = datetime.now(timezone.utc)
    final = folder / f"{now.strftime(_STAMP)}{now.microsecond:06d}-{reason}{SUFFIX}"
    tmp = final.with_name(final.name + ".part")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _copy(db.conn, tmp)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        osfiles.replace(tmp, final)
        _fsync_dir(folder)
    except (OSError, apsw.Error) as exc:
        for leftover in (tmp, tmp.with_name(tmp.name + "-journal")):
            with contextlib.suppress(OSError):
                leftover.unlink()
        raise DatabaseError(
            f"A backup of {db.path} could not be written to {folder} ({_cause(exc)}); the graph was not changed."
        ) from exc
    gone = prune(db.path, keep, protect)
    if pruned is not None:
        pruned.extend(gone)
    if gone:
        logger.info("pruned %d older backups of %s", len(gone), db.path)
    logger.info("backed up %s to %s", db.path, final)
    return final


def needs_backup(db: Database) -> bool:
    """Whether there is anything to lose: an empty graph needs no backup."""
    return db.scalar("SELECT 1 FROM entities LIMIT 1") is not None


def restore(db: Database, backup_path: Path, force: bool = False) -> Path:
    """Replace the open graph's content with a backup, after backing up the current state.

    Uses the backup API in reverse, so other connections see the change as an ordinary
    commit and no stale write-ahead log can be replayed over the restored file. A file of
    another graph is refused (OtherGraphError) unless ``force``; the open file keeps its own
    graph id either way. Returns the backup taken of the state being replaced.
    """
    from limbic.engine.store.db import Database

    backup_path = Path(backup_path)
    if not backup_path.is_file():
        raise DatabaseError(f"{backup_path} does not exist.")
    if _same(backup_path, db.path):
        raise DatabaseError(f"{backup_path} is the open graph itself; choose a backup to restore.")
    source = Database(backup_path, readonly=True)  # refuses a damaged, foreign or newer file
    resized: Path | None = None
    try:
        if not force and other_graph(db, source):
            raise OtherGraphError(
                f"{backup_path} holds another graph than {db.path} (not one of its backups); nothing was "
                "restored. To replace the graph with it anyway, confirm (on the command line: --force); the "
                "graph as it is now is backed up first."
            )
        own_id = ensure_graph_id(db)
        before = backup_database(db, reason=RESTORE_POINT, protect=backup_path)
        try:
            conn = source.conn
            page = db.scalar("PRAGMA page_size")
            if source.scalar("PRAGMA page_size") != page:
                # A file in write-ahead-log mode cannot change its page size: the backup is
                # first rewritten with the graph's page size (the backup itself is not touched).
                resized = config.backup_dir(db.path) / f"restoring-{os.getpid()}{SUFFIX}.part"
                with contextlib.suppress(FileNotFoundError):
                    resized.unlink()
                source.execute(f"PRAGMA page_size = {int(page)}")
                source.execute("VACUUM INTO ?", (str(resized),))
                conn = apsw.Connection(str(resized), flags=apsw.SQLITE_OPEN_READONLY)
            try:
                _copy_into(db, conn)
            finally:
                if conn is not source.conn:
                    conn.close()
        except DatabaseError:
            raise
        except (apsw.Error, OSError) as exc:
            raise DatabaseError(
                f"{db.path} could not be restored from {backup_path} ({_cause(exc)}); it was left as it was."
            ) from exc
    finally:
        source.close()
        if resized is not None:
            for f in (resized, resized.with_name(resized.name + "-journal")):
                with contextlib.suppress(OSError):
                    f.unlink()
    from limbic.engine.store import changes

    db._change_log = None
    db.activity.reset()  # the restored file has its own sessions
    db._migrate()  # a backup from an older schema is brought up to this one
    with db.transaction():
        if own_id:
            db.set_meta(GRAPH_ID_KEY, own_id)  # the file stays the same graph, whatever it was restored from
        changes.new_epoch(db)  # every program on the file, this one included, re-reads everything
        db.note_flag("full")
    logger.info("restored %s from %s", db.path, backup_path)
    return before


def _copy_into(db: Database, source: apsw.Connection) -> None:
    """Copy a whole file over the open graph as one commit, waiting for other writers like any write."""
    deadline = time.monotonic() + db.write_retry_seconds
    delay = 0.02
    with db.conn.backup("main", source, "main") as job:
        while not job.done:
            try:
                job.step(-1)
            except (apsw.BusyError, apsw.LockedError):
                if time.monotonic() >= deadline:
                    raise DatabaseError(
                        f"{db.path} was busy with another program's write for over {db.write_retry_seconds:.0f} "
                        "seconds; it was not restored and was left as it was, try again when that has finished."
                    ) from None
                time.sleep(delay)
                delay = min(delay * 2, 1.0)


def _clean_on_open(db: Database) -> None:
    clean_stale_parts(db.path)


def _backup_before_upgrade(db: Database, version: int) -> None:
    backup_database(db, reason=f"before-schema-{version}")


# A writable file opening drops a stopped backup's leftovers; a schema upgrade is backed up first.
_db.HOOKS.on_writable_open.append(_clean_on_open)
_db.HOOKS.before_upgrade.append(_backup_before_upgrade)
