"""The Health view opens no larger than its screen, nor than the window it opens over (it was 1280 × 720 whatever the
screen: on a 1280 × 800 laptop its frame was wider than the screen and it hid the whole window)."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow

from limbic.ui.health.health_view import HealthView


def test_the_health_view_fits_the_screen(qtbot, tmp_path):
    area = QGuiApplication.primaryScreen().availableGeometry()
    view = HealthView(None, str(tmp_path / "g.db"))
    qtbot.addWidget(view)
    view.show()
    frame = view.frameGeometry()
    assert frame.width() <= area.width() and frame.height() <= area.height()


def test_the_health_view_is_no_larger_than_the_window_it_opens_over(qtbot, tmp_path):
    window = QMainWindow()
    qtbot.addWidget(window)
    window.resize(780, 700)
    window.show()
    view = HealthView(None, str(tmp_path / "g.db"), window)
    view.show()
    frame = view.frameGeometry()
    assert frame.width() < window.width() and frame.height() < window.height()
    # Still a workspace: its three columns keep room to read.
    assert view.width() >= 0.8 * window.width()
