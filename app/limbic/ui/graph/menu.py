"""The View menu's graph entries; the panel (and numpy with it) loads on first use, not at start-up."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt

from limbic.ui.common import window_fit
from limbic.ui.common.window_state import restore_dock
from limbic.ui.graph.parts import GraphParts
from limbic.ui.common.i18n import translate


def dock_width(window) -> int:
    """The width the graph panel asks for when it first opens beside the results and editor (two fifths)."""
    return max(420, window.width() * 2 // 5)


class GraphMenu(QObject):
    """"Local graph" (Ctrl+G) and "Whole graph" (Ctrl+Shift+G); owns the graph dock once it exists."""

    def __init__(self, parts: GraphParts) -> None:
        super().__init__(parts.host)
        self.p = parts
        self.dock = None

    def build_menu(self, bar) -> None:
        """View → Local graph and Whole graph."""
        view = bar.addMenu(translate("GraphMenu", "&View"))
        self.local_action = self.p.hooks.add_action(view, translate("GraphMenu", "&Local graph"), self.show_local_graph, "Ctrl+G",
                                                  tip=translate("GraphMenu", "The open entity and its neighbours"))
        self.whole_action = self.p.hooks.add_action(view, translate("GraphMenu", "&Whole graph"), self.show_whole_graph, "Ctrl+Shift+G",
                                                  tip=translate("GraphMenu", "Every entity and relation"))

    def graph_panel(self):
        """The graph panel, created in its dock on first use."""
        w = self.p.host
        if self.dock is None:
            from limbic.ui.graph.panel import GraphDock

            self.dock = GraphDock(self.p)
            size = w.size()
            w.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
            window_fit.place_dock(w, self.dock, dock_width(w))
            if w.size() != size:
                w.resize(size)  # the panel takes room from the results and editor, not from the desk
        self.dock.show()
        self.dock.raise_()
        return self.dock.panel

    def open_mode(self) -> str:
        """What the dock shows for the window's layout to remember: "local", "whole" or "" (closed)."""
        return self.dock.panel.mode if self.dock is not None and self.dock.isVisible() else ""

    def reopen(self, mode: str) -> None:
        """Bring the panel back as the last run closed it, in its place and width."""
        panel = self.graph_panel()
        restore_dock(self.p.host)
        if mode == "whole":
            panel.show_whole()
        else:
            panel.show_local()

    def show_local_graph(self) -> None:
        """View → Local graph."""
        panel = self.graph_panel()
        panel.show_local()
        panel.canvas.setFocus()

    def show_whole_graph(self) -> None:
        """View → Whole graph."""
        panel = self.graph_panel()
        panel.show_whole()
        panel.canvas.setFocus()
