"""Rolling backups of a graph file with SQLite's online backup API, and restoring one."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

import apsw

from limbic import config
from limbic.engine.errors import DatabaseError

if TYPE_CHECKING:
    from limbic.engine.db import Database

logger = logging.getLogger(__name__)

KEEP_BACKUPS = 10
SUFFIX = ".bak"
# Pages copied per step: small steps let another process write between them.
STEP_PAGES = 1024
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


def prune(db_path: Path, keep: int = KEEP_BACKUPS) -> list[Path]:
    """Delete all but the newest ``keep`` backups; returns what was deleted."""
    backups = list_backups(db_path)
    gone = []
    folder = config.backup_dir(Path(db_path))
    # A copy cut short by a crash; an hour old, so never one that another process is still writing.
    for part in folder.glob(f"*{SUFFIX}.part") if folder.is_dir() else ():
        with contextlib.suppress(OSError):
            if time.time() - part.stat().st_mtime > 3600:
                part.unlink()
                gone.append(part)
    for old in backups[: max(0, len(backups) - max(1, keep))]:
        with contextlib.suppress(FileNotFoundError):
            old.path.unlink()
            gone.append(old.path)
    return gone


def backup_database(db: Database, reason: str = "manual", keep: int = KEEP_BACKUPS) -> Path:
    """Take a consistent copy of an open graph into its backup folder; keeps the newest ``keep``.

    The copy is written under a temporary name and renamed when complete, so a crash never
    leaves a half-written file that looks like a backup.
    """
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
        os.replace(tmp, final)
        _fsync_dir(folder)
    except (OSError, apsw.Error) as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise DatabaseError(f"A backup of {db.path} could not be written to {folder} ({why}).") from exc
    prune(db.path, keep)
    logger.info("backed up %s to %s", db.path, final)
    return final


def needs_backup(db: Database) -> bool:
    """Whether there is anything to lose: an empty graph needs no backup."""
    return db.scalar("SELECT 1 FROM entities LIMIT 1") is not None


def restore(db: Database, backup_path: Path) -> Path:
    """Replace the open graph's content with a backup, after backing up the current state.

    Uses the backup API in reverse, so other connections see the change as an ordinary
    commit and no stale write-ahead log can be replayed over the restored file. Returns the
    backup taken of the state being replaced.
    """
    from limbic.engine.db import Database

    backup_path = Path(backup_path)
    if not backup_path.is_file():
        raise DatabaseError(f"{backup_path} does not exist.")
    source = Database(backup_path, readonly=True)  # refuses a damaged, foreign or newer file
    try:
        before = backup_database(db, reason="before-restore")
        try:
            with db.conn.backup("main", source.conn, "main") as job:
                while not job.done:
                    job.step(-1)
        except apsw.Error as exc:
            raise DatabaseError(f"{db.path} could not be restored from {backup_path} ({exc}); it was left as it was.") from exc
    finally:
        source.close()
    from limbic.engine import changes

    db._change_log = None
    db._migrate()  # a backup from an older schema is brought up to this one
    with db.transaction():
        changes.new_epoch(db)  # every program on the file, this one included, re-reads everything
        db.note_flag("full")
    logger.info("restored %s from %s", db.path, backup_path)
    return before
