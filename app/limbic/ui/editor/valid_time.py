"""When an observation or a relation held in the world: a small dialog to set or clear its two dates."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from limbic.engine.errors import ValidationError
from limbic.service.timeline import checked_dates
from limbic.ui.common.i18n import translate
from PySide6.QtCore import QT_TRANSLATE_NOOP

_HINT = QT_TRANSLATE_NOOP("ValidTime", "YYYY-MM-DD or YYYY-MM-DD HH:MM (UTC); empty: open")


class DatesDialog(QDialog):
    """Two dates, either empty; OK keeps them only when they read as dates in the right order."""

    def __init__(self, what: str, valid_from: str | None, valid_until: str | None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="datesDialog")
        self.setWindowTitle(translate("DatesDialog", "When it held"))
        about = QLabel(translate("DatesDialog", "When did this hold in the world?\n{what}").format(what=what), self, wordWrap=True)
        self.start = QLineEdit(valid_from or "", self, objectName="validFrom", placeholderText=translate("ValidTime", _HINT))
        self.until = QLineEdit(valid_until or "", self, objectName="validUntil", placeholderText=translate("ValidTime", _HINT))
        self.error = QLabel("", self, objectName="datesError", wordWrap=True)
        self.error.setVisible(False)
        form = QFormLayout()
        form.addRow(translate("DatesDialog", "&Since"), self.start)
        form.addRow(translate("DatesDialog", "&Until"), self.until)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        self.clear_button = buttons.addButton(translate("DatesDialog", "&Clear dates"), QDialogButtonBox.ButtonRole.ResetRole)
        self.clear_button.setObjectName("clearDates")
        layout = QVBoxLayout(self)
        layout.addWidget(about)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.clear_button.clicked.connect(self._clear)
        self.setMinimumWidth(420)

    def values(self) -> tuple[str, str]:
        """The two dates as typed (empty: open)."""
        return self.start.text().strip(), self.until.text().strip()

    def accept(self) -> None:  # noqa: D102 - Qt API
        try:
            checked_dates(*self.values())
        except ValidationError as exc:
            self.error.setText(str(exc))  # one sentence; the dialog stays and nothing is saved
            self.error.setVisible(True)
            return
        super().accept()

    def _clear(self) -> None:
        self.start.clear()
        self.until.clear()
        super().accept()
