"""Memory health is a side panel: a tab beside Activity and Graph, never a window over them, and the window
keeps its width when it opens (as a dialog it covered most of the window and both panels)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDockWidget

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from tests.ui.conftest import make_window

ROOT = Path(__file__).resolve().parents[2]


def _planted(tmp_path, sample_db_template):
    path = tmp_path / "panel.db"
    shutil.copyfile(sample_db_template, path)
    g = Graph(Database(path))
    try:
        g.upsert_entity("ana ruíz", "Designer", ["Design lead at Harbor"])
    finally:
        g.db.close()
    return path


def test_health_opens_as_a_tab_beside_activity_and_graph_and_keeps_its_keys(qtbot, tmp_path, sample_db_template):
    w = make_window(qtbot, _planted(tmp_path, sample_db_template))
    w.resize(1366, 720)
    qtbot.waitUntil(lambda: w.width() == 1366)
    w.activity.show()
    w.graph.show_whole_graph()
    w.organise.health_action.trigger()
    view, dock = w.organise.health_view, w.organise.health_dock
    qtbot.waitUntil(lambda: view.report is not None, timeout=60_000)
    assert isinstance(dock, QDockWidget) and dock.widget() is view and not view.isWindow()
    assert not dock.isFloating() and w.dockWidgetArea(dock) == Qt.DockWidgetArea.RightDockWidgetArea
    tabs = w.tabifiedDockWidgets(dock)
    assert w.activity.dock in tabs and w.graph.dock in tabs  # one column, three tabs
    assert w.width() == 1366  # the window did not grow

    # Its keys work from inside the panel, and its buttons are there.
    assert not view.merge_button.isHidden() and not view.dismiss_button.isHidden()
    pairs = [set(f.entities) for f in view.report.findings["duplicates"]]
    view.findings.setCurrentRow(pairs.index({"Ana Ruiz", "ana ruíz"}))
    with qtbot.waitSignal(view.previewed, timeout=10_000):
        qtbot.keyClick(view.findings, Qt.Key.Key_M)
    assert "After the merge" in view.detail.toPlainText()
    qtbot.keyClick(view.findings, Qt.Key.Key_Escape)  # first Esc: back from the preview, still in the panel
    assert view.plan is None and dock.isVisible()

    # Esc again: the search box has the keys, the panel stays open; Shift+Esc closes it.
    w.activateWindow()
    view.findings.setFocus()
    with qtbot.waitSignal(view.escaped, timeout=2_000):
        qtbot.keyClick(view.findings, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is w.search_bar.edit, timeout=2_000)
    assert dock.isVisible()
    view.findings.setFocus()
    qtbot.keyClick(view.findings, Qt.Key.Key_Escape, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: not dock.isVisible(), timeout=2_000)

    # Organise → Memory health again brings the same panel back, in front, the window still its width.
    w.organise.health_action.trigger()
    assert w.organise.health_dock is dock and dock.isVisible() and not dock.visibleRegion().isEmpty()
    assert w.width() == 1366


def test_a_narrow_panel_stacks_the_parts_and_the_preview(qtbot, tmp_path):
    from limbic.ui.health.health_view import HealthView

    view = HealthView(None, str(tmp_path / "g.db"))
    qtbot.addWidget(view)
    view.resize(480, 700)
    view.show()
    qtbot.waitUntil(lambda: view.split.orientation() == Qt.Orientation.Vertical)
    assert view.minimumSizeHint().width() <= 400  # a narrow column can hold it: it never widens the window
    view.resize(1200, 700)
    qtbot.waitUntil(lambda: view.split.orientation() == Qt.Orientation.Horizontal)


_CODE = """
import sys, time
from PySide6.QtWidgets import QApplication
app = QApplication(sys.argv)
from limbic.ui.shell.main_window import MainWindow
w = MainWindow(sys.argv[1])
w.show(); w.start()
end = time.monotonic() + 60
while w.catalog is None and time.monotonic() < end:
    app.processEvents(); time.sleep(0.01)
area = w.screen().availableGeometry()
w.resize(min(1366, area.width()), min(768, area.height())); app.processEvents()
first = w.width()
w.activity.show(); app.processEvents()
w.graph.graph_panel(); app.processEvents()
w.organise.health_action.trigger(); app.processEvents(); app.processEvents()
d = w.organise.health_dock
tabbed = int(w.activity.dock in w.tabifiedDockWidgets(d) and w.graph.dock in w.tabifiedDockWidgets(d))
print(area.width(), area.height(), first, w.width(), w.height(), w.minimumSizeHint().width(), tabbed, int(d.isFloating()))
w.organise.health_view.stop_scan()
w.engine.stop()
"""


@pytest.mark.parametrize("screen", [(1366, 768), (1280, 800)])
def test_opening_health_beside_activity_and_graph_never_grows_the_window(tmp_path, sample_db_template, screen):
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{"name": "s", "x": 0, "y": 0, "width": screen[0], "height": screen[1],
                                               "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    path = tmp_path / "g.db"
    shutil.copyfile(sample_db_template, path)
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", PYTHONPATH=str(ROOT / "app"),
               LIMBIC_HOME=str(tmp_path / "home"), LIMBIC_MODEL_DIR=str(tmp_path / "no-model"))
    out = subprocess.run([sys.executable, "-c", _CODE, str(path)], env=env, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr[-2000:]
    area_w, area_h, first, width, height, min_w, tabbed, floating = map(int, out.stdout.split()[-8:])
    assert width == first and width <= area_w and height <= area_h, out.stdout  # the window did not grow
    assert min_w <= area_w, out.stdout  # nor does it need more than the screen
    assert tabbed and not floating, out.stdout  # Health is a tab of the same column as Activity and Graph
