"""A row of fields with its buttons beside them when the editor is wide enough, under them when not
(the relation fields and their buttons; the status and the aliases).

Beside the fields the buttons cost the editor no height (on a laptop's screen every row of a list
counts); under them, a narrow editor does not cut the fields to a letter.
"""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLineEdit, QWidget

FIELD_ROOM = 90  # pixels each field keeps at least before the buttons go under them
HINT_PAD = 16  # a field's frame and text margins around its hint


class AddRow(QWidget):
    """``fields`` (with their stretch) in a row; ``buttons`` right of them, or on a row of their own."""

    def __init__(self, fields: list[tuple[QWidget, int]], buttons: list[QWidget], parent: QWidget | None = None,
                 push_right: bool = True) -> None:
        """``push_right``: the buttons at the row's right end; else from its left, the last one taking the rest."""
        super().__init__(parent)
        self.fields = fields
        self.buttons = QWidget(self)
        row = QHBoxLayout(self.buttons)
        row.setContentsMargins(0, 0, 0, 0)
        if push_right:
            row.addStretch(1)
        for button in buttons:
            row.addWidget(button, 0 if push_right or button is not buttons[-1] else 1)
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        for column, (widget, stretch) in enumerate(fields):
            if stretch and isinstance(widget, QLineEdit) and widget.placeholderText():
                # Shared out by stretch, the narrower field was cut to "relation ty…" beside the buttons.
                hint = widget.fontMetrics().horizontalAdvance(widget.placeholderText()) + HINT_PAD
                widget.setMinimumWidth(max(widget.minimumWidth(), hint))
            self.grid.addWidget(widget, 0, column)
            self.grid.setColumnStretch(column, stretch)
        self.beside = False
        self._place(False)
        # Never wider than the fields need: past that the buttons go under them (the row decides on resize).
        self.setMinimumWidth(self.grid.minimumSize().width())

    def _room_beside(self, width: int) -> bool:
        fields = sum(max(FIELD_ROOM, w.minimumWidth(), w.minimumSizeHint().width()) if stretch else w.sizeHint().width()
                     for w, stretch in self.fields)
        return width >= fields + self.buttons.sizeHint().width() + self.grid.horizontalSpacing() * len(self.fields)

    def _place(self, beside: bool) -> None:
        self.grid.removeWidget(self.buttons)
        n = len(self.fields)
        if beside:
            self.grid.addWidget(self.buttons, 0, n)
        else:
            self.grid.addWidget(self.buttons, 1, 0, 1, n + 1)
        # Fields that do not stretch keep their width when the buttons go under them: an empty column takes the rest.
        fixed = not any(stretch for _, stretch in self.fields)
        self.grid.setColumnStretch(n, 1 if fixed and not beside else 0)
        self.beside = beside

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        beside = self._room_beside(event.size().width())
        if beside != self.beside:
            self._place(beside)
