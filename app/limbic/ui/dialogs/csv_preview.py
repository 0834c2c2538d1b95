"""Before a CSV import: what each file's columns become, which are ignored, its first rows and what
would be brought in; nothing is imported until the person says so, and nothing at all when no
column maps to a name."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QFont, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from limbic.service.importers.csv_preview import CsvPreview
from limbic.ui.dialogs.tables import read_only_table
from limbic.ui.common.i18n import translate

MAX_WIDTH = 1100  # within a 1366-px screen, with the window's edges beside it


class CsvPreviewDialog(QDialog):
    """The preview of a CSV import; ``keep_columns()`` says whether ignored columns become observations."""

    def __init__(self, preview: CsvPreview, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("csvPreview")
        self.preview = preview
        name = Path(preview.path).name
        self.setWindowTitle(translate("CsvPreviewDialog", "Import {name}?").format(name=name) if preview.problem is None else translate("CsvPreviewDialog", "{name} cannot be imported").format(name=name))
        layout = QVBoxLayout(self)
        self.tables: list[QTableWidget] = []
        self.column_notes: list[QLabel] = []
        for file in preview.files:
            first = translate("CsvPreviewDialog", " (the first {n_rows} shown)").format(n_rows=len(file.rows)) if file.row_count > len(file.rows) else ""
            what = translate("CsvPreviewDialog", " of {kind}").format(kind=file.kind) if file.kind else translate("CsvPreviewDialog", ", and no column maps to a name")
            row_count = file.row_count
            rows = translate("CsvPreviewDialog", "%n rows", "", row_count)
            title = QLabel(f"<b>{file.name}</b>: {rows}{what}{first}", self)
            layout.addWidget(title)
            used = ", ".join(f"{column} → {becomes}" for column, becomes in file.used) or "none"
            note = QLabel(translate("CsvPreviewDialog", "Columns read: {used}.").format(used=used) + (translate("CsvPreviewDialog", "<br><b>Ignored:</b> {join} (no part of the graph reads them).").format(join=', '.join(file.ignored)) if file.ignored else ""),
                          self, objectName="csvColumns")
            note.setWordWrap(True)
            self.column_notes.append(note)
            layout.addWidget(note)
            table = self._table(file)
            self.tables.append(table)
            layout.addWidget(table)
        self.summary = QLabel(preview.problem or preview.counts_sentence(), self, objectName="csvSummary")
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.keep = QCheckBox(translate("CsvPreviewDialog", "Keep the ignored columns as observations (“column: value”)"), self,
                              objectName="keepColumns")
        self.keep.setToolTip(translate("CsvPreviewDialog", "Each ignored cell that is not empty becomes an observation of its row's entity"))
        self.keep.setVisible(preview.problem is None and any(f.ignored and f.kind == "entities" for f in preview.files))
        layout.addWidget(self.keep)
        if preview.problem is None:
            buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
            self.import_button = buttons.addButton(translate("CsvPreviewDialog", "Import"), QDialogButtonBox.ButtonRole.AcceptRole)
            self.import_button.setDefault(True)
        else:  # refused: nothing to choose but to close
            buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
            self.import_button = None
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        layout.insertStretch(layout.indexOf(self.summary), 1)
        self.resize(min(MAX_WIDTH, max(560, self.sizeHint().width())), min(700, self.sizeHint().height()))

    def _table(self, file) -> QTableWidget:
        """The first rows as in the file; an ignored column's heading and cells are struck through and greyed."""
        table = read_only_table(len(file.rows), file.header, self, "csvRows")
        table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        table.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # a picture of the file: nothing in it to pick
        grey = QBrush(self.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text))
        for c, column in enumerate(file.header):
            heading = table.horizontalHeaderItem(c)
            ignored = column in file.ignored
            if ignored:
                font = QFont(heading.font())
                font.setStrikeOut(True)
                heading.setFont(font)
                heading.setForeground(grey)
                heading.setToolTip(translate("CsvPreviewDialog", "Ignored: no part of the graph reads this column"))
            for r, row in enumerate(file.rows):
                text = row[c] if c < len(row) else ""
                item = QTableWidgetItem(text if len(text) <= 120 else text[:119] + "…")
                item.setToolTip(text[:1000])
                if ignored:
                    item.setForeground(grey)
                table.setItem(r, c, item)
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        table.resizeColumnsToContents()
        for c in range(table.columnCount()):
            table.setColumnWidth(c, min(table.columnWidth(c), 260))
        table.horizontalHeader().setStretchLastSection(True)
        rows_height = sum(table.rowHeight(r) for r in range(table.rowCount()))
        scroll = table.horizontalScrollBar().sizeHint().height()
        # As tall as its rows (a few, so no more), as wide as its columns within what a laptop shows.
        table.setFixedHeight(min(table.horizontalHeader().sizeHint().height() + rows_height
                                 + 2 * table.frameWidth() + scroll + 4, 240))
        width = (sum(table.columnWidth(c) for c in range(table.columnCount())) + table.verticalHeader().sizeHint().width()
                 + 2 * table.frameWidth() + 4)
        table.setMinimumWidth(min(width, MAX_WIDTH - 40))
        return table

    def keep_columns(self) -> bool:
        """Whether the ignored columns become observations."""
        return not self.keep.isHidden() and self.keep.isChecked()
