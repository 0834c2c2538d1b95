"""Files in and out, backups and embedding: the long operations every front end runs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from limbic.engine.graph.graph import Graph
from limbic.service.importers import import_path
from limbic.service.importers.common import refuse_graph_file

if TYPE_CHECKING:
    from limbic.engine.formats.jsonl import ImportSummary


class Job:
    """What a long operation needs from its caller: progress and a cancel flag (``JobContext`` in the app)."""

    def progress(self, stage: str, done: int, total: int) -> None: ...  # pragma: no cover - protocol

    def cancelled(self) -> bool: ...  # pragma: no cover - protocol


def import_jsonl(graph: Graph, path: str, job: Job | None = None) -> ImportSummary:
    """Import a memory JSONL file (all of it or nothing), then embed what it brought."""
    source = Path(path)
    refuse_graph_file(graph, source, "imported")
    # Through the one import path: the file is checked whole, then backed up, and pruned backups are said.
    return import_path(graph, source, progress=job.progress if job else None,
                       cancelled=job.cancelled if job else None, kind="jsonl")


def export_jsonl(graph: Graph, path: str, force: bool = False, job: Job | None = None) -> int:
    """Write the graph as memory JSONL; returns the number of lines.

    A file that is not an earlier JSONL export is replaced only with ``force`` (the app asks first).
    """
    from limbic.engine.formats.jsonl import export_file
    from limbic.service.export_guard import guard_overwrite

    target = Path(path)
    refuse_graph_file(graph, target, "overwritten by an export")
    guard_overwrite(target, "jsonl", force)
    return export_file(graph, target, marker=True)  # how the next export knows the file is its own


def export_jsonl_to(graph: Graph, out: IO[str]) -> int:
    """Write the graph as memory JSONL into an open text stream (standard output); returns the number of lines."""
    from limbic.engine.formats.jsonl import export_to

    return export_to(graph, out)


def backup_now(graph: Graph, job: Job | None = None) -> Path:
    """A rolling backup of the open file (SQLite's online backup: edits can go on)."""
    from limbic.engine.store.backup import backup_database

    return backup_database(graph.db, reason="manual")


def backup_sentence(graph: Graph, job: Job | None = None) -> str:
    """A backup now, said in one sentence that names any older backup pruning deleted."""
    from limbic.service.backups import take_backup

    path, deleted = take_backup(graph)
    if not deleted:
        return f"Backed up to {path}."
    return f"Backed up to {path}; deleted the older {'backup' if len(deleted) == 1 else 'backups'} {'; '.join(deleted)}."


@dataclass
class Embedded:
    done: int
    waiting: int


def embed_pending(graph: Graph, job: Job | None = None) -> Embedded:
    """Embed the entities that wait for a vector (after an import or a change of model)."""
    if graph.embedder is None:
        return Embedded(0, graph.pending_embeddings())
    done = graph.embed_pending(
        progress=(lambda d, t: job.progress("embed", d, t)) if job else None,
        cancelled=job.cancelled if job else None,
    )
    return Embedded(done, graph.pending_embeddings())
