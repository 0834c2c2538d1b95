"""What every importer shares: its errors, its report, the backup before it writes, its counts."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from limbic.engine.errors import LimbicError, ValidationError
from limbic.engine.store.open_files import is_open_graph_file
from limbic.engine.graph.graph import Graph
from limbic.engine.wording import counted

logger = logging.getLogger(__name__)

Progress = Callable[[str, int, int], None]  # (stage, done, total)


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
        """One sentence of what the import did."""
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


def backup_before_import(graph: Graph) -> list[str]:
    """A rolling backup before writing into a non-empty graph; returns a note naming the older backups
    pruning deleted (none, or one sentence part for the report)."""
    if graph.db.readonly or str(graph.db.path) == ":memory:":
        return []
    from limbic.engine.store.backup import KEEP_BACKUPS, backup_database, needs_backup
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
    """The graph's counts before an import, for its report."""
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


def refuse_graph_file(graph: Graph, path: Path, doing: str) -> None:
    """A file chosen by the person must not be the graph itself (reading it outside SQLite drops its locks)."""
    if is_open_graph_file(path):
        raise ValidationError(f"{path} is the open graph's own database file; it cannot be {doing}.")
