"""The window fits its screen and never resizes itself; the graph panel takes room from inside it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QSize

from limbic.ui.common import window_fit
from tests.ui.conftest import open_entity

ROOT = Path(__file__).resolve().parents[2]


def test_opening_the_graph_panel_never_widens_the_window_or_crushes_the_results(qtbot, sample_window):
    w = sample_window
    w.resize(1280, 760)
    qtbot.waitUntil(lambda: w.width() == 1280)
    open_entity(qtbot, w, "Harbor API")
    for _ in range(3):  # it used to grow ~80 px each time the panel opened
        w.graph.show_local_graph()
        qtbot.waitUntil(lambda: w.graph.dock.isVisible())
        qtbot.wait(50)
        assert w.width() == 1280
        assert not w.graph.dock.isFloating()
        assert w.results.width() >= window_fit.MIN_RESULTS_W - 4 and w.editor.width() >= window_fit.MIN_EDITOR_W
        assert w.graph.dock.width() >= window_fit.MIN_DOCK_W
        w.graph.dock.hide()
        qtbot.wait(20)
    assert w.width() == 1280


def test_the_graph_toolbar_wraps_in_a_narrow_panel(qtbot, sample_window):
    w = sample_window
    w.resize(1280, 760)
    panel = w.graph.graph_panel()
    toolbar = panel.toolbar
    one_row = toolbar.layout().sizeHint()
    assert toolbar.minimumSizeHint().width() < one_row.width() // 2  # it does not hold the panel wide
    assert toolbar.layout().heightForWidth(one_row.width() // 2) > one_row.height()  # it wraps instead


def test_a_first_window_fits_a_small_screen():
    assert window_fit.initial_size(QSize(1280, 800), (1180, 760)) == QSize(1177, 736)
    assert window_fit.initial_size(QSize(1600, 1000), (1180, 760)) == QSize(1180, 760)
    small = window_fit.initial_size(QSize(853, 533), (1180, 760))
    assert small.width() <= 853 and small.height() <= 533


@pytest.mark.parametrize("screen, scale", [((1280, 800), "1"), ((1280, 800), "1.5"), ((1600, 1000), "1.5")])
def test_the_window_and_its_graph_panel_fit_the_screen(tmp_path, screen, scale):
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{"name": "s", "x": 0, "y": 0, "width": screen[0], "height": screen[1],
                                               "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    code = (
        "import sys\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication(sys.argv)\n"
        "from limbic.ui.shell.main_window import MainWindow\n"
        "w = MainWindow(sys.argv[1])\n"
        "w.show(); app.processEvents()\n"
        "area = w.screen().availableGeometry()\n"
        "first = (w.width(), w.height())\n"
        "w.graph.graph_panel(); app.processEvents(); app.processEvents()\n"
        "print(area.width(), area.height(), *first, w.width(), w.height(), w.minimumSizeHint().width(),"
        " w.minimumSizeHint().height())\n"
        "w.engine.stop()\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", QT_SCALE_FACTOR=scale,
               PYTHONPATH=str(ROOT / "app"), LIMBIC_HOME=str(tmp_path / "home"))
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "g.db")], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    area_w, area_h, width, height, after_w, after_h, min_w, min_h = map(int, out.stdout.split()[-8:])
    assert width <= area_w and height <= area_h, out.stdout
    assert (after_w, after_h) == (width, height), out.stdout  # the graph panel did not resize the window
    assert min_w <= area_w and min_h <= area_h, out.stdout


@pytest.mark.parametrize("screen", [(1366, 768), (1280, 800)])
def test_activity_and_graph_panels_share_the_room_of_a_laptop_screen(tmp_path, screen):
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{"name": "s", "x": 0, "y": 0, "width": screen[0], "height": screen[1],
                                               "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    code = (
        "import sys\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication(sys.argv)\n"
        "from limbic.ui.shell.main_window import MainWindow\n"
        "w = MainWindow(sys.argv[1])\n"
        "w.show(); app.processEvents()\n"
        "area = w.screen().availableGeometry()\n"
        "first = w.width()\n"
        "w.activity.show(); app.processEvents(); app.processEvents()\n"
        "with_activity = w.width()\n"
        "w.graph.graph_panel(); app.processEvents(); app.processEvents()\n"
        "tabbed = int(w.activity.dock in w.tabifiedDockWidgets(w.graph.dock))\n"
        "floating = int(w.activity.dock.isFloating() or w.graph.dock.isFloating())\n"
        "print(area.width(), first, with_activity, w.width(), w.minimumSizeHint().width(), tabbed, floating)\n"
        "w.engine.stop()\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", PYTHONPATH=str(ROOT / "app"),
               LIMBIC_HOME=str(tmp_path / "home"))
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "g.db")], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    area_w, first, with_activity, with_both, min_w, tabbed, floating = map(int, out.stdout.split()[-7:])
    assert with_activity == first and with_both == first, out.stdout  # opening a panel never widens the window
    assert min_w <= min(1024, area_w), out.stdout  # nor makes it need the whole screen (it needed 1516 px)
    assert tabbed and not floating, out.stdout  # the two panels share one column as tabs
