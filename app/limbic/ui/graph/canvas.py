"""The graph canvas: one custom-painted widget drawing a Scene from arrays, with level of detail.

Per frame: positions go to screen coordinates in one numpy step; nodes and edges outside the
viewport are culled; edges are drawn with one ``drawLines`` call per style from a QPolygonF
filled straight from numpy (at most ``EDGE_BUDGET`` of them, evenly sampled, when zoomed far
out); many small nodes are drawn as points grouped by colour and size; labels appear only for
the nodes in view when few enough are (``LABEL_LIMIT``), relation types only when zoomed in or
for the hovered or selected node.
"""

from __future__ import annotations

import time

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QKeyEvent,
    QMouseEvent,
    QNativeGestureEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QWheelEvent,
)
from PySide6.QtWidgets import QWidget

from limbic.ui.graph import labels, legend as legends
from limbic.ui.graph.paint import draw_discs, draw_legend, draw_points, is_dark, mix, polygon
from limbic.ui.graph.scene import (
    KIND_MORE,
    KIND_SUGGESTION,
    Scene,
    ViewTransform,
    clip_segments,
    edge_sample,
    visible_edges,
)
from limbic.ui.common.i18n import translate

EDGE_BUDGET = 4_000  # edges drawn per frame at most (zoomed far out they are a haze anyway)
# Drawing a line costs in proportion to its length on screen: past this many pixels in a frame the
# longest edges are left out (zoomed out they cross the picture as clutter; zooming in brings them back).
PIXEL_BUDGET = 160_000
# While the picture moves (pan, zoom, a layout settling) frames use smaller budgets; the full
# picture is drawn once the movement has stopped for ``SETTLE_MS``.
EDGE_BUDGET_MOVING = 3_000
PIXEL_BUDGET_MOVING = 120_000
SETTLE_MS = 180
SMOOTH_EDGES = 250  # edges drawn antialiased when at most this many are drawn
POINT_MODE_ABOVE = 600  # visible nodes above which nodes are drawn as square points
DISC_LIMIT = 150  # visible nodes up to which each is drawn as an outlined disc (suggestions dashed)
LABEL_LIMIT = 200  # node labels drawn when at most this many nodes are in view
EDGE_LABELS_WHEN_FEW = 30  # relation types on every edge when at most this many are drawn (else the focused node's)
EDGE_LABEL_LIMIT = 120  # relation types drawn at most
HUB_LABELS = 3  # the best-connected nodes in view always show their names
NAME_ALL = 40  # up to this many nodes in view (a local graph), every one is named, shortened if it must
LEGEND_OPEN, LEGEND_FOLDED = legends.OPEN, legends.FOLDED
HIT_PX = 7.0  # how close (pixels) a click must be to a small node to hit it
PAN_STEP = 60  # pixels per arrow key press
WHEEL_ZOOM = 1.0015  # zoom factor per wheel-delta unit (120 per notch: about 20 %)


