"""File dialogs that never open a file to guess its type.

SQLite's POSIX locks belong to the process and are dropped when any descriptor of the process on
the database file is closed. Qt's file dialog reads each listed file to guess its type and icon
(and a platform's native dialog may do the same inside this process), so listing the folder of
the open graph would silently drop the app's locks: another program could then delete the
write-ahead log from under it. Every dialog of the app goes through these functions, which use
Qt's own dialog with an icon provider that judges by the name alone.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QFileInfo
from PySide6.QtGui import QAbstractFileIconProvider
from PySide6.QtWidgets import QFileDialog, QFileIconProvider, QMessageBox, QWidget
from limbic.ui.common.i18n import translate
from PySide6.QtCore import QT_TRANSLATE_NOOP

# File kinds by suffix, for the dialog's Type column.
_KINDS = {
    "db": QT_TRANSLATE_NOOP("SafeFiles", "Limbic database"),
    "sqlite": QT_TRANSLATE_NOOP("SafeFiles", "SQLite database"),
    "sqlite3": QT_TRANSLATE_NOOP("SafeFiles", "SQLite database"),
    "jsonl": QT_TRANSLATE_NOOP("SafeFiles", "JSON lines"),
    "json": QT_TRANSLATE_NOOP("SafeFiles", "JSON"),
    "md": QT_TRANSLATE_NOOP("SafeFiles", "Markdown"),
    "csv": QT_TRANSLATE_NOOP("SafeFiles", "CSV"),
    "graphml": QT_TRANSLATE_NOOP("SafeFiles", "GraphML"),
    "png": QT_TRANSLATE_NOOP("SafeFiles", "PNG image"),
    "svg": QT_TRANSLATE_NOOP("SafeFiles", "SVG image"),
    "bak": QT_TRANSLATE_NOOP("SafeFiles", "Backup"),
}


class NameOnlyIconProvider(QAbstractFileIconProvider):
    """Icons and type names from the file name alone: nothing is opened or read."""

    def __init__(self) -> None:
        super().__init__()
        self._std = QFileIconProvider()
        self.setOptions(QAbstractFileIconProvider.Option.DontUseCustomDirectoryIcons)

    def icon(self, arg):  # noqa: D401 - Qt API (QFileInfo or IconType)
        if isinstance(arg, QFileInfo):
            kind = QAbstractFileIconProvider.IconType.Folder if arg.isDir() else QAbstractFileIconProvider.IconType.File
            return self._std.icon(kind)
        return self._std.icon(arg)

    def type(self, info: QFileInfo) -> str:  # noqa: A003 - Qt API
        if info.isDir():
            return translate("NameOnlyIconProvider", "Folder")
        suffix = info.suffix().lower()
        if suffix in _KINDS:
            return translate("SafeFiles", _KINDS[suffix])
        return translate("SafeFiles", "{suffix} file").format(suffix=suffix.upper()) if suffix else translate("SafeFiles", "File")


_PROVIDER: NameOnlyIconProvider | None = None


def _provider() -> NameOnlyIconProvider:
    global _PROVIDER
    if _PROVIDER is None:
        _PROVIDER = NameOnlyIconProvider()
    return _PROVIDER


def make_dialog(parent: QWidget | None, title: str, directory: str, file_filter: str = "") -> QFileDialog:
    """A Qt (non-native) file dialog that judges files by their names only."""
    dialog = QFileDialog(parent, title, directory, file_filter)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    dialog.setOption(QFileDialog.Option.DontUseCustomDirectoryIcons, True)
    dialog.setIconProvider(_provider())
    return dialog


def _run(dialog: QFileDialog) -> str:
    if dialog.exec() != QFileDialog.DialogCode.Accepted:
        return ""
    files = dialog.selectedFiles()
    return files[0] if files else ""


def open_file(parent: QWidget | None, title: str, directory: str, file_filter: str) -> str:
    """Ask for an existing file; empty if cancelled."""
    dialog = make_dialog(parent, title, directory, file_filter)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptOpen)
    return _run(dialog)


def save_file(parent: QWidget | None, title: str, suggested: str, file_filter: str,
              confirm_overwrite: bool = True, default_suffix: str = "") -> str:
    """Ask for a file to write; empty if cancelled."""
    dialog = make_dialog(parent, title, suggested, file_filter)
    dialog.setFileMode(QFileDialog.FileMode.AnyFile)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.setOption(QFileDialog.Option.DontConfirmOverwrite, not confirm_overwrite)
    if default_suffix:
        dialog.setDefaultSuffix(default_suffix)
    return _run(dialog)


def existing_folder(parent: QWidget | None, title: str, directory: str) -> str:
    """Ask for a folder; empty if cancelled."""
    dialog = make_dialog(parent, title, directory)
    dialog.setFileMode(QFileDialog.FileMode.Directory)
    dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
    return _run(dialog)


class NewFolderDialog(QFileDialog):
    """A folder to write into: a typed name that does not exist yet is created (Qt's own dialog refuses it)."""

    def accept(self) -> None:
        chosen = self.selectedFiles()
        if chosen:
            path = Path(chosen[0])
            if not path.exists() and path.parent.is_dir():
                try:
                    path.mkdir()
                except OSError as exc:
                    QMessageBox.warning(self, self.windowTitle(), translate("NewFolderDialog", "The folder {name} cannot be created ({strerror}). Choose another name "
                                                                      "or place.").format(name=path.name, strerror=exc.strerror))
                    return
        super().accept()


def folder_to_write(parent: QWidget | None, title: str, directory: str) -> str:
    """Ask for a folder to write into, existing or new (a typed name is created); empty if cancelled."""
    dialog = NewFolderDialog(parent, title, directory)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    dialog.setOption(QFileDialog.Option.DontUseCustomDirectoryIcons, True)
    dialog.setIconProvider(_provider())
    dialog.setFileMode(QFileDialog.FileMode.Directory)
    dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
    dialog.setLabelText(QFileDialog.DialogLabel.FileName, translate("SafeFiles", "Folder (a new name is created)"))
    return _run(dialog)
