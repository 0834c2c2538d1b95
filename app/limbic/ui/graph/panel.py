"""The graph panel: the open entity's neighbourhood or the whole graph, live, with filters and exports.

Reads go through ``Engine.run`` (the engine's thread); the layout runs on its own thread over
arrays (``LayoutRunner``). ``apply_changes(changeset)`` updates the picture in place after any
commit: it follows the window's ``changes_shown``, which carries both the window's own operations
and the commits of other programs.
"""

from __future__ import annotations

import logging

import numpy as np
from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QCheckBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QPushButton,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from limbic.service.types import ChangeSet, LayoutParams
from limbic.service import graph_view
from limbic.ui.common import window_fit
from limbic.ui.common.flow_layout import FlowLayout
from limbic.ui.graph import build
from limbic.ui.graph.canvas import GraphCanvas
from limbic.ui.graph.exports import GraphExportsMixin
from limbic.ui.graph.linking import SuggestionLinkMixin
from limbic.ui.graph.parts import GraphParts
from limbic.ui.graph.runner import LayoutRunner
from limbic.ui.graph.scene import KIND_MORE, KIND_SUGGESTION, Scene
from limbic.ui.graph.timeslider import TimeTravel
from limbic.ui.common.i18n import translate

logger = logging.getLogger(__name__)

LOCAL_LAYOUT = LayoutParams(iterations=150, gravity=0.08)
SETTLE_LAYOUT = LayoutParams(iterations=60, start_temperature=40.0)  # new nodes among pinned old ones
LOCAL, WHOLE = "local", "whole"


def whole_params(n: int) -> LayoutParams:
    """A small graph gets room for its labels and a firmer pull that keeps lone entities close."""
    return LayoutParams(ideal=60.0, gravity=0.8) if n < 500 else LayoutParams()


