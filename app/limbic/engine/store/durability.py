"""What a commit needs to be on disk when it is reported, on each platform.

``synchronous = FULL``: a commit is on disk before it is reported, so a power cut loses no saved
edit (NORMAL would survive a killed process but could drop the last commits). On macOS ``fsync``
only hands the data to the drive, whose cache a power cut empties; ``F_FULLFSYNC`` makes the drive
write it, and SQLite asks for it only with ``fullfsync`` (commits) and ``checkpoint_fullfsync``
(the write-ahead log copied into the file), both off by default.
"""

from __future__ import annotations

import sys


def pragmas(platform: str | None = None) -> list[str]:
    """The pragmas a connection to a graph file is given, for ``platform`` (``sys.platform`` by default)."""
    out = ["PRAGMA synchronous = FULL"]
    if (platform or sys.platform) == "darwin":
        out += ["PRAGMA fullfsync = ON", "PRAGMA checkpoint_fullfsync = ON"]
    return out


def make_durable(conn) -> None:
    """Give an open connection the pragmas above."""
    for pragma in pragmas():
        conn.execute(pragma)
