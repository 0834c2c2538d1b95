"""The search: queries to the reader, results and the empty-search lists on screen, opening a hit.

Owns which result list is on screen, which one's co-occurrence was recorded, and an Enter that
came before the latest results; the window provides the search bar, the lists and the engine.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Slot

from limbic.service import organise

if TYPE_CHECKING:
    from limbic.ui.shell.main_window import MainWindow

logger = logging.getLogger(__name__)

# How many of the top hits count as having come up together when one of them is opened.
COOC_HITS = 10


class SearchFlow(QObject):
    """Runs the search bar's queries and shows their answers; one per window."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.w = window
        self.pending_open = False  # Enter pressed before the results of the latest query arrived
        self.shown_request = 0  # the request whose results are on screen
        self._committed_request = 0  # the result list whose co-occurrence was recorded
        bar = window.search_bar
        bar.query_changed.connect(self.on_query_changed)
        bar.move_requested.connect(self.on_move)
        bar.open_requested.connect(self.on_open_requested)
        window.results.activated.connect(self.on_result_activated)
        window.results.clicked.connect(self.on_result_activated)  # one click opens, as in a note list
        window.home.open_requested.connect(self.on_home_open)
        window.engine.results_ready.connect(self.on_results_ready)

    def on_query_changed(self, text: str, entity_type: str) -> None:
        """The search bar's text or type filter changed: ask again."""
        self.w.engine.search(text, entity_type, self.w.search_bar.branch_choice())

    def rerun(self) -> None:
        """Run the current query again (the graph, the model or the settings changed)."""
        bar = self.w.search_bar
        self.w.engine.search(bar.text(), bar.entity_type(), bar.branch_choice())

    @Slot(int, object)
    def on_results_ready(self, request_id: int, response) -> None:
        """Show the latest query's results; older ones are dropped."""
        w = self.w
        w.results_arrived.emit(request_id)
        if request_id != w.engine.searches.latest:
            return  # a newer query is on its way: never show stale results
        self.shown_request = request_id
        if not response.query.strip():
            w.engine.read("home", organise.home, on_done=w.home.set_home)
        w.model.set_response(response)
        if response.query.strip():
            w.search_bar.set_mode(response.mode)
        else:
            w.search_bar.show_expected_mode(bool(w.model_name))
        if w.model.rowCount():
            w.results.setCurrentIndex(w.model.index(0, 0))
        elif response.query.strip():
            sentence = response.no_match_sentence if response.no_match else f"No results for “{response.query.strip()}”."
            w.status.say(sentence, 4000)
        w.results.viewport().update()
        self.show_current_list()
        w.results_shown.emit(request_id)
        if self.pending_open:
            self.pending_open = False
            self.on_open_requested()

    def show_current_list(self) -> None:
        """The hint for an empty graph, the empty-search lists, or the results."""
        w = self.w
        empty = w.catalog is not None and w.catalog.counts.get("entities", 0) == 0
        home = not w.model.query.strip()
        w.left.setCurrentWidget(w.empty_hint if empty else w.home if home else w.results)

    def on_home_open(self, entity_id: int) -> None:
        """An entity opened from the empty-search lists (an access)."""
        self.w.entities.open_entity(entity_id, record=True)

    def on_move(self, step: int) -> None:
        """Up/Down in the search field move through the list on screen."""
        w = self.w
        if w.left.currentWidget() is w.home:
            w.home.step_selection(step)
            return
        rows = w.model.rowCount()
        if not rows:
            return
        row = min(rows - 1, max(0, w.results.currentIndex().row() + step))
        w.results.setCurrentIndex(w.model.index(row, 0))

    def on_open_requested(self) -> None:
        """Enter: open the selected hit, once the latest query's results are on screen."""
        w = self.w
        if self.shown_request != w.engine.searches.latest:
            self.pending_open = True  # open once the latest query's results arrive
            return
        if w.left.currentWidget() is w.home:
            w.home.open_current()
            return
        index = w.results.currentIndex()
        if not index.isValid() and w.model.rowCount():
            index = w.model.index(0, 0)
        if index.isValid():
            self.on_result_activated(index)

    def on_result_activated(self, index) -> None:
        """Open a hit; the first one opened from a list records the list's co-occurrence."""
        model, entities = self.w.model, self.w.entities
        result = model.result(index.row())
        if result is None or (result.entity_id == self.w.editor.entity_id and not entities.navigation_pending()
                              and self._committed_request == self.shown_request):
            return  # already open and counted (the second click of a double click)
        # The first hit opened from a result list makes those hits count as having come up
        # together (co-occurrence); typing alone records nothing, so keystrokes inflate nothing.
        together: tuple[int, ...] = ()
        if self._committed_request != self.shown_request:
            self._committed_request = self.shown_request
            together = tuple(model.result(i).entity_id for i in range(min(model.rowCount(), COOC_HITS)))
        self.w.guard(lambda: entities.load_entity(result.entity_id, True, together))

    def select_result(self, entity_id: int) -> None:
        """The highlighted result follows the open entity (after a relation was followed, Back, a save...)."""
        model, results = self.w.model, self.w.results
        for row in range(model.rowCount()):
            if model.result(row).entity_id == entity_id:
                if results.currentIndex().row() != row:
                    results.setCurrentIndex(model.index(row, 0))
                return
