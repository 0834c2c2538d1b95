"""What a graph picture holds, as arrays: nodes, edges, colours, sizes; and the view's transform.

Qt-free, so both the canvas and the exports (PNG through the canvas, SVG by hand) read the same
numbers. Node i has a position, a type (index into ``type_names``), a size and a label; edge j
joins nodes ``src[j]`` and ``dst[j]``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from limbic.ui.common.type_colours import OTHER_COLOUR, type_colour

KIND_ENTITY, KIND_MORE, KIND_SUGGESTION = 0, 1, 2


def node_radius(degree: np.ndarray) -> np.ndarray:
    """World radius by degree: a leaf is 6, a node with 100 relations about 26."""
    return 6.0 + 2.0 * np.sqrt(np.minimum(np.asarray(degree, dtype=np.float64), 400.0))


@dataclass
class Scene:
    """Arrays of one picture; ``ids`` are entity ids (negative for "+N more" nodes)."""

    ids: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    pos: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    types: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    type_names: list[str] = field(default_factory=list)
    degree: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    kinds: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int8))
    labels: list[str] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)
    src: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    dst: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    rels: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))
    rel_names: list[str] = field(default_factory=list)
    dashed: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    highlight: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    # The time slider's marks: nodes and edges that existed at its date and are gone now, drawn faded.
    ghost: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    ghost_edges: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    added: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))  # came after the date: outlined
    centre: int = -1  # node index drawn as the centre, -1 for none

    def __post_init__(self) -> None:
        self.refresh_sizes()

    @property
    def n(self) -> int:
        return len(self.ids)

    def refresh_sizes(self) -> None:
        self.radius = node_radius(self.degree) if len(self.degree) else np.zeros(0)
        if len(self.kinds):
            self.radius[self.kinds == KIND_MORE] = 9.0
        self._index = dict(zip(np.asarray(self.ids).tolist(), range(len(self.ids))))  # a slider step rebuilds it

    def index_of(self, entity_id: int) -> int:
        """The node index of an entity id, -1 if it is not shown."""
        return self._index.get(int(entity_id), -1)

    def colours(self, dark: bool) -> list[str]:
        """One colour per type index (and the last for "+N more" nodes): each type's own, the same in every view."""
        return [type_colour(name, dark) for name in self.type_names] + [OTHER_COLOUR[1 if dark else 0]]

    def colour_index(self) -> np.ndarray:
        """Per node, the index into ``colours()``."""
        out = np.minimum(self.types.astype(np.int64), len(self.type_names))
        out[self.kinds == KIND_MORE] = len(self.type_names)
        return out

    def bounds(self) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the finite positions; a unit box when there are none."""
        ok = np.isfinite(self.pos).all(axis=1) if self.n else np.zeros(0, dtype=bool)
        if not ok.any():
            return (-1.0, -1.0, 1.0, 1.0)
        p = self.pos[ok]
        lo, hi = p.min(axis=0), p.max(axis=0)
        return (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))


@dataclass
class ViewTransform:
    """World to screen: ``screen = (world - centre) * scale + (width, height) / 2``."""

    cx: float = 0.0
    cy: float = 0.0
    scale: float = 1.0

    def to_screen(self, pos: np.ndarray, width: int, height: int) -> np.ndarray:
        out = (pos - (self.cx, self.cy)) * self.scale
        out[:, 0] += width / 2
        out[:, 1] += height / 2
        return out

    def to_world(self, x: float, y: float, width: int, height: int) -> tuple[float, float]:
        return ((x - width / 2) / self.scale + self.cx, (y - height / 2) / self.scale + self.cy)

    def zoom_at(self, factor: float, x: float, y: float, width: int, height: int,
                lo: float = 1e-3, hi: float = 40.0) -> None:
        """Zoom by ``factor`` keeping the world point under (x, y) in place."""
        wx, wy = self.to_world(x, y, width, height)
        self.scale = float(min(hi, max(lo, self.scale * factor)))
        self.cx = wx - (x - width / 2) / self.scale
        self.cy = wy - (y - height / 2) / self.scale

    def fit(self, bounds: tuple[float, float, float, float], width: int, height: int, margin: float = 28.0,
            label_room: float = 80.0, legend_room: float = 60.0) -> None:
        """Frame the bounds, filling the view but for a margin and some room on the right for labels and on
        the left for the legend (labels move to a node's other side when the right has none)."""
        x0, y0, x1, y1 = bounds
        right = min(label_room, width / 10)
        left = min(legend_room, width / 12)
        sx = max(width - 2 * margin - right - left, 10) / max(x1 - x0, 1e-6)
        sy = max(height - 2 * margin, 10) / max(y1 - y0, 1e-6)
        self.scale = float(min(sx, sy, 2.5))
        self.cx = (x0 + x1) / 2 + (right - left) / 2 / self.scale
        self.cy = (y0 + y1) / 2


def visible_edges(screen: np.ndarray, src: np.ndarray, dst: np.ndarray, width: int, height: int,
                  margin: float = 4.0) -> np.ndarray:
    """Indices of the edges whose bounding box meets the viewport (culling)."""
    if len(src) == 0:
        return np.zeros(0, dtype=np.int64)
    a, b = screen[src], screen[dst]
    x_lo, x_hi = np.minimum(a[:, 0], b[:, 0]), np.maximum(a[:, 0], b[:, 0])
    y_lo, y_hi = np.minimum(a[:, 1], b[:, 1]), np.maximum(a[:, 1], b[:, 1])
    ok = (x_hi >= -margin) & (x_lo <= width + margin) & (y_hi >= -margin) & (y_lo <= height + margin)
    return np.flatnonzero(ok)


def edge_sample(indices: np.ndarray, budget: int) -> np.ndarray:
    """At most ``budget`` of these edges, evenly strided (the same ones while the view moves)."""
    if len(indices) <= budget:
        return indices
    step = int(np.ceil(len(indices) / budget))
    return indices[::step]


def clip_segments(a: np.ndarray, b: np.ndarray, width: int, height: int, margin: float = 8.0) -> tuple[np.ndarray, np.ndarray]:
    """Segments a→b cut to the viewport grown by ``margin`` (Liang–Barsky, vectorised).

    A line whose ends lie far outside would otherwise be stroked over its whole length (smooth
    lines especially); a segment entirely outside comes back with zero length.
    """
    lo_x, lo_y, hi_x, hi_y = -margin, -margin, width + margin, height + margin
    d = b - a
    t0 = np.zeros(len(a))
    t1 = np.ones(len(a))
    for p, q in ((-d[:, 0], a[:, 0] - lo_x), (d[:, 0], hi_x - a[:, 0]), (-d[:, 1], a[:, 1] - lo_y), (d[:, 1], hi_y - a[:, 1])):
        with np.errstate(divide="ignore", invalid="ignore"):
            r = q / p
        neg, pos = p < 0, p > 0
        t0 = np.where(neg, np.maximum(t0, r), t0)
        t1 = np.where(pos, np.minimum(t1, r), t1)
        t1 = np.where((p == 0) & (q < 0), -1.0, t1)  # parallel to this edge and outside it
    t1 = np.maximum(t1, t0)
    return a + d * t0[:, None], a + d * t1[:, None]
