"""Observations in the editor's list: each a visibly separate item, edited in place over several lines
(Enter keeps, Shift+Enter starts a new line, Esc drops)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QModelIndex, QObject, QPersistentModelIndex, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QPalette, QPen
from PySide6.QtWidgets import QAbstractItemView, QPlainTextEdit, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from limbic.service.names import bidi_isolated

EDITOR_LINES = 5  # the in-place editor opens at least this tall
DATES_ROLE = Qt.ItemDataRole.UserRole + 31  # "since 2024-03-01 · until 2025-01-31": when it held in the world
ROW_PAD = 4  # pixels above and below an observation's text: two wrapped observations never run together
SEPARATOR = 1  # the line under each observation but the last
ALTERNATE_SHARE = 0.06  # every other row at least the base this much toward the text (Fusion's light one is faint)
SEPARATOR_SHARE = 0.25  # the line: the base this much toward the text, seen in light and dark alike


def _toward_text(palette: QPalette, share: float) -> QColor:
    base, text = palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text)
    return QColor.fromRgbF(*(b + (t - b) * share for b, t in zip(base.getRgbF()[:3], text.getRgbF()[:3])))


def alternate_colour(palette: QPalette) -> QColor:
    """Every other observation's background: the palette's own, unless a shade toward the text stands further apart."""
    base = palette.color(QPalette.ColorRole.Base).lightness()
    own, mixed = palette.color(QPalette.ColorRole.AlternateBase), _toward_text(palette, ALTERNATE_SHARE)
    return own if abs(own.lightness() - base) >= abs(mixed.lightness() - base) else mixed


def separator_colour(palette: QPalette) -> QColor:
    """The line between two observations."""
    return _toward_text(palette, SEPARATOR_SHARE)


class ObservationDelegate(QStyledItemDelegate):
    """An observation may hold line breaks: edit it in a multi-line field, not a one-line box.

    The row being edited grows to the field's height, so the rows under it move down instead of
    being covered by it. Each row has room above and below its text and a line under it, so where
    one wrapped observation ends and the next begins is plain.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._editing = QPersistentModelIndex()
        self._editor_height = 0

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        size.setHeight(size.height() + 2 * ROW_PAD + SEPARATOR)
        if self._editing.isValid() and QModelIndex(self._editing) == index:
            size.setHeight(max(size.height(), self._editor_height))
        return size

    def destroyEditor(self, editor: QWidget, index: QModelIndex) -> None:
        super().destroyEditor(editor, index)
        self._editing = QPersistentModelIndex()
        self.sizeHintChanged.emit(index)  # the row shrinks back to its text

    def paint(self, painter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        """The row's background across its padding, its text inside it, and the line under it."""
        row = option.rect
        opt = QStyleOptionViewItem(option)
        painter.save()
        if opt.state & QStyle.StateFlag.State_Selected:
            group = (QPalette.ColorGroup.Active if opt.state & QStyle.StateFlag.State_Active
                     else QPalette.ColorGroup.Inactive)
            painter.fillRect(row, opt.palette.brush(group, QPalette.ColorRole.Highlight))
        elif opt.features & QStyleOptionViewItem.ViewItemFeature.Alternate:
            painter.fillRect(row, alternate_colour(opt.palette))
        opt.features &= ~QStyleOptionViewItem.ViewItemFeature.Alternate
        opt.rect = row.adjusted(0, ROW_PAD, 0, -(ROW_PAD + SEPARATOR))
        super().paint(painter, opt, index)
        if index.row() < index.model().rowCount() - 1:
            painter.setPen(QPen(separator_colour(opt.palette), SEPARATOR))
            painter.drawLine(row.left(), row.bottom(), row.right(), row.bottom())
        painter.restore()

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        """Drawn with its bidi controls kept to its own lines, and when it held beside it (the text is not changed)."""
        super().initStyleOption(option, index)
        option.text = bidi_isolated(option.text)
        dates = index.data(DATES_ROLE)
        if dates:
            option.text += f"   ({dates})"

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: QModelIndex) -> QWidget:
        editor = QPlainTextEdit(parent, objectName="observationEditor")
        editor.setTabChangesFocus(True)
        editor.setToolTip(QCoreApplication.translate("ObservationDelegate", "Enter keeps the change, Shift+Enter starts a "
                                                                            "new line, Esc drops it"))
        self._editing = QPersistentModelIndex(index)
        lines = editor.fontMetrics().lineSpacing() * EDITOR_LINES + 8
        # Never taller than the list shows (a short list on a small screen): the whole field stays in view.
        self._editor_height = min(lines, parent.height()) if parent.height() > 0 else lines
        self.sizeHintChanged.emit(index)  # the row opens to the field's height: the next rows move down
        view = self.parent()
        if isinstance(view, QAbstractItemView):  # the grown row scrolled into view once laid out
            QTimer.singleShot(0, view, lambda: self._editing.isValid() and view.scrollTo(QModelIndex(self._editing)))
        return editor

    def setEditorData(self, editor: QWidget, index: QModelIndex) -> None:
        editor.setPlainText(str(index.data(Qt.ItemDataRole.EditRole) or ""))

    def setModelData(self, editor: QWidget, model, index: QModelIndex) -> None:
        text = editor.toPlainText().strip()
        if text:  # an emptied observation is removed with Delete, never saved blank
            model.setData(index, text, Qt.ItemDataRole.EditRole)

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        rect = option.rect
        rect.setHeight(max(rect.height(), self._editor_height))
        editor.setGeometry(rect)

    def eventFilter(self, editor: QObject, event: QEvent) -> bool:
        # Enter keeps the edit, as adding an observation does (Ctrl+Enter too); Shift+Enter starts a new line.
        if event.type() == QEvent.Type.KeyPress and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                return False
            self.commitData.emit(editor)
            self.closeEditor.emit(editor, QStyledItemDelegate.EndEditHint.NoHint)
            return True
        return super().eventFilter(editor, event)
