"""The window fits its screen and never resizes itself: sensible minimums, a first size from the screen, docks that take room from the central area.

Qt grows a main window whenever the minimums of its parts add up to more than its width (it did
so by ~80 px each time the graph panel opened). Here the minimums are set so that results,
editor and graph panel fit side by side on a 1280-pixel screen, and an opened dock is given the
room there is rather than the room it would like.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDockWidget, QMainWindow, QSplitter, QWidget

logger = logging.getLogger(__name__)

MIN_RESULTS_W = 250  # a result row's name, type and score stay readable
MIN_EDITOR_W = 300
COMFORT_EDITOR_W = 440  # the editor's rows (status and aliases, the two relation lists) read uncut
MIN_DOCK_W = 280
NARROW_W = MIN_RESULTS_W + MIN_EDITOR_W + 80  # under it results and editor take turns in one column
SCREEN_SHARE = 0.92  # a first window leaves a margin of the screen around it


def available(window) -> QRect:
    """The usable area of the screen the window is on (the primary screen before it is shown)."""
    screen = window.screen() if window.windowHandle() is not None else None
    screen = screen or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1280, 800)


def initial_size(area: QSize, wanted: tuple[int, int]) -> QSize:
    """The wanted size, made smaller where the screen is: a first window always fits."""
    return QSize(min(wanted[0], int(area.width() * SCREEN_SHARE)), min(wanted[1], int(area.height() * SCREEN_SHARE)))


def apply_minimums(results: QWidget, editor: QWidget, splitter: QSplitter) -> None:
    """Minimum widths of the results and the editor (the splitter never crushes or hides either)."""
    results.setMinimumWidth(MIN_RESULTS_W)
    editor.setMinimumWidth(MIN_EDITOR_W)
    splitter.setChildrenCollapsible(False)
    if splitter.findChild(EditorRoom) is None:
        EditorRoom(splitter)


class EditorRoom(QObject):
    """When the results-and-editor splitter narrows (a side panel opened, the window made smaller),
    the results give way first, down to their minimum, so the editor keeps a width its rows read at;
    when it widens again the results get back their share of it (the person's, from their last drag).

    Shared out by the splitter's stretch, opening the Activity panel in a 1180-px window left the
    editor at its 300-px minimum (its labels and alias field cut) while the results kept 360 px.
    """

    def __init__(self, splitter: QSplitter) -> None:
        super().__init__(splitter)
        self.splitter = splitter
        self.share: float | None = None  # the results' part of the width the person chose (by a drag), or laid out
        splitter.installEventFilter(self)
        splitter.splitterMoved.connect(lambda _pos, _index: self._remember())

    def _remember(self) -> None:
        sizes = self.splitter.sizes()
        if len(sizes) == 2 and sum(sizes) > 0:
            self.share = sizes[0] / sum(sizes)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if watched is self.splitter and event.type() == QEvent.Type.Resize:
            old, new = event.oldSize().width(), event.size().width()
            if old > 0 and new > 0 and old != new:
                if self.share is None:
                    self._remember()  # before the new width is shared out: the split as it was laid out
                grew = new > old
                QTimer.singleShot(0, self, lambda: self.rebalance(grew))  # once the splitter has its new width
        return False

    def rebalance(self, grew: bool = False) -> None:
        """Narrower: give the editor up to ``COMFORT_EDITOR_W`` from the results, never below their minimum.
        Wider: give the results back up to their share, never taking the editor below that width."""
        sizes = self.splitter.sizes()
        if len(sizes) != 2 or not all(self.splitter.widget(i).isVisibleTo(self.splitter) for i in range(2)):
            return  # one column (a narrow window): nothing to share
        results, editor = sizes
        total = results + editor
        want = min(COMFORT_EDITOR_W, total - MIN_RESULTS_W)
        if editor < want:  # either way, the editor first gets a width its rows read at
            self.splitter.setSizes([total - want, want])
        elif grew and self.share is not None:
            want = min(round(total * self.share), total - COMFORT_EDITOR_W)
            if want > results + 1:
                self.splitter.setSizes([want, total - want])


def fit_to_screen(window: QMainWindow) -> None:
    """Shrink and move the window so all of it is on its screen (a size restored from a bigger screen, or scaled)."""
    area = available(window)
    frame = window.frameGeometry()
    extra_w, extra_h = frame.width() - window.width(), frame.height() - window.height()
    width = min(window.width(), area.width() - extra_w)
    height = min(window.height(), area.height() - extra_h)
    if (width, height) != (window.width(), window.height()):
        logger.info("window %dx%d larger than the screen; now %dx%d", window.width(), window.height(), width, height)
        window.resize(max(width, 200), max(height, 200))
    frame = window.frameGeometry()
    x = min(max(frame.x(), area.x()), area.right() + 1 - frame.width())
    y = min(max(frame.y(), area.y()), area.bottom() + 1 - frame.height())
    if (x, y) != (frame.x(), frame.y()):
        window.move(max(x, area.x()), max(y, area.y()))


def central_min_width(window: QMainWindow) -> int:
    central = window.centralWidget()
    return max(central.minimumSizeHint().width(), central.minimumWidth()) if central is not None else 0


def _plan_columns(window: QMainWindow, wanted: int) -> None:
    """Before a dock takes its room: two columns when results and a readable editor still fit beside it, else one
    (the window's ``oneColumn``, when it has one; Qt would widen the window for two)."""
    column = window.findChild(QObject, "oneColumn")
    if column is None:
        return
    column.prepare(10_000)  # reckon the dock's width from the two-column minimum
    room = window.width() - central_min_width(window) - 12
    dock = max(MIN_DOCK_W, min(wanted, room - (COMFORT_EDITOR_W - MIN_EDITOR_W)))
    column.prepare(window.width() - dock - 12 if room >= MIN_DOCK_W else window.width() - MIN_DOCK_W - 12)


def place_dock(window: QMainWindow, dock: QDockWidget, wanted: int) -> None:
    """Give a right-hand dock ``wanted`` pixels or what the central area can spare, whichever is less
    (sparing what keeps the editor at ``COMFORT_EDITOR_W`` when the dock's minimum allows).

    The window keeps its width; a dock joins an open one in the same area as a tab; when not even
    the dock's minimum is free it floats beside the window instead (on a small or strongly scaled screen).
    """
    dock.setMinimumWidth(MIN_DOCK_W)
    _plan_columns(window, wanted)
    room = window.width() - central_min_width(window) - 12  # the dock's separator and frame
    if room < MIN_DOCK_W:
        area = available(window)
        dock.setFloating(True)
        width = min(wanted, area.width() // 2)
        dock.setGeometry(area.right() + 1 - width, area.y() + 40, width, min(window.height(), area.height() - 80))
        return
    dock.setFloating(False)
    beside = [d for d in window.findChildren(QDockWidget) if d is not dock and d.isVisible() and not d.isFloating()
              and window.dockWidgetArea(d) == window.dockWidgetArea(dock)]
    if beside:
        # Side panels share one column as tabs: side by side they needed more than a laptop's width,
        # stacked each was too short to read.
        window.tabifyDockWidget(beside[0], dock)
        dock.show()
        dock.raise_()
        return
    comfort = room - (COMFORT_EDITOR_W - MIN_EDITOR_W)  # what leaves the editor a width its rows read at
    window.resizeDocks([dock], [max(MIN_DOCK_W, min(wanted, comfort))], Qt.Orientation.Horizontal)


class DockRoom(QObject):
    """When the window narrows (un-maximised, dragged smaller), the side panels give way down to their
    minimum before the results and editor are squeezed below a readable width.

    Qt keeps a dock's width as the window narrows: the panel opened at two fifths of a maximised
    1600-px window kept 600 px at 1180, leaving the results and the editor both at their minimums.
    """

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.window = window
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if watched is self.window and event.type() == QEvent.Type.Resize \
                and 0 < event.size().width() < event.oldSize().width():
            QTimer.singleShot(0, self, self.make_room)  # once the docks and the centre have their widths
        return False

    def make_room(self) -> None:
        """Narrow the right-hand docks by what the centre lacks for a comfortable editor, not below their minimum."""
        window = self.window
        central = window.centralWidget()
        if central is None:
            return
        lacking = central_min_width(window) + (COMFORT_EDITOR_W - MIN_EDITOR_W) - central.width()
        docks = [d for d in window.findChildren(QDockWidget) if d.isVisible() and not d.isFloating()
                 and window.dockWidgetArea(d) == Qt.DockWidgetArea.RightDockWidgetArea]
        if lacking <= 0 or not docks:
            return
        width = max(MIN_DOCK_W, max(d.width() for d in docks) - lacking)
        window.resizeDocks(docks, [width] * len(docks), Qt.Orientation.Horizontal)


def keep_docks_in_step(window: QMainWindow) -> None:
    """Install the window's ``DockRoom`` once."""
    if window.findChild(DockRoom) is None:
        DockRoom(window)
