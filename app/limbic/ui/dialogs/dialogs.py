"""Dialogs: keyboard shortcuts and the one dialog for unexpected errors (settings: ``settings_dialog``)."""

from __future__ import annotations

import logging
import sys
import traceback

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

# The settings dialog has its own module; it is still reached from here.
from limbic.ui.dialogs.settings_dialog import PARAM_HELP, PARAM_WORDS, THEME_CHOICES, SettingsDialog  # noqa: F401
from limbic.ui.dialogs.tables import read_only_table
from limbic.ui.common.i18n import translate
from PySide6.QtCore import QT_TRANSLATE_NOOP

logger = logging.getLogger(__name__)

SHORTCUTS = [
    (QT_TRANSLATE_NOOP("Dialogs", "Ctrl+O or Ctrl+P"), QT_TRANSLATE_NOOP("Dialogs", "Quick switcher: jump to an entity by name (typos are fine)")),
    ("Ctrl+Shift+P", QT_TRANSLATE_NOOP("Dialogs", "Command palette: run any command by name")),
    (QT_TRANSLATE_NOOP("Dialogs", "Ctrl+K or /"), QT_TRANSLATE_NOOP("Dialogs", "Focus the search field")),
    ("Ctrl+Shift+F", QT_TRANSLATE_NOOP("Dialogs", "Search filters: relation type, status, updated and created dates")),
    (QT_TRANSLATE_NOOP("Dialogs", "Up / Down"), QT_TRANSLATE_NOOP("Dialogs", "Move through the results")),
    (QT_TRANSLATE_NOOP("Dialogs", "Enter"), QT_TRANSLATE_NOOP("Dialogs", "Open the selected result")),
    (QT_TRANSLATE_NOOP("Dialogs", "Esc"), QT_TRANSLATE_NOOP("Dialogs", "Clear the search")),
    ("Ctrl+Delete", QT_TRANSLATE_NOOP("Dialogs", "In the search field: delete the next word")),
    ("Ctrl+N", QT_TRANSLATE_NOOP("Dialogs", "New entity")),
    ("Ctrl+S", QT_TRANSLATE_NOOP("Dialogs", "Save the entity")),
    ("Ctrl+Delete", QT_TRANSLATE_NOOP("Dialogs", "Delete the entity (outside the search field)")),
    ("Ctrl+Z", QT_TRANSLATE_NOOP("Dialogs", "Undo the last change, named in the Edit menu")),
    (QT_TRANSLATE_NOOP("Dialogs", "Ctrl+Shift+Z or Ctrl+Y"), QT_TRANSLATE_NOOP("Dialogs", "Redo what was undone")),
    ("Alt+Left / Alt+Right", QT_TRANSLATE_NOOP("Dialogs", "Back / Forward between opened entities")),
    ("Ctrl+G / Ctrl+Shift+G", QT_TRANSLATE_NOOP("Dialogs", "Graph: the open entity's neighbourhood / the whole graph")),
    ("Ctrl+Shift+A", QT_TRANSLATE_NOOP("Dialogs", "Activity: what each assistant changed, to review or revert")),
    (QT_TRANSLATE_NOOP("Dialogs", "In the graph"), QT_TRANSLATE_NOOP("Dialogs", "Drag or arrows pan, wheel or +/- zoom, 0 fits, click opens, double-click or Enter re-centres")),
    ("F2", QT_TRANSLATE_NOOP("Dialogs", "Edit the selected observation")),
    (QT_TRANSLATE_NOOP("Dialogs", "Enter"), QT_TRANSLATE_NOOP("Dialogs", "Keep an observation edit (Shift+Enter starts a new line, Esc drops it)")),
    (QT_TRANSLATE_NOOP("Dialogs", "Delete"), QT_TRANSLATE_NOOP("Dialogs", "Remove the selected observation or relation")),
    ("Ctrl+B", QT_TRANSLATE_NOOP("Dialogs", "Browse every entity by type, the pinned and the recently opened")),
    (QT_TRANSLATE_NOOP("Dialogs", "Ctrl+F in the browser"), QT_TRANSLATE_NOOP("Dialogs", "Narrow the browser's list by words (its filters sit beside)")),
    ("Ctrl+D", QT_TRANSLATE_NOOP("Dialogs", "Pin or unpin the entity")),
    ("Ctrl+Shift+L", QT_TRANSLATE_NOOP("Dialogs", "Make the entity private to assistants, or show it to them again")),
    ("Ctrl+M", QT_TRANSLATE_NOOP("Dialogs", "Merge the entity into another")),
    ("Ctrl+Shift+H", QT_TRANSLATE_NOOP("Dialogs", "Memory health: duplicates, repeated observations, orphans")),
    ("Ctrl+Shift+Y", QT_TRANSLATE_NOOP("Dialogs", "Sync conflicts: what two devices changed alike, to choose what to keep")),
    ("Ctrl+I / Ctrl+E", QT_TRANSLATE_NOOP("Dialogs", "Import a file / export JSONL")),
    ("Ctrl+Shift+I", QT_TRANSLATE_NOOP("Dialogs", "Import a folder of notes")),
    ("Ctrl+Shift+O", QT_TRANSLATE_NOOP("Dialogs", "Open another database")),
    ("Ctrl+Shift+N", QT_TRANSLATE_NOOP("Dialogs", "New database")),
    ("Ctrl+,", QT_TRANSLATE_NOOP("Dialogs", "Settings")),
    ("Ctrl+= / Ctrl+- / Ctrl+0", QT_TRANSLATE_NOOP("Dialogs", "Larger / smaller / normal text (remembered)")),
    (QT_TRANSLATE_NOOP("Dialogs", "Drop a file or folder"), QT_TRANSLATE_NOOP("Dialogs", "Import it (JSONL, CSV, Markdown, a folder of notes, a memory .db)")),
    ("F1", QT_TRANSLATE_NOOP("Dialogs", "This list of shortcuts")),
    ("Ctrl+Q", QT_TRANSLATE_NOOP("Dialogs", "Quit")),
]

