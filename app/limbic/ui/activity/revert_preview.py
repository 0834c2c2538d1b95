"""The revert preview: what taking back a change or session would do and what it would keep, before it acts.

It shows the plan ``service.activity.plan_revert`` made (nothing is changed while it is open): the
pieces it takes back, each in the words the command line's ``limbic revert --dry-run`` prints, and
the pieces it keeps because the person or another writer changed them since, each naming who ("you" for the
person's own edits), when, and what it is now.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from limbic.service.activity import INTO_EXISTING, SKIP, Plan, taking_back
from limbic.ui.common.i18n import translate

GO = "go"  # no conflicts: take everything back


def _list(parent: QWidget, name: str, lines: list[str]) -> QListWidget:
    box = QListWidget(parent, objectName=name)
    box.setWordWrap(True)  # each line is a sentence: shown whole
    box.setTextElideMode(Qt.TextElideMode.ElideNone)
    for line in lines:
        item = QListWidgetItem(line)
        item.setToolTip(line)
        box.addItem(item)
    return box


def changers_key(plan: Plan) -> str:
    """Who changed since what a revert would take back: "you" (the person), "other" or "mixed"."""
    mine = [c.by_person for c in plan.conflicts]
    return "you" if mine and all(mine) else "mixed" if any(mine) else "other"


def changers(plan: Plan) -> str:
    """Who changed since, in words: "you" for the person, else "another writer"."""
    key = changers_key(plan)
    if key == "you":
        return translate("RevertPreview", "you")
    return translate("RevertPreview", "you or another writer") if key == "mixed" else translate("RevertPreview", "another writer")


def _keeps_heading(plan: Plan) -> str:
    """Who changed the pieces it keeps: the person is "you", not "another writer"."""
    n, key = len(plan.conflicts), changers_key(plan)
    if key == "you":
        return translate("RevertPreview", "It will keep %n pieces you changed since (your edits stay as you left them):",
                         "", n)
    if key == "other":
        return translate("RevertPreview", "It will keep %n pieces another writer changed since (their work stays as "
                         "they left it):", "", n)
    return translate("RevertPreview", "It will keep %n pieces you or another writer changed since (each stays as it "
                     "was left):", "", n)


def keep_button_words(plan: Plan) -> str:
    """The button that keeps what was changed since: "yours" when the person changed it."""
    key = changers_key(plan)
    if key == "you":
        return translate("RevertPreview", "Keep yours, take back the rest")
    return (translate("RevertPreview", "Keep theirs, take back the rest") if key == "other"
            else translate("RevertPreview", "Keep those, take back the rest"))


class RevertPreview(QDialog):
    """Take back or leave: the plan in two lists; ``choice`` says what the person chose (None: nothing)."""

    def __init__(self, plan: Plan, what: str, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="revertPreview")
        self.setWindowTitle(translate("RevertPreview", "Preview of the {what}").format(what=what))
        self.choice: str | None = None
        taking = taking_back(plan)
        self.kept = [c.sentence() for c in plan.conflicts]
        intro = QLabel(translate("RevertPreview", "Nothing has been changed yet."), self, wordWrap=True)
        n_taking = len(taking)
        self.take_label = QLabel(translate("RevertPreview", "It will take back %n pieces:", "", n_taking)
                                 if taking else translate("RevertPreview", "It takes nothing back: the rest is as it was already."),
                                 self, wordWrap=True)
        self.take_list = _list(self, "revertTakes", taking)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.take_label)
        layout.addWidget(self.take_list, 2)
        self.keep_list = _list(self, "revertKeeps", self.kept)
        if self.kept:
            keep_label = QLabel(_keeps_heading(plan), self, wordWrap=True)
            layout.addWidget(keep_label)
            layout.addWidget(self.keep_list, 1)
        else:
            self.keep_list.hide()
        if plan.already:
            layout.addWidget(QLabel(translate("RevertPreview", "Taken back before: ") + ", ".join(f"#{i}" for i in plan.already) + ".", self,
                                    wordWrap=True))
        buttons = QDialogButtonBox(self)
        label = keep_button_words(plan) if self.kept else translate("RevertPreview", "Take back")
        self.take_button = buttons.addButton(label, QDialogButtonBox.ButtonRole.AcceptRole)
        self.take_button.setObjectName("takeBackButton")
        self.take_button.setEnabled(bool(taking))
        self.take_button.clicked.connect(lambda: self._choose(SKIP if self.kept else GO))
        self.into_button = None
        if any(c.kind == "name_taken" for c in plan.conflicts):
            self.into_button = buttons.addButton(translate("RevertPreview", "Restore into the existing entity"),
                                                 QDialogButtonBox.ButtonRole.AcceptRole)
            self.into_button.setObjectName("intoExistingButton")
            self.into_button.clicked.connect(lambda: self._choose(INTO_EXISTING))
        self.cancel_button = buttons.addButton(translate("RevertPreview", "Leave everything as it is"), QDialogButtonBox.ButtonRole.RejectRole)
        self.cancel_button.setObjectName("cancelRevertButton")
        self.cancel_button.clicked.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(720, 420)

    def _choose(self, choice: str) -> None:
        self.choice = choice
        self.accept()

    def taking(self) -> list[str]:
        """The lines it would take back (for tests and accessibility tools)."""
        return [self.take_list.item(i).text() for i in range(self.take_list.count())]
