"""The editor's status badge and history panel: what the entity was (superseded observations, on
request), relations that ended (greyed), reflections about it, and who changed or read it when."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGroupBox,
    QListWidget,
    QListWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from limbic.service.types import STATUSES
from limbic.service.entities import EntityView
from limbic.ui.editor.timeline import TimelineView
from limbic.ui.common.i18n import translate
from limbic.ui.common.change_words import change_words
from limbic.ui.common.words import writer_words
from PySide6.QtCore import QT_TRANSLATE_NOOP

STATUS_LABELS = {"active": QT_TRANSLATE_NOOP("EntityHistory", "Active"), "paused": QT_TRANSLATE_NOOP("EntityHistory", "Paused"), "done": QT_TRANSLATE_NOOP("EntityHistory", "Done"), "archived": QT_TRANSLATE_NOOP("EntityHistory", "Archived")}
KIND_ROLE = Qt.ItemDataRole.UserRole + 10  # "superseded", "ended", "reflection", "read", "change"


class StatusBadge(QComboBox):
    """The entity's status as a coloured badge; choosing another one asks to save it at once."""

    status_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="statusBadge", toolTip=translate("StatusBadge", "The entity's status; archived entities rank lower in search"))
        self.setAccessibleName(translate("StatusBadge", "Status"))
        for status in STATUSES:
            self.addItem(translate("EntityHistory", STATUS_LABELS[status]), status)
        self._loading = False
        self.activated.connect(self._on_activated)

    def set_status(self, status: str) -> None:
        self._loading = True
        index = self.findData(status)
        self.setCurrentIndex(max(0, index))
        self.setProperty("status", status)  # the stylesheet colours the badge by status
        self.style().unpolish(self)
        self.style().polish(self)
        self._loading = False

    def status(self) -> str:
        return self.currentData()

    def _on_activated(self, _index: int) -> None:
        if not self._loading:
            self.status_chosen.emit(self.currentData())


class EntityHistoryPanel(QGroupBox):
    """Two tabs: superseded observations (hidden unless asked for), ended relations greyed, reflections,
    who changed it; and the timeline of the entity's whole life (read only when its tab is shown)."""

    timeline_wanted = Signal()  # the Timeline tab came into view: its events are to be read

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("", parent)
        self.setObjectName("historyPanel")
        self.tabs = QTabWidget(self, objectName="historyTabs")
        self.tabs.setDocumentMode(True)
        page = QWidget(self.tabs)
        self.show_superseded = QCheckBox(translate("EntityHistoryPanel", "Show superseded observations"), page, objectName="showSuperseded")
        self.list = QListWidget(page, objectName="historyList")
        self.list.setAccessibleName(translate("EntityHistoryPanel", "History and reflections"))
        self.list.setWordWrap(True)
        # One row at least: short of room the history gives way first (the editor gives it more when it holds more
        # and room allows), so the observation and relation lists above keep their four rows.
        self.list.setMinimumHeight(24)
        self.list.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.list.setVerticalScrollMode(QListWidget.ScrollMode.ScrollPerPixel)  # wrapped rows: never half a row
        inner = QVBoxLayout(page)
        inner.setContentsMargins(0, 4, 0, 0)
        inner.addWidget(self.show_superseded)
        inner.addWidget(self.list)
        self.timeline = TimelineView(self.tabs)
        self.tabs.addTab(page, translate("EntityHistoryPanel", "History and reflections"))
        self.tabs.addTab(self.timeline, translate("EntityHistoryPanel", "Timeline"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 6)
        layout.addWidget(self.tabs)
        self._view: EntityView | None = None
        self.show_superseded.toggled.connect(lambda _on: self._fill())
        self.tabs.currentChanged.connect(lambda _i: self.timeline_shown() and self.timeline_wanted.emit())
        self.setVisible(False)  # shown for a stored entity only (a new one has no life yet)

    def timeline_shown(self) -> bool:
        """True when the Timeline tab is the one in view."""
        return self.tabs.currentWidget() is self.timeline

    def shown_list(self) -> QListWidget:
        """The list in view: what the editor measures when it shares its height."""
        return self.timeline.list if self.timeline_shown() else self.list

    def show_view(self, view: EntityView | None) -> None:
        self._view = view
        self._fill()

    def _fill(self) -> None:
        self.list.clear()
        view = self._view
        if view is None:
            self.setVisible(False)
            return
        grey = QBrush(self.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text))
        superseded = view.entity.superseded
        if self.show_superseded.isChecked():
            for o in superseded:
                self._add(translate("EntityHistoryPanel", "{content}\n(superseded {superseded_at})").format(content=o.content, superseded_at=o.superseded_at), "superseded", grey, strike=True)
        for r in view.ended:
            arrow = f"{r.relation_type} → {r.to_name}" if r.from_id == view.entity.id else f"{r.relation_type} ← {r.from_name}"
            self._add(translate("EntityHistoryPanel", "{arrow} (ended {value})").format(arrow=arrow, value=r.ended_at or '—'), "ended", grey)
        for f in view.reflections:
            about = "" if f.entity_id == view.entity.id else translate("EntityHistoryPanel", " on {about}").format(about=f.about)
            mood = f", {f.mood}" if f.mood else ""
            self._add(f"“{f.content}”\n— {f.author or 'someone'}{about}, {f.created_at}{mood}", "reflection", None)
        for r in view.reads:
            self._add(translate("EntityHistoryPanel", "Read by {client} {count}× this week (last {value})").format(client=r.client, count=r.count, value=r.last[:16]), "read", grey)
        for c in reversed(view.changes):  # newest first: who changed it, when, what
            self._add(f"{writer_words(c.client, c.origin)}, {c.at[:16]}: {change_words(c)}", "change", None)
        self.list.scrollToTop()  # a reload (an assistant's write, a merge) kept the old scroll, hiding the newest
        self.show_superseded.setText(translate("EntityHistoryPanel", "Show superseded observations ({n_superseded})").format(n_superseded=len(superseded)))
        self.show_superseded.setEnabled(bool(superseded))
        self.show_superseded.setVisible(bool(superseded))  # a greyed “(0)” row only took the list's room
        has_history = bool(superseded or view.ended or view.reflections or view.changes or view.reads)
        self.tabs.setTabEnabled(0, has_history)
        if not has_history:
            self.tabs.setCurrentWidget(self.timeline)  # every stored entity has a life to show
        self.setVisible(True)

    def _add(self, text: str, kind: str, brush: QBrush | None, strike: bool = False) -> None:
        item = QListWidgetItem(text)
        item.setData(KIND_ROLE, kind)
        if brush is not None:
            item.setForeground(brush)
        if strike:
            font = item.font()
            font.setStrikeOut(True)
            item.setFont(font)
        self.list.addItem(item)

    def items(self, kind: str) -> list[str]:
        """The texts shown of one kind (for tests and accessibility tools)."""
        return [self.list.item(i).text() for i in range(self.list.count()) if self.list.item(i).data(KIND_ROLE) == kind]
