"""Renaming and deleting files where another program may hold them for a moment (Windows).

On Windows a file that antivirus, a sync client (OneDrive, Dropbox) or the other Limbic process has
open without sharing delete access cannot be replaced or deleted: ``os.replace`` and ``os.unlink``
fail with ``PermissionError`` (WinError 5, access denied, or 32, sharing violation) for as long as
the other program holds it, usually a few milliseconds. These try again a few times with a short,
growing pause before giving up with that error. Elsewhere a ``PermissionError`` is the file's
permissions, which waiting does not change: it is raised at once.

Standard library only: the engine, the service layer, the front ends and ``config`` all use it.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

# Pauses between attempts, seconds: about two seconds in all, then the error stands.
PAUSES = (0.01, 0.02, 0.05, 0.1, 0.2, 0.4, 0.6, 0.6)


def _held(exc: OSError) -> bool:
    """An error that is another program holding the file (only Windows reports that as PermissionError)."""
    return sys.platform == "win32" and (isinstance(exc, PermissionError) or getattr(exc, "winerror", None) in (5, 32))


def _retrying(action: Callable[[], None]) -> None:
    for pause in (*PAUSES, None):
        try:
            action()
            return
        except OSError as exc:
            if pause is None or not _held(exc):
                raise
            time.sleep(pause)


def replace(src: str | os.PathLike, dst: str | os.PathLike) -> None:
    """``os.replace``, tried again while another program holds ``src`` or ``dst`` for a moment (Windows)."""
    _retrying(lambda: os.replace(src, dst))


def unlink(path: str | os.PathLike, missing_ok: bool = False) -> None:
    """``os.unlink``, tried again while another program holds the file for a moment (Windows)."""

    def remove() -> None:
        try:
            os.unlink(path)
        except FileNotFoundError:
            if not missing_ok:
                raise

    _retrying(remove)


def fsync_path(path: str | os.PathLike) -> None:
    """Flush a file's data to disk by its name: opened for writing, which Windows needs to flush it."""
    with open(Path(path), "r+b") as fh:
        os.fsync(fh.fileno())
