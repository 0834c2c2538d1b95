"""Searching in the window: top hits, stale results, keyboard, type filter, access recording."""

from __future__ import annotations

from PySide6.QtCore import Qt

from limbic.engine.store.db import Database
from tests.ui.conftest import search


def test_typing_a_query_shows_the_expected_top_hit(qtbot, window):
    w = window
    assert w.left.currentWidget() is w.empty_hint  # an empty graph offers the sample
    with qtbot.waitSignal(w.job_ended, timeout=120_000):
        w.sample_button.click()
    qtbot.waitUntil(lambda: w.left.currentWidget() is w.home)  # an empty query shows the home lists
    with qtbot.waitSignal(w.results_shown, timeout=30_000):
        qtbot.keyClicks(w.search_bar.edit, "charged twice when the payment network timed out")
    qtbot.waitUntil(lambda: w.model.query == "charged twice when the payment network timed out", timeout=30_000)
    assert w.model.result(0).name == "HAR-2291"
    assert w.search_bar.mode_text() == "Hybrid"
    # An exact identifier finds its entity through the text branch too.
    results = search(qtbot, w, "ORC-17")
    assert results[0].name == "ORC-17"
    assert results[0].branch in ("text", "both")


def test_a_slow_query_superseded_by_a_fast_one_never_shows(qtbot, sample_window):
    w = sample_window
    worker = w.engine.worker
    worker.hooks.search_delay["slow query about budgets"] = 1.5
    shown: list[int] = []
    w.results_shown.connect(shown.append)
    slow_id = w.engine.search("slow query about budgets")
    qtbot.wait(100)  # the worker is now inside the slow search
    fast_id = w.engine.search("HAR-2291")
    qtbot.waitUntil(lambda: w.search.shown_request == fast_id, timeout=30_000)
    # The slow search would have finished within this time: nothing more may reach the window.
    with qtbot.assertNotEmitted(w.results_arrived, wait=2_000):
        pass
    assert slow_id not in shown
    assert w.model.query == "HAR-2291" and w.model.result(0).name == "HAR-2291"


def test_the_window_drops_results_that_are_not_the_latest(qtbot, sample_window):
    w = sample_window
    results = search(qtbot, w, "restic backups")
    old_response = type("R", (), {})  # never used: the guard returns before touching it
    newer = w.engine.searches.next()  # a newer request is on its way
    with qtbot.assertNotEmitted(w.results_shown, wait=200):
        w.search.on_results_ready(newer - 1, old_response)
    assert [w.model.result(i).name for i in range(w.model.rowCount())] == [r.name for r in results]


def test_keyboard_moves_opens_and_clears(qtbot, sample_window, tmp_path):
    w = sample_window
    edit = w.search_bar.edit
    w.search_bar.focus()
    results = search(qtbot, w, "Harbor")
    assert len(results) > 2
    qtbot.keyClick(edit, Qt.Key.Key_Down)
    qtbot.keyClick(edit, Qt.Key.Key_Down)
    qtbot.keyClick(edit, Qt.Key.Key_Up)
    assert w.results.currentIndex().row() == 1
    with qtbot.waitSignal(w.entity_shown, timeout=30_000) as shown:
        qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert shown.args == [results[1].entity_id]
    assert w.editor.name_edit.text() == results[1].name
    # Opening a hit counts as an access of that entity.
    db = Database(tmp_path / "sample.db", readonly=True)
    try:
        count = db.scalar("SELECT access_count FROM entity_access WHERE entity_id = ?", (results[1].entity_id,))
    finally:
        db.close()
    assert count == 1
    qtbot.keyClick(edit, Qt.Key.Key_Escape)
    assert edit.text() == ""


