"""Filters for the search and the browser: relation type, status, and when entities were updated or created.

Each date range is a preset (today, the last 7 or 30 days, the last year), a range between two
days, or a time as people say it ("last week", "en marzo", "hace dos semanas"); the bar's ``value()`` is a ``SearchFilter`` that the service applies in its query.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta, timezone
from typing import Callable

from PySide6.QtCore import QDate, QObject, Qt, Signal
from PySide6.QtWidgets import QComboBox, QDateEdit, QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from limbic.engine.errors import ValidationError
from limbic.service.filters import STATUSES, SearchFilter, check
from limbic.ui.common.flow_layout import FlowLayout
from limbic.ui.common.hooks import StatusLine, WindowHooks
from limbic.ui.search.filter_line import COUNT_LIMIT, FilterLine, count_hidden, count_matching
from limbic.ui.search.filter_words import filter_words
from limbic.ui.search.search_bar import SearchBar
from limbic.ui.workers.worker import RESULT_LIMIT, Engine
from limbic.ui.common.i18n import translate
from PySide6.QtCore import QT_TRANSLATE_NOOP

logger = logging.getLogger(__name__)

ANY_RELATION = QT_TRANSLATE_NOOP("FilterBar", "Any relation")
ANY_STATUS = QT_TRANSLATE_NOOP("FilterBar", "Any status")
STATUS_WORDS = {"active": QT_TRANSLATE_NOOP("FilterBar", "active"), "paused": QT_TRANSLATE_NOOP("FilterBar", "paused"),
                "done": QT_TRANSLATE_NOOP("FilterBar", "done"), "archived": QT_TRANSLATE_NOOP("FilterBar", "archived")}
CLEARED = QT_TRANSLATE_NOOP("FilterBar", "Filters cleared: searching everything.")  # said once the filters are off
# (value, label, days back from today; None for "any time", -1 for a range of two days, -2 for words)
DATE_PRESETS = (("", QT_TRANSLATE_NOOP("FilterBar", "any time"), None), ("today", QT_TRANSLATE_NOOP("FilterBar", "today"), 0), ("7d", QT_TRANSLATE_NOOP("FilterBar", "in the last 7 days"), 6),
                ("30d", QT_TRANSLATE_NOOP("FilterBar", "in the last 30 days"), 29), ("1y", QT_TRANSLATE_NOOP("FilterBar", "in the last year"), 364), ("range", QT_TRANSLATE_NOOP("FilterBar", "between…"), -1),
                ("said", QT_TRANSLATE_NOOP("FilterBar", "as you say it…"), -2))


def today_utc() -> date:
    """Stored times are UTC: "today" is the UTC day, so a change made a minute ago is always in it."""
    return datetime.now(timezone.utc).date()


class DateRange(QWidget):
    """"Updated" or "created": a preset, or two days (both included)."""

    changed = Signal()

    def __init__(self, what: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.what = what
        self.preset = QComboBox(self, objectName=f"{what}Preset")
        said = translate("DateRange", "Updated") if what == "updated" else translate("DateRange", "Created")
        self.preset.setAccessibleName(translate("DateRange", "{what} when").format(what=said))
        for value, label, _days in DATE_PRESETS:
            self.preset.addItem(translate("FilterBar", label), value)
        today = QDate.currentDate()
        self.start = QDateEdit(today.addDays(-30), self, objectName=f"{what}From", calendarPopup=True)
        self.end = QDateEdit(today, self, objectName=f"{what}To", calendarPopup=True)
        for edit, name in ((self.start, "from"), (self.end, "until")):
            edit.setDisplayFormat("yyyy-MM-dd")
            edit.setAccessibleName(translate("DateRange", "{what} from").format(what=said) if name == "from"
                                   else translate("DateRange", "{what} until").format(what=said))
            edit.hide()
            edit.dateChanged.connect(self.changed)
        self.dash = QLabel("–", self)
        self.dash.hide()
        # The same words a search understands: the service reads them into days ("last week": Monday to Sunday).
        self.said = QLineEdit(self, objectName=f"{what}Said", placeholderText=translate("DateRange", "last week, en marzo, 2026-03-01"))
        self.said.setAccessibleName(translate("DateRange", "{what} when, in words").format(what=said))
        self.said.hide()
        self.said.editingFinished.connect(self.changed)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(QLabel(said, self))
        layout.addWidget(self.preset)
        layout.addWidget(self.start)
        layout.addWidget(self.dash)
        layout.addWidget(self.end)
        layout.addWidget(self.said)
        self.preset.currentIndexChanged.connect(self._on_preset)

    def _on_preset(self) -> None:
        self.show_range_fields()
        self.changed.emit()

    def show_range_fields(self) -> None:
        between = self.preset.currentData() == "range"
        for widget in (self.start, self.dash, self.end):
            widget.setVisible(between)
        self.said.setVisible(self.preset.currentData() == "said")

    def bounds(self) -> tuple[str, str]:
        """("YYYY-MM-DD" or "", "YYYY-MM-DD" or "")."""
        value = self.preset.currentData()
        days = next(d for v, _label, d in DATE_PRESETS if v == value)
        if days is None:
            return "", ""
        if days == -2:  # one time for both ends: its first day and its last
            said = self.said.text().strip()
            return said, said
        if days < 0:
            return self.start.date().toString("yyyy-MM-dd"), self.end.date().toString("yyyy-MM-dd")
        today = today_utc()
        return (today - timedelta(days=days)).isoformat(), today.isoformat()

    def clear(self) -> None:
        self.preset.setCurrentIndex(0)


class FilterBar(QWidget):
    """Relation type, status, updated and created; ``changed`` after any choice."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("filterBar")
        self.relation = QComboBox(self, objectName="relationFilter")
        self.relation.setAccessibleName(translate("FilterBar", "Relation type filter"))
        self.relation.setToolTip(translate("FilterBar", "Only entities with an active relation of this type (either way)"))
        self.relation.addItem(translate("FilterBar", ANY_RELATION), "")
        self.relation.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.status = QComboBox(self, objectName="statusFilter")
        self.status.setAccessibleName(translate("FilterBar", "Status filter"))
        self.status.addItem(translate("FilterBar", ANY_STATUS), "")
        for status in STATUSES:
            self.status.addItem(translate("FilterBar", STATUS_WORDS.get(status, status)), status)
        self.updated = DateRange("updated", self)
        self.created = DateRange("created", self)
        self.clear_button = QPushButton(translate("FilterBar", "Clear filters"), self, objectName="clearFilters")
        self.clear_button.setToolTip(translate("FilterBar", "Show everything again"))
        # The filters wrap onto more rows in a narrow window (a scaled laptop) instead of widening it.
        layout = FlowLayout(self, spacing=8)
        for label, combo in ((translate("FilterBar", "Relation"), self.relation), (translate("FilterBar", "Status"), self.status)):
            box = QWidget(self)
            pair = QHBoxLayout(box)
            pair.setContentsMargins(0, 0, 0, 0)
            pair.setSpacing(4)
            caption = QLabel(label, box)
            caption.setBuddy(combo)
            pair.addWidget(caption)
            pair.addWidget(combo)
            layout.addWidget(box)
        layout.addWidget(self.updated)
        layout.addWidget(self.created)
        layout.addWidget(self.clear_button)
        self.relation.currentIndexChanged.connect(self.changed)
        self.status.currentIndexChanged.connect(self.changed)
        self.updated.changed.connect(self.changed)
        self.created.changed.connect(self.changed)
        self.clear_button.clicked.connect(self.clear)
        self.changed.connect(self._show_clear)
        self._show_clear()

    def set_relation_types(self, types: list[str]) -> None:
        """Offer the graph's relation types, keeping the choice when it still exists."""
        current = self.relation.currentData() or ""
        self.relation.blockSignals(True)
        self.relation.clear()
        self.relation.addItem(translate("FilterBar", ANY_RELATION), "")
        for t in types:
            self.relation.addItem(t, t)
        at = self.relation.findData(current) if current else 0
        self.relation.setCurrentIndex(max(0, at))
        self.relation.blockSignals(False)
        if current and at < 0:
            self.changed.emit()

    def value(self) -> SearchFilter:
        """The choices as a filter (its type and words are the caller's)."""
        updated_from, updated_to = self.updated.bounds()
        created_from, created_to = self.created.bounds()
        return SearchFilter(relation_type=self.relation.currentData() or "", status=self.status.currentData() or "",
                            updated_from=updated_from, updated_to=updated_to,
                            created_from=created_from, created_to=created_to)

    def clear(self) -> None:
        """Every choice back to "any", with one ``changed``."""
        for widget in (self.relation, self.status, self.updated.preset, self.created.preset):
            widget.blockSignals(True)
            widget.setCurrentIndex(0)
            widget.blockSignals(False)
        for date_range in (self.updated, self.created):
            date_range.show_range_fields()
        self.changed.emit()

    def focus(self) -> None:
        self.relation.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _show_clear(self) -> None:
        self.clear_button.setEnabled(not self.value().is_empty() or self.also_active())

    def also_active(self) -> bool:
        """Whether a filter outside the bar is on (the search bar's type): Clear filters clears it too."""
        return False


