"""Editing an observation in place: several lines, Ctrl+Enter to keep, Esc to drop."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QSize, Qt
from PySide6.QtWidgets import QPlainTextEdit, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from limbic.service.names import bidi_isolated

EDITOR_LINES = 5  # the in-place editor opens at least this tall
DATES_ROLE = Qt.ItemDataRole.UserRole + 31  # "since 2024-03-01 · until 2025-01-31": when it held in the world


class ObservationDelegate(QStyledItemDelegate):
    """An observation may hold line breaks: edit it in a multi-line field, not a one-line box.

    The row being edited grows to the field's height, so the rows under it move down instead of
    being covered by it.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._editing = QPersistentModelIndex()
        self._editor_height = 0

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        if self._editing.isValid() and QModelIndex(self._editing) == index:
            size.setHeight(max(size.height(), self._editor_height))
        return size

    def destroyEditor(self, editor: QWidget, index: QModelIndex) -> None:
        super().destroyEditor(editor, index)
        self._editing = QPersistentModelIndex()
        self.sizeHintChanged.emit(index)  # the row shrinks back to its text

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
        editor.setToolTip("Ctrl+Enter keeps the change, Esc drops it")
        self._editing = QPersistentModelIndex(index)
        self._editor_height = editor.fontMetrics().lineSpacing() * EDITOR_LINES + 8
        self.sizeHintChanged.emit(index)  # the row opens to the field's height: the next rows move down
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
        # Enter makes a new line inside the text; Ctrl+Enter commits, as in most multi-line fields.
        if event.type() == QEvent.Type.KeyPress and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
                self.commitData.emit(editor)
                self.closeEditor.emit(editor, QStyledItemDelegate.EndEditHint.NoHint)
                return True
            return False
        return super().eventFilter(editor, event)
