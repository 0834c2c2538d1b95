"""The View menu's graph entries; the panel (and numpy with it) loads on first use, not at start-up."""

from __future__ import annotations

from PySide6.QtCore import Qt

from limbic.ui import window_fit


class GraphMenuMixin:
    """Adds "Local graph" (Ctrl+G) and "Whole graph" (Ctrl+Shift+G) to a main window."""

    graph_dock = None

    def _build_graph_menu(self, bar) -> None:
        view = bar.addMenu("&View")
        self.graph_local_action = self._action(view, "&Local graph", self.show_local_graph, "Ctrl+G",
                                               tip="The open entity and its neighbours")
        self.graph_whole_action = self._action(view, "&Whole graph", self.show_whole_graph, "Ctrl+Shift+G",
                                               tip="Every entity and relation")

    def graph_panel(self):
        """The graph panel, created in its dock on first use."""
        if self.graph_dock is None:
            from limbic.ui.graph.panel import GraphDock

            self.graph_dock = GraphDock(self)
            size = self.size()
            self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.graph_dock)
            window_fit.place_dock(self, self.graph_dock, max(420, self.width() * 2 // 5))
            if self.size() != size:
                self.resize(size)  # the panel takes room from the results and editor, not from the desk
        self.graph_dock.show()
        self.graph_dock.raise_()
        return self.graph_dock.panel

    def show_local_graph(self) -> None:
        panel = self.graph_panel()
        panel.show_local()
        panel.canvas.setFocus()

    def show_whole_graph(self) -> None:
        panel = self.graph_panel()
        panel.show_whole()
        panel.canvas.setFocus()
