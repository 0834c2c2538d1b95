"""The search mode is shown once: the switch says what was chosen and, when a search could not follow
it, what it used; no second badge can say something else."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QLabel

from limbic.ui.search.search_bar import SearchBar


def _shown(bar: SearchBar) -> list[str]:
    """Every text in the bar that names a mode."""
    texts = [w.currentText() for w in bar.findChildren(QComboBox) if w.isVisibleTo(bar)]
    texts += [w.text() for w in bar.findChildren(QLabel) if w.isVisibleTo(bar)]
    words = ("hybrid", "semantic", "full text", "meaning", "words")
    return [t for t in texts if any(word in t.lower() for word in words)]


def test_hybrid_is_shown_once_and_a_fallback_is_said_in_the_same_place(qtbot):
    bar = SearchBar()
    qtbot.addWidget(bar)
    bar.set_mode("hybrid")
    assert _shown(bar) == ["Hybrid"]
    bar.set_mode("fts")  # the model is not there: the choice stands, what was used is added to it
    assert _shown(bar) == ["Hybrid · words only"]
    assert "only exact words" in bar.branches.toolTip()
    bar.set_mode("semantic")
    assert _shown(bar) == ["Hybrid · meaning only"]


def test_a_followed_choice_shows_alone_and_a_new_choice_drops_the_old_note(qtbot):
    bar = SearchBar()
    qtbot.addWidget(bar)
    bar.set_mode("fts")
    bar.branches.setCurrentIndex(bar.branches.findData("words"))
    assert _shown(bar) == ["Words only"]
    bar.set_mode("fts")
    assert _shown(bar) == ["Words only"]  # words only was asked for: nothing to add
    assert [bar.branches.itemText(i) for i in range(bar.branches.count())] == ["Hybrid", "Meaning only", "Words only"]
