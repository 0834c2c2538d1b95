"""What the result panel shows for an empty query: pinned, recently opened and recently changed entities."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QListView, QListWidget, QListWidgetItem, QStyledItemDelegate, QWidget

from limbic.service.organise import Home, Item
from limbic.ui.common.i18n import translate
from PySide6.QtCore import QT_TRANSLATE_NOOP

ID_ROLE = Qt.ItemDataRole.UserRole + 1
MATCH_LIMIT = 500  # entities listed for filters with an empty query
SECTIONS = (("pinned", QT_TRANSLATE_NOOP("Home", "Pinned")), ("opened", QT_TRANSLATE_NOOP("Home", "Recently opened")), ("changed", QT_TRANSLATE_NOOP("Home", "Recently changed")))


class _FitDelegate(QStyledItemDelegate):
    """Rows as wide as the list at most, so a long name ends in "…" (its tooltip says it whole)."""

    def sizeHint(self, option, index):  # noqa: N802 - Qt API
        size = super().sizeHint(option, index)
        size.setWidth(min(size.width(), self.parent().viewport().width()))
        return size


class HomeList(QListWidget):
    """Sections of entities; Enter or a double-click opens one (the search bar's arrows move here too)."""

    open_requested = Signal(int)  # entity id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("homeList")
        self.setAccessibleName(translate("HomeList", "Pinned, recently opened and recently changed entities"))
        self.itemActivated.connect(self._on_activated)
        # At the results' narrowest (a side panel open) the list scrolled sideways and cut its rows mid-word.
        self.setItemDelegate(_FitDelegate(self))
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.shown_entity: int | None = None  # the editor's entity: the row a refill highlights

    def highlight(self, entity_id: int | None) -> None:
        """Highlight the open entity's row, or none: never the entity open before it (a relation was followed)."""
        self.shown_entity = entity_id
        rows = [i for i in range(self.count()) if self.item(i).data(ID_ROLE) == entity_id]
        if rows:
            self.setCurrentRow(rows[0])
        else:
            self.clearSelection()
            self.setCurrentRow(-1)

    def _after_fill(self) -> None:
        if self.shown_entity is not None:
            self.highlight(self.shown_entity)
        else:
            self.step_selection(0)

    def set_home(self, home: Home) -> None:
        self.clear()
        bold = QFont(self.font())
        bold.setBold(True)
        for key, title in SECTIONS:
            items = getattr(home, key)
            if not items:
                continue
            header = QListWidgetItem(translate("Home", title), self)
            header.setFlags(Qt.ItemFlag.ItemIsEnabled)  # readable, but never selected
            header.setFont(bold)
            if self.count() > 1:
                header.setSizeHint(header.sizeHint().expandedTo(self._header_size()))
            for item in items:
                row = QListWidgetItem(f"   {item.name}  ·  {item.entity_type}", self)
                row.setData(ID_ROLE, item.entity_id)
                row.setToolTip(translate("HomeList", "{name} ({entity_type}); last changed {updated_at} UTC").format(name=item.name, entity_type=item.entity_type, updated_at=item.updated_at))
        if self.count() == 0:
            QListWidgetItem(translate("HomeList", "Type to search; entities you open, change or pin will be listed here."), self).setFlags(
                Qt.ItemFlag.NoItemFlags)
        self._after_fill()

    def set_matching(self, items: list[Item]) -> None:
        """The entities the search filters leave, newest change first (an empty query with filters on)."""
        self.clear()
        bold = QFont(self.font())
        bold.setBold(True)
        header = QListWidgetItem((translate("HomeList", "Matching the filters ({n}+)") if len(items) >= MATCH_LIMIT
                                 else translate("HomeList", "Matching the filters ({n})")).format(n=len(items)), self)
        header.setFlags(Qt.ItemFlag.ItemIsEnabled)
        header.setFont(bold)
        for item in items:
            row = QListWidgetItem(f"   {item.name}  ·  {item.entity_type}", self)
            row.setData(ID_ROLE, item.entity_id)
            row.setToolTip(translate("HomeList", "{name} ({entity_type}); last changed {updated_at} UTC").format(name=item.name, entity_type=item.entity_type, updated_at=item.updated_at))
        if not items:
            QListWidgetItem(translate("HomeList", "No entity matches the filters."), self).setFlags(Qt.ItemFlag.NoItemFlags)
        self._after_fill()

    def _header_size(self):
        """A title row a little taller than an entity row: the sections stand apart."""
        from PySide6.QtCore import QSize

        return QSize(0, self.fontMetrics().height() + 12)

    def entity_ids(self) -> list[int]:
        return [self.item(i).data(ID_ROLE) for i in range(self.count()) if self.item(i).data(ID_ROLE) is not None]

    def step_selection(self, step: int) -> None:
        """Select the next (or previous) entity row, skipping section titles."""
        rows = [i for i in range(self.count()) if self.item(i).data(ID_ROLE) is not None]
        if not rows:
            return
        current = self.currentRow()
        if step == 0 or current not in rows:
            target = rows[0]
        else:
            at = rows.index(current)
            target = rows[min(len(rows) - 1, max(0, at + step))]
        self.setCurrentRow(target)

    def open_current(self) -> None:
        item = self.currentItem()
        if item is not None and item.data(ID_ROLE) is not None:
            self.open_requested.emit(int(item.data(ID_ROLE)))

    def _on_activated(self, item: QListWidgetItem) -> None:
        if item.data(ID_ROLE) is not None:
            self.open_requested.emit(int(item.data(ID_ROLE)))
