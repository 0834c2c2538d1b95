"""The View menu's graph entries; the panel (and numpy with it) loads on first use, not at start-up."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol

from PySide6.QtCore import QObject, Qt, SignalInstance
from PySide6.QtWidgets import QMainWindow

from limbic.ui.common import window_fit
from limbic.ui.common.hooks import StatusLine, WindowHooks
from limbic.ui.common.window_state import restore_dock

if TYPE_CHECKING:  # the graph room only hands service operations to the engine it is given
    from limbic.ui.workers.worker import Engine


class OpenEntityView(Protocol):
    """The editor as the graph sees it: which entity is open, and whether it has unsaved edits."""

    entity_id: int | None

    def is_dirty(self) -> bool:
        """The person changed something not saved yet."""

    def note_relation(self, outgoing: bool, key: tuple[str, str]) -> None:
        """Show a relation just made without reloading unsaved edits."""


@dataclass(frozen=True)
class GraphParts:
    """What the graph menu and its panel work with."""

    engine: Engine
    host: QMainWindow  # docks the panel; closing it stops the layout thread
    status: StatusLine
    hooks: WindowHooks
    editor: OpenEntityView
    open_entity: Callable[[int], None]  # show an entity (after asking about unsaved edits)
    reload: Callable[[int], object]  # show the open entity again (a refresh, not a visit)
    search_hits: Callable[[], set[int]]  # the entities the search on screen found (none for an empty query)
    start_folder: Callable[[], Path]  # where file dialogs start
    remember_folder: Callable[[str], None]  # the next file dialog starts where this path is
    changes_shown: SignalInstance  # every change set the window refreshed for
    results_shown: SignalInstance  # a request's results are on screen
    entity_shown: SignalInstance  # an entity is now in the editor


class GraphMenu(QObject):
    """"Local graph" (Ctrl+G) and "Whole graph" (Ctrl+Shift+G); owns the graph dock once it exists."""

    def __init__(self, parts: GraphParts) -> None:
        super().__init__(parts.host)
        self.p = parts
        self.dock = None

    def build_menu(self, bar) -> None:
        """View → Local graph and Whole graph."""
        view = bar.addMenu("&View")
        self.local_action = self.p.hooks.add_action(view, "&Local graph", self.show_local_graph, "Ctrl+G",
                                                  tip="The open entity and its neighbours")
        self.whole_action = self.p.hooks.add_action(view, "&Whole graph", self.show_whole_graph, "Ctrl+Shift+G",
                                                  tip="Every entity and relation")

    def graph_panel(self):
        """The graph panel, created in its dock on first use."""
        w = self.p.host
        if self.dock is None:
            from limbic.ui.graph.panel import GraphDock

            self.dock = GraphDock(self.p)
            size = w.size()
            w.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
            window_fit.place_dock(w, self.dock, max(420, w.width() * 2 // 5))
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
