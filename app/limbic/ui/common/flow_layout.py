"""A layout that wraps its widgets onto more rows when the width runs out (a toolbar in a narrow panel)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget


class FlowLayout(QLayout):
    """Left to right, wrapping; the items of a row are centred on its height."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._space = spacing
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 - Qt API
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt API
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt API
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 - Qt API
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt API
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt API
        return self._arrange(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 - Qt API
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        """One row of everything."""
        visible = [i for i in self._items if not i.isEmpty()]
        width = sum(i.sizeHint().width() for i in visible) + self._space * max(0, len(visible) - 1)
        height = max((i.sizeHint().height() for i in visible), default=0)
        return QSize(width, height)

    def minimumSize(self) -> QSize:  # noqa: N802 - Qt API
        """As narrow as the widest single item: the rest wraps."""
        size = QSize()
        for item in self._items:
            if not item.isEmpty():
                size = size.expandedTo(item.minimumSize())
        return size

    def _arrange(self, rect: QRect, move: bool) -> int:
        x, y, row_h = rect.x(), rect.y(), 0
        row: list[tuple[QLayoutItem, QSize]] = []

        def place_row() -> None:
            px = rect.x()
            for item, hint in row:
                if move:
                    item.setGeometry(QRect(QPoint(px, y + (row_h - hint.height()) // 2), hint))
                px += hint.width() + self._space

        for item in self._items:
            if item.isEmpty():
                continue
            hint = item.sizeHint()
            if row and x + hint.width() > rect.right() + 1:
                place_row()
                y += row_h + self._space
                x, row_h, row = rect.x(), 0, []
            row.append((item, hint))
            x += hint.width() + self._space
            row_h = max(row_h, hint.height())
        place_row()
        return y + row_h - rect.y()
