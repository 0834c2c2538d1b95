"""Backups as the app sees them: the list with dates, and restoring one over the open graph."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from limbic.engine.errors import ValidationError
from limbic.engine.graph.graph import Graph


@dataclass
class BackupInfo:
    """One backup as a list row: its file, when it was taken (UTC), why, and its size."""

    path: str
    taken: str  # "YYYY-MM-DD HH:MM:SS" UTC
    reason: str
    size: int


def list_backups(graph: Graph) -> list[BackupInfo]:
    """The open graph's backups, newest first (reads the backup folder only, never the graph file)."""
    from limbic.engine.store import backup

    rows = []
    for b in backup.list_backups(graph.db.path):
        try:
            size = b.size
        except OSError:
            continue  # pruned meanwhile
        rows.append(BackupInfo(str(b.path), b.taken.strftime("%Y-%m-%d %H:%M:%S"), b.reason, size))
    return rows[::-1]  # the engine lists them oldest first


def restore_backup(graph: Graph, path: str, force: bool = False, job=None) -> str:
    """Replace the graph with a backup (the current state is backed up first); returns that backup's path.

    A file of another graph raises ``OtherGraphError`` unless ``force`` (the app asks, the CLI needs --force).
    """
    from limbic.engine.store import backup

    return str(backup.restore(graph.db, Path(path), force=force))


REASONS = {
    "manual": "taken on request",
    "before-import": "taken before an import",
    "before-restore": "the graph as it was before a restore",
}


def reason_words(reason: str) -> str:
    """Why a backup was taken, in words."""
    if reason.startswith("before-schema-"):
        return "taken before the file was upgraded to a newer schema"
    return REASONS.get(reason, reason)


def listing(db_path: Path | str) -> list[str]:
    """``limbic backup --list``: the rule, then each backup (oldest first) with why it was taken and why it is kept."""
    from limbic.engine.store import backup

    found = backup.list_backups(Path(db_path))
    if not found:
        return [f"No backups of {db_path} yet."]
    kept = backup.retention(found)
    lines = [f"Limbic keeps the newest {backup.KEEP_BACKUPS} backups, and besides them the newest "
             f"{backup.KEEP_RESTORE_POINTS} taken before a restore (so a restore can be undone); others are deleted when "
             "the next backup is taken, and each deletion is said."]
    for b in found:
        try:
            size = f"{b.size / 1e6:.1f} MB"
        except OSError:
            continue  # pruned meanwhile
        why = kept.get(b.path, "deleted at the next backup")
        lines.append(f"{b.path}  {b.taken:%Y-%m-%d %H:%M:%S} UTC  {b.reason} ({reason_words(b.reason)})  {size}  kept: {why}")
    return lines


def take_backup(graph: Graph, keep: int | None = None) -> tuple[Path, list[str]]:
    """A backup now; returns its path and one line per older backup pruning deleted (with why it was taken)."""
    from limbic.engine.store import backup

    if keep is not None and keep < 1:
        raise ValidationError(f"Keep at least 1 backup (--keep {keep} would delete the one just taken); nothing was done.")
    gone: list[Path] = []
    path = backup.backup_database(graph.db, reason="manual", keep=keep or backup.KEEP_BACKUPS, pruned=gone)
    return path, [deleted_line(p) for p in gone if p.name.endswith(backup.SUFFIX)]


def deleted_line(path: Path) -> str:
    """A deleted backup as ``NAME (why it was taken)``."""
    m = re.match(r"^\d{8}T\d{12}-(?P<reason>[a-z0-9-]+)\.bak$", path.name)
    return f"{path.name} ({reason_words(m['reason']) if m else 'a backup'})"
