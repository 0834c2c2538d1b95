"""Memory health as a side panel: a dock at the window's right, a tab beside Activity and Graph.

As a dialog of its own it covered most of the window and its side panels; as a dock it shares
their column and takes room from it, never from the desk: the window keeps its width.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow

from limbic.ui.common import window_fit
from limbic.ui.health.health_view import HealthView
from limbic.ui.common.i18n import translate

WANTED_W = 520  # the three parts stacked read well at this width; the column may give less


class HealthDock(QDockWidget):
    """The dock that holds the Health view (a new view when another graph is opened)."""

    def __init__(self, host: QMainWindow) -> None:
        super().__init__(translate("HealthDock", "Memory health"), host, objectName="healthDock")
        self.view: HealthView | None = None
        size = host.size()
        host.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self)
        window_fit.place_dock(host, self, max(WANTED_W, host.width() * 2 // 5))
        if host.size() != size:
            host.resize(size)  # the panel takes room from the results and editor, not from the desk

    def set_view(self, view: HealthView) -> None:
        """Show ``view`` here; the one before stops its check and goes."""
        old, self.view = self.view, view
        view.close_requested.connect(self.close)
        self.setWidget(view)
        if old is not None:
            old.stop_scan()
            old.deleteLater()

    def bring_forward(self) -> None:
        """In view, its tab in front, the findings focused (its keys work from there)."""
        self.show()
        self.raise_()
        if self.view is not None:
            self.view.findings.setFocus()

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if self.view is not None:
            self.view.stop_scan()  # a closed panel checks nothing; opening it again checks afresh if needed
        super().closeEvent(event)
