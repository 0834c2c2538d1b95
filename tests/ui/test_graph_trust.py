"""Graph labels a person can trust: one name per node, next to its own node only; a legend that names the
commonest types and says how many more there are; a picture that fits its panel when the panel changes size."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QImage, QPainter

from limbic.ui.graph import labels
from limbic.ui.graph.canvas import GraphCanvas
from limbic.ui.graph.labels import node_obstacles, place_node_labels
from limbic.ui.graph.legend import ROWS
from limbic.ui.graph.scene import Scene


def _width(text: str) -> float:
    return 7.0 * len(text)


def _gap(box: labels.Box, x: float, y: float, r: float) -> float:
    """Pixels between a label's box and a node's disc (0 when they touch or overlap)."""
    dx = max(box[0] - x, 0.0, x - box[2])
    dy = max(box[1] - y, 0.0, y - box[3])
    return max(0.0, float(np.hypot(dx, dy)) - r)


def test_a_node_named_for_several_reasons_is_named_once():
    # Hovered, selected and the centre at once: the same name must not be drawn three times beside it.
    screen = np.array([[200.0, 200.0], [320.0, 200.0]])
    r = np.array([8.0, 8.0])
    placed, _ = place_node_labels([0, 0, 0, 1], [0, 0, 0], ["Harbor API", "Ana Ruiz"], screen, r, _width, 16, 500,
                                  400, node_obstacles(screen, r, [0, 1]))
    assert [i for i, _, _ in placed] == [0, 1]


def test_a_label_is_never_nearer_another_node_than_its_own():
    # Room on the right of A ends just at B: a name there reads as B's. It goes to A's other side.
    text = "Ten chars!"
    w = _width(text)
    a = (200.0, 100.0)
    b = (a[0] + 6 + labels.GAP + w + 2 + 8, 100.0)  # B's disc starts where the right-hand label would end
    screen = np.array([a, b])
    r = np.array([6.0, 6.0])
    placed, _ = place_node_labels([0], [], [text, "B"], screen, r, _width, 16, 600, 300,
                                  node_obstacles(screen, r, [0, 1]))
    (_, box, _), = placed
    own, other = _gap(box, *a, 6.0), _gap(box, *b, 6.0)
    assert own < other and other >= labels.CLEAR, (box, own, other)


def _scene(n_types: int, per_type, centre: int = 0) -> Scene:
    types, names = [], []
    for t in range(n_types):
        for k in range(per_type(t)):
            types.append(t)
            names.append(f"T{t} node {k}")
    n = len(types)
    rng = np.random.default_rng(1)
    return Scene(ids=np.arange(1, n + 1, dtype=np.int64), pos=rng.uniform(-300, 300, size=(n, 2)),
                 types=np.asarray(types, dtype=np.int32), type_names=[f"Type {t:02d}" for t in range(n_types)],
                 degree=np.ones(n, dtype=np.int32), kinds=np.zeros(n, dtype=np.int8), labels=names,
                 statuses=["active"] * n, centre=centre)


def _paint(canvas) -> None:
    """Draw a frame as the widget would (an offscreen widget is not always asked to paint)."""
    image = QImage(canvas.width(), canvas.height(), QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        canvas.paint(painter, canvas.width(), canvas.height())
    finally:
        painter.end()


def test_the_focused_node_is_named_once_on_the_canvas(qtbot):
    canvas = GraphCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(600, 400)
    canvas.show()
    canvas.set_scene(_scene(2, lambda t: 3))
    canvas.select(0)
    canvas.hover = 0  # hovered, selected and the centre
    _paint(canvas)
    named = [i for i, _, _ in canvas.label_boxes]
    assert named.count(0) == 1 and len(named) == len(set(named))


def test_the_legend_lists_the_commonest_types_first_and_says_how_many_more(qtbot):
    # Sixteen types; the two commonest have the last names alphabetically, as in a large real graph.
    counts = {t: 2 + t for t in range(16)}
    canvas = GraphCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(900, 700)
    canvas.show()
    canvas.set_scene(_scene(16, counts.__getitem__))
    _paint(canvas)
    listed = [t for _, t in canvas.legend]
    assert listed[:2] == ["Type 15", "Type 14"]  # the commonest first
    assert len(listed) == ROWS and canvas.legend_more == "+4 more types"
    assert "Type 00: 2" in canvas._legend.tooltip()  # the tooltip names every type, the hidden ones too
    link = canvas.legend_link_rect
    qtbot.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=QPointF(link[0] + 12, (link[1] + link[3]) / 2).toPoint())
    _paint(canvas)
    assert len(canvas.legend) == 16 and canvas.legend_more == "▴ Fewer types"
    assert not canvas.legend_folded  # the click opened the list, it did not fold the legend


def _span(canvas) -> float:
    s = canvas.scene
    screen = canvas.view.to_screen(np.nan_to_num(s.pos), canvas.width(), canvas.height())
    return float((screen.max(axis=0) - screen.min(axis=0)).max())


def test_the_picture_fits_a_new_size_until_the_person_zooms(qtbot):
    canvas = GraphCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(300, 250)
    canvas.show()
    canvas.set_scene(_scene(3, lambda t: 10))
    small = _span(canvas)
    canvas.resize(900, 750)
    qtbot.waitUntil(lambda: canvas.width() == 900)
    assert _span(canvas) > 2 * small  # the picture grew with its panel
    canvas.zoom(1.5)
    scale = canvas.view.scale
    canvas.resize(600, 500)
    qtbot.waitUntil(lambda: canvas.width() == 600)
    assert canvas.view.scale == scale  # the person's zoom stays


def test_the_graph_panel_grows_with_the_window(qtbot, window):
    window.resize(1280, 800)
    qtbot.waitUntil(lambda: window.width() == 1280)
    dock = window.graph.graph_panel().parentWidget()
    qtbot.waitUntil(lambda: dock.width() > 300)
    before = dock.width()
    window.resize(1600, 1000)
    # The panel keeps its share of the wider window instead of leaving every new pixel to the editor.
    qtbot.waitUntil(lambda: dock.width() >= before * 1600 / 1280 - 8, timeout=5_000)
    assert dock.width() <= 1600 - 250
