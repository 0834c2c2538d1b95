"""A hovered node's relation types stay readable in a crowded graph: each sits on the same halo as the node names,
so the edges and nodes under it do not run through its letters (in a 3,000-node graph they were illegible, in
dark colours most of all)."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QColor, QImage, QPainter, QPalette

from limbic.ui.graph.canvas import GraphCanvas
from limbic.ui.graph.scene import Scene

N = 1_500


def _crowd() -> Scene:
    """Nodes packed round a hub (node 0) with four relations to far-off nodes, and many edges among the rest."""
    rng = np.random.default_rng(7)
    pos = rng.normal(0, 90, size=(N, 2))
    pos[0] = (0, 0)
    for k, (x, y) in enumerate([(260, 30), (-250, -40), (40, 240), (-30, -260)], start=1):
        pos[k] = (x, y)
    src = np.concatenate([np.zeros(4, dtype=np.int32), rng.integers(5, N, 3 * N).astype(np.int32)])
    dst = np.concatenate([np.arange(1, 5, dtype=np.int32), rng.integers(5, N, 3 * N).astype(np.int32)])
    keep = src != dst
    src, dst = src[keep], dst[keep]
    degree = np.bincount(np.concatenate([src, dst]), minlength=N).astype(np.int32)
    return Scene(ids=np.arange(1, N + 1, dtype=np.int64), pos=pos, types=(np.arange(N) % 5).astype(np.int32),
                 type_names=[f"Type {t}" for t in range(5)], degree=degree, kinds=np.zeros(N, dtype=np.int8),
                 labels=[f"Node {i}" for i in range(N)], statuses=["active"] * N, src=src, dst=dst,
                 rels=np.zeros(len(src), dtype=np.int32), rel_names=["attended"])


def _paint(canvas) -> QImage:
    image = QImage(canvas.width(), canvas.height(), QImage.Format.Format_ARGB32)
    image.fill(canvas.palette().color(QPalette.ColorRole.Base))
    painter = QPainter(image)
    try:
        canvas.paint(painter, canvas.width(), canvas.height())
    finally:
        painter.end()
    return image


def _farthest_from(image: QImage, box, colour: QColor) -> int:
    """The largest channel difference from ``colour`` along the top and bottom rows of a box (where no letter is)."""
    worst = 0
    for y in (int(box[1]) + 1, int(box[3]) - 1):
        for x in range(int(box[0]) + 1, int(box[2]) - 1):
            c = image.pixelColor(x, y)
            worst = max(worst, abs(c.red() - colour.red()), abs(c.green() - colour.green()), abs(c.blue() - colour.blue()))
    return worst


@pytest.mark.parametrize("dark", [False, True])
def test_the_relation_types_of_a_hovered_node_sit_on_a_halo(qtbot, dark):
    canvas = GraphCanvas()
    qtbot.addWidget(canvas)
    palette = canvas.palette()
    if dark:
        palette.setColor(QPalette.ColorRole.Base, QColor("#1e1f22"))
        palette.setColor(QPalette.ColorRole.Window, QColor("#1e1f22"))
        palette.setColor(QPalette.ColorRole.Text, QColor("#e6e6e6"))
        canvas.setPalette(palette)
    canvas.resize(700, 600)
    canvas.show()
    canvas.set_scene(_crowd())
    canvas.hover = 0
    image = _paint(canvas)
    assert canvas.edge_label_boxes, "the hovered node's relation types were not drawn"
    base = canvas.palette().color(QPalette.ColorRole.Base)
    # Under a halo what lies beneath shows faintly at most; bare, an edge or a node crosses the label at full strength.
    assert max(_farthest_from(image, box, base) for box, _ in canvas.edge_label_boxes) <= 72
