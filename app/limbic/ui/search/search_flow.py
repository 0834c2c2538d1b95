"""The search: queries to the reader, results and the empty-search lists on screen, opening a hit.

Owns which result list is on screen, which one's co-occurrence was recorded, and an Enter that
came before the latest results; it is handed the search bar, the lists, the engine and the few
window hooks it needs (``SearchParts``), never the window.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Callable

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QLabel, QStackedWidget, QWidget

from limbic.service import organise
from limbic.service.filters import SearchFilter, browse
from limbic.ui.common.hooks import EntityOpener, StatusLine, WindowHooks
from limbic.ui.search.home import MATCH_LIMIT, HomeList
from limbic.ui.search.results import ResultList, ResultModel
from limbic.ui.search.search_bar import SearchBar
from limbic.ui.workers.worker import Engine
from limbic.ui.common.i18n import translate

logger = logging.getLogger(__name__)

# How many of the top hits count as having come up together when one of them is opened.
COOC_HITS = 10


@dataclass(frozen=True)
class SearchParts:
    """What the search works with: the bar, the lists it shows, the engine and the window's hooks."""

    engine: Engine
    bar: SearchBar
    results: ResultList
    model: ResultModel
    home: HomeList  # what an empty query shows
    lists: QStackedWidget  # shows one of ``results``, ``home`` and ``empty_hint``
    empty_hint: QWidget  # what an empty graph shows
    count: QLabel  # "12 results" above the list
    status: StatusLine
    entities: EntityOpener
    hooks: WindowHooks
    open_entity_id: Callable[[], int | None]  # the entity in the editor, if any
    semantic_on: Callable[[], bool]  # the embedding model is loaded
    arrived: Callable[[int], None]  # results of a request reached the window (stale or not)
    shown: Callable[[int], None]  # the results of a request are on screen


def _same_hit(hit, previous, open_id: int | None) -> bool:
    """``hit`` is the entity of the hit selected before: its id given again to an entity made since is not.

    The open entity's id is the editor's own, read again with each change; another hit also keeps its name.
    """
    if previous is None or hit.entity_id != previous.entity_id:
        return False
    return hit.entity_id == open_id or hit.name == previous.name


