"""Bringing a graph in from where it lives (and out again): one entry point that recognises the kind
of file or folder, and the steps every importer shares.

Every import reads and validates all of its input first, takes a backup of a non-empty graph,
writes the graph in one transaction (all of it or nothing), then embeds what changed in batches
(derived data that resumes if interrupted). Importing the same input twice changes nothing.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from limbic.engine.db import SQLITE_MAGIC, is_open_graph_file
from limbic.engine.errors import LimbicError
from limbic.engine.graph import Graph
from limbic.engine.wording import counted
from limbic.service.importers import file_kinds

logger = logging.getLogger(__name__)

Progress = Callable[[str, int, int], None]  # (stage, done, total)
KINDS = ("jsonl", "seed", "markdown", "csv")
DATABASE_SUFFIXES = (".db", ".sqlite", ".sqlite3", ".db3")
KIND_NAMES = {
    "jsonl": "memory JSONL file",
    "seed": "memory engine database",
    "markdown": "folder of Markdown notes",
    "csv": "CSV files",
}


class ImportInputError(LimbicError):
    """Input that cannot be imported; the message is one sentence naming the file."""


@dataclass
class ImportReport:
    """What an import read, added and could not place."""

    kind: str
    source: str
    entities_read: int = 0
    entities_created: int = 0
    observations_added: int = 0
    relations_added: int = 0
    reflections_added: int = 0
    usage_rows: int = 0
    embedded: int = 0
    pending: int = 0
    missing_links: dict[str, list[str]] = field(default_factory=dict)  # missing target -> notes linking to it
    skipped: list[str] = field(default_factory=list)  # "file: why"
    notes: list[str] = field(default_factory=list)

    def describe(self) -> str:
        text = (
            f"{counted(self.entities_read, 'entity')} read ({self.entities_created} new), "
            f"{counted(self.observations_added, 'observation')}, {counted(self.relations_added, 'relation')}"
        )
        if self.reflections_added:
            text += f" and {counted(self.reflections_added, 'reflection')}"
        text += " added"
        if self.usage_rows:
            text += f"; usage history merged ({counted(self.usage_rows, 'row')})"
        if self.missing_links:
            names = sorted(self.missing_links)
            shown = ", ".join(names[:5]) + ("…" if len(names) > 5 else "")
            text += f"; {counted(len(names), 'linked note')} {'does' if len(names) == 1 else 'do'} not exist ({shown})"
        if self.skipped:
            text += f"; {counted(len(self.skipped), 'file')} skipped ({'; '.join(self.skipped[:3])}{'…' if len(self.skipped) > 3 else ''})"
        for note in self.notes:
            text += f"; {note}"
        if self.pending:
            text += f"; {counted(self.pending, 'entity', 'entities')} still {'waits' if self.pending == 1 else 'wait'} for embedding"
        return text + "."

    def details(self) -> list[str]:
        """Every skipped file and missing link target, one line each, for the report's details."""
        lines = [f"skipped {entry}" for entry in self.skipped]
        lines += [f"missing “{name}”, linked from {', '.join(sorted(set(notes))[:5])}"
                  for name, notes in sorted(self.missing_links.items())]
        return lines + list(self.notes)


def detect_kind(path: Path) -> str:
    """Which importer reads ``path``: a folder of Markdown, a CSV file, a seed database or a JSONL file."""
    path = Path(path)
    if path.is_dir():
        if any(p.suffix.lower() == ".csv" for p in path.iterdir()) and not any(
            p.suffix.lower() in (".md", ".markdown") for p in path.rglob("*")
        ):
            return "csv"
        return "markdown"
    if not path.exists():
        raise ImportInputError(f"{path} does not exist.")
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return "csv"
    if suffix in (".md", ".markdown"):
        raise ImportInputError(f"{path} is one note; import the folder that holds it to bring in a set of Markdown notes.")
    if is_open_graph_file(path):
        raise ImportInputError(f"{path} is the graph that is open; it cannot be imported into itself.")
    try:
        with open(path, "rb") as fh:
            head = fh.read(file_kinds.HEAD_BYTES)
            size = os.fstat(fh.fileno()).st_size
    except OSError as exc:
        raise ImportInputError(f"{path} cannot be read ({exc.strerror}).") from None
    if head.startswith(SQLITE_MAGIC):
        return "seed"
    if suffix in DATABASE_SUFFIXES or file_kinds.known_kind(head):
        raise ImportInputError(
            f"{path} is neither a Limbic graph nor a memory engine database: it is not an SQLite file "
            f"(it looks like {file_kinds.looks_like(head, size)})."
        )
    return "jsonl"


