"""The status bar's job progress says its words whole: the filled bar covered their first letter."""

from __future__ import annotations

from PySide6.QtWidgets import QMainWindow

from limbic.ui.shell.status import StatusPanel


def test_the_progress_words_are_whole_and_not_drawn_under_the_filled_bar(qtbot):
    """“mbedding 6%”: the words were drawn inside a bar no wider than them, the filled part over the E."""
    window = QMainWindow()
    qtbot.addWidget(window)
    bar = StatusPanel(window)
    window.setStatusBar(bar)
    window.resize(1366, 768)
    window.show()
    bar.job_started("Embedding 3000 entities")
    bar.job_progress("embed", 180, 3000)
    qtbot.waitUntil(lambda: bar.progress_text.isVisible())
    assert not bar.progress.isTextVisible()
    words = bar.progress_text
    assert words.text() == "Embedding 6%"
    assert words.width() >= words.fontMetrics().horizontalAdvance(words.text())
    assert not words.geometry().intersects(bar.progress.geometry())
    bar.job_ended()
    assert not words.isVisible() and not bar.job_running
