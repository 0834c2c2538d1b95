"""A keyboard-first picker: a field over a list, as in Obsidian's or VS Code's palette and switcher.

Typing filters, Up/Down (or Ctrl+N/Ctrl+P) move, Enter takes the selected row, Esc closes. The
command palette and the quick switcher are pickers that fill the list their own way.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent, QPalette
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)
from limbic.ui.common.i18n import translate

logger = logging.getLogger(__name__)

PAYLOAD_ROLE = Qt.ItemDataRole.UserRole + 1
DETAIL_ROLE = Qt.ItemDataRole.UserRole + 2
ENABLED_ROLE = Qt.ItemDataRole.UserRole + 3  # False: listed (and selectable) but cannot be taken now
WIDTH_SHARE = 0.5  # of the window's width
MIN_WIDTH, MAX_WIDTH = 520, 760
MAX_ROWS = 12  # rows shown before the list scrolls; the popup is as tall as its rows up to this


class RowDelegate(QStyledItemDelegate):
    """A row: its label on the left, its detail (a shortcut, a type) muted on the right."""

    def paint(self, painter, option, index) -> None:  # noqa: D102 - Qt API
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        label, detail = opt.text, index.data(DETAIL_ROLE) or ""
        opt.text = ""
        widget = opt.widget
        widget.style().drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        enabled = bool(opt.state & QStyle.StateFlag.State_Enabled) and index.data(ENABLED_ROLE) is not False
        group = QPalette.ColorGroup.Normal if enabled else QPalette.ColorGroup.Disabled
        text_role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        rect = opt.rect.adjusted(10, 0, -10, 0)
        metrics = opt.fontMetrics
        painter.save()
        detail_width = metrics.horizontalAdvance(detail) if detail else 0
        if detail:
            muted = opt.palette.color(group, text_role if selected else QPalette.ColorRole.PlaceholderText)
            painter.setPen(muted)
            painter.drawText(rect, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), detail)
        label_rect = rect.adjusted(0, 0, -(detail_width + 16 if detail else 0), 0)
        painter.setPen(opt.palette.color(group, text_role))
        shown = metrics.elidedText(label, Qt.TextElideMode.ElideRight, label_rect.width())
        painter.drawText(label_rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), shown)
        painter.restore()

    def sizeHint(self, option, index) -> QSize:  # noqa: N802 - Qt API
        return QSize(0, option.fontMetrics.height() + 12)


class Picker(QDialog):
    """A frameless field-over-list popup near the top of its window; ``chosen`` carries a row's payload."""

    chosen = Signal(object)
    filled = Signal()  # the list shows the rows for the current text (tests wait on it)

    def __init__(self, parent: QWidget, placeholder: str, hint: str) -> None:
        super().__init__(parent, Qt.WindowType.Popup | Qt.WindowType.FramelessWindowHint)
        self.setObjectName("picker")
        self.setProperty("picker", True)  # the stylesheet's frame for every picker
        self.field = QLineEdit(self, objectName="pickerField")
        self.field.setPlaceholderText(placeholder)
        self.field.setAccessibleName(placeholder)
        self.list = QListWidget(self, objectName="pickerList")
        self.list.setAccessibleName(translate("Picker", "Matches"))
        self.list.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the field keeps the keyboard; arrows reach the list
        self.list.setUniformItemSizes(True)
        self.list.setItemDelegate(RowDelegate(self.list))
        self.hint = QLabel(hint, self, objectName="pickerHint")
        self.hint_text = hint
        self.empty_text = translate("Picker", "Nothing matches.")
        self.rows_for: str | None = None  # the text the rows on screen answer
        self.enter_waiting = False  # Enter pressed before the rows for the text as typed arrived
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 6)
        layout.setSpacing(6)
        layout.addWidget(self.field)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.hint)
        self.field.textChanged.connect(self.on_text)
        self.field.installEventFilter(self)
        self.list.itemActivated.connect(self._take)
        self.list.itemClicked.connect(self._take)

    # -- subclasses -------------------------------------------------------------------------

    def on_text(self, text: str) -> None:
        """Refill the list for ``text`` (subclasses)."""
        raise NotImplementedError

    # -- rows -------------------------------------------------------------------------------

    def set_rows(self, rows: list[tuple[str, str, object, bool]], for_text: str | None = None) -> None:
        """Show ``(label, detail, payload, enabled)`` rows, the answer to ``for_text`` (the field's text when not
        given); the first enabled one is selected. Rows for a text no longer typed are not shown."""
        for_text = self.field.text() if for_text is None else for_text
        if for_text != self.field.text():
            return  # an answer to an earlier text: the one for the text as typed is on its way
        self.rows_for = for_text
        self.list.clear()
        for label, detail, payload, enabled in rows:
            item = QListWidgetItem(label, self.list)
            item.setData(PAYLOAD_ROLE, payload)
            item.setData(DETAIL_ROLE, detail)
            item.setData(ENABLED_ROLE, enabled)
            if not enabled:
                item.setToolTip(translate("Picker", "Not available now"))
        if not rows:
            QListWidgetItem(self.empty_text, self.list).setFlags(Qt.ItemFlag.NoItemFlags)
        self._select_first()
        self._fit_height()
        self.filled.emit()
        if self.enter_waiting:
            self.enter_waiting = False
            self.take_current()

    def _fit_height(self) -> None:
        """As tall as the rows (up to MAX_ROWS), never taller than the window below the popup's top."""
        if self.list.count() == 0:
            return
        row = self.list.sizeHintForRow(0)
        rows_height = row * min(MAX_ROWS, self.list.count()) + 2 * self.list.frameWidth()
        self.list.setFixedHeight(rows_height)
        self.layout().activate()  # the new minimum height now, or a shorter list could not shrink the popup
        margins = self.layout().contentsMargins()
        height = (self.field.sizeHint().height() + rows_height + self.hint.sizeHint().height()
                  + margins.top() + margins.bottom() + 2 * self.layout().spacing())
        window = self.parentWidget().window()
        self.resize(self.width(), min(height, max(200, window.height() - 80)))

    def labels(self) -> list[str]:
        """The rows' labels as shown (tests and screenshots read them)."""
        return [self.list.item(i).text() for i in range(self.list.count())]

    def _enabled_rows(self) -> list[int]:
        """The rows that are entries (greyed ones too), not the "nothing matches" line."""
        return [i for i in range(self.list.count()) if self.list.item(i).flags() & Qt.ItemFlag.ItemIsEnabled]

    def _select_first(self) -> None:
        rows = self._enabled_rows()
        if rows:
            self.list.setCurrentRow(rows[0])

    def step(self, delta: int) -> None:
        """Move the selection over the enabled rows."""
        rows = self._enabled_rows()
        if not rows:
            return
        current = self.list.currentRow()
        at = rows.index(current) if current in rows else -1
        self.list.setCurrentRow(rows[max(0, min(len(rows) - 1, at + delta))])

    def take_current(self) -> None:
        """Enter: close and hand over the selected row's payload, once the rows answer the text as typed."""
        if self.rows_for != self.field.text():
            self.enter_waiting = True  # taken when they arrive: never a row of a list made for an earlier text
            return
        item = self.list.currentItem()
        if item is not None and item.flags() & Qt.ItemFlag.ItemIsEnabled:
            self._take(item)

    def _take(self, item: QListWidgetItem) -> None:
        if not item.flags() & Qt.ItemFlag.ItemIsEnabled:
            return
        if item.data(ENABLED_ROLE) is False:
            self.hint.setText(translate("Picker", "“{item}” is not available now.").format(item=item.text()))
            return
        payload = item.data(PAYLOAD_ROLE)
        self.hide()
        self.chosen.emit(payload)

    # -- showing ----------------------------------------------------------------------------

    def popup(self) -> None:
        """Show over the top of the parent window, with the field empty and focused."""
        window = self.parentWidget().window()
        width = max(MIN_WIDTH, min(MAX_WIDTH, int(window.width() * WIDTH_SHARE)))
        self.resize(QSize(width, self.height()))
        top_left = window.mapToGlobal(window.rect().topLeft())
        self.move(top_left.x() + (window.width() - width) // 2, top_left.y() + 56)
        self.hint.setText(self.hint_text)
        self.field.blockSignals(True)
        self.field.clear()
        self.field.blockSignals(False)
        self.list.clear()  # the last opening's rows are not an answer to the empty field
        self.rows_for = None
        self.enter_waiting = False
        self.show()
        self.raise_()
        self.activateWindow()
        self.field.setFocus(Qt.FocusReason.PopupFocusReason)
        self.on_text("")

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if obj is self.field and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key, ctrl = event.key(), event.modifiers() == Qt.KeyboardModifier.ControlModifier
            if key == Qt.Key.Key_Down or (ctrl and key == Qt.Key.Key_N):
                self.step(1)
                return True
            if key == Qt.Key.Key_Up or (ctrl and key == Qt.Key.Key_P):
                self.step(-1)
                return True
            if key in (Qt.Key.Key_PageDown, Qt.Key.Key_PageUp):
                self.step(10 if key == Qt.Key.Key_PageDown else -10)
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.take_current()
                return True
            if key == Qt.Key.Key_Escape:
                self.hide()
                return True
        return super().eventFilter(obj, event)
