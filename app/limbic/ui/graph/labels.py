"""Where the graph's words go: node labels by importance, relation types on edges, the legend, none over another.

Labels are placed before anything is painted, in screen coordinates: the hovered, selected and
centre nodes first, then search hits, then by degree. A label tries the right of its node, then
the left, above and below, and takes the first place that stays inside the view, covers no other
label and not the legend, and keeps clear of every other node by ``CLEAR`` pixels, so a name is
always nearer its own node than any other and never reads as another's; a label with no such
place waits until zooming in makes room (the first three are always shown, pushed inside the view and
shortened to its width), except in a view of a few nodes (a local graph), where every node is named: one
without such a place takes a corner of its disc or the start of its name, a little nearer the others. A node is named once, however many reasons it has to be named. Relation types then go on
the edges' midpoints where they cover none of that. Pure geometry: the canvas paints the boxes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence

import numpy as np

Box = tuple[float, float, float, float]  # left, top, right, bottom
CELL = 48  # pixels per side of the grid that buckets the boxes
GAP = 6  # pixels between a node's edge and its label (the selection ring is 5 px out)
# A label keeps this far from every node but its own: its own is 4 px away, so a name is three times
# nearer its node than any other and never reads as another's (a name between two nodes misleads).
# Farther costs names: in a crowded view of 3,000 nodes, 18 px named 23 nodes where 12 px names 29 (43 with none).
CLEAR = 2 * GAP
MAX_CHARS = 40  # a longer name is cut with an ellipsis
MIN_EDGE_PX = 60  # an edge shorter than this on screen has no room for its type
ALONG = (0.5, 0.35, 0.65)  # where along its edge a relation type may sit, in order of preference
CORNERS = ("top left", "bottom left", "top right", "bottom right")  # where the legend may go, in that order


def intersects(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(box: Box, width: float, height: float) -> bool:
    return box[0] >= 0 and box[1] >= 0 and box[2] <= width and box[3] <= height


class Occupancy:
    """Boxes already taken on screen, bucketed by a coarse grid so a test compares a few boxes only."""

    def __init__(self) -> None:
        self._grid: dict[tuple[int, int], list[tuple[Box, int]]] = defaultdict(list)

    @staticmethod
    def _cells(box: Box) -> Iterable[tuple[int, int]]:
        for cx in range(int(box[0] // CELL), int(box[2] // CELL) + 1):
            for cy in range(int(box[1] // CELL), int(box[3] // CELL) + 1):
                yield cx, cy

    def add(self, box: Box, owner: int = -1) -> None:
        for cell in self._cells(box):
            self._grid[cell].append((box, owner))

    def hits(self, box: Box, ignore: int = -2, clear: float = 0.0) -> bool:
        """Whether ``box``, grown by ``clear`` pixels, covers a box taken by another owner than ``ignore``."""
        if clear:
            box = (box[0] - clear, box[1] - clear, box[2] + clear, box[3] + clear)
        for cell in self._cells(box):
            for other, owner in self._grid.get(cell, ()):
                if owner != ignore and intersects(box, other):
                    return True
        return False


SHORTER = 18  # a long name with no room for all of it tries this much before waiting for room


def short(label: str, most: int = MAX_CHARS) -> str:
    return label if len(label) <= most else label[: most - 1] + "…"


def fitting(label: str, text_width: Callable[[str], float], room: float) -> str:
    """The label, or as much of its start as fits in ``room`` pixels, with an ellipsis."""
    text = short(label)
    most = len(text)
    while most > 2 and text_width(text) > room:
        most -= 1
        text = short(label, most)
    return text


def node_obstacles(screen: np.ndarray, r_px: np.ndarray, idx: Sequence[int]) -> Occupancy:
    """The discs of the nodes in view, as boxes owned by their node."""
    taken = Occupancy()
    for i in idx:
        x, y = screen[i]
        r = float(r_px[i]) + 2
        taken.add((x - r, y - r, x + r, y + r), int(i))
    return taken


def _candidates(x: float, y: float, r: float, w: float, line: float) -> list[Box]:
    right = (x + r + GAP - 2, y - line / 2, x + r + GAP + w + 2, y + line / 2)
    left = (x - r - GAP - w - 2, y - line / 2, x - r - GAP + 2, y + line / 2)
    above = (x - w / 2 - 2, y - r - GAP / 2 - line, x + w / 2 + 2, y - r - GAP / 2)
    below = (x - w / 2 - 2, y + r + GAP / 2, x + w / 2 + 2, y + r + GAP / 2 + line)
    return [right, left, above, below]


def _pushed_inside(box: Box, width: float, height: float) -> Box:
    dx = max(0.0, -box[0]) - max(0.0, box[2] - width)
    dy = max(0.0, -box[1]) - max(0.0, box[3] - height)
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def place_node_labels(order: Sequence[int], always: Sequence[int], texts: Sequence[str], screen: np.ndarray,
                      r_px: np.ndarray, text_width: Callable[[str], float], line: float, width: float, height: float,
                      discs: Occupancy, reserved: Sequence[Box] = (),
                      name_all: bool = False) -> tuple[list[tuple[int, Box, str]], Occupancy]:
    """Each label's box, in ``order`` (most important first), none covering another, a node or ``reserved``,
    and each node named once. With ``name_all`` (a few nodes: the local graph) a node left without a place
    takes a corner of its disc or a shorter start of its name, nearer the others (``CLOSE``) but covering none."""
    labels = Occupancy()
    for box in reserved:
        labels.add(box)
    placed: list[tuple[int, Box, str]] = []
    named: set[int] = set()
    for i in (int(k) for k in order):
        if i in named:  # the hovered node may also be the selected one and the centre: one name, not three
            continue
        x, y = (float(v) for v in screen[i])
        box = None
        for text in dict.fromkeys((short(texts[i]), short(texts[i], SHORTER))):  # the whole name, else its start
            candidates = _candidates(x, y, float(r_px[i]), text_width(text), line)
            box = next((c for c in candidates if inside(c, width, height) and not labels.hits(c)
                        and not discs.hits(c, ignore=i, clear=CLEAR)), None)
            if box is not None:
                break
        if box is None:
            if i not in always:
                continue
            text = fitting(texts[i], text_width, width - 4)  # never wider than the view: cut, the tooltip has it whole
            candidates = _candidates(x, y, float(r_px[i]), text_width(text), line)
            # One that must show may come near another node (never cover it if it can help it, never
            # cover another label); pushed inside the view at worst.
            inside_view = [_pushed_inside(c, width, height) for c in candidates]
            free = [c for c in inside_view if not labels.hits(c)]
            box = next((c for c in free if not discs.hits(c, ignore=i)), free[0] if free else inside_view[0])
        named.add(i)
        labels.add(box, i)
        placed.append((i, box, text))
    if name_all:
        for i in (int(k) for k in order):
            if i not in named:
                found = _closer_place(i, texts[i], screen, r_px, text_width, line, width, height, labels, discs)
                if found is not None:
                    named.add(i)
                    labels.add(found[0], i)
                    placed.append((i, *found))
    return placed, labels


CLOSE = GAP / 2  # a label placed by name_all keeps at least this far from the other nodes
SHORTEST = 8  # characters of a name (with its ellipsis) name_all tries at least


def _closer_place(i: int, label: str, screen: np.ndarray, r_px: np.ndarray, text_width: Callable[[str], float],
                  line: float, width: float, height: float, labels: Occupancy,
                  discs: Occupancy) -> tuple[Box, str] | None:
    """A place for a node's name beside it, at its corners too, the name shortened down to ``SHORTEST``."""
    x, y = (float(v) for v in screen[i])
    r = float(r_px[i])
    for most in dict.fromkeys((MAX_CHARS, SHORTER, 12, SHORTEST)):
        text = short(label, most)
        w = text_width(text)
        d = r * 0.7 + GAP / 2  # a corner of the disc, diagonally out
        corners = [(x + d, y - d - line, x + d + w + 2, y - d), (x + d, y + d, x + d + w + 2, y + d + line),
                   (x - d - w - 2, y - d - line, x - d, y - d), (x - d - w - 2, y + d, x - d, y + d + line)]
        for c in _candidates(x, y, r, w, line) + corners:
            if inside(c, width, height) and not labels.hits(c) and not discs.hits(c, ignore=i, clear=CLOSE):
                return c, text
    return None


