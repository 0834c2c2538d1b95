"""The line above the results that says which filters are on, how many entities they leave, and what they hide.

A filter nobody can see is a trap: a Type left on Person turned a search into a list of people.
The line is shown whenever a filter is on, with or without a query, and offers to clear them all.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QWidget

from limbic.service.filters import SearchFilter, browse, filtered_search
from limbic.ui.common.i18n import translate

logger = logging.getLogger(__name__)

COUNT_LIMIT = 5000  # an empty query's count stops here ("5000+")


def count_matching(graph, flt: SearchFilter) -> int:
    """How many entities the filter keeps (read-only; the empty query's answer)."""
    return len(browse(graph, flt, limit=COUNT_LIMIT + 1))


def count_hidden(graph, query: str, shown: frozenset[int], limit: int, params, branches: str) -> int:
    """How many of the unfiltered search's hits the filtered list does not show."""
    response = filtered_search(graph, query, None, limit, params=params, branches=branches)
    return sum(1 for r in response.results if r.entity_id not in shown)


class FilterLine(QLabel):
    """"Filters on: type Person · 3 hits hidden by them — Clear filters"; hidden while no filter is on."""

    clear_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("filterLine")
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setWordWrap(True)
        self.setAccessibleName(translate("FilterLine", "Active filters"))
        self.linkActivated.connect(lambda _link: self.clear_requested.emit())
        self.described = ""  # the filters as words, "" while none is on
        self.note = ""  # what they leave or hide
        self.hide()

    def set_filters(self, described: str) -> None:
        """The filters now on, as words ("" for none); the count waits for the next answer."""
        if described != self.described:
            self.note = ""
        self.described = described
        self._render()

    def set_note(self, note: str) -> None:
        """What the filters did to the list on screen: "3 hits hidden by them", "12 entities match"."""
        self.note = note
        self._render()

    def plain(self) -> str:
        """The line as a person reads it."""
        return translate("FilterLine", "Filters on: {described}").format(described=self.described) + (f" · {self.note}" if self.note else "") if self.described else ""

    def _render(self) -> None:
        self.setVisible(bool(self.described))
        if self.described:
            self.setText(translate("FilterLine", "<b>Filters on:</b> {escape}").format(escape=_escape(self.described))
                         + (f" · {_escape(self.note)}" if self.note else "")
                         + translate("FilterLine", " — <a href='clear'>Clear filters</a>"))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
