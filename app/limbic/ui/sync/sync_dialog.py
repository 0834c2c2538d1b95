"""File → Sync…: the folder every device syncs and this device's name."""

from __future__ import annotations

from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit,
                               QPushButton, QWidget)

from limbic.ui.common import safe_files


class SyncDialog(QDialog):
    """Asks for the sync folder and the device name; "Stop syncing" forgets the folder."""

    def __init__(self, folder: str, device_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="syncDialog")
        self.setWindowTitle("Sync")
        self.setMinimumWidth(self.fontMetrics().horizontalAdvance("x") * 80)  # the placeholders read whole
        self.stop_asked = False
        self.folder = QLineEdit(folder, self)
        self.folder.setPlaceholderText("A folder Syncthing, Dropbox, iCloud Drive or Nextcloud keeps in sync")
        browse = QPushButton("Choose…", self)
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.folder, 1)
        row.addWidget(browse)
        self.name = QLineEdit(device_name, self)
        self.name.setPlaceholderText("How the other devices name this one")
        self.code = QLineEdit(self, objectName="syncCode")
        self.code.setPlaceholderText("Only to join a folder another device sealed: ABCD-EFGH-…")
        self.code.setAccessibleName("Recovery code")
        form = QFormLayout(self)
        form.addRow(QLabel("Every device that shares this folder ends up with the same graph; "
                           "nothing is lost and each conflict is shown to you.", self, wordWrap=True))
        folder_label = QLabel("Sync &folder:", self)  # a row that is a layout has no buddy of its own: Alt+F
        folder_label.setBuddy(self.folder)
        form.addRow(folder_label, row)
        form.addRow("This &device:", self.name)
        form.addRow("&Recovery code:", self.code)
        form.addRow(QLabel("The folder is sealed: only your devices can read it. The first device shows its "
                           "recovery code; the others join with it.", self, wordWrap=True))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Sync")
        if folder:
            stop = buttons.addButton("Stop syncing", QDialogButtonBox.ButtonRole.DestructiveRole)
            stop.clicked.connect(self._stop)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _browse(self) -> None:
        chosen = safe_files.existing_folder(self, "Sync folder", self.folder.text())
        if chosen:
            self.folder.setText(chosen)

    def _stop(self) -> None:
        self.stop_asked = True
        self.accept()
