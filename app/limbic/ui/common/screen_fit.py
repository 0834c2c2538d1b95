"""Every control on a small or strongly scaled screen: the editor scrolls, a narrow window shows one column.

A 1366×768 laptop at 150 % gives the window 911×512 logical pixels; at 200 % a 1920×1080 screen gives
960×540. The editor's lists, buttons and history do not fit that height, and results beside an editor
do not fit that width with a side panel open. Here the editor scrolls inside its own area instead of
asking the window for its height, and below ``NARROW_W`` the results and the editor take turns in one
column: opening an entity shows the editor with a Back button above it, typing a query or Back shows
the results again.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QFrame, QPushButton, QScrollArea, QSplitter, QWidget

from limbic.ui.common import window_fit

NARROW_W = window_fit.NARROW_W  # under this width the results and a readable editor no longer fit side by side


# Shorter than this the editor's form scrolls rather than squeezing its lists to a row each: at 150 % on a
# laptop the editor had about 410 px and showed one observation; it now shows four and scrolls to the rest.
EDITOR_LEAST_HEIGHT = 560


def scrolling(widget: QWidget, parent: QWidget | None = None, least_height: int = 0) -> QScrollArea:
    """``widget`` inside a frameless vertical scroll area: short of height it scrolls, never growing the window;
    it is laid out at least ``least_height`` tall."""
    if least_height:
        widget.setMinimumHeight(least_height)
    area = QScrollArea(parent)
    area.setObjectName(f"{widget.objectName() or 'content'}Scroll")
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidgetResizable(True)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(widget)
    area.setMinimumHeight(0)
    # The area is a container: a screen reader reads the form inside it, not a nameless scroll pane.
    area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    return area


class OneColumn(QObject):
    """Below ``NARROW_W`` the results-and-editor splitter shows one of its two panes at a time.

    ``show_editor`` is called when an entity opens, ``show_results`` when a query is typed or Back is
    pressed; at any width above the threshold both panes are shown as before and Back is hidden.
    """

    def __init__(self, splitter: QSplitter, results: QWidget, editor: QWidget, back: QPushButton) -> None:
        super().__init__(splitter)
        self.setObjectName("oneColumn")  # window_fit finds it to plan the columns before a side panel opens
        self.splitter, self.results, self.editor, self.back = splitter, results, editor, back
        self.narrow = False
        self.showing_editor = False
        back.clicked.connect(self.show_results)
        back.hide()
        splitter.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if watched is self.splitter and event.type() == QEvent.Type.Resize:
            QTimer.singleShot(0, self, self.update)
        return False

    def update(self) -> None:
        """Two columns or one, from the width the splitter has now."""
        central = self.splitter.parentWidget()
        self.narrow = 0 < central.width() < NARROW_W
        self._apply()

    def prepare(self, width: int) -> None:
        """Take the layout the splitter will need at ``width`` now (before a side panel takes its room)."""
        self.narrow = 0 < width < NARROW_W
        self._apply()

    def show_editor(self) -> None:
        self.showing_editor = True
        self._apply()

    def show_results(self) -> None:
        was_editor = self.narrow and self.showing_editor
        self.showing_editor = False
        self._apply()
        if was_editor:
            self.results.setFocus()

    def _apply(self) -> None:
        if not self.narrow:
            self.results.setVisible(True)
            self.editor.setVisible(True)
            self.back.hide()
            return
        self.results.setVisible(not self.showing_editor)
        self.editor.setVisible(self.showing_editor)
        self.back.setVisible(self.showing_editor)
        # The window's layout reads the narrower minimum at once (else a dock opening now widens the window).
        self.splitter.refresh()
        self.splitter.updateGeometry()
        central = self.splitter.parentWidget()
        if central is not None and central.layout() is not None:
            central.layout().activate()


def back_button(parent: QWidget) -> QPushButton:
    """The Back button a narrow window shows above the editor."""
    button = QPushButton(QCoreApplication.translate("OneColumn", "← Back to the results"), parent,
                         objectName="backToResults")
    button.setToolTip(QCoreApplication.translate("OneColumn", "Show the search results again (the editor keeps "
                                                              "its entity)"))
    button.setAccessibleName(QCoreApplication.translate("OneColumn", "Back to the results"))
    return button


def install_one_column(window) -> OneColumn:
    """Put the Back button above the window's results-and-editor splitter and let a narrow window take turns."""
    splitter = window.splitter
    layout = splitter.parentWidget().layout()
    back = back_button(splitter.parentWidget())
    layout.insertWidget(layout.indexOf(splitter), back, 0, Qt.AlignmentFlag.AlignLeft)
    column = OneColumn(splitter, window.left, window.editor, back)
    window.entity_shown.connect(lambda _id: column.show_editor())
    window.editor.stack.currentChanged.connect(lambda index: column.show_editor() if index else column.show_results())
    window.search_bar.edit.textEdited.connect(lambda _text: column.show_results())
    window.focus_action.triggered.connect(lambda: column.show_results())  # Ctrl+K: back to searching
    return column


def tab_order_after(before: QWidget, part: QWidget, then: list[QWidget]) -> None:
    """Tab goes from ``before`` through every stop inside ``part`` (in their own order), then through ``then``:
    a part made after the widgets that follow it on the page is still reached where it stands."""
    inside, widget = [], part.nextInFocusChain()
    while widget is not part and part.isAncestorOf(widget):
        if widget.focusPolicy() & Qt.FocusPolicy.TabFocus and widget.focusProxy() is None:
            inside.append(widget)
        widget = widget.nextInFocusChain()
    chain = [before, *inside, *then]
    for first, second in zip(chain, chain[1:]):
        QWidget.setTabOrder(first, second)
