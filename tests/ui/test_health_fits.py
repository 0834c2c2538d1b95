"""The Health view fits its screen, and as a side panel it takes room inside the window, never from the desk
(as a 1280 × 720 window of its own it was wider than a 1280 × 800 laptop's screen once framed, and hid the whole
window; as a dialog over the window it still hid the side panels)."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow, QTextEdit

from limbic.ui.common import window_fit
from limbic.ui.health.health_dock import HealthDock
from limbic.ui.health.health_view import HealthView


def test_the_health_view_fits_the_screen(qtbot, tmp_path):
    area = QGuiApplication.primaryScreen().availableGeometry()
    view = HealthView(None, str(tmp_path / "g.db"))
    qtbot.addWidget(view)
    view.show()
    frame = view.frameGeometry()
    assert frame.width() <= area.width() and frame.height() <= area.height()


def test_the_health_panel_takes_room_inside_a_small_window(qtbot, tmp_path):
    window = QMainWindow()
    qtbot.addWidget(window)
    window.setCentralWidget(QTextEdit(window))
    window.resize(780, 700)
    window.show()
    dock = HealthDock(window)
    view = HealthView(None, str(tmp_path / "g.db"), dock)
    dock.set_view(view)
    dock.bring_forward()
    qtbot.waitUntil(lambda: view.isVisible())
    assert window.width() == 780 and not dock.isFloating() and not view.isWindow()
    # Still a workspace: the kinds, the findings and the reasons keep room to read.
    assert dock.width() >= window_fit.MIN_DOCK_W
