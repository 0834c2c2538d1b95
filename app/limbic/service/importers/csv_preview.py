"""What a CSV import would bring, before it runs: per file the columns read and ignored, the first
rows, and the counts; a file where nothing maps to a name is said, not imported."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from limbic.engine.graph.graph import Graph
from limbic.engine.wording import counted
from limbic.service.importers.common import ImportInputError
from limbic.service.importers import csv_io

FIRST_ROWS = 5
# What each recognised column becomes, in words (the columns' synonyms say the same).
BECOMES = {
    **{name: "name" for name in csv_io.SYNONYMS["name"]},
    **{name: "type" for name in csv_io.SYNONYMS["type"]},
    **{name: "observation" for name in csv_io.SYNONYMS["observation"]},
    "observations": "observations (one a line)",
    **{name: "from" for name in csv_io.SYNONYMS["from"]},
    **{name: "to" for name in csv_io.SYNONYMS["to"]},
    "status": "status", "created_at": "created", "updated_at": "updated", "kind": "observation kind",
    "superseded_at": "superseded", "context": "relation context", "active": "active", "ended_at": "ended",
}


@dataclass
class CsvFilePreview:
    """One CSV file as the import would read it."""

    name: str
    kind: str | None  # "entities", "relations", or None when nothing maps to a name or to both ends
    header: list[str]
    used: list[tuple[str, str]]  # (column, what it becomes)
    ignored: list[str]
    rows: list[list[str]]  # the first rows, as in the file
    row_count: int


@dataclass
class CsvPreview:
    """What importing ``path`` would bring; ``problem`` (one sentence) when it cannot be imported."""

    path: str
    files: list[CsvFilePreview] = field(default_factory=list)
    entities: int = 0
    new_entities: int = 0
    observations: int = 0
    empty_entities: int = 0  # entities the file gives nothing but a name
    relations: int = 0
    missing: list[str] = field(default_factory=list)  # relation ends in neither the files nor the graph
    skipped_relations: int = 0  # relations that would be skipped for those ends
    problem: str | None = None

    @property
    def ignored(self) -> bool:
        """Whether any column would be left out."""
        return any(f.ignored for f in self.files)

    def counts_sentence(self) -> str:
        """What the import would bring, in one sentence."""
        text = (f"Would bring in {counted(self.entities, 'entity')} ({self.new_entities} new), "
                f"{counted(self.observations, 'observation')} and {counted(self.relations, 'relation')}")
        if self.empty_entities:
            text += (f"; {counted(self.empty_entities, 'entity')} would have nothing but "
                     f"{'its' if self.empty_entities == 1 else 'their'} name")
        if self.skipped_relations:
            names = ", ".join(f"“{n}”" for n in self.missing[:5]) + ("…" if len(self.missing) > 5 else "")
            text += (f"; {counted(self.skipped_relations, 'relation')} would be skipped because "
                     f"{names} {'is' if len(self.missing) == 1 else 'are'} in neither the files nor the graph")
        return text + "."


def preview_csv(graph: Graph | None, path: str, keep_columns: bool = False) -> CsvPreview:
    """Read the CSV file (and its sibling) or folder as the import would, without writing anything."""
    source = Path(path)
    preview = CsvPreview(str(source))
    skipped: list[str] = []
    files = csv_io._files(source, skipped)
    if not files:
        preview.problem = f"{source} holds no CSV files."
        return preview
    for file in files:
        header, rows = csv_io._read_rows(file, explicit=file == source)
        kind = csv_io._kind_of(header)
        used = [(h, BECOMES[h]) for h in header if h in (csv_io.ENTITY_KNOWN if kind != "relations"
                                                           else csv_io.RELATION_KNOWN) and h in BECOMES]
        ignored = csv_io.ignored_columns(header, kind or "entities")  # a nameless file is read as entities would be
        preview.files.append(CsvFilePreview(file.name, kind, header, used, ignored,
                                            [[row.get(h, "") for h in header] for _, row in rows[:FIRST_ROWS]],
                                            len(rows)))
        if kind is None and preview.problem is None:
            preview.problem = (f"Nothing in {file.name} maps to a name: it needs a column called name (or entity, "
                               "title) for entities, or from and to for relations.")
    if preview.problem is not None:
        return preview
    try:
        data = csv_io.read_csv(source, keep_columns)
    except ImportInputError as exc:
        preview.problem = str(exc)
        return preview
    preview.entities = len(data.entities)
    preview.observations = sum(len(e["obs"]) for e in data.entities.values())
    preview.empty_entities = sum(1 for e in data.entities.values() if not e["obs"] and not e["type"])
    preview.relations = len(data.relations)
    preview.new_entities = (preview.entities if graph is None
                            else sum(1 for name in data.entities if graph.entity_id(name) is None))
    missing: dict[str, None] = {}
    for _, a, b, *_rest in data.relations:
        gone = [n for n in (a, b) if n not in data.entities and (graph is None or graph.entity_id(n) is None)]
        missing.update(dict.fromkeys(gone))
        preview.skipped_relations += bool(gone)
    preview.missing = list(missing)
    return preview
