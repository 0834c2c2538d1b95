"""Whether the graph file and its write-ahead log are still the ones SQLite opened.

A program that deletes or replaces ``graph.db-wal`` under a running writer (a sync tool, a
cleaner) does not stop SQLite: it keeps appending commits to the deleted log through its open
descriptor, and they vanish with the process. So a writer looks at both paths with ``os.stat``
(which opens nothing: any other descriptor on these files would drop SQLite's locks) when a
write starts, before it commits and after, and refuses once either changed. What its connection
still holds is then copied into the graph file by a checkpoint, which reads the deleted log
through that same descriptor.

Before a file is opened, ``lost_log`` reads the shared-memory index (``-shm``) a killed writer
left behind: it tells how many committed pages the log held, so a log that is gone with pages not
yet in the file is named as a loss instead of passing for a new, empty graph. While the program
that holds those pages still runs, opening the graph is refused instead (``_refuse_if_held``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import apsw

from limbic.engine.errors import DatabaseError
from limbic.engine.store.open_files import friendly_error, not_a_file

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

logger = logging.getLogger(__name__)

LOST_LOG_KEY = "lost_log"  # meta key: why the file is known to have lost commits (a check reports it)
_WAL_INDEX_VERSION = 3007000
_HEADER = 48  # one copy of the wal-index header; SQLite writes two, one after the other
_NBACKFILL = 96  # the checkpoint's progress, just after the two header copies
_WAL_HEADER, _FRAME_HEADER = 32, 24
RESCUE_ATTEMPTS = 3  # checkpoints tried while a reader keeps part of the log in use (each waits the busy timeout)

Identity = tuple[int, int]
_UNSEEN = object()  # the graph file could not be looked at when the watch began


def _identity(path: str) -> Identity | None:
    """None when nothing is at ``path``; other errors (a folder made unreadable, a network hiccup) are raised."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return (st.st_dev, st.st_ino)


class JournalWatch:
    """The (device, inode) of a writable graph file and of its write-ahead log, compared with their paths now."""

    def __init__(self, conn: apsw.Connection, suspect: bool = False) -> None:
        # SQLite's own absolute names: a later change of the working folder changes nothing.
        self.main_path = conn.filename
        mode = str(conn.execute("PRAGMA journal_mode").fetchall()[0][0]).lower()
        # A file system without shared memory keeps the rollback journal: then there is no log to watch.
        self.wal_path = conn.filename_wal if mode == "wal" else None
        self.main: Identity | None | object = _UNSEEN
        self.wal: Identity | None = None  # None until SQLite has made the log
        with contextlib.suppress(OSError):
            self.main = _identity(self.main_path)
            self.wal = _identity(self.wal_path) if self.wal_path else None
        if suspect and self.wal_path:
            _refuse_if_held(conn)

    def problem(self) -> str | None:
        """``"wal"`` or ``"main"`` when that file was deleted or replaced since it was opened, else None.

        A path that cannot be looked at now proves nothing: SQLite's own errors speak for the file then.
        """
        try:
            return self._problem()
        except OSError as exc:
            logger.info("the graph file could not be looked at: %s", exc)
            return None

    def _problem(self) -> str | None:
        main = _identity(self.main_path)
        if self.main is _UNSEEN:
            self.main = main  # the first look that worked: the file SQLite opened
        if main is None or main != self.main:
            return "main"
        if self.wal_path is None:
            return None
        now = _identity(self.wal_path)
        if self.wal is None:
            # A connection that began a transaction has its log open: a missing one was deleted.
            self.wal = now
            return "wal" if now is None else None
        return None if now == self.wal else "wal"


def rescue(conn: apsw.Connection) -> bool:
    """Copy every commit the (deleted) log holds into the graph file; True when all of it is there, on disk."""
    for _ in range(RESCUE_ATTEMPTS):
        try:
            busy, frames, copied = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()[0]
        except apsw.Error as exc:
            logger.warning("the write-ahead log could not be copied into the graph file: %s", exc)
            return False
        # Busy with every frame copied: only emptying the log waits for a reader, and nothing depends on that.
        if not busy or (frames >= 0 and frames == copied):
            return True
    return False


