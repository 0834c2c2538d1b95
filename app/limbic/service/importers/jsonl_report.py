"""What a memory JSONL import says about the relations it skipped: the missing end by name, not only its line."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from limbic.engine.formats.jsonl import ImportSummary
from limbic.engine.formats.jsonl_records import ReflectionRecord, RelationRecord
from limbic.engine.graph.graph import Graph, shown
from limbic.engine.wording import counted


@dataclass
class JsonlImportReport(ImportSummary):
    """The engine's summary, with each skipped line's missing end named."""

    missing_ends: dict[int, list[str]] = field(default_factory=dict)  # line -> names not in the graph

    def _skipped_sentence(self) -> str:
        parts = []
        for line in self.skipped_relations[:5]:
            names = self.missing_ends.get(line)
            parts.append(f"line {line}: {_no_such(names)}" if names else f"line {line}")
        more = "…" if len(self.skipped_relations) > 5 else ""
        return (f"{counted(len(self.skipped_relations), 'relation')} skipped because an end is missing "
                f"({'; '.join(parts)}{more})")

    def describe(self) -> str:
        """One sentence of what the import did; a skipped relation names the entity it lacks."""
        skipped, self.skipped_relations = self.skipped_relations, []
        try:
            text = super().describe().removesuffix(".")
        finally:
            self.skipped_relations = skipped
        if not skipped:
            return text + "."
        # The engine's sentence without the skipped part, which goes right after the counts and merges.
        head, sep, tail = text.partition("; ")
        pieces = [head, self._skipped_sentence()] + ([tail] if sep else [])
        return "; ".join(pieces) + "."

    def details(self) -> list[str]:
        """Every merged name and skipped relation, one line each, the missing end named."""
        lines = [f"line {line}: “{a}” merged into “{b}”" for line, a, b in self.merged_names]
        return lines + [f"line {line}: relation skipped, {_no_such(self.missing_ends.get(line))}"
                        for line in self.skipped_relations]


def _no_such(names: list[str] | None) -> str:
    if not names:
        return "an end is missing"
    quoted = " and ".join(f"“{shown(n, 60)}”" for n in names)
    return f"{quoted} {'is' if len(names) == 1 else 'are'} not in the file or the graph"


def name_missing_ends(graph: Graph, summary: ImportSummary, relations: list[RelationRecord],
                      reflections: list[ReflectionRecord]) -> JsonlImportReport:
    """The summary as a report naming, for each skipped line, the ends the graph does not hold."""
    report = JsonlImportReport(**asdict(summary))
    by_line: dict[int, list[str]] = {r.line: [r.source, r.target] for r in relations}
    for ref in reflections:
        if ref.about == "entity" and ref.entity:
            by_line[ref.line] = [ref.entity]
        elif ref.about == "relation" and ref.relation:
            by_line[ref.line] = [ref.relation[0], ref.relation[1]]
    for line in summary.skipped_relations:
        missing = [n for n in dict.fromkeys(by_line.get(line, [])) if graph.entity_id(n) is None]
        if missing:
            report.missing_ends[line] = missing
    return report
