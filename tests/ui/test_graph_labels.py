"""The graph's words: no label covers another, a node or the legend; hubs are named; the legend folds; Fit fills."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, Qt

from limbic.ui.graph import labels
from limbic.ui.graph.canvas import HUB_LABELS
from limbic.ui.graph.labels import intersects, node_obstacles, place_node_labels
from tests.ui.conftest import open_entity

WAIT = 30_000


def _width(text: str) -> float:
    return 7.0 * len(text)


def test_crowded_nodes_get_labels_that_cover_nothing_and_the_first_always_shows():
    # Twelve nodes in a tight cluster: labels cannot all fit; those shown cover no label and no other node.
    rng = np.random.default_rng(3)
    screen = rng.normal(200, 12, size=(12, 2))
    r = np.full(12, 6.0)
    texts = [f"Entity number {i}" for i in range(12)]
    order = list(range(12))
    discs = node_obstacles(screen, r, order)
    placed, _ = place_node_labels(order, [0], texts, screen, r, _width, 16, 400, 400, discs)
    boxes = [b for _, b, _ in placed]
    assert placed[0][0] == 0  # the first (the focused node) is always named
    assert 1 < len(placed) < 12  # some wait for more room
    for k, a in enumerate(boxes):
        assert labels.inside(a, 400, 400)
        assert not any(intersects(a, b) for b in boxes[k + 1:])
    for i, box, _ in placed:
        others = [j for j in range(12) if j != i]
        assert not any(intersects(box, b) for b in (
            (screen[j][0] - 8, screen[j][1] - 8, screen[j][0] + 8, screen[j][1] + 8) for j in others)) or i == 0


def test_a_label_at_the_edge_of_the_view_moves_to_the_side_with_room():
    screen = np.array([[390.0, 100.0]])
    placed, _ = place_node_labels([0], [], ["A name that needs room"], screen, np.array([5.0]), _width, 16, 400, 300,
                                  labels.Occupancy())
    (_, box, _), = placed
    assert labels.inside(box, 400, 300) and box[2] <= 390  # on the left of its node, inside the view


def _painted(qtbot, panel):
    qtbot.waitUntil(lambda: not panel.runner.running, timeout=WAIT)
    panel.canvas.repaint()
    return panel.canvas


def _check_no_overlap(canvas) -> None:
    s = canvas.scene
    width, height = canvas.width(), canvas.height()
    boxes = [b for _, b, _ in canvas.label_boxes]
    assert boxes, "no label was drawn"
    for k, a in enumerate(boxes):
        assert labels.inside(a, width, height), a
        assert not any(intersects(a, b) for b in boxes[k + 1:])
        assert canvas.legend_rect is None or not intersects(a, canvas.legend_rect)
    for box, _ in canvas.edge_label_boxes:
        assert not any(intersects(box, b) for b in boxes)
        assert canvas.legend_rect is None or not intersects(box, canvas.legend_rect)
    screen = canvas.view.to_screen(np.nan_to_num(s.pos), width, height)
    r = np.maximum(s.radius * canvas.view.scale, 1.5)
    shown = {i for i, _, _ in canvas.label_boxes}
    # The focused, centre and best-connected nodes are always named: they may cover a node, never a label.
    must = {i for i in (canvas.hover, canvas.selected, s.centre) if i >= 0}
    must |= {int(i) for i in np.argsort(-s.degree, kind="stable")[:HUB_LABELS]}
    for i, box, _ in canvas.label_boxes:
        if i in must:
            continue
        for j in range(s.n):
            if j != i:
                x, y = screen[j]
                assert not intersects(box, (x - r[j], y - r[j], x + r[j], y + r[j])), (s.labels[i], s.labels[j])
    hub = int(np.argmax(s.degree))
    assert hub in shown  # the best-connected node is named


def test_the_local_graph_of_the_sample_has_no_label_over_another_or_a_node(qtbot, sample_window):
    w = sample_window
    w.resize(1280, 800)
    open_entity(qtbot, w, "Harbor API")
    panel = w.graph.graph_panel()
    with qtbot.waitSignal(panel.layout_done, timeout=WAIT):
        w.graph.show_local_graph()
    canvas = _painted(qtbot, panel)
    _check_no_overlap(canvas)
    s = canvas.scene  # the legend sits in a corner where it covers no node
    screen = canvas.view.to_screen(np.nan_to_num(s.pos), canvas.width(), canvas.height())
    r = np.maximum(s.radius * canvas.view.scale, 1.5)
    assert not any(intersects(canvas.legend_rect, (x - r[j], y - r[j], x + r[j], y + r[j]))
                   for j, (x, y) in enumerate(screen))
    names = {text for _, text in canvas.edge_label_boxes}
    assert any(t.endswith("→") or t.startswith("←") for t in names)  # a few edges: their types are shown
    # Fit fills the view: the nodes span most of its width or of its height.
    canvas.fit()
    canvas.repaint()
    s = canvas.scene
    screen = canvas.view.to_screen(np.nan_to_num(s.pos), canvas.width(), canvas.height())
    span = screen.max(axis=0) - screen.min(axis=0)
    assert span[0] >= 0.6 * canvas.width() or span[1] >= 0.6 * canvas.height()
    # Two relations out: four times the nodes, still nothing covered.
    with qtbot.waitSignal(panel.layout_done, timeout=WAIT):
        panel.depth.setValue(2)
    canvas = _painted(qtbot, panel)
    assert canvas.scene.n > 20
    _check_no_overlap(canvas)


def test_the_whole_sample_graph_names_its_hubs_without_overlaps_and_the_legend_folds(qtbot, sample_window):
    w = sample_window
    w.resize(1280, 800)
    panel = w.graph.graph_panel()
    with qtbot.waitSignal(panel.layout_done, timeout=WAIT):
        w.graph.show_whole_graph()
    canvas = _painted(qtbot, panel)
    _check_no_overlap(canvas)
    assert not canvas.edge_label_boxes  # sixty edges: their types wait for a hover
    opened = canvas.legend_rect
    assert opened is not None and not canvas.legend_folded
    corner = QPointF(opened[0] + 10, opened[1] + 8).toPoint()
    qtbot.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=corner)
    canvas.repaint()
    folded = canvas.legend_rect
    assert canvas.legend_folded and folded[3] - folded[1] < opened[3] - opened[1]  # folded to its title
    _check_no_overlap(canvas)
    # Hovering a node shows its relations' types, clear of every label.
    hub = int(np.argmax(canvas.scene.degree))
    canvas.hover = hub
    canvas.repaint()
    assert canvas.edge_label_boxes
    _check_no_overlap(canvas)
