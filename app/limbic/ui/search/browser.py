"""Go → Browse entities: every entity by type, the pinned and the recently opened, with counts,
narrowed by words, relation type, status and dates, sorted by name, last change or use.

Keyboard-driven: the type list has the focus first (Up/Down pick a type or section), Tab goes to
the entities, Enter opens the selected one in the window, Ctrl+F types words to narrow the list,
Alt+1/2/3 sort, Esc closes.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from limbic.engine.errors import ValidationError
from limbic.service import filters
from limbic.service.organise import Item
from limbic.ui.search.filter_bar import FilterBar
from limbic.ui.common.i18n import translate
from PySide6.QtCore import QT_TRANSLATE_NOOP

TYPE_ROLE = Qt.ItemDataRole.UserRole + 1
ID_ROLE = Qt.ItemDataRole.UserRole + 2
VIEW_ROLE = Qt.ItemDataRole.UserRole + 3  # "all", "pinned" or "recent"
TEXT_DEBOUNCE_MS = 150
SORT_LABELS = (("name", QT_TRANSLATE_NOOP("Browser", "Name")), ("date", QT_TRANSLATE_NOOP("Browser", "Last changed")), ("importance", QT_TRANSLATE_NOOP("Browser", "Most used")))


class EntityBrowser(QDialog):
    """A non-modal browser over the open graph; reads run on the reader's connection."""

    open_requested = Signal(int)  # entity id
    loaded = Signal()  # a list of entities is on screen (tests wait on it)

    def __init__(self, engine, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("entityBrowser")
        self.setWindowTitle(translate("EntityBrowser", "Browse entities"))
        self.engine = engine
        self.types = QListWidget(self, objectName="browserTypes")
        self.types.setAccessibleName(translate("EntityBrowser", "Entity types"))
        self.sort = QComboBox(self, objectName="browserSort")
        for value, label in SORT_LABELS:
            self.sort.addItem(translate("Browser", label), value)
        self.sort.setAccessibleName(translate("EntityBrowser", "Sort by"))
        self.table = QTableWidget(0, 4, self, objectName="browserTable")
        self.table.setAccessibleName(translate("EntityBrowser", "Entities"))
        self.table.setHorizontalHeaderLabels([translate("EntityBrowser", "Name"), translate("EntityBrowser", "Type"), translate("EntityBrowser", "Last changed (UTC)"), translate("EntityBrowser", "Uses")])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setTabKeyNavigation(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2, 3):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.count_label = QLabel(self)
        self.text = QLineEdit(self, objectName="browserText")
        self.text.setPlaceholderText(translate("EntityBrowser", "Filter by words in the name or observations  (Ctrl+F)"))
        self.text.setAccessibleName(translate("EntityBrowser", "Filter by words"))
        self.text.setClearButtonEnabled(True)
        self.filters = FilterBar(self)
        self._text_timer = QTimer(self, singleShot=True, interval=TEXT_DEBOUNCE_MS)
        self._text_timer.timeout.connect(self.reload)

        top = QHBoxLayout()
        top.addWidget(self.text, 1)
        top.addWidget(QLabel(translate("EntityBrowser", "Sort by:"), self))
        top.addWidget(self.sort)
        top.addWidget(self.count_label)
        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addLayout(top)
        right_layout.addWidget(self.filters)
        right_layout.addWidget(self.table)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(self.types)
        split.addWidget(right)
        split.setStretchFactor(1, 3)
        split.setSizes([220, 800])
        layout = QVBoxLayout(self)
        layout.addWidget(split, 1)
        layout.addWidget(QLabel(translate("EntityBrowser", "Up/Down pick a type · Tab to the list · Enter opens · Ctrl+F words · Alt+1/2/3 sort · "
                                "Esc closes"), self))
        self.resize(1040, 560)

        self.types.currentItemChanged.connect(self.reload)
        self.sort.currentIndexChanged.connect(self.reload)
        self.filters.changed.connect(self.reload)
        self.text.textChanged.connect(self._text_timer.start)
        QShortcut(QKeySequence.StandardKey.Find, self, activated=self.focus_text)
        self.table.doubleClicked.connect(self._on_double_clicked)
        for i in range(len(SORT_LABELS)):
            QShortcut(QKeySequence(f"Alt+{i + 1}"), self, activated=lambda i=i: self.sort.setCurrentIndex(i))

    def refresh(self) -> None:
        """Read the types and their counts, then the entities of the selected type."""
        self.engine.read("browser-types", filters.browser_counts, on_done=self.on_types)

    def set_relation_types(self, types: list[str]) -> None:
        """The relation types the filter offers (the window's catalog knows them)."""
        self.filters.set_relation_types(types)

    def focus_text(self) -> None:
        self.text.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.text.selectAll()

    def on_types(self, counts: filters.BrowserCounts) -> None:
        current = (self.selected_view(), self.selected_type())
        self.types.blockSignals(True)
        self.types.clear()
        total = sum(n for _, n in counts.types)
        rows = [("all", "", translate("EntityBrowser", "All types ({total})").format(total=total)), ("pinned", "", translate("EntityBrowser", "Pinned ({pinned})").format(pinned=counts.pinned)),
                ("recent", "", translate("EntityBrowser", "Recently opened ({recent})").format(recent=counts.recent))]
        rows += [("all", name, f"{name} ({n})") for name, n in counts.types]
        bold = QFont(self.types.font())
        bold.setBold(True)
        for at, (view, entity_type, label) in enumerate(rows):
            if at == 3:
                header = QListWidgetItem(translate("EntityBrowser", "By type"), self.types)
                header.setFlags(Qt.ItemFlag.NoItemFlags)  # a title: arrows pass over it
                header.setData(VIEW_ROLE, "header")
            item = QListWidgetItem(label, self.types)
            item.setData(TYPE_ROLE, entity_type)
            item.setData(VIEW_ROLE, view)
            if at < 3:
                item.setFont(bold)
        keys = [(self.types.item(i).data(VIEW_ROLE), self.types.item(i).data(TYPE_ROLE)) for i in range(self.types.count())]
        self.types.setCurrentRow(keys.index(current) if current in keys else 0)
        self.types.blockSignals(False)
        self.types.setFocus()
        self.reload()

    def selected_type(self) -> str:
        item = self.types.currentItem()
        return item.data(TYPE_ROLE) if item is not None else ""

    def selected_view(self) -> str:
        item = self.types.currentItem()
        return (item.data(VIEW_ROLE) or "all") if item is not None else "all"

    def current_filter(self) -> filters.SearchFilter:
        """The list's filter: the type chosen on the left, the words and the bar's choices."""
        return replace(self.filters.value(), entity_type=self.selected_type(), text=self.text.text().strip())

    def reload(self, *_args) -> None:
        self._text_timer.stop()
        flt = self.current_filter()
        try:
            filters.check(flt)
        except ValidationError as exc:
            self.count_label.setText(str(exc))
            return
        self.engine.read("browser", filters.browse, flt, self.sort.currentData(), self.selected_view(),
                         on_done=self.on_items)

    def on_items(self, items: list[Item]) -> None:
        self.table.setRowCount(len(items))
        for row, item in enumerate(items):
            name = QTableWidgetItem(item.name)
            name.setData(ID_ROLE, item.entity_id)
            self.table.setItem(row, 0, name)
            self.table.setItem(row, 1, QTableWidgetItem(item.entity_type))
            self.table.setItem(row, 2, QTableWidgetItem(item.updated_at[:16]))
            uses = QTableWidgetItem(str(item.uses))
            uses.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(row, 3, uses)
        if items:
            self.table.setCurrentCell(0, 0)
        narrowed = bool(self.text.text().strip()) or not self.filters.value().is_empty()
        count = len(items)
        self.count_label.setText(translate("EntityBrowser", "%n entities match", "", count) if narrowed
                                 else translate("EntityBrowser", "%n entities", "", count))
        self.loaded.emit()

    def names(self) -> list[str]:
        return [self.table.item(r, 0).text() for r in range(self.table.rowCount())]

    def _on_double_clicked(self, index) -> None:
        self.open_current(index.row())

    def open_current(self, row: int | None = None) -> None:
        row = self.table.currentRow() if row is None else row
        cell = self.table.item(row, 0) if row >= 0 else None
        if cell is not None:
            self.open_requested.emit(int(cell.data(ID_ROLE)))

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt API
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.open_current()  # from the type list too: the first entity of the type
            return
        super().keyPressEvent(event)
