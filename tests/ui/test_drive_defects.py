"""What a person met driving the window at 1366×768: each test failed before its fix."""

from __future__ import annotations

from PySide6.QtCore import QStringListModel
from PySide6.QtWidgets import QLabel

from limbic.ui.common import window_fit
from limbic.ui.editor.observation_delegate import DATES_ROLE
from limbic.ui.shell.organise_menu import MergeDialog
from tests.ui.conftest import make_window, open_entity


def test_the_merge_dialog_says_the_merged_away_name_stays_as_an_alias(qtbot):
    """A merge keeps "PG" as an alias of the entity kept: the dialog said "PG" is deleted."""
    dialog = MergeDialog("PG", QStringListModel(["Postgres 16"]))
    qtbot.addWidget(dialog)
    words = " ".join(label.text() for label in dialog.findChildren(QLabel))
    assert "alias" in words and "is deleted" not in words


def test_the_row_given_dates_stays_current_after_the_dialog(qtbot, tmp_path, monkeypatch):
    """Right-click → When it held… → OK: the observation stayed unselected, so the next key went nowhere."""
    from tests.ui.test_timeline import _graph

    _graph(tmp_path / "g.db", monkeypatch)
    w = make_window(qtbot, tmp_path / "g.db", wait_model=False)
    ed = open_entity(qtbot, w, "Ann")
    flow = w.timeline

    def dialog(words, start, until):
        d = flow.__class__.make_dialog(flow, words, start, until)
        d.exec = lambda: (d.start.setText("2024-03-01"), d.accept(), d.result())[-1]
        return d

    flow.make_dialog = dialog
    assert ed.obs_list.count() == 2
    ed.obs_list.setCurrentRow(1)
    ed.obs_list.setFocus()
    chosen = ed.obs_list.item(1).text()
    flow.ask_dates(ed.obs_list)
    qtbot.waitUntil(lambda: any(ed.obs_list.item(i).data(DATES_ROLE) == "since 2024-03-01"
                                for i in range(ed.obs_list.count())), timeout=10_000)
    current = ed.obs_list.currentItem()
    assert current is not None and current.text() == chosen and current.isSelected()
    assert current.data(DATES_ROLE) == "since 2024-03-01"


def test_the_activity_panel_takes_its_room_from_the_results_not_the_editor(qtbot, sample_window):
    """At the window's first size on a 1366×768 screen the Activity panel left the editor at its minimum:
    "Also known as" cut off and the alias field a few pixels wide, while the results kept twice that."""
    w = sample_window
    w.resize(1180, 706)
    qtbot.waitUntil(lambda: w.width() == 1180)
    w.splitter.setSizes([620, 540])  # the first run's split
    open_entity(qtbot, w, "Harbor API")
    w.activity.show()
    qtbot.waitUntil(lambda: w.activity.dock.isVisible() and w.activity.dock.width() >= window_fit.MIN_DOCK_W)
    qtbot.wait(50)
    assert w.width() == 1180
    results, editor = w.splitter.sizes()
    assert editor >= 440 and results >= window_fit.MIN_RESULTS_W, (results, editor)
