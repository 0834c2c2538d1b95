"""An import as one step of Edit → Undo: it takes back exactly the import's own commits, conditionally,
as a revert of its session does (what was changed since by someone else stops it, named)."""

from __future__ import annotations

from dataclasses import dataclass, field

from limbic.engine.graph.graph import shown
from limbic.service.undo import Step


@dataclass
class ImportStep(Step):
    """An import the person ran; undo removes what it brought, redo brings it again."""

    label: str = ""
    live: list[int] = field(default_factory=list)
    undone: list[int] = field(default_factory=list)


def import_step(source: str, report: object) -> ImportStep | None:
    """The undo step of an import that changed the graph (None when it changed nothing)."""
    ids = list(getattr(report, "change_ids", None) or [])
    return ImportStep(f"import of “{shown(source, 60)}”", live=ids) if ids else None
