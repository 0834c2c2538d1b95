"""The read-only table the dialogs list things in (rows of a file, bad lines, backups, shortcuts)."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QTableWidget, QWidget


def read_only_table(rows: int, headings: list[str], parent: QWidget, name: str = "",
                    row_numbers: bool = True, label: str = "") -> QTableWidget:
    """A table of ``rows`` rows under ``headings`` that the person reads but cannot edit; a screen reader names it
    ``label``, else by its headings."""
    table = QTableWidget(rows, len(headings), parent, objectName=name)
    table.setAccessibleName(label or ", ".join(headings))
    table.setHorizontalHeaderLabels(headings)
    if not row_numbers:
        table.verticalHeader().hide()
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    return table