def backup_before_import(graph: Graph) -> list[str]:
    """A rolling backup before writing into a non-empty graph; returns a note naming the older backups
    pruning deleted (none, or one sentence part for the report)."""
    if graph.db.readonly or str(graph.db.path) == ":memory:":
        return []
    from limbic.engine.backup import KEEP_BACKUPS, backup_database, needs_backup
    from limbic.service.backups import deleted_line

    gone: list[Path] = []
    if needs_backup(graph.db):
        backup_database(graph.db, reason="before-import", pruned=gone)
    gone = [p for p in gone if p.name.endswith(".bak")]
    if not gone:
        return []
    return [f"{len(gone)} older {'backup' if len(gone) == 1 else 'backups'} deleted to keep the newest {KEEP_BACKUPS} "
            f"({', '.join(deleted_line(p) for p in gone[:3])}{'…' if len(gone) > 3 else ''})"]


def count_before(graph: Graph) -> dict[str, int]:
    q = graph.db.scalar
    return {
        "entities": int(q("SELECT count(*) FROM entities")),
        "observations": int(q("SELECT count(*) FROM observations")),
        "relations": int(q("SELECT count(*) FROM relations")),
        "reflections": int(q("SELECT count(*) FROM reflections")) if graph.db.has_table("reflections") else 0,
    }


def finish(graph: Graph, report: ImportReport, before: dict[str, int], progress=None, cancelled=None, embed=True) -> ImportReport:
    """Fill the counts from the graph and embed what the import changed."""
    after = count_before(graph)
    report.entities_created = after["entities"] - before["entities"]
    report.observations_added = after["observations"] - before["observations"]
    report.relations_added = after["relations"] - before["relations"]
    report.reflections_added = after["reflections"] - before["reflections"]
    if embed and graph.embedder is not None:
        report.embedded = graph.embed_pending(
            progress=(lambda d, t: progress("embed", d, t)) if progress else None, cancelled=cancelled
        )
    report.pending = graph.pending_embeddings() if graph.embedder else 0
    return report


def import_path(graph: Graph, path, progress: Progress | None = None, cancelled=None, embed: bool = True, kind: str | None = None):
    """Import any kind Limbic reads; returns an ImportReport (or the JSONL importer's summary)."""
    path = Path(path)
    if graph.db.readonly:
        raise ImportInputError(graph.db.readonly_note or f"{graph.db.path} is open read-only; nothing was imported.")
    if str(graph.db.path) != ":memory:" and path.exists() and path.resolve() == graph.db.path.resolve():
        raise ImportInputError(f"{path} is the graph that is open; it cannot be imported into itself.")
    kind = kind or detect_kind(path)
    if kind == "seed":
        from limbic.service.importers.seed_db import import_seed_db

        return import_seed_db(graph, path, progress, cancelled, embed)
    if kind == "markdown":
        from limbic.service.importers.markdown import import_vault

        return import_vault(graph, path, progress, cancelled, embed)
    if kind == "csv":
        from limbic.service.importers.csv_io import import_csv

        return import_csv(graph, path, progress, cancelled, embed)
    from limbic.engine.jsonl import import_records, read_file_full

    entities, relations, reflections = read_file_full(path)  # all of it checked before the backup
    notes = backup_before_import(graph)
    summary = import_records(graph, entities, relations, progress, cancelled, embed, reflections)
    summary.notes += notes
    return summary


def import_any(graph: Graph, path: str, job=None):
    """``Engine.run(..., job=...)`` form: import whatever ``path`` is; the result has ``describe()``."""
    from limbic.service.files import refuse_graph_file

    refuse_graph_file(graph, Path(path), "imported")
    return import_path(graph, path, progress=job.progress if job else None, cancelled=job.cancelled if job else None)


def export_job(graph: Graph, fmt: str, folder: str, job) -> str:
    """``Engine.run(..., job=...)`` form of the folder exports: one sentence for the status bar."""
    if fmt == "markdown":
        from limbic.service.importers.markdown_export import export_markdown

        n = export_markdown(graph, Path(folder), progress=job.progress)
        return f"Exported {counted(n, 'note')} to {folder}."
    from limbic.service.importers.csv_io import export_csv

    entities, relations = export_csv(graph, Path(folder))
    return f"Exported {counted(entities, 'entity row')} and {counted(relations, 'relation row')} to {folder}."