def refusal(path: Path, kind: str, saved: bool, committed: bool = False) -> str:
    """The sentence a writer says once the file or its log was taken away under it."""
    if kind == "main":
        return (
            f"The graph file {path} was deleted or replaced by another program while Limbic had it open; the change "
            "was not saved, and no further change is accepted until Limbic opens the graph again (restart it)."
        )
    this = "this change may not have been saved" if committed else "this change was not saved"
    before = (
        f"everything saved before it was copied into {path.name}" if saved else
        f"only part of what was saved before it could be copied into {path.name} (back the graph up from this program "
        "before closing it)"
    )
    return (
        f"The graph's write-ahead log was removed by another program ({path.name}-wal); {this}, {before}, and "
        "no further change is accepted until Limbic opens the graph again (restart it)."
    )


def lost_log(path: Path) -> str | None:
    """Why ``path`` has lost commits its write-ahead log held, judged before SQLite opens it, or None.

    The ``-shm`` index survives a killed writer: when it counts committed log pages that are not
    in the file and the log is missing or shorter than they need, they are gone. Called only
    when this process has no connection to the file (a plain read would drop its locks).
    """
    shm = str(path) + "-shm"
    if not_a_file(Path(shm)):
        return None  # a named pipe would never answer a read
    try:
        with open(shm, "rb") as fh:
            head = fh.read(_NBACKFILL + 4)
    except OSError:
        return None
    if len(head) < _NBACKFILL + 4 or head[:_HEADER] != head[_HEADER:2 * _HEADER]:
        return None  # torn or not an index: SQLite rebuilds it from the log, nothing to judge by
    order = sys.byteorder
    version, is_init = int.from_bytes(head[0:4], order), head[12]
    raw_page = int.from_bytes(head[14:16], order)
    page = (raw_page & 0xFE00) + ((raw_page & 1) << 16)
    frames, backfilled = int.from_bytes(head[16:20], order), int.from_bytes(head[_NBACKFILL:_NBACKFILL + 4], order)
    if version != _WAL_INDEX_VERSION or not is_init or not page or frames <= backfilled:
        return None
    try:
        size = os.stat(str(path) + "-wal").st_size
    except OSError:
        size = 0
    if size >= _WAL_HEADER + frames * (_FRAME_HEADER + page):
        return None
    return (
        f"{path} lost its latest changes: its write-ahead log ({path.name}-wal) was removed by another program "
        f"before {frames - backfilled} pages of saved changes were copied into the file; restore a backup "
        "(`limbic backup --list`) if one holds them, or accept the file as it is with `limbic check --repair`."
    )


def _refuse_if_held(conn: apsw.Connection) -> None:
    """Raise when another program still holds the log pages the ``-shm`` counted (``lost_log`` found them).

    Had every holder gone, opening rebuilt the index from the new, empty log: no pages. A live
    index still counts them, and a write now would go into a second log beside the holder's: its
    commits would be lost. The probe copies nothing: the first page it reads from the empty log fails.
    """
    try:
        pages = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()[0][1]
    except apsw.Error as exc:
        raise held_elsewhere(Path(conn.filename), apsw.IOError(str(exc))) from exc
    if pages > 0:
        raise held_elsewhere(Path(conn.filename), apsw.IOError("the log's pages are held by another program"))


def held_elsewhere(path: Path, exc: apsw.Error) -> DatabaseError:
    """The sentence for a file that cannot be read after its log was removed (the ``-shm`` counts pages it lacks).

    A read error then means another program still has the graph open and its pages in the deleted
    log; once that program notices (Limbic does within a second) or closes, they are in the file.
    """
    if not isinstance(exc, apsw.IOError):
        return friendly_error(path, exc)
    return DatabaseError(
        f"{path} cannot be opened now: its write-ahead log ({path.name}-wal) was removed by another program while "
        "a program still has the graph open; try again in a moment, or first close that program (what it holds is "
        "then copied into the file)."
    )


def note_lost(db: Database, lost: str | None) -> str | None:
    """Keep in a writable file that it lost commits (a check names it on every later look, until a repair); the note."""
    if lost:
        logger.info("%s", lost)
        if not db.readonly and str(db.path) != ":memory:":
            try:
                with db.transaction():
                    db.set_meta(LOST_LOG_KEY, lost)
            except (DatabaseError, apsw.Error) as exc:
                logger.info("the loss could not be noted in %s: %s", db.path, exc)
        return lost
    return db.get_meta(LOST_LOG_KEY) if db.has_table("meta") else None
