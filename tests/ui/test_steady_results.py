"""Results never move under the person: the selection stays, the model's arrival re-ranks nothing, the count shows."""

from __future__ import annotations

import pytest

from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from limbic.ui.search.results import TAIL_SHARE
from tests.ui.conftest import search


@pytest.fixture
def assistant(sample_window, embedder):
    """Another program writing the window's file, as `limbic mcp` would."""
    g = Graph(Database(sample_window.db_path), embedder)
    g.db.origin = "assistant"
    yield g
    g.db.close()


def _selected(w):
    return w.model.result(w.results.currentIndex().row())


def test_the_selected_hit_stays_selected_when_the_same_query_runs_again(qtbot, sample_window):
    w = sample_window
    hits = search(qtbot, w, "harbor")
    assert len(hits) >= 4
    w.results.setCurrentIndex(w.model.index(3, 0))
    chosen = _selected(w).entity_id
    latest = w.engine.searches.latest
    w.rerun_search()  # what an assistant's write does to the results on screen
    qtbot.waitUntil(lambda: w.search.shown_request > latest, timeout=30_000)
    assert _selected(w).entity_id == chosen


def test_an_assistants_write_leaves_the_opened_hit_selected(qtbot, sample_window, assistant):
    w = sample_window
    search(qtbot, w, "harbor")
    chosen = w.model.result(3)
    with qtbot.waitSignal(w.entity_shown, timeout=30_000):
        w.results.clicked.emit(w.model.index(3, 0))  # the person opens the fourth hit
    with assistant.write():  # new hits for the same query push the ranks about
        assistant.upsert_entity("Harbor load test", "Note", ["Harbor API load test on harbor-prod, 2k requests/s"])
        assistant.upsert_entity("Harbor runbook", "Note", ["What to do when Harbor pages at night"])
    shown = lambda: {w.model.result(i).name for i in range(w.model.rowCount())}  # noqa: E731
    qtbot.waitUntil(lambda: "Harbor runbook" in shown(), timeout=30_000)
    assert _selected(w).entity_id == chosen.entity_id


def test_the_model_arriving_does_not_re_rank_hits_on_screen(qtbot, sample_window):
    w = sample_window
    search(qtbot, w, "harbor")
    w.results.setCurrentIndex(w.model.index(1, 0))
    latest, before = w.engine.searches.latest, [w.model.result(i).entity_id for i in range(w.model.rowCount())]
    w.on_model_ready(w.model_name)
    assert w.engine.searches.latest == latest  # no search ran behind the person's back
    assert [w.model.result(i).entity_id for i in range(w.model.rowCount())] == before
    assert "next search" in w.status.last_message


def test_no_good_match_goes_as_soon_as_the_next_query_is_asked(qtbot, sample_window):
    w = sample_window
    assert search(qtbot, w, "qqzzxxj vvwwk") == []
    assert w.model.empty_text.startswith("No")
    w.search_bar.edit.setText("harbor")
    w.search_bar.on_debounced()  # the answer is on its way, not here yet
    assert "No good match" not in w.model.empty_text and "No results" not in w.model.empty_text


def test_results_show_a_count_and_leave_out_the_weak_tail(qtbot, sample_window):
    w = sample_window
    hits = search(qtbot, w, "project")  # one strong hit, then a tail of barely related ones
    best = max(r.limbic_score for r in hits)
    assert all(r.limbic_score >= best * TAIL_SHARE for r in hits)
    assert w.result_count.isVisible()
    assert w.result_count.text().startswith(f"{len(hits)} result")
    assert w.model.cut > 0 and f"{w.model.cut} weak match" in w.result_count.text()
    search(qtbot, w, "")
    assert not w.result_count.isVisible()