def test_ctrl_k_and_slash_focus_the_search(qtbot, sample_window):
    w = sample_window
    w.activateWindow()
    w.results.setFocus()
    qtbot.keyClick(w.results, Qt.Key.Key_Slash)
    qtbot.waitUntil(lambda: w.search_bar.edit.hasFocus())
    w.editor.new_entity()
    qtbot.waitUntil(lambda: w.editor.name_edit.hasFocus())
    qtbot.keyClicks(w.editor.name_edit, "a/b")  # a slash typed in a text field stays there
    assert w.editor.name_edit.text() == "a/b"
    w.focus_action.trigger()
    qtbot.waitUntil(lambda: w.search_bar.edit.hasFocus())


def test_the_type_filter_keeps_only_that_type(qtbot, sample_window):
    w = sample_window
    results = search(qtbot, w, "Harbor", "Person")
    assert results and {r.entity_type for r in results} == {"Person"}
    assert w.search_bar.types.findData("Person") >= 0


def test_a_newer_query_interrupts_a_search_running_inside_sqlite(qtbot, sample_window, monkeypatch):
    from limbic.ui.workers import worker as worker_module

    real_search = worker_module.filtered_search

    def search_with_an_endless_one(graph, query, *args, **kwargs):
        if query == "endless":
            # A statement that never finishes on its own: only an interrupt ends it.
            graph.db.execute("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c").fetchall()
        return real_search(graph, query, *args, **kwargs)

    monkeypatch.setattr(worker_module, "filtered_search", search_with_an_endless_one)
    w = sample_window
    failures: list = []
    w.engine.worker.failed.connect(lambda what, text: failures.append(text))
    reader = w.engine.reader
    qtbot.waitUntil(lambda: bool(reader.path), timeout=10_000)  # searches run on the reader's connection
    endless_id = w.engine.search("endless")
    qtbot.waitUntil(lambda: reader.worker._running == ("search", endless_id), timeout=10_000)
    fast_id = w.engine.search("HAR-2291")
    qtbot.waitUntil(lambda: w.search.shown_request == fast_id, timeout=30_000)
    assert w.model.result(0).name == "HAR-2291"
    assert reader.worker._running is None and failures == []


def test_a_search_asked_before_the_reader_was_ready_is_interrupted_by_a_newer_one(qtbot, sample_window, monkeypatch):
    """The first search of a session can run on the engine's thread; a newer one on the reader
    must still stop it, or every job would wait behind it."""
    from limbic.ui.workers import worker as worker_module

    def endless_search(graph, query, *args, **kwargs):
        graph.db.execute("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c").fetchall()

    w = sample_window
    reader = w.engine.reader
    qtbot.waitUntil(lambda: bool(reader.path), timeout=10_000)
    monkeypatch.setattr(w.engine.worker, "search_op", endless_search)
    path, reader.path = reader.path, ""  # as before the reader has opened the file
    endless_id = w.engine.search("endless")
    reader.path = path
    qtbot.waitUntil(lambda: w.engine.worker._running == ("search", endless_id), timeout=10_000)
    fast_id = w.engine.search("HAR-2291")
    qtbot.waitUntil(lambda: w.search.shown_request == fast_id, timeout=30_000)
    assert w.model.result(0).name == "HAR-2291"
    qtbot.waitUntil(lambda: w.engine.worker._running is None, timeout=10_000)


def test_opening_hits_records_co_occurrence_once_per_result_list(qtbot, sample_window, tmp_path):
    w = sample_window
    results = search(qtbot, w, "Harbor")
    assert len(results) >= 3
    for row in (0, 1):
        with qtbot.waitSignal(w.entity_shown, timeout=30_000):
            w.search.on_result_activated(w.model.index(row, 0))
    db = Database(tmp_path / "sample.db", readonly=True)
    try:
        shown = sorted(r.entity_id for r in results[:10])
        pairs = db.execute("SELECT entity_a_id, entity_b_id, co_count FROM co_occurrences ORDER BY 1, 2").fetchall()
        accessed = dict(db.execute("SELECT entity_id, access_count FROM entity_access"))
    finally:
        db.close()
    assert pairs == [(a, b, 1) for i, a in enumerate(shown) for b in shown[i + 1 :]]
    assert accessed == {results[0].entity_id: 1, results[1].entity_id: 1}
