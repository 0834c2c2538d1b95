"""A relation to an entity that does not exist yet: offered to be created (with a type) when it is added.

Without this the relation sat in the editor's list until Save failed with "There is no entity
named …". The editor asks at once; the window creates the entity (one undoable step) and the
relation is saved with the rest of the draft (``EntityFlow.on_create_target``).
"""

from __future__ import annotations

import logging

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QVBoxLayout, QWidget
from limbic.ui.common.i18n import translate
from PySide6.QtCore import QT_TRANSLATE_NOOP

logger = logging.getLogger(__name__)

DEFAULT_TYPE = QT_TRANSLATE_NOOP("CreateTarget", "Generic")


class CreateTargetDialog(QDialog):
    """“X” does not exist: create it as [type] and relate to it, or go back and correct the name."""

    def __init__(self, name: str, types: list[str], suggested: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("createTarget")
        self.setWindowTitle(translate("CreateTargetDialog", "New entity"))
        text = QLabel(translate("CreateTargetDialog", "There is no entity named “{name}” yet. Create it, with this type, and "
                          "relate to it?").format(name=name), self)
        text.setWordWrap(True)
        self.type = QComboBox(self, objectName="newTargetType", editable=True)
        default = translate("CreateTarget", DEFAULT_TYPE)
        # The neutral type unless one is suggested: the first type in the list ("Book") said nothing of the name.
        self.type.addItems(types if default in types else [default, *types])
        self.type.setCurrentText(suggested or default)
        self.type.lineEdit().selectAll()
        form = QFormLayout()
        form.addRow(translate("CreateTargetDialog", "T&ype"), self.type)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(translate("CreateTargetDialog", "Create and relate"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(translate("CreateTargetDialog", "Correct the name"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.type.setFocus()  # typing a type name right away; Enter creates
        self.resize(420, 140)

    def chosen_type(self) -> str:
        return self.type.currentText().strip() or translate("CreateTarget", DEFAULT_TYPE)


def ask_create(editor, name: str) -> str | None:
    """The type to create ``name`` with, or None to correct the name instead (shown by the editor)."""
    types = [editor.type_edit.itemText(i) for i in range(editor.type_edit.count())]
    dialog = CreateTargetDialog(name, types, parent=editor)
    return dialog.chosen_type() if dialog.exec() == QDialog.DialogCode.Accepted else None