class SearchFlow(QObject):
    """Runs the search bar's queries and shows their answers; one per window."""

    def __init__(self, parts: SearchParts) -> None:
        super().__init__(parts.hooks.parent)
        self.p = parts
        self.pending_open = False  # Enter pressed before the results of the latest query arrived
        self.shown_request = 0  # the request whose results are on screen
        self._committed_request = 0  # the result list whose co-occurrence was recorded
        bar = parts.bar
        bar.query_changed.connect(self.on_query_changed)
        bar.move_requested.connect(self.on_move)
        bar.open_requested.connect(self.on_open_requested)
        parts.results.activated.connect(self.on_result_activated)
        parts.results.clicked.connect(self.on_result_activated)  # one click opens, as in a note list
        parts.home.open_requested.connect(self.on_home_open)
        parts.engine.results_ready.connect(self.on_results_ready)

    def on_query_changed(self, text: str, entity_type: str) -> None:
        """The search bar's text or type filter changed: ask again."""
        model = self.p.model
        if model.empty_text:  # the last query's "No good match" is not this one's answer
            model.empty_text = translate("SearchFlow", "Searching…")
            self.p.results.viewport().update()
        self.p.engine.search(text, entity_type, self.p.bar.branch_choice())

    def settle_model(self) -> bool:
        """The model just loaded: search again unless hits are on screen (they would re-rank under the person).

        True when it searched again.
        """
        if self.p.model.query.strip() and self.p.model.rowCount():
            return False
        self.rerun()
        return True

    def rerun(self) -> None:
        """Run the current query again (the graph, the model or the settings changed)."""
        bar = self.p.bar
        self.p.engine.search(bar.text(), bar.entity_type(), bar.branch_choice())

    @Slot(int, object)
    def on_results_ready(self, request_id: int, response) -> None:
        """Show the latest query's results; older ones are dropped."""
        p = self.p
        p.arrived(request_id)
        if request_id != p.engine.searches.latest:
            return  # a newer query is on its way: never show stale results
        self.shown_request = request_id
        if not response.query.strip():
            flt = replace(getattr(p.engine, "search_filter", None) or SearchFilter(), entity_type=p.bar.entity_type())
            if flt.is_empty():
                p.engine.read("home", organise.home, on_done=self._home_filled)
            else:  # filters on and no words: the list is what they leave, never an unfiltered one
                p.engine.read("home", browse, flt, "date", "all", MATCH_LIMIT, on_done=self._matching_filled)
        # The same query again (an assistant's write, a save): the selected hit stays selected.
        previous = p.model.result(p.results.currentIndex().row()) if p.model.query == response.query else None
        p.model.set_response(response)
        if response.query.strip():
            p.bar.set_mode(response.mode)
        else:
            p.bar.show_expected_mode(p.semantic_on())
        if p.model.rowCount():
            keep = next((row for row in range(p.model.rowCount()) if _same_hit(p.model.result(row), previous,
                                                                                p.open_entity_id())), 0)
            p.results.setCurrentIndex(p.model.index(keep, 0))
            p.results.scrollTo(p.model.index(keep, 0))
        elif response.query.strip():
            sentence = response.no_match_sentence if response.no_match else translate("SearchFlow", "No results for “{query}”.").format(query=response.query.strip())
            p.status.say(sentence, 4000)
        p.results.viewport().update()
        self.show_current_list()
        p.shown(request_id)
        if self.pending_open:
            self.pending_open = False
            self.on_open_requested()

    # A refill highlights the entity open in the editor now, not the id it remembers: a deleted entity's
    # id goes to the next one made, which was highlighted as if it were open.
    def _home_filled(self, home) -> None:
        self.p.home.shown_entity = self.p.open_entity_id()
        self.p.home.set_home(home)

    def _matching_filled(self, items) -> None:
        self.p.home.shown_entity = self.p.open_entity_id()
        self.p.home.set_matching(items)

    def show_current_list(self) -> None:
        """The hint for an empty graph, the empty-search lists, or the results."""
        p = self.p
        catalog = p.hooks.catalog()
        empty = catalog is not None and catalog.counts.get("entities", 0) == 0
        home = not p.model.query.strip()
        p.lists.setCurrentWidget(p.empty_hint if empty else p.home if home else p.results)
        waiting = catalog.pending if catalog is not None and p.semantic_on() else 0
        p.count.setText(p.model.count_text() + (" · " + translate(
            "SearchFlow", "%n entities wait for embedding and are found by their words only", "", waiting)
            if waiting > 0 else ""))
        p.count.setVisible(not empty and not home and p.model.rowCount() > 0)

    def on_home_open(self, entity_id: int) -> None:
        """An entity opened from the empty-search lists (an access)."""
        self.p.entities.open_entity(entity_id, record=True)

    def on_move(self, step: int) -> None:
        """Up/Down in the search field move through the list on screen."""
        p = self.p
        if p.lists.currentWidget() is p.home:
            p.home.step_selection(step)
            return
        rows = p.model.rowCount()
        if not rows:
            return
        row = min(rows - 1, max(0, p.results.currentIndex().row() + step))
        p.results.setCurrentIndex(p.model.index(row, 0))

    def on_open_requested(self) -> None:
        """Enter: open the selected hit, once the latest query's results are on screen."""
        p = self.p
        if self.shown_request != p.engine.searches.latest:
            self.pending_open = True  # open once the latest query's results arrive
            return
        if p.lists.currentWidget() is p.home:
            p.home.open_current()
            return
        index = p.results.currentIndex()
        if not index.isValid() and p.model.rowCount():
            index = p.model.index(0, 0)
        if index.isValid():
            self.on_result_activated(index)

    def on_result_activated(self, index) -> None:
        """Open a hit; the first one opened from a list records the list's co-occurrence."""
        model, entities = self.p.model, self.p.entities
        result = model.result(index.row())
        if result is None or (result.entity_id == self.p.open_entity_id() and not entities.navigation_pending()
                              and self._committed_request == self.shown_request):
            return  # already open and counted (the second click of a double click)
        # The first hit opened from a result list makes those hits count as having come up
        # together (co-occurrence); typing alone records nothing, so keystrokes inflate nothing.
        together: tuple[int, ...] = ()
        if self._committed_request != self.shown_request:
            self._committed_request = self.shown_request
            together = tuple(model.result(i).entity_id for i in range(min(model.rowCount(), COOC_HITS)))
        self.p.hooks.guard(lambda: entities.load_entity(result.entity_id, True, together))

    def hit_ids(self) -> set[int]:
        """The entities the results on screen found (none while the query is empty)."""
        model = self.p.model
        if not self.p.bar.text().strip():
            return set()
        return {model.result(row).entity_id for row in range(model.rowCount())}

    def select_result(self, entity_id: int) -> None:
        """The highlighted result follows the open entity (after a relation was followed, Back, a save...)."""
        model, results = self.p.model, self.p.results
        for row in range(model.rowCount()):
            if model.result(row).entity_id == entity_id:
                if results.currentIndex().row() != row:
                    results.setCurrentIndex(model.index(row, 0))
                return