@dataclass(frozen=True)
class FilterParts:
    """What the search filters work with: the bar sits under the search bar and narrows the engine's searches."""

    engine: Engine
    search_bar: SearchBar
    status: StatusLine
    hooks: WindowHooks
    rerun_search: Callable[[], None]


class SearchFilters(QObject):
    """Go → Search filters (Ctrl+Shift+F): the bar under the search field, applied in the search itself.

    The filters apply while the bar is shown; hiding it searches everything again and keeps the
    choices for the next time it is shown.
    """

    def __init__(self, parts: FilterParts, menu) -> None:
        super().__init__(parts.hooks.parent)
        self.p = parts
        self.bar = FilterBar(parts.hooks.parent)
        layout = parts.search_bar.parentWidget().layout()
        layout.insertWidget(layout.indexOf(parts.search_bar) + 1, self.bar)
        self.bar.hide()
        self.line = FilterLine(parts.hooks.parent)
        layout.insertWidget(layout.indexOf(self.bar) + 1, self.line)
        self.line.clear_requested.connect(self.clear_all)
        self.bar.also_active = lambda: bool(parts.search_bar.entity_type())
        self.bar.clear_button.clicked.disconnect(self.bar.clear)
        self.bar.clear_button.clicked.connect(self.clear_all)
        parts.search_bar.types.currentIndexChanged.connect(self._show_filters)
        parts.engine.results_ready.connect(self.on_results)
        self.action = parts.hooks.add_action(menu, translate("SearchFilters", "Search &filters"), self.toggle, "Ctrl+Shift+F",
                                             tip=translate("SearchFilters", "Narrow the search by relation type, status and dates"))
        self.action.setCheckable(True)
        self.bar.changed.connect(self.apply)
        worker = parts.engine.worker
        worker.opened.connect(self.on_catalog)
        worker.catalog_changed.connect(self.on_catalog)
        worker.catalog_delta.connect(self.on_catalog)

    def on_catalog(self, catalog) -> None:
        """A catalog or its delta: the relation types offered follow the graph's."""
        if catalog.relation_types is not None:
            self.bar.set_relation_types(catalog.relation_types)

    def toggle(self, shown: bool) -> None:
        self.bar.setVisible(shown)
        if shown:
            self.bar.focus()
        self.apply()

    def apply(self) -> None:
        """Search again with the bar's filters (none while it is hidden); a range that cannot be is said."""
        flt = self.bar.value() if self.action.isChecked() else SearchFilter()
        try:
            check(flt)
        except ValidationError as exc:
            self.p.status.say(str(exc), 10_000)
            return
        self.p.engine.search_filter = None if flt.is_empty() else flt
        active = replace(flt, entity_type=self.p.search_bar.entity_type())  # the type is a filter too
        if not flt.is_empty() and self.p.search_bar.text().strip():
            self.p.status.say(translate("SearchFilters", "Filtered: {describe}.").format(describe=filter_words(active)), 4000)
        else:
            self._said_right(active)  # not a stale "Filtered…", nor "cleared" while the type is on
        self._show_filters()
        self.p.rerun_search()

    def _said_right(self, flt: SearchFilter) -> None:
        """A filter sentence of this bar's in the status bar says the filters on now, or gives way to one that does."""
        said = getattr(self.p.status, "last_message", "")
        if not said.startswith((translate("SearchFilters", "Filtered: {describe}.").split("{")[0],
                                translate("FilterBar", CLEARED))):
            return
        now = translate("FilterBar", CLEARED) if flt.is_empty() else translate("SearchFilters", "Filtered: {describe}.").format(describe=filter_words(flt))
        if said != now:
            self.p.status.say(now, 4000)

    def active(self) -> SearchFilter:
        """Every filter on now: the bar's (while shown) and the search bar's type."""
        flt = self.p.engine.search_filter or SearchFilter()
        return replace(flt, entity_type=self.p.search_bar.entity_type())

    def clear_all(self) -> None:
        """Clear filters: the bar's choices and the type, one search again."""
        types = self.p.search_bar.types
        types.blockSignals(True)
        types.setCurrentIndex(0)
        types.blockSignals(False)
        self.bar.clear()  # its ``changed`` searches again

    def _show_filters(self) -> None:
        self.bar._show_clear()
        self.line.set_filters(filter_words(self.active()))

    def on_results(self, request_id: int, response) -> None:
        """Say what the filters left or hid, once the answer they shaped is in."""
        if request_id != self.p.engine.searches.latest:
            return
        flt = self.active()
        self.line.set_filters(filter_words(flt))
        self._said_right(flt)  # the type, set in the search bar, is said where the bar's filters were
        if flt.is_empty() or not self.p.hooks.catalog():
            return
        engine = self.p.engine
        query = response.query.strip()
        if not query:
            engine.read("filter-note", count_matching, flt, on_done=self._say_matching)
            return
        shown = frozenset(r.entity_id for r in response.results)
        engine.read("filter-note", count_hidden, query, shown, RESULT_LIMIT, engine.worker.params,
                    self.p.search_bar.branch_choice(), on_done=self._say_hidden)

    def _say_matching(self, count: int) -> None:
        if count > COUNT_LIMIT:
            self.line.set_note(translate("SearchFilters", "%n+ entities match; type to search them", "", COUNT_LIMIT))
        else:
            self.line.set_note(translate("SearchFilters", "%n entities match; type to search them", "", count))

    def _say_hidden(self, count: int) -> None:
        self.line.set_note(translate("SearchFilters", "%n hits hidden by them", "", count) if count else "")
