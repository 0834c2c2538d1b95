"""File → Restore from backup: the open graph's backups with their dates; one replaces the graph."""

from __future__ import annotations

from datetime import datetime, timezone

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QMessageBox,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from limbic.service.backups import BackupInfo
from limbic.ui.dialogs.tables import read_only_table
from limbic.ui.common.i18n import number, translate
from limbic.localtime import utc_to_local
from PySide6.QtCore import QT_TRANSLATE_NOOP

REASONS = {"manual": QT_TRANSLATE_NOOP("BackupsDialog", "taken by you"), "auto": "automatic", "before-restore": QT_TRANSLATE_NOOP("BackupsDialog", "before a restore")}


def _local(taken_utc: str) -> str:
    when = utc_to_local(datetime.strptime(taken_utc, "%Y-%m-%d %H:%M:%S").replace(tzinfo=timezone.utc))
    return when.strftime("%Y-%m-%d %H:%M")


def _size(n: int) -> str:
    return translate("BackupsDialog", "{size} MB").format(size=number(n / 1_048_576, 1)) if n >= 1_048_576 else translate("BackupsDialog", "{size} KB").format(size=number(max(1, n // 1024)))


class BackupsDialog(QDialog):
    """Lists backups newest first; Restore asks once, then the window restores on the engine's thread."""

    restore_requested = Signal(str)  # backup path

    def __init__(self, backups: list[BackupInfo], graph_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("backupsDialog")
        self.setWindowTitle(translate("BackupsDialog", "Restore from backup"))
        self.backups = backups
        self.graph_name = graph_name
        self.table = read_only_table(len(backups), [translate("BackupsDialog", "Taken (local time)"), translate("BackupsDialog", "Why"), translate("BackupsDialog", "Size")], self, "backupsTable",
                                     row_numbers=False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        for row, b in enumerate(backups):
            when = QTableWidgetItem(_local(b.taken))
            when.setToolTip(b.path)
            self.table.setItem(row, 0, when)
            self.table.setItem(row, 1, QTableWidgetItem(translate("BackupsDialog", REASONS.get(b.reason, b.reason.replace("-", " ")))))
            size = QTableWidgetItem(_size(b.size))
            size.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(row, 2, size)
        if backups:
            self.table.selectRow(0)
        note = QLabel(translate("BackupsDialog", "Restoring replaces everything in {graph_name} with the chosen backup. "
                          "The graph as it is now is backed up first, so a restore can itself be "
                          "undone from this list.").format(graph_name=graph_name) if backups else
                      translate("BackupsDialog", "{graph_name} has no backups yet. Use File → Back up now to take one.").format(graph_name=graph_name), self)
        note.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.restore_button = self.buttons.addButton(translate("BackupsDialog", "Restore"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.restore_button.setEnabled(bool(backups))
        self.buttons.accepted.connect(self.on_restore)
        self.buttons.rejected.connect(self.reject)
        self.table.doubleClicked.connect(lambda _index: self.on_restore())
        layout = QVBoxLayout(self)
        layout.addWidget(note)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.buttons)
        self.resize(560, 360)

    def chosen(self) -> BackupInfo | None:
        row = self.table.currentRow()
        return self.backups[row] if 0 <= row < len(self.backups) else None

    def _confirm(self, backup: BackupInfo) -> bool:
        """Ask once before replacing the graph; tests replace this method."""
        answer = QMessageBox.question(
            self, translate("BackupsDialog", "Restore from backup"),
            translate("BackupsDialog", "Replace {graph_name} with the backup of {local}?\nThe graph as it is "
                "now is backed up first.").format(graph_name=self.graph_name, local=_local(backup.taken)),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def on_restore(self) -> None:
        backup = self.chosen()
        if backup is not None and self._confirm(backup):
            self.restore_requested.emit(backup.path)
            self.accept()
