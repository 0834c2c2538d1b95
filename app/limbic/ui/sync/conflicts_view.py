"""The Conflicts view: each sync conflict with both values side by side, kept by one key (M, T or B)."""

from __future__ import annotations

import json
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (QDialog, QGridLayout, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPlainTextEdit,
                               QPushButton, QVBoxLayout, QWidget)

KEYS = {"M": "mine", "T": "theirs", "B": "both"}


def shown_value(value: object) -> str:
    """A conflict's value as the person reads it."""
    if value is None:
        return "(deleted or absent)"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, indent=2)


class ConflictsView(QDialog):
    """Lists the open conflicts; M keeps mine, T theirs, B both; Enter opens the entity."""

    resolve_asked = Signal(int, str)  # conflict id, "mine" | "theirs" | "both"
    open_asked = Signal(str)  # the entity's name

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="syncConflicts")
        self.setWindowTitle("Sync conflicts")
        self.resize(760, 460)
        self.conflicts: list = []
        self.list = QListWidget(self, objectName="conflictList")
        self.list.setAccessibleName("Conflicts")
        self.list.currentRowChanged.connect(self._show_current)
        self.list.itemActivated.connect(lambda _item: self.open_current())  # Enter, double click
        self.empty = QLabel("No conflicts: every device agrees.", self)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.why = QLabel("", self, wordWrap=True)
        sides = QGridLayout()
        self.mine_title, self.theirs_title = QLabel("Mine", self), QLabel("Theirs", self)
        self.mine, self.theirs = QPlainTextEdit(self, readOnly=True), QPlainTextEdit(self, readOnly=True)
        self.mine.setAccessibleName("My value")
        self.theirs.setAccessibleName("Their value")
        for col, (title, text) in enumerate(((self.mine_title, self.mine), (self.theirs_title, self.theirs))):
            sides.addWidget(title, 0, col)
            sides.addWidget(text, 1, col)
            text.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the list keeps the keys
        buttons = QHBoxLayout()
        self.buttons: dict[str, QPushButton] = {}
        for key, keep, label in (("M", "mine", "Keep &mine"), ("T", "theirs", "Keep &theirs"), ("B", "both", "Keep &both")):
            button = QPushButton(f"{label}  ({key})", self)
            button.setAutoDefault(False)
            button.clicked.connect(lambda _=False, k=keep: self.resolve_current(k))
            buttons.addWidget(button)
            self.buttons[keep] = button
            QShortcut(QKeySequence(key), self, activated=lambda k=keep: self.resolve_current(k))
        self.open_button = QPushButton("Open the entity  (Enter)", self)
        self.open_button.setAutoDefault(False)
        self.open_button.clicked.connect(self.open_current)
        buttons.addStretch(1)
        buttons.addWidget(self.open_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.list, 2)
        layout.addWidget(self.empty)
        layout.addWidget(self.why)
        layout.addLayout(sides, 3)
        layout.addLayout(buttons)
        self.set_conflicts([])

    def set_conflicts(self, conflicts: list) -> None:
        """Show these conflicts (the selection stays on the same row number, the next one after a resolve)."""
        row = max(0, self.list.currentRow())
        self.conflicts = list(conflicts)
        self.list.blockSignals(True)
        self.list.clear()
        for c in self.conflicts:
            item = QListWidgetItem(c.sentence())
            item.setToolTip(c.sentence())
            self.list.addItem(item)
        self.list.blockSignals(False)
        has = bool(self.conflicts)
        self.empty.setVisible(not has)
        for w in (*self.buttons.values(), self.open_button):
            w.setEnabled(has)
        if has:
            self.list.setCurrentRow(min(row, len(self.conflicts) - 1))
            self._show_current(self.list.currentRow())
        else:
            self._show_current(-1)
        self.list.setFocus()

    def current(self):
        row = self.list.currentRow()
        return self.conflicts[row] if 0 <= row < len(self.conflicts) else None

    def _show_current(self, _row: int) -> None:
        c = self.current()
        if c is None:
            self.why.setText("")
            self.mine_title.setText("Mine")
            self.theirs_title.setText("Theirs")
            self.mine.setPlainText("")
            self.theirs.setPlainText("")
            return
        self.why.setText(f"Met on {c.at}; the graph holds {'mine' if c.kept == 'mine' else 'theirs'} until you choose.")
        # "this device" is what the person knows it by, whatever name the others see.
        self.mine_title.setText(f"Mine (this device){'  — kept now' if c.kept == 'mine' else ''}")
        their_device = c.their_device_name or c.their_device
        self.theirs_title.setText(f"Theirs ({their_device}){'  — kept now' if c.kept == 'theirs' else ''}")
        self.mine.setPlainText(shown_value(c.mine))
        self.theirs.setPlainText(shown_value(c.theirs))

    def resolve_current(self, keep: str) -> None:
        c = self.current()
        if c is not None:
            self.resolve_asked.emit(c.id, keep)

    def open_current(self) -> None:
        c = self.current()
        if c is not None and c.entity:
            self.open_asked.emit(c.entity)


def make_view(parent: QWidget | None, resolve: Callable[[int, str], None], open_entity: Callable[[str], None]) -> ConflictsView:
    """A Conflicts view wired to the window's resolve and open."""
    view = ConflictsView(parent)
    view.resolve_asked.connect(resolve)
    view.open_asked.connect(open_entity)
    return view
