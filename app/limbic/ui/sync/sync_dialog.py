"""File → Sync…: the folder every device syncs and this device's name."""

from __future__ import annotations

from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit,
                               QMessageBox, QPushButton, QWidget)

from limbic.ui.common import safe_files
from limbic.ui.common.i18n import translate


class SyncDialog(QDialog):
    """Asks for the sync folder and the device name; "Stop syncing" forgets the folder."""

    def __init__(self, folder: str, device_name: str, parent: QWidget | None = None, can_seal: bool = True) -> None:
        """``can_seal``: this device opens the folder now (a device waiting for the code has no seal to renew)."""
        super().__init__(parent, objectName="syncDialog")
        self.setWindowTitle(translate("SyncDialog", "Sync"))
        self.setMinimumWidth(self.fontMetrics().horizontalAdvance("x") * 80)  # the placeholders read whole
        self.stop_asked = False
        self.new_code_asked = False
        self.folder = QLineEdit(folder, self)
        self.folder.setPlaceholderText(translate("SyncDialog", "A folder Syncthing, Dropbox, iCloud Drive or Nextcloud keeps in sync"))
        browse = QPushButton(translate("SyncDialog", "Choose…"), self)
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.folder, 1)
        row.addWidget(browse)
        self.name = QLineEdit(device_name, self)
        self.name.setPlaceholderText(translate("SyncDialog", "How the other devices name this one"))
        self.code = QLineEdit(self, objectName="syncCode")
        self.code.setPlaceholderText(translate("SyncDialog", "Only to join a folder another device sealed: ABCD-EFGH-…"))
        self.code.setAccessibleName(translate("SyncDialog", "Recovery code"))
        form = QFormLayout(self)
        form.addRow(QLabel(translate("SyncDialog", "Every device that shares this folder ends up with the same graph; "
                           "nothing is lost and each conflict is shown to you."), self, wordWrap=True))
        folder_label = QLabel(translate("SyncDialog", "Sync &folder:"), self)  # a row that is a layout has no buddy of its own: Alt+F
        folder_label.setBuddy(self.folder)
        form.addRow(folder_label, row)
        form.addRow(translate("SyncDialog", "This &device:"), self.name)
        form.addRow(translate("SyncDialog", "&Recovery code:"), self.code)
        form.addRow(QLabel(translate("SyncDialog", "The folder is sealed: only your devices can read it. The first device shows its "
                           "recovery code; the others join with it."), self, wordWrap=True))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(translate("SyncDialog", "Sync"))
        if folder:
            stop = buttons.addButton(translate("SyncDialog", "Stop syncing"), QDialogButtonBox.ButtonRole.DestructiveRole)
            stop.clicked.connect(self._stop)
        if folder and can_seal:
            anew = buttons.addButton(translate("SyncDialog", "&New recovery code…"), QDialogButtonBox.ButtonRole.ActionRole)
            anew.setObjectName("syncNewCode")
            anew.setToolTip(translate("SyncDialog", "Seal the folder anew under a new code (if the old one leaked): the old "
                                      "code opens nothing written from then on; your other devices ask for the new one."))
            anew.clicked.connect(self._new_code)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _browse(self) -> None:
        chosen = safe_files.existing_folder(self, translate("SyncDialog", "Sync folder"), self.folder.text())
        if chosen:
            self.folder.setText(chosen)

    def _new_code(self) -> None:
        answer = QMessageBox.question(
            self, translate("SyncDialog", "Seal the folder under a new code?"),
            translate("SyncDialog", "A new recovery code replaces the old one. Whoever has the old code can read nothing "
                      "written from now on and add nothing. Each of your other devices asks for the new code at its "
                      "next sync; everything the folder holds stays readable with it."))
        if answer == QMessageBox.StandardButton.Yes:
            self.new_code_asked = True
            self.accept()

    def _stop(self) -> None:
        self.stop_asked = True
        self.accept()