class ShortcutsDialog(QDialog):
    """Help → Keyboard shortcuts."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("ShortcutsDialog", "Keyboard shortcuts"))
        table = read_only_table(len(SHORTCUTS), [translate("ShortcutsDialog", "Keys"), translate("ShortcutsDialog", "Action")], self, row_numbers=False)
        for row, (keys, action) in enumerate(SHORTCUTS):
            table.setItem(row, 0, QTableWidgetItem(translate("Dialogs", keys)))
            table.setItem(row, 1, QTableWidgetItem(translate("Dialogs", action)))
        table.setWordWrap(True)
        table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        table.resizeColumnsToContents()
        table.horizontalHeader().setStretchLastSection(True)
        table.resizeRowsToContents()
        self.table = table
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(table)
        layout.addWidget(buttons)
        # Wide enough for the longest line, tall enough for every row: no scrolling either way.
        width = sum(table.columnWidth(c) for c in range(2)) + 2 * table.frameWidth() + 40
        height = table.horizontalHeader().height() + sum(table.rowHeight(r) for r in range(table.rowCount()))
        table.setMinimumSize(min(width, 900), min(height + 2 * table.frameWidth() + 4, 900))
        self.adjustSize()


class ExceptionDialog(QDialog):
    """One non-modal dialog for unexpected errors; later errors add to it instead of stacking up."""

    _instance: ExceptionDialog | None = None

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("ExceptionDialog", "Limbic hit an unexpected problem"))
        self.setModal(False)
        self.label = QLabel(
            translate("ExceptionDialog", "Something unexpected went wrong. Your data is safe: every change is saved in one step or not at all. "
            "If it happens again, please send the details below."), self
        )
        self.label.setWordWrap(True)
        self.details = QPlainTextEdit(self)
        self.details.setReadOnly(True)
        copy = QPushButton(translate("ExceptionDialog", "Copy details"), self)
        copy.clicked.connect(self.on_copy)
        close = QPushButton(translate("ExceptionDialog", "Close"), self)
        close.clicked.connect(self.close)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(copy)
        row.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addWidget(self.details, 1)
        layout.addLayout(row)
        self.resize(640, 360)

    def add(self, text: str) -> None:
        if self.details.toPlainText():
            self.details.appendPlainText("\n" + "-" * 40 + "\n")
        self.details.appendPlainText(text)

    def on_copy(self) -> None:
        QApplication.clipboard().setText(self.details.toPlainText())

    @classmethod
    def report(cls, text: str) -> ExceptionDialog:
        """Show the dialog (creating it once) with this error's details."""
        dlg = cls._instance
        if dlg is None or not shiboken6.isValid(dlg):
            parent = QApplication.activeWindow()
            dlg = cls._instance = cls(parent)
            dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        dlg.add(text)
        dlg.show()
        dlg.raise_()
        return dlg


def install_excepthook() -> None:
    """Unexpected errors on the UI thread are logged and shown once, never a crash with a traceback on stderr."""
    previous = sys.excepthook

    def hook(exc_type, exc, tb) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            previous(exc_type, exc, tb)
            return
        text = "".join(traceback.format_exception(exc_type, exc, tb))
        logger.error("unexpected error:\n%s", text)
        if QApplication.instance() is not None:
            ExceptionDialog.report(text)

    sys.excepthook = hook