class GraphPanel(GraphExportsMixin, SuggestionLinkMixin, QWidget):
    """Toolbar, canvas and the suggestion bar; one per main window."""

    shown = Signal(str)  # "local" or "whole": a new picture is on screen
    updated = Signal()  # a change was applied in place
    layout_done = Signal(bool)  # a layout ended (True: converged)

    def __init__(self, parts: GraphParts) -> None:
        super().__init__(parts.host)
        self.p = parts
        self.engine = parts.engine
        self.mode = LOCAL
        self.centre_id: int | None = None
        self.expanded: set[int] = set()
        self.entity_types: set[str] | None = None  # None: all
        self.relation_types: set[str] | None = None
        self._hits: set[int] = set()
        self._opened_here: int | None = None
        self._pending_ids: set[int] = set()
        self._layout_kind = ""
        self.runner = LayoutRunner(self)
        self.runner.snapshot.connect(self.on_snapshot)
        self.runner.finished.connect(self.on_layout_finished)
        self._build()
        # Every change set the window refreshes for: its own operations (Engine.changes_applied)
        # and other programs' commits (the change feed), so each reaches the picture once.
        parts.changes_shown.connect(self.apply_changes)
        parts.results_shown.connect(self.on_results_shown)
        parts.entity_shown.connect(self.on_entity_shown)
        parts.host.installEventFilter(self)
        self.on_results_shown(0)  # a search made before the panel opened

    # -- construction -----------------------------------------------------------------------

    def _build(self) -> None:
        self.local_button = QToolButton(self, text=translate("GraphPanel", "Local"), checkable=True, checked=True)
        self.local_button.setToolTip(translate("GraphPanel", "The open entity and its neighbours (Ctrl+G)"))
        self.whole_button = QToolButton(self, text=translate("GraphPanel", "Whole graph"), checkable=True)
        self.whole_button.setToolTip(translate("GraphPanel", "Every entity and relation (Ctrl+Shift+G)"))
        self.depth = QSpinBox(self, minimum=1, maximum=graph_view.MAX_DEPTH, value=1, prefix=translate("GraphPanel", "Depth "))
        self.depth.setAccessibleName(translate("GraphPanel", "Graph depth"))
        self.depth.setAccessibleDescription(translate("GraphPanel", "How many relations away from the open entity the "
                                                                    "local graph reaches"))
        self.depth.setToolTip(translate("GraphPanel", "How many relations away from the centre"))
        self.types_button = QToolButton(self, text=translate("GraphPanel", "Types"), popupMode=QToolButton.ToolButtonPopupMode.InstantPopup)
        self.types_button.setMenu(QMenu(self.types_button))
        self.rels_button = QToolButton(self, text=translate("GraphPanel", "Relations"), popupMode=QToolButton.ToolButtonPopupMode.InstantPopup)
        self.rels_button.setMenu(QMenu(self.rels_button))
        self.similar = QCheckBox(translate("GraphPanel", "Similar"), self)
        self.similar.setToolTip(translate("GraphPanel", "Show entities close in meaning that have no relation to the centre"))
        self.fit_button = QToolButton(self, text=translate("GraphPanel", "Fit"))
        self.fit_button.setToolTip(translate("GraphPanel", "Show the whole picture (0)"))
        self.relayout_button = QToolButton(self, text=translate("GraphPanel", "Re-layout"))
        self.relayout_button.setToolTip(translate("GraphPanel", "Lay the whole graph out again from scratch"))
        self.stop_button = QToolButton(self, text=translate("GraphPanel", "Stop"))
        self.stop_button.setToolTip(translate("GraphPanel", "Stop the layout here (its positions are kept)"))
        self.stop_button.hide()
        self.export_button = QToolButton(self, text=translate("GraphPanel", "Export"), popupMode=QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export_button)
        self.export_whole_action = menu.addAction(translate("GraphPanel", "Whole graph as GraphML…"), self.on_export_whole)
        self.export_visible_action = menu.addAction(translate("GraphPanel", "Visible part as GraphML…"), self.on_export_visible)
        self.export_png_action = menu.addAction(translate("GraphPanel", "Picture as PNG…"), self.on_export_png)
        self.export_svg_action = menu.addAction(translate("GraphPanel", "Picture as SVG…"), self.on_export_svg)
        self.export_button.setMenu(menu)
        # The buttons wrap onto a second row in a narrow panel rather than widen the window.
        self.toolbar = QWidget(self, objectName="graphToolbar")
        bar = FlowLayout(self.toolbar)
        for w in (self.local_button, self.whole_button, self.depth, self.types_button, self.rels_button, self.similar,
                  self.fit_button, self.stop_button, self.relayout_button, self.export_button):
            bar.addWidget(w)
        self.canvas = GraphCanvas(self)
        self.canvas.painted.connect(self.runner.drawn)
        self.info = QLabel(self, objectName="graphInfo")
        self.link_label = QLabel(self)
        self.link_label.setWordWrap(True)  # a long pair of names wraps instead of widening the panel
        self.link_type = QLineEdit(self, placeholderText=translate("GraphPanel", "relation type"))
        self.link_type.setClearButtonEnabled(True)
        self.link_button = QPushButton(translate("GraphPanel", "Link"), self)
        self.link_bar = QWidget(self)
        link_layout = QHBoxLayout(self.link_bar)
        link_layout.setContentsMargins(0, 0, 0, 0)
        link_layout.addWidget(self.link_label, 1)
        link_layout.addWidget(self.link_type)
        link_layout.addWidget(self.link_button)
        self.link_bar.hide()
        self.time = TimeTravel(self)  # the time slider under the toolbar
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.time.bar)
        layout.addWidget(self.canvas, 1)
        layout.addWidget(self.link_bar)
        layout.addWidget(self.info)

        self.local_button.clicked.connect(lambda: self.show_local())
        self.whole_button.clicked.connect(lambda: self.show_whole())
        self.depth.valueChanged.connect(self.on_filters_changed)
        self.similar.toggled.connect(self.on_filters_changed)
        self.fit_button.clicked.connect(self.canvas.fit)
        self.relayout_button.clicked.connect(self.relayout)
        self.stop_button.clicked.connect(self.stop_layout)
        self.link_button.clicked.connect(self.on_link)
        self.link_type.returnPressed.connect(self.on_link)
        self.canvas.node_clicked.connect(self.on_node_clicked)
        self.canvas.node_activated.connect(self.on_node_activated)
        self.canvas.background_clicked.connect(self._hide_link_bar)
        self.types_button.menu().aboutToShow.connect(lambda: self._fill_filter_menu(self.types_button.menu(), "entity"))
        self.rels_button.menu().aboutToShow.connect(lambda: self._fill_filter_menu(self.rels_button.menu(), "relation"))
        self._sync_buttons()

    def _sync_buttons(self) -> None:
        local = self.mode == LOCAL
        self.local_button.setChecked(local)
        self.whole_button.setChecked(not local)
        for w in (self.depth, self.types_button, self.rels_button, self.similar):
            w.setVisible(local)
        self.relayout_button.setVisible(not local)

    def _catalog_lists(self) -> tuple[list[str], list[str]]:
        catalog = self.p.hooks.catalog()
        if catalog is None:
            return [], []
        return list(catalog.entity_types), list(catalog.relation_types)

    def _fill_filter_menu(self, menu: QMenu, which: str) -> None:
        entity_types, relation_types = self._catalog_lists()
        names = entity_types if which == "entity" else relation_types
        chosen = self.entity_types if which == "entity" else self.relation_types
        menu.clear()
        every = menu.addAction(translate("GraphPanel", "All"))
        every.triggered.connect(lambda: self.set_filter(which, None))
        menu.addSeparator()
        for name in names:
            action = QAction(name, menu, checkable=True, checked=chosen is None or name in chosen)
            action.toggled.connect(lambda on, n=name: self._toggle_filter(which, n, on, names))
            menu.addAction(action)

    def _toggle_filter(self, which: str, name: str, on: bool, names: list[str]) -> None:
        current = self.entity_types if which == "entity" else self.relation_types
        chosen = set(names) if current is None else set(current)
        chosen = chosen | {name} if on else chosen - {name}
        self.set_filter(which, None if chosen >= set(names) else chosen)

    def set_filter(self, which: str, names: set[str] | None) -> None:
        """Keep only these entity types or relation types (None: all) and redraw."""
        if which == "entity":
            self.entity_types = None if names is None else set(names)
        else:
            self.relation_types = None if names is None else set(names)
        self.types_button.setText(translate("GraphPanel", "Types") if self.entity_types is None else translate("GraphPanel", "Types ({n_entity_types})").format(n_entity_types=len(self.entity_types)))
        self.rels_button.setText(translate("GraphPanel", "Relations") if self.relation_types is None else translate("GraphPanel", "Relations ({n_relation_types})").format(n_relation_types=len(self.relation_types)))
        self.on_filters_changed()

    # -- the local view ---------------------------------------------------------------------

    def show_local(self, centre: int | None = None) -> None:
        """Show an entity's neighbourhood (by default the one open in the editor, else the last centre)."""
        if self.mode != LOCAL:
            self.runner.stop()
        self.mode = LOCAL
        self.canvas.edge_labels = True
        self._sync_buttons()
        if centre is None:
            centre = self.p.editor.entity_id or self.centre_id
        if centre is None:
            self.canvas.message = translate("GraphPanel", "Open an entity to see its neighbourhood here.")
            self.canvas.set_scene(Scene())
            self.info.setText("")
            return
        if centre != self.centre_id:
            self.expanded.clear()
        self.centre_id = int(centre)
        self._request_local(keep=False)

    def _request_local(self, keep: bool) -> None:
        if self.centre_id is None:
            return
        self.engine.run(
            "graph-local", graph_view.local_view, self.centre_id, self.depth.value(), set(self.expanded),
            self.entity_types, self.relation_types, self.similar.isChecked(),
            on_done=lambda result: self._on_local(result, keep), on_failed=self._on_failed, what=translate("GraphPanel", "reading the graph"),
        )

    def _on_local(self, result, keep: bool) -> None:
        if self.mode != LOCAL:
            return
        view, found = result
        old = self.canvas.scene if keep else None
        scene, fresh = build.local_scene(view, found, old, seed=view.centre)
        self._mark_hits(scene)
        self.runner.stop()
        self.canvas.message = ""
        self.canvas.set_scene(scene, fit=not keep)
        entities = int((scene.kinds == 0).sum())
        relations, suggestions = int((~scene.dashed).sum()), len(found)
        text = (translate("GraphPanel", "%n entities", "", entities) + " · "
                + translate("GraphPanel", "%n relations", "", relations))
        if self.similar.isChecked():
            text += " · " + translate("GraphPanel", "%n suggestions", "", suggestions)
        self.info.setText(text)
        pinned = np.zeros(scene.n, dtype=bool)
        if scene.centre >= 0:
            pinned[scene.centre] = True
        if keep:
            if fresh.any():
                self._start_layout(scene, pinned | ~fresh, SETTLE_LAYOUT, "settle")
        else:
            self._start_layout(scene, pinned, LOCAL_LAYOUT, "local")
        self.shown.emit(LOCAL)

    @Slot()
    def on_filters_changed(self, *_args) -> None:
        if self.mode == LOCAL and self.centre_id is not None:
            self._request_local(keep=True)

    # -- the whole graph --------------------------------------------------------------------

    def show_whole(self) -> None:
        """Show every entity: saved positions at once, a progressive layout for what has none."""
        self.mode = WHOLE
        self.canvas.edge_labels = False  # on hover only: the whole graph has too many
        self._sync_buttons()
        self._hide_link_bar()
        self.info.setText(translate("GraphPanel", "Reading the graph…"))
        self.engine.run("graph-whole", graph_view.whole_graph, on_done=lambda a: self._on_whole(a, keep=False),
                        on_failed=self._on_failed, what=translate("GraphPanel", "reading the graph"))

    def _whole_layout_running(self) -> bool:
        return self.runner.running and self._layout_kind == "whole"

    def _on_whole(self, arrays: graph_view.GraphArrays, keep: bool) -> None:
        if self.mode != WHOLE:
            return
        unfinished = keep and self._whole_layout_running()
        self.runner.stop()
        scene = build.whole_scene(arrays, self.canvas.scene if keep else None)
        self._mark_hits(scene)
        self.canvas.message = "" if scene.n else translate("GraphPanel", "This graph is empty.")
        missing = ~np.isfinite(scene.pos).all(axis=1)
        if missing.all() and scene.n:
            scene.pos = build.place_new(scene.pos, scene.src.astype(np.int64), scene.dst.astype(np.int64),
                                        np.random.default_rng(0), LayoutParams().ideal)
        self.canvas.set_scene(scene, fit=not keep)
        self._describe_whole()
        if (missing.all() or unfinished) and scene.n > 1:
            self._start_layout(scene, None, whole_params(scene.n), "whole")
        elif missing.any():
            self._start_layout(scene, ~missing, SETTLE_LAYOUT, "whole")
        self.shown.emit(WHOLE)

    def _describe_whole(self) -> None:
        s = self.canvas.scene
        entities, relations = s.n, len(s.src)
        self.info.setText(translate("GraphPanel", "%n entities", "", entities) + " · "
                          + translate("GraphPanel", "%n relations", "", relations))

    def relayout(self) -> None:
        """Lay the whole graph out again from nothing."""
        s = self.canvas.scene
        if self.mode != WHOLE or s.n < 2:
            return
        self._start_layout(s, None, whole_params(s.n), "whole", fresh=True)

    # -- layout -----------------------------------------------------------------------------

    def _start_layout(self, scene: Scene, pinned, params: LayoutParams, kind: str, fresh: bool = False) -> None:
        self._layout_kind = kind
        self.runner.start(scene.n, scene.src, scene.dst, initial=None if fresh else scene.pos, pinned=pinned,
                          params=params, seed=int(scene.n))
        self.stop_button.setVisible(kind == "whole")
        if kind == "whole":
            self.info.setText(self.info.text().split(" · laying out")[0] + translate("GraphPanel", " · laying out…"))

    @Slot(object, int)
    def on_snapshot(self, pos: np.ndarray, number: int) -> None:
        if number == self.runner.run_number:
            self.time.set_positions(pos)

    @Slot(object, int, bool)
    def on_layout_finished(self, pos: np.ndarray, number: int, converged: bool) -> None:
        if number != self.runner.run_number:
            return
        self.runner.restore_switch()
        self.time.set_positions(pos)
        self._layout_ended(converged)

    def stop_layout(self) -> None:
        """Stop the layout where it is; the whole graph's positions so far are saved."""
        self.runner.stop()
        self._layout_ended(False)

    def _layout_ended(self, converged: bool) -> None:
        self.stop_button.hide()
        # The laid-out picture is framed unless the person has panned or zoomed since it was last framed.
        if self.canvas.auto_fit:
            self.canvas.fit()
        s = self.canvas.scene
        if self.mode == WHOLE:
            self._describe_whole()
            if s.n:
                self.engine.run("graph-save", graph_view.save_positions, s.ids.copy(), s.pos.copy(),
                                on_failed=lambda failure: logger.info("layout not saved: %s", getattr(failure, "message", failure)),
                                what=translate("GraphPanel", "saving the layout"))
        self.layout_done.emit(converged)

    # -- live updates -----------------------------------------------------------------------

    @Slot(object)
    def apply_changes(self, changes: ChangeSet) -> None:
        """Update the picture in place after commits (own or another program's); zoom and position stay."""
        if changes is None or changes.empty or self.time.hold(changes):
            return
        if self.mode == LOCAL:
            if self.centre_id is None:
                return
            if self.centre_id in changes.removed:
                self.runner.stop()
                self.centre_id = None
                self.canvas.message = translate("GraphPanel", "The entity at the centre was deleted.")
                self.canvas.set_scene(Scene())
                return
            shown = {int(i) for i in self.canvas.scene.ids} | {self.centre_id}
            if changes.full or changes.touched() & shown or (self.similar.isChecked() and changes.vectors):
                self._request_local(keep=True)
        elif changes.graph_changed and (self.canvas.scene.n or changes.full):
            if changes.full:
                self.engine.run("graph-whole", graph_view.whole_graph, on_done=lambda a: self._on_whole(a, keep=True),
                                on_failed=self._on_failed, what=translate("GraphPanel", "reading the graph"))
                return
            self._pending_ids |= changes.touched()
            if self._pending_ids:
                asked = set(self._pending_ids)
                self.engine.run("graph-delta", graph_view.entity_delta, sorted(asked),
                                on_done=lambda d: self._on_delta(d, asked), on_failed=self._on_failed,
                                what=translate("GraphPanel", "reading the changed entities"))

    def _on_delta(self, delta: graph_view.EntityDelta, asked: set[int]) -> None:
        self._pending_ids -= asked
        if self.mode != WHOLE:
            return
        unfinished = self._whole_layout_running()
        self.runner.stop()
        scene, fresh = build.merge_delta(self.canvas.scene, delta, seed=len(asked))
        self._mark_hits(scene)
        self.canvas.set_scene(scene, fit=False)
        self._describe_whole()
        if unfinished:  # the first layout was still settling: it goes on from where it was
            self._start_layout(scene, None, whole_params(scene.n), "whole")
        elif fresh.any():
            self._start_layout(scene, ~fresh, SETTLE_LAYOUT, "settle")
        self.updated.emit()

    # -- selection, search hits and the editor ----------------------------------------------

    def on_node_clicked(self, index: int) -> None:
        if self.time.refuses(index):
            return
        s = self.canvas.scene
        node_id, kind = int(s.ids[index]), int(s.kinds[index])
        if kind == KIND_MORE:
            self.expanded.add(-node_id)
            self._request_local(keep=True)
            return
        if kind == KIND_SUGGESTION:
            self._offer_link(index)
        else:
            self._hide_link_bar()
        self._opened_here = node_id
        self.p.open_entity(node_id)

    def on_node_activated(self, index: int) -> None:
        if self.time.refuses(index):
            return
        s = self.canvas.scene
        node_id = int(s.ids[index])
        if s.kinds[index] == KIND_MORE:
            self.on_node_clicked(index)
        else:
            self.show_local(node_id)

    @Slot(int)
    def on_entity_shown(self, entity_id: int) -> None:
        """The editor opened an entity: select it here; the local view follows it unless it came from here."""
        came_from_here = entity_id == self._opened_here
        self._opened_here = None
        if self.mode == LOCAL and not came_from_here and entity_id != self.centre_id and self.isVisible():
            self.show_local(entity_id)
            return
        self.canvas.select(self.canvas.scene.index_of(entity_id))

    @Slot(int)
    def on_results_shown(self, _request_id: int) -> None:
        self._hits = self.p.search_hits()
        self._mark_hits(self.canvas.scene)
        self.canvas.update()

    def _mark_hits(self, scene: Scene) -> None:
        scene.highlight = np.isin(scene.ids, list(self._hits)) if self._hits else np.zeros(scene.n, dtype=bool)

    # -- errors and shutdown ----------------------------------------------------------------

    def _on_failed(self, failure) -> None:
        """An operation failed: its one sentence (``Failure.message``, or a plain string) is shown."""
        message = str(getattr(failure, "message", failure))
        self.info.setText(message)
        self.p.status.say(message, 10_000)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if watched is self.p.host and event.type() == QEvent.Type.Close:
            self.runner.stop()
        return False


