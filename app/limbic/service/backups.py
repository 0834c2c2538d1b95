"""Backups as the app sees them: the list with dates, and restoring one over the open graph."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from limbic.engine.graph import Graph


@dataclass
class BackupInfo:
    """One backup as a list row: its file, when it was taken (UTC), why, and its size."""

    path: str
    taken: str  # "YYYY-MM-DD HH:MM:SS" UTC
    reason: str
    size: int


def list_backups(graph: Graph) -> list[BackupInfo]:
    """The open graph's backups, newest first (reads the backup folder only, never the graph file)."""
    from limbic.engine import backup

    rows = []
    for b in backup.list_backups(graph.db.path):
        try:
            size = b.size
        except OSError:
            continue  # pruned meanwhile
        rows.append(BackupInfo(str(b.path), b.taken.strftime("%Y-%m-%d %H:%M:%S"), b.reason, size))
    return rows[::-1]  # the engine lists them oldest first


def restore_backup(graph: Graph, path: str, job=None) -> str:
    """Replace the graph with a backup (the current state is backed up first); returns that backup's path."""
    from limbic.engine import backup

    return str(backup.restore(graph.db, Path(path)))
