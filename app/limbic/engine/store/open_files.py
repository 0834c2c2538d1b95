"""The graph files this process has open in SQLite, a look at a file before SQLite opens it, and
plain sentences for SQLite's errors about a file."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import apsw

from limbic.engine.errors import DatabaseError

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

SQLITE_MAGIC = b"SQLite format 3\x00"

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


def register_open(path: Path, delta: int) -> None:
    """A connection to ``path`` opened (+1) or closed (-1) in this process."""
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


def friendly_error(path: Path, exc: Exception) -> DatabaseError:
    """One sentence for an SQLite error met opening ``path``."""
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


def write_error(db: Database, exc: BaseException) -> DatabaseError | None:
    """A sentence for an SQLite error met while writing, or None for errors that are not about the file."""
    if isinstance(exc, apsw.ReadOnlyError):
        return DatabaseError(db.readonly_note or f"{db.path} is open read-only; the change was not saved.")
    if isinstance(exc, apsw.BusyError):
        return DatabaseError(f"{db.path} is busy with another program's write; the change was not saved, try again.")
    if isinstance(exc, (apsw.CorruptError, apsw.NotADBError)):
        return DatabaseError(f"{db.path} is damaged; the change was not saved (run `limbic check`).")
    if isinstance(exc, (apsw.FullError, apsw.IOError)):
        return friendly_error(db.path, exc)
    return None


def not_a_file(path: Path) -> str | None:
    """What the path is when it is neither a regular file nor missing ("a named pipe", "a device"), else None.

    Only ``os.stat``: opening a named pipe to look at it would wait for a writer forever.
    """
    try:
        return kind_of(os.stat(path).st_mode)
    except OSError:
        return None


def kind_of(mode: int) -> str | None:
    """What a file of this ``st_mode`` is when it is not a regular file, else None."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file"


def inspect_file(path: Path) -> None:
    """Refuse, without writing to it, a file that is not an intact SQLite database; an empty file is fine."""
    what = not_a_file(path)
    if what:
        raise DatabaseError(f"{path} is {what}, not a graph file; nothing was changed.")
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
