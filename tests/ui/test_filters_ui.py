"""Filters in the search and in the browser, applied in the query, by keyboard."""

from __future__ import annotations

from PySide6.QtCore import QDate, Qt

from tests.ui.conftest import search

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
COLLEAGUES = {"Marta Quintero", "Ana Ruiz", "Tomás Ferreira", "Lena Okafor"}


def _pick(qtbot, combo, value: str) -> None:
    """Choose an entry of a focused combo with the arrow keys, as a person without a mouse would."""
    target = combo.findData(value)
    assert target >= 0, value
    while combo.currentIndex() != target:
        qtbot.keyClick(combo, Qt.Key.Key_Down if combo.currentIndex() < target else Qt.Key.Key_Up)


def test_search_filters_by_keyboard_narrow_the_search_itself(qtbot, sample_window):
    w = sample_window
    everything = {r.name for r in search(qtbot, w, "harbor")}
    assert not everything <= COLLEAGUES
    w.search_bar.focus()
    qtbot.keyClick(w.search_bar.edit, Qt.Key.Key_F, CTRL | SHIFT)
    bar = w.search_filters.bar
    assert bar.isVisible() and bar.relation.hasFocus()
    assert bar.relation.findData("works_with") > 0  # the graph's relation types are offered
    _pick(qtbot, bar.relation, "works_with")
    filtered = search(qtbot, w, "harbor")
    # The four colleagues rank below the top of the unfiltered list; the filter still finds them all.
    assert {r.name for r in filtered} == COLLEAGUES
    assert "relation works_with" in w.status.last_message
    qtbot.keyClick(bar.relation, Qt.Key.Key_F, CTRL | SHIFT)  # hide: everything again, the choice kept
    assert not bar.isVisible() and {r.name for r in search(qtbot, w, "harbor")} == everything
    w.search_filters.action.trigger()
    assert {r.name for r in search(qtbot, w, "harbor")} == COLLEAGUES
    bar.clear_button.click()
    assert {r.name for r in search(qtbot, w, "harbor")} == everything


def test_status_and_date_filters_and_a_range_that_ends_first(qtbot, sample_window):
    w = sample_window
    w.search_filters.action.trigger()
    bar = w.search_filters.bar
    bar.status.setFocus()
    _pick(qtbot, bar.status, "paused")
    assert search(qtbot, w, "chess") == []
    bar.status.setCurrentIndex(0)
    bar.updated.preset.setFocus()
    _pick(qtbot, bar.updated.preset, "today")  # the sample was imported today
    assert search(qtbot, w, "chess")[0].name == "Chess"
    _pick(qtbot, bar.created.preset, "range")
    assert bar.created.start.isVisible() and bar.created.end.isVisible()
    bar.created.start.setDate(QDate(2020, 5, 1))
    bar.created.end.setDate(QDate(2020, 4, 1))
    assert "ends (2020-04-01) before it starts (2020-05-01)" in w.status.last_message
    bar.created.end.setDate(QDate(2020, 6, 1))
    assert search(qtbot, w, "chess") == []  # nothing was created in 2020


def test_browser_shows_pinned_and_recent_and_filters_by_words_and_relation(qtbot, sample_window):
    w = sample_window
    with qtbot.waitSignal(w.entity_shown, timeout=30_000):
        w.open_entity("Tide Clock", record=True)
    w.organise.pin_action.trigger()
    qtbot.waitUntil(lambda: "Unpin" in w.organise.pin_action.text().replace("&", ""), timeout=10_000)
    w.organise.browse_action.trigger()
    b = w.organise.browser
    qtbot.waitUntil(lambda: b.types.count() > 3 and b.table.rowCount() == 50, timeout=10_000)
    labels = [b.types.item(i).text() for i in range(4)]
    assert labels[:3] == ["All types (50)", "Pinned (1)", "Recently opened (1)"]
    # Keyboard: Down to "Pinned", then Ctrl+F and words.
    b.types.setFocus()
    with qtbot.waitSignal(b.loaded, timeout=10_000):
        qtbot.keyClick(b.types, Qt.Key.Key_Down)
    assert b.names() == ["Tide Clock"]
    with qtbot.waitSignal(b.loaded, timeout=10_000):
        qtbot.keyClick(b.types, Qt.Key.Key_Down)
    assert b.names() == ["Tide Clock"]  # recently opened
    with qtbot.waitSignal(b.loaded, timeout=10_000):
        qtbot.keyClick(b.types, Qt.Key.Key_Up)
        qtbot.keyClick(b.types, Qt.Key.Key_Up)  # back to all types
    qtbot.keyClick(b.types, Qt.Key.Key_F, CTRL)
    assert b.text.hasFocus()
    with qtbot.waitSignal(b.loaded, timeout=10_000):
        qtbot.keyClicks(b.text, "ledger postgres")
    # Every word, in the name or an observation.
    expected = ["Decision: use Postgres 16 for the Harbor ledger", "Harbor API", "Postgres 16"]
    qtbot.waitUntil(lambda: b.names() == expected, timeout=10_000)
    assert b.count_label.text() == "3 entities match"
    b.text.clear()
    with qtbot.waitSignal(b.loaded, timeout=10_000):
        b.filters.relation.setCurrentIndex(b.filters.relation.findData("works_with"))
    assert set(b.names()) == COLLEAGUES
    b.text.setFocus()
    with qtbot.waitSignal(w.entity_shown, timeout=30_000):
        qtbot.keyClick(b.text, Qt.Key.Key_Return)  # Enter opens the first of the list
    assert w.editor.name_edit.text() == b.names()[0]
    b.close()


def test_filters_are_visible_with_an_empty_query_say_what_they_hide_and_clear_filters_clears_the_type(qtbot,
                                                                                                      sample_window):
    w = sample_window
    line = w.search_filters.line
    assert not line.isVisible()
    search(qtbot, w, "", "Person")
    # An empty query: the filter is in view, with how many entities it leaves.
    qtbot.waitUntil(lambda: "entities match" in line.plain(), timeout=10_000)
    assert line.isVisible() and "type Person" in line.plain()
    assert not w.status.last_message.startswith("Filtered")
    # And the list is what the filter leaves, not the unfiltered recent entities.
    qtbot.waitUntil(lambda: w.home.item(0) is not None and w.home.item(0).text().startswith("Matching"), timeout=10_000)
    rows = [w.home.item(i).text() for i in range(1, w.home.count())]
    assert rows and all(r.endswith("·  Person") for r in rows)
    # A forgotten type: the search says how many hits it hides.
    people = search(qtbot, w, "backup", "Person")
    assert all(r.entity_type == "Person" for r in people)
    qtbot.waitUntil(lambda: "hidden by them" in line.plain(), timeout=10_000)
    # Clear filters is on while only the type is set, and clears the type.
    w.search_filters.action.trigger()
    bar = w.search_filters.bar
    assert bar.clear_button.isEnabled()
    bar.status.setCurrentIndex(bar.status.findData("active"))
    assert w.status.last_message.startswith("Filtered")
    with qtbot.waitSignal(w.results_shown, timeout=10_000):
        bar.clear_button.click()
    assert w.search_bar.entity_type() == "" and not line.isVisible()
    assert not w.status.last_message.startswith("Filtered")  # nothing is filtered any more
    assert any(r.entity_type != "Person" for r in (w.model.result(i) for i in range(w.model.rowCount())))
