"""The graph's legend: the types in view, the commonest first, and "+N more types" when they do not all fit.

A legend that silently stopped after a dozen types left the two commonest types of a large
graph unnamed; here the rows are ordered by how many nodes in view have the type, the first
``ROWS`` are listed and a last row says how many more there are. Clicking that row lists them
all (in columns when they are taller than the view), and the legend's tooltip names every type
with its count. Geometry and wording only: ``paint.draw_legend`` draws it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from limbic.ui.graph import labels
from limbic.ui.graph.scene import Scene
from limbic.ui.common.i18n import number, translate
from PySide6.QtCore import QT_TRANSLATE_NOOP

ROWS = 12  # types listed before "+N more types"
OPEN, FOLDED = QT_TRANSLATE_NOOP("Legend", "▾ Types"), QT_TRANSLATE_NOOP("Legend", "▸ Types")  # the legend's title: a click folds or opens it
FEWER = QT_TRANSLATE_NOOP("Legend", "▴ Fewer types")
PAD = 8.0  # pixels between the legend and the view's edge, and inside it


def more_text(hidden: int) -> str:
    return translate("Legend", "+%n more types", "", hidden)


@dataclass
class Legend:
    """What the legend shows: (colour index, type, count) rows, commonest first, and how it is laid out."""

    rows: list[tuple[int, str, int]] = field(default_factory=list)  # every type in view
    shown: list[tuple[int, str, int]] = field(default_factory=list)  # the rows drawn
    link: str = ""  # the last line: "+N more types", "▴ Fewer types" or none
    columns: int = 1
    per_column: int = 0
    column_width: float = 0.0
    line: float = 0.0

    @property
    def hidden(self) -> int:
        return len(self.rows) - len(self.shown)

    def tooltip(self) -> str:
        """Every type in view with its count, one a line."""
        return "\n".join(f"{name}: {number(count)}" for _, name, count in self.rows)


def count_types(scene: Scene, colour_idx: np.ndarray, vis_idx: np.ndarray) -> list[tuple[int, str, int]]:
    """The types of the nodes in view, as (colour index, name, count), the commonest first (ties by name)."""
    if not len(vis_idx):
        return []
    present, counts = np.unique(colour_idx[vis_idx], return_counts=True)
    rows = [(int(c), scene.type_names[int(c)], int(k)) for c, k in zip(present, counts) if int(c) < len(scene.type_names)]
    return sorted(rows, key=lambda r: (-r[2], r[1].casefold()))


def lay_out(rows: list[tuple[int, str, int]], expanded: bool, folded: bool, text_width, line: float,
            height: float) -> tuple[Legend, tuple[float, float]]:
    """The legend's rows and its size: a title, then ``ROWS`` rows and "+N more types", or every row in columns."""
    legend = Legend(rows=rows, line=line)
    if folded:
        return legend, (text_width(translate("Legend", FOLDED)) + 2 * PAD, line + 6.0)
    if len(rows) > ROWS and not expanded:
        legend.shown, legend.link = rows[:ROWS], more_text(len(rows) - ROWS)
    else:
        legend.shown, legend.link = list(rows), (translate("Legend", FEWER) if len(rows) > ROWS else "")
    items = len(legend.shown) + (1 if legend.link else 0)
    room = max(1, int((height - 2 * PAD - line - 8.0) // line))  # rows that fit under the title
    legend.per_column = max(1, min(items, room))
    legend.columns = max(1, -(-items // legend.per_column))
    legend.column_width = max([text_width(name) + 30.0 for _, name, _ in legend.shown]
                              + [text_width(legend.link) + 2 * PAD if legend.link else 0.0])
    width = max(legend.columns * legend.column_width, text_width(translate("Legend", OPEN)) + 2 * PAD)
    return legend, (width, line * (legend.per_column + 1) + 8.0)


def place(size: tuple[float, float], width: float, height: float, discs: labels.Occupancy, corner: str) -> tuple[str, labels.Box]:
    """The corner the legend goes in (where it covers no node, the current one first) and its box."""
    corner = labels.legend_corner(size, width, height, discs, corner)
    return corner, labels.corner_box(corner, size, width, height)


def cell(legend: Legend, box: labels.Box, k: int) -> tuple[float, float]:
    """Top left of the ``k``-th line under the title (the rows, then the link)."""
    column, row = divmod(k, max(1, legend.per_column))
    return box[0] + column * legend.column_width, box[1] + 4 + (row + 1) * legend.line


def link_box(legend: Legend, box: labels.Box | None) -> labels.Box | None:
    """Where "+N more types" (or "Fewer types") is drawn, for a click."""
    if box is None or not legend.link:
        return None
    x, y = cell(legend, box, len(legend.shown))
    return (x, y, x + legend.column_width, y + legend.line)
