"""The status bar never contradicts the filters line above the results."""

from __future__ import annotations

from tests.ui.conftest import search


def test_a_type_set_after_clearing_the_filters_replaces_filters_cleared(qtbot, sample_window):
    """The status bar said “Filters cleared: searching everything.” while the line above the list said
    “Filters on: type Person · 5 entities match”."""
    w = sample_window
    line = w.search_filters.line
    search(qtbot, w, "backup")
    w.search_filters.action.trigger()
    bar = w.search_filters.bar
    bar.status.setCurrentIndex(bar.status.findData("active"))
    assert w.status.last_message.startswith("Filtered")
    with qtbot.waitSignal(w.results_shown, timeout=10_000):
        bar.clear_button.click()
    assert w.status.last_message == "Filters cleared: searching everything."
    search(qtbot, w, "", "Person")
    qtbot.waitUntil(lambda: "entities match" in line.plain(), timeout=10_000)
    assert "Filters cleared" not in w.status.last_message
    assert "type Person" in w.status.last_message


def test_clearing_the_bar_while_a_type_is_on_does_not_say_searching_everything(qtbot, sample_window):
    w = sample_window
    search(qtbot, w, "backup", "Person")
    w.search_filters.action.trigger()
    bar = w.search_filters.bar
    bar.status.setCurrentIndex(bar.status.findData("active"))
    assert "status active" in w.status.last_message.lower() or w.status.last_message.startswith("Filtered")
    bar.status.setCurrentIndex(0)  # the bar's own filters off; the type stays
    qtbot.waitUntil(lambda: "hidden by them" in w.search_filters.line.plain() or w.search_filters.line.isVisible(),
                    timeout=10_000)
    assert "searching everything" not in w.status.last_message
    assert "type Person" in w.status.last_message
