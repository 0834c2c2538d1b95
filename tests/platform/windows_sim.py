"""Windows file behaviour, simulated where the tests run: files held for a moment, no flush of a file opened to read."""

from __future__ import annotations

import os
import stat
import sys
from collections import Counter
from types import SimpleNamespace

from limbic import osfiles

try:
    import fcntl
except ImportError:  # Windows itself: its os.fsync already refuses a file opened only to read
    fcntl = None  # type: ignore[assignment]

HELD = "The process cannot access the file because it is being used by another process"


class Holder:
    """Another program (antivirus, a sync client) holding each file for its first ``times`` renames or deletions;
    files whose names end in one of ``forever`` it holds for good against deletion."""

    def __init__(self, monkeypatch, times: int = 2, forever: tuple[str, ...] = ()) -> None:
        self.times = times
        self.forever = forever
        self.refused: Counter[str] = Counter()
        real_replace, real_unlink = os.replace, os.unlink

        def held(path, deleting: bool = False) -> bool:
            name = os.fspath(path)
            if deleting and self.forever and name.endswith(self.forever):
                self.refused[name] += 1
                return True
            if self.refused[name] < self.times:
                self.refused[name] += 1
                return True
            return False

        def replace(src, dst, *args, **kwargs):
            if held(dst):
                raise PermissionError(13, HELD, os.fspath(src), None, os.fspath(dst))
            return real_replace(src, dst, *args, **kwargs)

        def unlink(path, *args, **kwargs):
            if os.path.exists(path) and held(path, deleting=True):
                raise PermissionError(13, HELD, os.fspath(path))
            return real_unlink(path, *args, **kwargs)

        monkeypatch.setattr(sys, "platform", "win32")
        # The hold is counted in attempts, not in time: osfiles' pauses between them are noted, not waited.
        self.paused: list[float] = []
        monkeypatch.setattr(osfiles, "time", SimpleNamespace(sleep=self.paused.append))
        monkeypatch.setattr(os, "replace", replace)
        monkeypatch.setattr(os, "unlink", unlink)
        monkeypatch.setattr(os, "remove", unlink)


def no_flush_of_read_only_files(monkeypatch) -> None:
    """``os.fsync`` as on Windows: a regular file opened only to read cannot be flushed (EBADF)."""
    real = os.fsync

    def fsync(fd):
        fd = fd if isinstance(fd, int) else fd.fileno()
        if fcntl is not None and stat.S_ISREG(os.fstat(fd).st_mode) \
                and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_RDONLY:
            raise OSError(9, "Bad file descriptor")
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
