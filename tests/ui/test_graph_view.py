"""The graph panel in the window: clicks open entities, depth and filters, hubs, live changes, suggestions, exports."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6.QtCore import Qt

from limbic import service
from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from limbic.service import graph_view
from limbic.ui.graph.scene import KIND_ENTITY, KIND_MORE, KIND_SUGGESTION
from tests.engine.test_graph_view import CROWD, build_known_graph
from tests.ui.conftest import make_window, open_entity, search

WAIT = 30_000
GML = "{http://graphml.graphdrawing.org/xmlns}"


@pytest.fixture(scope="session")
def known_db_template(tmp_path_factory, embedder):
    path = tmp_path_factory.mktemp("known") / "known.db"
    g = Graph(Database(path), embedder)
    try:
        build_known_graph(g)
    finally:
        g.db.close()
    return path


@pytest.fixture
def kwindow(qtbot, tmp_path, known_db_template):
    import shutil

    target = tmp_path / "known.db"
    shutil.copyfile(known_db_template, target)
    return make_window(qtbot, target)


def local(qtbot, w, ref):
    """Open ``ref`` in the editor and show its neighbourhood; wait until its layout has settled."""
    open_entity(qtbot, w, ref)
    panel = w.graph.graph_panel()
    with qtbot.waitSignal(panel.layout_done, timeout=WAIT):
        w.graph.show_local_graph()
    return panel


def entity_names(panel) -> set[str]:
    s = panel.canvas.scene
    return {s.labels[i] for i in range(s.n) if s.kinds[i] == KIND_ENTITY}


def settle(qtbot, panel, trigger) -> None:
    """Run ``trigger`` and wait for the new picture (and any layout it starts)."""
    with qtbot.waitSignal(panel.shown, timeout=WAIT):
        trigger()
    qtbot.waitUntil(lambda: not panel.runner.running, timeout=WAIT)


def click(qtbot, panel, index: int, double: bool = False) -> None:
    canvas = panel.canvas
    canvas.repaint()  # hit testing uses the positions last drawn
    point = canvas.node_point(index).toPoint()
    if double:
        qtbot.mouseDClick(canvas, Qt.MouseButton.LeftButton, pos=point)
    else:
        qtbot.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=point)


def test_clicking_a_node_opens_it_and_double_click_or_enter_recentres(qtbot, kwindow):
    w = kwindow
    panel = local(qtbot, w, "Hub")
    hub = w.editor.entity_id
    assert panel.centre_id == hub and entity_names(panel) == {"Hub", "A1", "A2", "A3", "B1"}
    a1 = next(i for i, name in enumerate(panel.canvas.scene.labels) if name == "A1")
    with qtbot.waitSignal(w.entity_shown, timeout=WAIT) as shown:
        click(qtbot, panel, a1)
    assert shown.args == [int(panel.canvas.scene.ids[a1])]
    assert panel.centre_id == hub  # a click opens, it does not re-centre
    assert panel.canvas.selected == a1
    settle(qtbot, panel, lambda: click(qtbot, panel, a1, double=True))
    assert panel.canvas.scene.labels[panel.canvas.scene.centre] == "A1"
    assert entity_names(panel) == {"A1", "Hub", "A1 note 1", "A1 note 2"}
    # Enter on the selected node re-centres too (keyboard only).
    note = panel.canvas.scene.labels.index("A1 note 1")
    panel.canvas.select(note)
    panel.canvas.setFocus()
    settle(qtbot, panel, lambda: qtbot.keyClick(panel.canvas, Qt.Key.Key_Return))
    assert panel.canvas.scene.labels[panel.canvas.scene.centre] == "A1 note 1"


def test_depth_one_two_three_and_filters(qtbot, kwindow):
    w = kwindow
    panel = local(qtbot, w, "Hub")
    counts = []
    for depth in (1, 2, 3):
        if panel.depth.value() != depth:
            settle(qtbot, panel, lambda d=depth: panel.depth.setValue(d))
        counts.append(len(entity_names(panel)))
    assert counts == [5, 12, 13]
    settle(qtbot, panel, lambda: panel.depth.setValue(2))
    settle(qtbot, panel, lambda: panel.set_filter("entity", {"Project", "Person"}))
    assert entity_names(panel) == {"Hub", "A1", "A2", "A3"}
    assert panel.types_button.text() == "Types (2)"
    settle(qtbot, panel, lambda: panel.set_filter("entity", None))
    settle(qtbot, panel, lambda: panel.set_filter("relation", {"depends_on", "uses"}))
    assert entity_names(panel) == {"Hub", "B1", "C1"}
    s = panel.canvas.scene
    assert sorted(s.rel_names[r] for r in s.rels) == ["depends_on", "uses"]
    # The legend lists the types on screen with their colours.
    panel.canvas.repaint()
    assert {t for _, t in panel.canvas.legend} == {"Project", "Tool"}


def test_a_hub_collapses_and_expands_keeping_the_view(qtbot, kwindow):
    w = kwindow
    panel = local(qtbot, w, "Crowd")
    s = panel.canvas.scene
    more = [i for i in range(s.n) if s.kinds[i] == KIND_MORE]
    assert len(more) == 1 and s.labels[more[0]] == f"+{CROWD - graph_view.HUB_LIMIT} more"
    assert len(entity_names(panel)) == 1 + graph_view.HUB_LIMIT
    panel.canvas.zoom(1.5)
    view = (panel.canvas.view.cx, panel.canvas.view.cy, panel.canvas.view.scale)
    before = {int(i): tuple(p) for i, p in zip(s.ids, s.pos)}
    settle(qtbot, panel, lambda: click(qtbot, panel, more[0]))
    s = panel.canvas.scene
    assert len(entity_names(panel)) == 1 + CROWD and not (s.kinds == KIND_MORE).any()
    assert (panel.canvas.view.cx, panel.canvas.view.cy, panel.canvas.view.scale) == view
    kept = [i for i in range(s.n) if int(s.ids[i]) in before]
    assert all(tuple(s.pos[i]) == before[int(s.ids[i])] for i in kept)  # shown nodes did not move


def test_a_change_from_another_connection_appears_in_place(qtbot, kwindow):
    w = kwindow
    panel = local(qtbot, w, "Hub")
    panel.canvas.zoom(0.7)
    view = (panel.canvas.view.cx, panel.canvas.view.cy, panel.canvas.view.scale)
    s = panel.canvas.scene
    before = {int(i): tuple(p) for i, p in zip(s.ids, s.pos)}
    other = Graph(Database(w.db_path))
    try:
        with service.collect(other.db) as changes:
            other.upsert_entity("Newcomer", "Person", ["arrived from elsewhere"])
            other.add_relation("Newcomer", "A2", "reports_to")
            other.add_relation("Newcomer", "Hub", "joins")
    finally:
        other.db.close()
    settle(qtbot, panel, lambda: panel.apply_changes(changes))
    s = panel.canvas.scene
    assert "Newcomer" in entity_names(panel)
    assert (panel.canvas.view.cx, panel.canvas.view.cy, panel.canvas.view.scale) == view
    assert all(tuple(s.pos[s.index_of(i)]) == p for i, p in before.items())
    new = s.labels.index("Newcomer")
    hub = s.centre
    assert np.linalg.norm(s.pos[new] - s.pos[hub]) < 400  # placed beside its neighbours

    # The whole graph follows a change in place too.
    settle(qtbot, panel, w.graph.show_whole_graph)
    n = panel.canvas.scene.n
    other = Graph(Database(w.db_path))
    try:
        with service.collect(other.db) as changes:
            other.upsert_entity("Late arrival", "Note", ["x"])
            other.add_relation("Late arrival", "Crowd", "member_of")
            other.delete_entity("Stranger")
    finally:
        other.db.close()
    with qtbot.waitSignal(panel.updated, timeout=WAIT):
        panel.apply_changes(changes)
    s = panel.canvas.scene
    assert s.n == n and "Late arrival" in s.labels and "Stranger" not in s.labels
    assert np.isfinite(s.pos).all()


def test_the_suggestion_action_creates_a_relation(qtbot, kwindow):
    w = kwindow
    panel = local(qtbot, w, "Hub")
    settle(qtbot, panel, lambda: panel.similar.setChecked(True))
    s = panel.canvas.scene
    suggested = [i for i in range(s.n) if s.kinds[i] == KIND_SUGGESTION]
    assert suggested and s.dashed.sum() == len(suggested)
    target = suggested[0]
    name = s.labels[target]
    assert name not in {"A1", "A2", "A3", "B1"}
    click(qtbot, panel, target)
    assert panel.link_bar.isVisible() and name in panel.link_label.text()
    panel.link_type.setText("similar_to")
    with qtbot.waitSignal(panel.shown, timeout=WAIT):
        qtbot.mouseClick(panel.link_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: name in entity_names(panel), timeout=WAIT)
    s = panel.canvas.scene
    edge = [j for j in range(len(s.src)) if s.labels[s.dst[j]] == name and not s.dashed[j]]
    assert edge and s.rel_names[s.rels[edge[0]]] == "similar_to"
    check = Graph(Database(w.db_path))
    try:
        out, _ = check.relations_of("Hub")
        assert ("similar_to", name) in {(r.relation_type, r.to_name) for r in out}
    finally:
        check.db.close()


def test_search_hits_are_highlighted_and_exports_read_back(qtbot, kwindow, tmp_path):
    w = kwindow
    panel = local(qtbot, w, "Hub")
    search(qtbot, w, "A2")
    s = panel.canvas.scene
    assert s.highlight[s.labels.index("A2")]
    settle(qtbot, panel, w.graph.show_whole_graph)
    qtbot.waitUntil(lambda: not panel.runner.running, timeout=WAIT)
    paths = {"graphml": tmp_path / "whole.graphml", "visible": tmp_path / "part.graphml",
             "png": tmp_path / "g.png", "svg": tmp_path / "g.svg"}
    answers = iter([str(paths["graphml"]), str(paths["visible"]), str(paths["png"]), str(paths["svg"])])
    panel._ask_save_path = lambda *a: next(answers)
    # The export writes the positions on screen when it is asked for; a layout step after it may move them.
    s, pos_at_export = panel.canvas.scene, panel.canvas.scene.pos.copy()
    for action in (panel.export_whole_action, panel.export_visible_action):
        with qtbot.waitSignal(w.engine.worker.op_done, timeout=WAIT):
            action.trigger()
    # An op_done may be another operation's (the search's recording): wait for both files.
    qtbot.waitUntil(lambda: paths["graphml"].exists() and paths["visible"].exists(), timeout=WAIT)
    panel.export_png_action.trigger()
    panel.export_svg_action.trigger()
    qtbot.waitUntil(lambda: paths["png"].exists() and paths["svg"].exists(), timeout=WAIT)
    root = ET.parse(paths["graphml"]).getroot()
    nodes = {n.get("id"): {d.get("key"): d.text for d in n.iter(GML + "data")} for n in root.iter(GML + "node")}
    assert len(nodes) == s.n
    for k in range(s.n):
        data = nodes[f"n{s.ids[k]}"]
        assert data["name"] == s.labels[k] and int(data["degree"]) == s.degree[k]
        assert abs(float(data["x"]) - pos_at_export[k, 0]) < 1e-2
    assert len(list(root.iter(GML + "edge"))) == len(s.src)
    part = ET.parse(paths["visible"]).getroot()
    assert 0 < len(list(part.iter(GML + "node"))) <= s.n
    from PySide6.QtGui import QImage
    assert not QImage(str(paths["png"])).isNull()
    svg = ET.parse(paths["svg"]).getroot()
    assert len(svg.findall("{http://www.w3.org/2000/svg}circle")) == len(panel.visible_indices())


def test_the_centre_deleted_elsewhere_leaves_a_sentence(qtbot, kwindow):
    w = kwindow
    panel = local(qtbot, w, "B1")
    other = Graph(Database(w.db_path))
    try:
        with service.collect(other.db) as changes:
            other.delete_entity("B1")
    finally:
        other.db.close()
    panel.apply_changes(changes)
    assert panel.canvas.scene.n == 0 and "deleted" in panel.canvas.message


def test_an_export_onto_the_graph_file_is_refused_in_one_sentence(qtbot, kwindow):
    w = kwindow
    panel = local(qtbot, w, "Hub")
    size = w.db_path.stat().st_size
    panel._ask_save_path = lambda *a: str(w.db_path)
    for action in (panel.export_whole_action, panel.export_png_action):
        with qtbot.waitSignal(panel.engine.worker.op_failed, timeout=WAIT):
            action.trigger()
        qtbot.waitUntil(lambda: "open graph file" in panel.info.text(), timeout=WAIT)
        assert "\n" not in panel.info.text() and "Traceback" not in panel.info.text()
    assert w.db_path.stat().st_size == size
    search(qtbot, w, "Hub")  # the graph still answers


def test_the_graph_panel_comes_back_as_it_was_left(qtbot, tmp_path, known_db_template):
    import shutil

    target = tmp_path / "known.db"
    shutil.copyfile(known_db_template, target)
    first = make_window(qtbot, target)
    assert first.graph.dock is None  # nothing to bring back on a first run
    panel = first.graph.graph_panel()
    settle(qtbot, panel, first.graph.show_whole_graph)
    first.close()
    second = make_window(qtbot, target)
    qtbot.waitUntil(lambda: second.graph.dock is not None and second.graph.dock.isVisible(), timeout=WAIT)
    qtbot.waitUntil(lambda: second.graph.dock.panel.canvas.scene.n == panel.canvas.scene.n > 0, timeout=WAIT)
    assert second.graph.dock.panel.mode == "whole"
    second.graph.dock.close()
    second.close()
    third = make_window(qtbot, target)
    assert third.graph.dock is None  # closed last time: stays closed
