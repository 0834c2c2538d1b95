"""Bringing a graph in from where it lives (and out again): one entry point that recognises the kind
of file or folder, and the steps every importer shares.

Every import reads and validates all of its input first, takes a backup of a non-empty graph,
writes the graph in one transaction (all of it or nothing), then embeds what changed in batches
(derived data that resumes if interrupted). Importing the same input twice changes nothing.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from limbic.engine.store.changes import ORIGIN_IMPORT
from limbic.engine.store.db import SQLITE_MAGIC, is_open_graph_file
from limbic.engine.graph.graph import Graph
from limbic.engine.wording import counted
from limbic.service.importers import file_kinds
# What every importer shares lives below them all (re-exported: callers use it from here).
from limbic.service.importers.common import (
    ImportInputError,
    ImportReport,
    Progress,
    backup_before_import,
    count_before,
    finish,
    refuse_graph_file,
)

__all__ = ["ImportInputError", "ImportReport", "Progress", "backup_before_import", "count_before", "detect_kind",
           "finish", "import_csv_job", "import_path", "KIND_NAMES", "KINDS", "preview_csv"]

logger = logging.getLogger(__name__)

KINDS = ("jsonl", "seed", "markdown", "csv")
DATABASE_SUFFIXES = (".db", ".sqlite", ".sqlite3", ".db3")
KIND_NAMES = {
    "jsonl": "memory JSONL file",
    "seed": "memory engine database",
    "markdown": "folder of Markdown notes",
    "csv": "CSV files",
}


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


def import_path(graph: Graph, path, progress: Progress | None = None, cancelled=None, embed: bool = True,
                kind: str | None = None, keep_columns: bool = False):
    """Import any kind Limbic reads; returns an ImportReport (or the JSONL importer's summary).

    The import is a session of its own in the activity log (origin "import", named after the file).
    """
    path = Path(path)
    with graph.db.activity.session_as(ORIGIN_IMPORT, path.name), graph.db.activity.using("import"):
        report = _import_path(graph, path, progress, cancelled, embed, kind, keep_columns)
        # The import's own commits (its session's), so that Edit → Undo can take exactly them back.
        report.change_ids = session_changes(graph, graph.db.activity.session_id)
        return report


def session_changes(graph: Graph, session: int | None) -> list[int]:
    """The change_log ids of a session's commits that changed the graph (not only its vectors), oldest first."""
    if session is None:
        return []
    if not graph.db.has_table("change_item"):
        return []
    return [int(row[0]) for row in graph.db.execute(
        "SELECT id FROM change_log WHERE session = ? AND EXISTS (SELECT 1 FROM change_item WHERE change_id = change_log.id) "
        "ORDER BY id", (session,))]


def _import_path(graph: Graph, path: Path, progress, cancelled, embed: bool, kind: str | None, keep_columns: bool):
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

        return import_csv(graph, path, progress, cancelled, embed, keep_columns)
    from limbic.engine.formats.jsonl import import_records, read_file_full

    entities, relations, reflections = read_file_full(path)  # all of it checked before the backup
    notes = backup_before_import(graph)
    summary = import_records(graph, entities, relations, progress, cancelled, embed, reflections)
    summary.notes += notes
    if not summary.skipped_relations:
        return summary
    from limbic.service.importers.jsonl_report import name_missing_ends

    return name_missing_ends(graph, summary, relations, reflections)


def import_any(graph: Graph, path: str, job=None):
    """``Engine.run(..., job=...)`` form: import whatever ``path`` is; the result has ``describe()``."""
    refuse_graph_file(graph, Path(path), "imported")
    return import_path(graph, path, progress=job.progress if job else None, cancelled=job.cancelled if job else None)


def export_job(graph: Graph, fmt: str, folder: str, force: bool = False, job=None) -> str:
    """``Engine.run(..., job=...)`` form of the folder exports: one sentence for the status bar.

    ``force``: the person agreed to write into a folder that is not an earlier export of ``fmt``.
    """
    if fmt == "markdown":
        from limbic.service.importers.markdown_export import export_markdown

        n = export_markdown(graph, Path(folder), progress=job.progress if job else None, force=force)
        return f"Exported {counted(n, 'note')} to {folder}."
    from limbic.service.importers.csv_io import export_csv

    entities, relations = export_csv(graph, Path(folder), force=force)
    return f"Exported {counted(entities, 'entity row')} and {counted(relations, 'relation row')} to {folder}."


def preview_csv(graph: Graph, path: str, keep_columns: bool = False):
    """What a CSV import of ``path`` would bring (columns read and ignored, first rows, counts), nothing written."""
    from limbic.service.importers.csv_preview import preview_csv as preview

    return preview(graph, path, keep_columns)


def import_csv_job(graph: Graph, path: str, keep_columns: bool = False, job=None):
    """``Engine.run(..., job=...)`` form of a CSV import the person previewed (``keep_columns``: the
    columns nothing reads become observations)."""
    refuse_graph_file(graph, Path(path), "imported")
    return import_path(graph, path, progress=job.progress if job else None, cancelled=job.cancelled if job else None,
                       kind="csv", keep_columns=keep_columns)
