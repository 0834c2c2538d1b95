"""The dialog that lists an import's bad lines: it stays until the person dismisses it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from limbic.ui.dialogs.tables import read_only_table
from limbic.ui.common.i18n import translate


class ImportProblemsDialog(QDialog):
    """Every bad line (the first 100) with its number and reason; nothing was imported."""

    def __init__(self, path: str, problems: list[tuple[int, str]], total: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("importProblems")
        self.setWindowTitle(translate("ImportProblemsDialog", "Nothing was imported"))
        self.setModal(False)
        self.problems = problems
        shown = translate("ImportProblemsDialog", "the first {n_problems} are listed").format(n_problems=len(problems)) if total > len(problems) else translate("ImportProblemsDialog", "all are listed")
        lines = translate("ImportProblemsDialog", "%n lines", "", total)
        summary = QLabel(translate("ImportProblemsDialog", "{name} was not imported: {lines} cannot be read ({shown}). Fix them "
                             "and import the file again; the graph was left as it was.").format(name=Path(path).name, lines=lines, shown=shown), self)
        summary.setWordWrap(True)
        self.table = read_only_table(len(problems), [translate("ImportProblemsDialog", "Line"), translate("ImportProblemsDialog", "Why it cannot be imported")], self, "problemsTable",
                                     row_numbers=False)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for row, (line, reason) in enumerate(problems):
            number = QTableWidgetItem(str(line))
            number.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(row, 0, number)
            self.table.setItem(row, 1, QTableWidgetItem(reason))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        copy = buttons.addButton(translate("ImportProblemsDialog", "Copy list"), QDialogButtonBox.ButtonRole.ActionRole)
        copy.clicked.connect(self.on_copy)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(summary)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.resize(640, 400)

    def text(self) -> str:
        return "\n".join(f"line {line}: {reason}" for line, reason in self.problems)

    def on_copy(self) -> None:
        QApplication.clipboard().setText(self.text())
