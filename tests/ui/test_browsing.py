"""Browsing and organising in the window: empty-query lists, the browser, the mode switch, pin, merge, type rename."""

from __future__ import annotations

from PySide6.QtCore import Qt

from limbic.ui.search.home import ID_ROLE
from tests.ui.conftest import open_entity, search


def test_empty_query_lists_opened_changed_and_pinned(qtbot, sample_window):
    w = sample_window
    ed = open_entity(qtbot, w, "Tide Clock")
    w.organise.pin_action.trigger()
    qtbot.waitUntil(lambda: "Unpin" in w.organise.pin_action.text().replace("&", ""), timeout=10_000)
    search(qtbot, w, "")
    assert w.left.currentWidget() is w.home
    qtbot.waitUntil(lambda: ed.entity_id in w.home.entity_ids(), timeout=10_000)
    texts = [w.home.item(i).text() for i in range(w.home.count())]
    assert texts[0] == "Pinned" and "Tide Clock" in texts[1]
    assert "Recently changed" in texts
    # Keyboard: the search box's arrows and Enter drive the list.
    open_entity(qtbot, w, "Chess")
    w.search_bar.focus()
    qtbot.waitUntil(lambda: w.home.currentItem() is not None, timeout=5_000)
    assert w.home.currentItem().data(ID_ROLE) == w.editor.entity_id  # the list highlights the open entity
    for _ in range(w.home.count()):  # up to the top of the list
        qtbot.keyClick(w.search_bar.edit, Qt.Key.Key_Up)
    with qtbot.waitSignal(w.entity_shown, timeout=30_000) as shown:
        qtbot.keyClick(w.search_bar.edit, Qt.Key.Key_Return)
    assert shown.args == [w.home.entity_ids()[0]]  # the pinned one, listed first


def test_browser_by_type_with_counts_sorted_and_keyboard(qtbot, sample_window):
    w = sample_window
    w.organise.browse_action.trigger()
    b = w.organise.browser
    qtbot.waitUntil(lambda: b.types.count() > 1 and b.table.rowCount() == 50, timeout=10_000)
    assert b.types.item(0).text() == "All types (50)"
    person_row = next(i for i in range(b.types.count()) if b.types.item(i).text().startswith("Person ("))
    n_people = int(b.types.item(person_row).text().split("(")[1].rstrip(")"))
    with qtbot.waitSignal(b.loaded, timeout=10_000):
        b.types.setCurrentRow(person_row)
    assert b.table.rowCount() == n_people and {b.table.item(r, 1).text() for r in range(n_people)} == {"Person"}
    assert b.names() == sorted(b.names(), key=str.casefold)
    with qtbot.waitSignal(b.loaded, timeout=10_000):
        qtbot.keyClick(b, Qt.Key.Key_2, Qt.KeyboardModifier.AltModifier)  # sort by last change
    assert b.sort.currentData() == "date"
    b.table.setFocus()
    b.table.setCurrentCell(1, 0)
    name = b.table.item(1, 0).text()
    with qtbot.waitSignal(w.entity_shown, timeout=30_000):
        qtbot.keyClick(b.table, Qt.Key.Key_Return)
    assert w.editor.name_edit.text() == name
    b.close()


def test_mode_switch_words_only_and_meaning_only(qtbot, sample_window):
    w = sample_window
    bar = w.search_bar
    bar.branches.setCurrentIndex(bar.branches.findData("words"))
    results = search(qtbot, w, "charged twice when the payment network timed out")
    assert results and all(r.branch == "text" for r in results) and bar.mode_text() == "Words only"
    bar.branches.setCurrentIndex(bar.branches.findData("meaning"))
    results = search(qtbot, w, "charged twice when the payment network timed out")
    assert results and all(r.branch == "meaning" for r in results)


def test_merge_from_the_menu_then_undo(qtbot, sample_window):
    w = sample_window
    open_entity(qtbot, w, "Chess")
    chess_obs = [w.editor.obs_list.item(i).text() for i in range(w.editor.obs_list.count())]
    w.organise.ask_merge_target = lambda source: "Running"
    with qtbot.waitSignal(w.entity_shown, timeout=30_000):
        w.organise.merge_action.trigger()
    ed = w.editor
    assert ed.name_edit.text() == "Running"
    merged_obs = [ed.obs_list.item(i).text() for i in range(ed.obs_list.count())]
    assert all(o in merged_obs for o in chess_obs)
    assert "Chess" not in [r.name for r in search(qtbot, w, "Chess")][:1]
    assert w.undo.undo_action.text().replace("&", "") == "Undo merge of “Chess” into “Running”"
    with qtbot.waitSignal(w.step_done, timeout=30_000):
        w.undo.undo_action.trigger()
    assert search(qtbot, w, "Chess")[0].name == "Chess"


def test_rename_type_from_the_menu(qtbot, sample_window):
    w = sample_window
    w.organise.ask_type_rename = lambda current: ("Person", "Human")
    with qtbot.waitSignal(w.changes_shown, timeout=30_000):
        w.organise.rename_type_action.trigger()
    qtbot.waitUntil(lambda: "Human" in w.catalog.entity_types and "Person" not in w.catalog.entity_types, timeout=10_000)
    assert w.undo.undo_action.text().replace("&", "") == "Undo type rename of “Person” to “Human”"


def test_the_highlighted_result_follows_the_open_entity(qtbot, sample_window):
    w = sample_window
    results = search(qtbot, w, "Harbor")
    assert len(results) >= 3 and w.results.currentIndex().row() == 0
    open_entity(qtbot, w, results[2].entity_id)  # as when a relation is followed
    assert w.results.currentIndex().row() == 2
    open_entity(qtbot, w, results[1].entity_id)
    assert w.results.currentIndex().row() == 1
    with qtbot.waitSignal(w.entity_shown, timeout=30_000):
        w.entities.back_action.trigger()
    assert w.results.currentIndex().row() == 2


def test_at_the_minimum_size_the_results_keep_the_badge_and_score_in_view(qtbot, sample_window):
    from limbic.ui.search.results import bar_layout

    w = sample_window
    search(qtbot, w, "Harbor")
    w.resize(w.minimumSizeHint())
    qtbot.wait(200)
    view = w.results
    assert view.horizontalScrollBar().maximum() == 0  # nothing to scroll sideways to
    rect = view.visualRect(w.model.index(0, 0))
    assert rect.right() <= view.viewport().width()  # the row, its badge and its score, fit the list
    fm = view.fontMetrics()
    score_w = fm.horizontalAdvance("score 0.924")
    labelled, bar_w = bar_layout(view.viewport().width() - 16, fm, score_w)
    assert labelled or 4 * (bar_w + 4) + score_w <= view.viewport().width() - 16
