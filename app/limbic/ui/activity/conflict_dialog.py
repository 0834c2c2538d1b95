"""The dialog for what stands in the way of a revert or undo: what, by whom, when, and the choices."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from limbic.service.activity import INTO_EXISTING, SKIP, Plan
from limbic.ui.activity.revert_preview import changers, changers_key, keep_button_words
from limbic.ui.common.i18n import translate


class ConflictDialog(QDialog):
    """What stands in the way of a revert or undo (what, by whom, when), and the choices."""

    def __init__(self, plan: Plan, what: str, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="conflictDialog")
        who = changers(plan)  # the person is "you", as in the preview
        if changers_key(plan) == "you":  # whole sentences: the verb agrees with who in every language
            title = translate("ConflictDialog", "{what}: you changed the same things since")
            said = translate("ConflictDialog", "Nothing has been changed yet. Since then, you changed what the {what} "
                             "would take back:")
        else:
            title = translate("ConflictDialog", "{what}: {who} changed the same things since")
            said = translate("ConflictDialog", "Nothing has been changed yet. Since then, {who} changed what the "
                             "{what} would take back:")
        self.setWindowTitle(title.format(what=what[:1].upper() + what[1:], who=who))
        self.choice: str | None = None
        intro = QLabel(said.format(who=who, what=what), self, wordWrap=True)
        self.list = QTreeWidget(self, objectName="conflictList")
        self.list.setHeaderLabels([translate("ConflictDialog", "What"), translate("ConflictDialog", "By"), translate("ConflictDialog", "When")])
        self.list.setWordWrap(True)  # a conflict is a sentence: shown whole
        self.list.setRootIsDecorated(False)
        for c in plan.conflicts:
            row = QTreeWidgetItem([c.what, translate("RevertPreview", "you") if c.by_person else c.by, c.at[:16]])
            row.setToolTip(0, c.sentence())
            self.list.addTopLevelItem(row)
        self.list.setColumnWidth(0, 560)
        self.list.resizeColumnToContents(1)
        work = {"you": translate("ConflictDialog", "your work"), "another writer": translate("ConflictDialog", "their work")}.get(who, "that work")
        outro = QLabel(translate("ConflictDialog", "Keep {work} and take back only the rest, or leave everything as it is.").format(work=work), self, wordWrap=True)
        buttons = QDialogButtonBox(self)
        self.keep_button = buttons.addButton(keep_button_words(plan), QDialogButtonBox.ButtonRole.AcceptRole)
        self.keep_button.setObjectName("keepTheirsButton")
        self.keep_button.clicked.connect(lambda: self._choose(SKIP))
        self.into_button = None
        if any(c.kind == "name_taken" for c in plan.conflicts):
            self.into_button = buttons.addButton(translate("ConflictDialog", "Restore into the existing entity"), QDialogButtonBox.ButtonRole.AcceptRole)
            self.into_button.setObjectName("intoExistingButton")
            self.into_button.clicked.connect(lambda: self._choose(INTO_EXISTING))
        cancel = buttons.addButton(translate("ConflictDialog", "Leave everything as it is"), QDialogButtonBox.ButtonRole.RejectRole)
        cancel.setObjectName("cancelRevertButton")
        cancel.clicked.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.list, 1)
        layout.addWidget(outro)
        layout.addWidget(buttons)
        self.resize(860, 320)

    def _choose(self, choice: str) -> None:
        self.choice = choice
        self.accept()

    def conflict_rows(self) -> list[tuple[str, str]]:
        return [(self.list.topLevelItem(i).text(0), self.list.topLevelItem(i).text(1))
                for i in range(self.list.topLevelItemCount())]