def place_edge_labels(edges: Sequence[int], src: np.ndarray, dst: np.ndarray, names: Sequence[str], rels: np.ndarray,
                      screen: np.ndarray, text_width: Callable[[str], float], line: float, width: float, height: float,
                      taken: Occupancy, discs: Occupancy, limit: int, over_nodes: bool = False) -> list[tuple[Box, str]]:
    """Relation types at their edges' midpoints, with an arrow for the direction, where they cover no label
    (and no node, unless ``over_nodes``: the hovered node's relations are asked for, and wanted even so)."""
    placed: list[tuple[Box, str]] = []
    for j in edges:
        if len(placed) >= limit:
            break
        rel = int(rels[j])
        if rel < 0 or rel >= len(names) or not names[rel]:
            continue
        a, b = screen[src[j]], screen[dst[j]]
        if float(np.hypot(*(b - a))) < (MIN_EDGE_PX / 2 if over_nodes else MIN_EDGE_PX):
            continue
        text = names[rel] + " →" if a[0] <= b[0] else "← " + names[rel]
        w = text_width(text)
        boxes = []
        for t in ALONG:  # the middle of the edge, else a little towards either end
            mx, my = (float(v) for v in a + t * (b - a))
            boxes.append((mx - w / 2 - 1, my - line / 2, mx + w / 2 + 1, my + line / 2))
        free = [c for c in boxes if inside(c, width, height) and not taken.hits(c)]
        box = next((c for c in free if not discs.hits(c)), free[0] if over_nodes and free else None)
        if box is None:
            continue
        taken.add(box)
        placed.append((box, text))
    return placed


def legend_corner(size: tuple[float, float], width: float, height: float, discs: Occupancy, current: str) -> str:
    """The corner for a legend of ``size``: the current one while it covers no node, else the first free one."""
    if not discs.hits(corner_box(current, size, width, height)):
        return current
    return next((c for c in CORNERS if not discs.hits(corner_box(c, size, width, height))), current)


def corner_box(corner: str, size: tuple[float, float], width: float, height: float) -> Box:
    w, h = size
    x = 8.0 if corner.endswith("left") else width - 8.0 - w
    y = 8.0 if corner.startswith("top") else height - 8.0 - h
    return (x, y, x + w, y + h)