class GraphCanvas(QWidget):
    """Draws a Scene and turns mouse, touchpad and keyboard input into view changes and node events."""

    node_clicked = Signal(int)  # node index
    node_activated = Signal(int)  # node index: double-click or Enter
    background_clicked = Signal()
    painted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("graphCanvas")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setAccessibleName(translate("GraphCanvas", "Graph"))
        self.setMinimumSize(240, 200)
        self.scene = Scene()
        self.view = ViewTransform()
        self.selected = -1
        self.hover = -1
        self.message = ""  # shown in the middle when there is nothing to draw
        self.edge_labels = True  # relation types on every edge when zoomed in (else on hover only)
        self._drag_from: QPointF | None = None
        self._dragged = False
        self._screen = np.zeros((0, 2))
        self._legend = legends.Legend()
        self.legend_folded = False
        self.legend_expanded = False  # every type listed, not only the commonest
        self.legend_corner = labels.CORNERS[0]  # moves to another corner when the nodes are under it
        self.legend_rect: tuple[float, float, float, float] | None = None  # as last painted
        self.legend_link_rect: tuple[float, float, float, float] | None = None  # "+N more types", as last painted
        # The view frames the picture again when the panel changes size or a layout ends, until the
        # person pans or zooms: then their view stays (0 or Fit frames it again).
        self.auto_fit = True
        self.label_boxes: list = []  # (node, box, text) of the node labels last painted
        self.edge_label_boxes: list = []  # (box, text) of the relation types last painted
        self._moving_until = 0.0
        self._paint_size = (0, 0)
        self._settle = QTimer(self, singleShot=True, interval=SETTLE_MS)
        self._settle.timeout.connect(self.update)

    # -- content ----------------------------------------------------------------------------

    def set_scene(self, scene: Scene, fit: bool = True) -> None:
        """Show a new scene; ``fit`` frames it, otherwise the zoom and position stay as they are."""
        selected_id = int(self.scene.ids[self.selected]) if 0 <= self.selected < self.scene.n else None
        self.scene = scene
        self.selected = scene.index_of(selected_id) if selected_id is not None else -1
        self.hover = -1
        if fit:
            self.fit()
        self.moved()  # a new picture is drawn quickly first, in full once it stays

    def set_positions(self, pos: np.ndarray) -> None:
        if len(pos) == self.scene.n:
            self.scene.pos = pos
            self.moved()

    def moved(self) -> None:
        """The picture moves: draw quick frames until it has been still for a moment, then a full one."""
        self._moving_until = time.monotonic() + SETTLE_MS / 1000
        self._settle.start()
        self.update()

    @property
    def moving(self) -> bool:
        return time.monotonic() < self._moving_until

    def fit(self) -> None:
        """Frame the whole picture; it is framed again on a resize until the person pans or zooms."""
        self.auto_fit = True
        self.view.fit(self.scene.bounds(), max(self.width(), 100), max(self.height(), 100))
        self.update()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        if self.auto_fit and self.scene.n:
            self.fit()

    def select(self, index: int) -> None:
        self.selected = index if 0 <= index < self.scene.n else -1
        self.update()

    # -- painting ---------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt API
        painter = QPainter(self)
        try:
            self.paint(painter, self.width(), self.height())
        finally:
            painter.end()
        self.painted.emit()

    def paint(self, painter: QPainter, width: int, height: int) -> None:
        """Draw the whole picture into ``painter`` (also used for PNG export and the benchmark)."""
        dark = is_dark(self)
        palette = self.palette()
        painter.fillRect(0, 0, width, height, palette.color(QPalette.ColorRole.Base))
        s = self.scene
        if s.n == 0:
            self._screen = np.zeros((0, 2))
            if self.message:
                painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText))
                painter.drawText(QRectF(0, 0, width, height), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                                 self.message)
            return
        self._paint_size = (width, height)
        pos = np.nan_to_num(s.pos, nan=0.0)
        screen = self.view.to_screen(pos, width, height)
        self._screen = screen
        r_px = np.maximum(s.radius * self.view.scale, 1.5)
        vis = ((screen[:, 0] + r_px >= 0) & (screen[:, 0] - r_px <= width)
               & (screen[:, 1] + r_px >= 0) & (screen[:, 1] - r_px <= height))
        vis_idx = np.flatnonzero(vis)
        colours = [QColor(c) for c in s.colours(dark)]
        colour_idx = s.colour_index()
        drawn_idx = colour_idx  # the time slider's marks take a faded copy of their colour: gone since, came later
        if s.ghost.any() or s.added.any():
            drawn_idx = colour_idx + len(colours) * (s.ghost + 2 * s.added)
            colours += [mix(c, palette.color(QPalette.ColorRole.Base), a) for a in (0.3, 0.12) for c in colours]
        text = palette.color(QPalette.ColorRole.Text)
        # Edges in a solid colour mixed with the background: blending a translucent line costs
        # about six times as much per pixel, and at thousands of edges that is most of a frame.
        edge_colour = mix(text, palette.color(QPalette.ColorRole.Base), 70 / 255 if len(s.src) > 2000 else 120 / 255)
        accent = QColor("#2dd4bf" if dark else "#0f766e")

        edges = visible_edges(screen, s.src, s.dst, width, height)
        few = len(vis_idx) <= POINT_MODE_ABOVE
        moving = self.moving
        drawn = self._within_budget(screen, edge_sample(edges, EDGE_BUDGET_MOVING if moving else EDGE_BUDGET),
                                    width, height, PIXEL_BUDGET_MOVING if moving else PIXEL_BUDGET)
        solid = drawn[~s.dashed[drawn]] if len(s.dashed) else drawn
        dashed = drawn[s.dashed[drawn]] if len(s.dashed) else drawn[:0]
        gone = solid[s.ghost_edges[solid]] if len(s.ghost_edges) else solid[:0]
        solid = solid[~s.ghost_edges[solid]] if len(gone) else solid
        # Smooth lines cost several times more than hairlines: only for a few edges.
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, len(drawn) <= SMOOTH_EDGES)
        painter.setPen(QPen(edge_colour, 1.2 if len(drawn) <= SMOOTH_EDGES else 0))
        self._draw_lines(painter, screen, s, solid)
        if len(gone):
            painter.setPen(QPen(mix(edge_colour, palette.color(QPalette.ColorRole.Base), 0.5), 0))
            self._draw_lines(painter, screen, s, gone)
        if len(dashed):
            pen = QPen(accent, 1.4, Qt.PenStyle.DashLine)
            painter.setPen(pen)
            self._draw_lines(painter, screen, s, dashed)
        focus = self.hover if self.hover >= 0 else self.selected
        if focus >= 0:  # the focused node's edges stand out
            mine = edges[(s.src[edges] == focus) | (s.dst[edges] == focus)]
            painter.setPen(QPen(accent, 2.0))
            self._draw_lines(painter, screen, s, mine[~s.dashed[mine]] if len(s.dashed) else mine)

        painter.setRenderHint(QPainter.RenderHint.Antialiasing, few)
        if len(vis_idx) <= DISC_LIMIT:
            draw_discs(painter, s, screen, r_px, vis_idx, colours, drawn_idx, palette)
        else:  # round points when a few hundred, squares past that (round caps cost ten times more)
            draw_points(painter, screen, r_px, vis_idx, colours, drawn_idx, round_caps=few)
        self._draw_marks(painter, screen, r_px, vis_idx, accent, text)

        font = QFont(painter.font())
        painter.setFont(font)
        metrics = QFontMetrics(font)
        discs = labels.node_obstacles(screen, r_px, vis_idx) if len(vis_idx) <= LABEL_LIMIT else labels.Occupancy()
        legend, legend_box = self._lay_out_legend(colour_idx, vis_idx, metrics, width, height, discs)
        if len(vis_idx) <= LABEL_LIMIT:
            labelled = vis_idx
        else:
            labelled = np.asarray([i for i in (s.centre, self.selected, self.hover) if i >= 0], dtype=np.int64)
            labelled = np.concatenate((labelled, vis_idx[s.highlight[vis_idx]][:LABEL_LIMIT])) if len(s.highlight) else labelled
        # Labels never cover each other, a node or the legend: the focused, centre and hit nodes first, then
        # by degree; a label with no free place waits until zooming in makes room.
        first = list(dict.fromkeys(i for i in (self.hover, self.selected, s.centre) if i >= 0))  # each named once
        first += [int(i) for i in vis_idx[np.argsort(-s.degree[vis_idx], kind="stable")[:HUB_LABELS]]
                  if s.degree[i] >= 3 and int(i) not in first]  # the hubs are named too
        idx = np.asarray(labelled, dtype=np.int64)
        rank = np.lexsort((-s.degree[idx], ~s.highlight[idx])) if len(s.highlight) == s.n else np.argsort(-s.degree[idx])
        order = first + [int(i) for i in idx[rank] if int(i) not in first]
        line = metrics.height()
        placed, taken = labels.place_node_labels(order, first, s.labels, screen, r_px, metrics.horizontalAdvance, line,
                                                 width, height, discs, [legend_box] if legend_box else [],
                                                 name_all=len(vis_idx) <= NAME_ALL)
        # Relation types: on every edge when few are drawn and the view is close enough, else the focused node's.
        few_edges = len(drawn) <= EDGE_LABELS_WHEN_FEW and self.view.scale >= 0.9 and self.edge_labels
        label_edges = edges if few_edges else (
            edges[(s.src[edges] == focus) | (s.dst[edges] == focus)] if focus >= 0 else edges[:0])
        on_edges = labels.place_edge_labels(label_edges, s.src, s.dst, s.rel_names, s.rels, screen,
                                            metrics.horizontalAdvance, line, width, height, taken, discs,
                                            EDGE_LABEL_LIMIT, over_nodes=not few_edges) if s.rel_names else []
        self.label_boxes = placed
        self.edge_label_boxes = on_edges
        self.legend_rect = legend_box
        self._paint_labels(painter, placed, on_edges, metrics, palette)
        draw_legend(painter, legend, colours, legend_box, metrics, palette,
                    translate("Legend", LEGEND_FOLDED if self.legend_folded else LEGEND_OPEN), self.legend_folded)

    def _within_budget(self, screen: np.ndarray, idx: np.ndarray, width: int, height: int, budget: int) -> np.ndarray:
        """The edges to draw: all of them, or the shortest ones up to ``budget`` pixels of line."""
        s = self.scene
        if len(idx) == 0:
            return idx
        a, b = clip_segments(screen[s.src[idx]], screen[s.dst[idx]], width, height)
        length = np.abs(b - a).max(axis=1)
        if float(length.sum()) <= budget:
            return idx
        order = np.argsort(length, kind="stable")
        count = int(np.searchsorted(np.cumsum(length[order]), budget))
        return np.sort(idx[order[:count]])

    def _draw_lines(self, painter: QPainter, screen: np.ndarray, s: Scene, idx: np.ndarray) -> None:
        if len(idx) == 0:
            return
        a, b = clip_segments(screen[s.src[idx]], screen[s.dst[idx]], *self._paint_size)
        seg = np.empty((2 * len(idx), 2))
        seg[0::2] = a
        seg[1::2] = b
        painter.drawLines(polygon(seg))

    def _draw_marks(self, painter, screen, r_px, vis_idx, accent, text) -> None:
        """Rings: search hits, the centre, the selected node."""
        s = self.scene
        if len(s.highlight):
            hits = vis_idx[s.highlight[vis_idx]]
            painter.setPen(QPen(QColor("#f59e0b"), 3.0))
            for i in hits[:2000]:
                r = float(r_px[i]) + 3
                painter.drawEllipse(QPointF(*screen[i]), r, r)
        for i, colour, width in ((s.centre, text, 2.0), (self.selected, accent, 3.0)):
            if 0 <= i < s.n:
                painter.setPen(QPen(colour, width))
                r = float(r_px[i]) + 5
                painter.drawEllipse(QPointF(*screen[i]), r, r)

    def _paint_labels(self, painter, placed, on_edges, metrics, palette) -> None:
        colour = QColor(palette.color(QPalette.ColorRole.Text))
        colour.setAlpha(170)
        painter.setPen(colour)
        halo = palette.color(QPalette.ColorRole.Base)
        halo.setAlpha(200)
        for box, text in on_edges:  # on the names' halo: in a crowded view bare letters drowned in the edges
            painter.fillRect(QRectF(box[0], box[1], box[2] - box[0], box[3] - box[1]), halo)
            painter.drawText(QPointF(box[0] + 1, (box[1] + box[3]) / 2 + metrics.ascent() / 2 - 1), text)
        ghost = self.scene.ghost if len(self.scene.ghost) == self.scene.n else np.zeros(self.scene.n, dtype=bool)
        ghost = ghost | self.scene.added if len(self.scene.added) == self.scene.n else ghost
        for node, box, text in placed:  # a node gone since the slider's date is named in a fainter colour
            painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText if ghost[node] else QPalette.ColorRole.Text))
            painter.fillRect(QRectF(box[0], box[1], box[2] - box[0], box[3] - box[1]), halo)
            painter.drawText(QPointF(box[0] + 2, (box[1] + box[3]) / 2 + metrics.ascent() / 2 - 1), text)

    def _lay_out_legend(self, colour_idx, vis_idx, metrics, width, height, discs):
        """The legend's rows (the commonest types first) and its box, in a corner where it covers no node."""
        rows = legends.count_types(self.scene, colour_idx, vis_idx)
        legend, size = legends.lay_out(rows, self.legend_expanded, self.legend_folded, metrics.horizontalAdvance,
                                       metrics.height() + 2, height)
        self._legend = legend
        box = None
        if rows:
            self.legend_corner, box = legends.place(size, width, height, discs, self.legend_corner)
        self.legend_link_rect = None if self.legend_folded else legends.link_box(legend, box)
        return legend, box

    @property
    def legend(self) -> list[tuple[str, str]]:
        """(colour, type) rows of the legend as last drawn, the commonest type first."""
        colours = self.scene.colours(is_dark(self))
        return [(colours[c], name) for c, name, _ in self._legend.shown]

    @property
    def legend_more(self) -> str:
        """The legend's last line as last drawn: "+N more types", "▴ Fewer types" or ""."""
        return self._legend.link

    # -- hit testing ------------------------------------------------------------------------

    def node_at(self, x: float, y: float) -> int:
        """The node under a point of the widget, -1 for none."""
        s = self.scene
        if s.n == 0 or len(self._screen) != s.n:
            return -1
        d2 = ((self._screen - (x, y)) ** 2).sum(axis=1)
        i = int(np.argmin(d2))
        reach = max(float(s.radius[i] * self.view.scale), HIT_PX)
        return i if d2[i] <= reach * reach else -1

    def node_point(self, index: int) -> QPointF:
        """Where a node is drawn (for tests and tooltips)."""
        x, y = self.view.to_screen(np.nan_to_num(self.scene.pos[index:index + 1]), self.width(), self.height())[0]
        return QPointF(float(x), float(y))

    # -- input ------------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if event.button() == Qt.MouseButton.LeftButton:
            self._drag_from = event.position()
            self._dragged = False

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        p = event.position()
        if self._drag_from is not None and event.buttons() & Qt.MouseButton.LeftButton:
            d = p - self._drag_from
            if self._dragged or abs(d.x()) + abs(d.y()) > 3:
                self._dragged = True
                self._drag_from = p
                self.pan(-d.x(), -d.y())
            return
        hover = self.node_at(p.x(), p.y())
        over_legend = bool(self.legend_rect) and labels.intersects(self.legend_rect, (p.x(), p.y(), p.x() + 0.5, p.y() + 0.5))
        # Over the legend, its tooltip names every type in view with its count (the ones "+N more" hides too).
        self.setToolTip(self._tip(hover) if hover >= 0 else self._legend.tooltip() if over_legend else "")
        if hover != self.hover:
            self.hover = hover
            self.update()

    def _tip(self, index: int) -> str:
        if index < 0:
            return ""
        s = self.scene
        if s.kinds[index] == KIND_MORE:
            return translate("GraphCanvas", "{value}: click to show them").format(value=s.labels[index])
        kind = s.type_names[int(s.types[index])] if int(s.types[index]) < len(s.type_names) else ""
        extra = translate("GraphCanvas", " · suggested by meaning, not linked") if s.kinds[index] == KIND_SUGGESTION else ""
        extra += translate("GraphCanvas", " · gone since this date") if len(s.ghost) and s.ghost[index] else ""
        extra += translate("GraphCanvas", " · came after this date") if len(s.added) and s.added[index] else ""
        degree = int(s.degree[index])
        return translate("GraphCanvas", "{name} ({kind}) · %n relations{extra}", "", degree).format(
            name=s.labels[index], kind=kind, extra=extra)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if event.button() != Qt.MouseButton.LeftButton or self._drag_from is None:
            return
        self._drag_from = None
        if self._dragged:
            return
        p = event.position()
        point = (p.x(), p.y(), p.x() + 0.5, p.y() + 0.5)
        if self.legend_link_rect and labels.intersects(self.legend_link_rect, point):
            self.legend_expanded = not self.legend_expanded  # "+N more types" lists them all, "Fewer" folds back
            self.update()
            return
        if self.legend_rect and labels.intersects(self.legend_rect, point):
            self.legend_folded = not self.legend_folded  # the legend folds and opens on a click
            self.update()
            return
        index = self.node_at(p.x(), p.y())
        if index >= 0:
            self.select(index)
            self.node_clicked.emit(index)
        else:
            self.background_clicked.emit()

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        p = event.position()
        index = self.node_at(p.x(), p.y())
        if index >= 0:
            self.select(index)
            self.node_activated.emit(index)

    def leaveEvent(self, event) -> None:  # noqa: N802 - Qt API
        if self.hover >= 0:
            self.hover = -1
            self.update()

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt API
        pixels = event.pixelDelta()
        ctrl = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        if not pixels.isNull() and not ctrl:  # a touchpad's two-finger scroll pans
            self.pan(-pixels.x(), -pixels.y())
        else:
            delta = event.angleDelta().y() or event.angleDelta().x()
            p = event.position()
            self.zoom(WHEEL_ZOOM ** delta, p.x(), p.y())
        event.accept()

    def event(self, event) -> bool:
        if isinstance(event, QNativeGestureEvent) and event.gestureType() == Qt.NativeGestureType.ZoomNativeGesture:
            p = event.position()
            self.zoom(1.0 + event.value(), p.x(), p.y())  # a touchpad pinch
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        key = event.key()
        steps = {Qt.Key.Key_Left: (-PAN_STEP, 0), Qt.Key.Key_Right: (PAN_STEP, 0),
                 Qt.Key.Key_Up: (0, -PAN_STEP), Qt.Key.Key_Down: (0, PAN_STEP)}
        if key in steps:
            self.pan(*steps[key])
        elif key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom(1.25)
        elif key == Qt.Key.Key_Minus:
            self.zoom(0.8)
        elif key == Qt.Key.Key_0:
            self.fit()
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.selected >= 0:
            self.node_activated.emit(self.selected)
        elif key == Qt.Key.Key_Escape and self.selected >= 0:
            self.select(-1)
        else:
            super().keyPressEvent(event)

    def pan(self, dx: float, dy: float) -> None:
        """Move the view by screen pixels (the view is the person's now: a resize no longer frames it)."""
        self.auto_fit = False
        self.view.cx += dx / self.view.scale
        self.view.cy += dy / self.view.scale
        self.moved()

    def zoom(self, factor: float, x: float | None = None, y: float | None = None) -> None:
        """Zoom around a point of the widget (its middle by default); the person's zoom is kept from now on."""
        self.auto_fit = False
        x = self.width() / 2 if x is None else x
        y = self.height() / 2 if y is None else y
        self.view.zoom_at(factor, x, y, self.width(), self.height())
        self.moved()