class GraphDock(QDockWidget):
    """The panel as a dock beside the editor; it keeps its share of the window's width when the window is resized."""

    def __init__(self, parts: GraphParts) -> None:
        super().__init__(translate("GraphDock", "Graph"), parts.host)
        self.setObjectName("graphDock")
        self.panel = GraphPanel(parts)
        self.setWidget(self.panel)
        parts.host.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        # A main window gives all the width it gains to its central area: the graph stayed a narrow strip at
        # 1600 px. The dock keeps the share of the width it had (the person's own choice when they dragged it).
        if event.type() == QEvent.Type.Resize and not self.isFloating() and self.isVisible():
            old = event.oldSize().width()
            if old > 0 and old != event.size().width():
                share = self.width() / old
                QTimer.singleShot(0, lambda: self._keep_share(share))
        return False

    def _keep_share(self, share: float) -> None:
        host = self.parentWidget()
        if not isinstance(host, QMainWindow) or self.isFloating() or not self.isVisible():
            return
        room = host.width() - window_fit.central_min_width(host) - 12  # the dock's separator and frame
        wanted = max(window_fit.MIN_DOCK_W, min(int(share * host.width()), room))
        if abs(wanted - self.width()) > 2:
            host.resizeDocks([self], [wanted], Qt.Orientation.Horizontal)
