"""The window's Created/Updated filters take a time as people say it, as a search does ("last week", "en marzo")."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.conftest import search


def _say(qtbot, date_range, words: str) -> None:
    date_range.preset.setCurrentIndex(date_range.preset.findData("said"))
    assert date_range.said.isVisible()
    date_range.said.setFocus()
    date_range.said.setText(words)  # typed keys would be ASCII only ("año")
    qtbot.keyClick(date_range.said, Qt.Key.Key_Return)


def test_updated_and_created_take_words_and_say_when_they_are_no_time(qtbot, sample_window):
    w = sample_window
    w.search_filters.action.trigger()
    bar = w.search_filters.bar
    _say(qtbot, bar.updated, "hoy")  # the sample was imported today
    assert bar.value().updated_from == "hoy" == bar.value().updated_to
    assert search(qtbot, w, "chess")[0].name == "Chess"
    _say(qtbot, bar.created, "el año pasado")  # nothing was created last year
    assert search(qtbot, w, "chess") == []
    _say(qtbot, bar.created, "soonish")
    assert "“soonish” is not a date" in w.status.last_message
    bar.clear()
    assert not bar.updated.said.isVisible() and bar.value().is_empty()
