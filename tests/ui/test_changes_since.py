"""“What changed since…” in the Activity panel and the command palette: since a date, a typed time, or the
previous time this graph was opened here."""

from __future__ import annotations

from limbic import config
from limbic.engine.graph.graph import Graph
from limbic.engine.store.values import now_utc
from limbic.engine.store.db import Database
from limbic.ui.activity.changes_since import note_opening
from limbic.ui.shell.palette import window_commands
from tests.ui.conftest import make_window


def _graph(path):
    g = Graph(Database(path))
    g.create_entity("Ann", "Person", ["lives in Oslo"])
    g.create_entity("Gone", "Thing")
    g.db.close()


def _changes_since_the_last_opening(path):
    """What another program writes after the window's previous opening of the file."""
    g = Graph(Database(path))
    g.db.activity.set_origin("assistant", "Claude")
    g.add_observations("Ann", ["plays chess"])
    g.create_entity("Bob", "Person")
    g.delete_entity("Gone")
    g.db.close()


def test_since_the_last_opening_by_default_and_an_entity_opens_from_the_list(qtbot, tmp_path):
    path = tmp_path / "g.db"
    _graph(path)
    assert note_opening(str(path), "2000-01-01 00:00:00") is None  # an opening long ago, before any of it…
    w = make_window(qtbot, path, wait_model=False)
    w.close()
    key = str(path.resolve())
    opened = config.load_settings().last_opened[key]
    assert opened > "2000-01-01 00:00:00"  # …and this window's opening is remembered in its place
    # Recorded times are to the second: the other program writes in a later second than the opening.
    qtbot.waitUntil(lambda: now_utc() > opened, timeout=5_000)
    _changes_since_the_last_opening(path)
    w = make_window(qtbot, path, wait_model=False)
    qtbot.waitUntil(lambda: w.activity.changes.previous == opened, timeout=10_000)
    action = w.activity.changes_action
    assert action in [c.action for c in window_commands(w)]  # the command palette lists it
    action.trigger()
    view = w.activity.dock.panel.changes
    assert w.activity.dock.panel.tabs.currentWidget() is view
    qtbot.waitUntil(lambda: view.tree.topLevelItemCount() == 3, timeout=10_000)
    assert view.note.text().startswith("Since you last opened it (")
    rows = view.rows()
    assert rows == ["Ann — 1 change", "  + “plays chess”", "Bob — added", "Gone — deleted"]
    with qtbot.waitSignal(w.entity_shown, timeout=10_000):
        view.tree.itemActivated.emit(view.tree.topLevelItem(1), 0)
    assert w.editor.name_edit.text() == "Bob"
    view.tree.itemActivated.emit(view.tree.topLevelItem(2), 0)
    assert "Gone was deleted" in view.note.text()


def test_a_typed_time_a_picked_day_and_a_bad_date(qtbot, tmp_path):
    path = tmp_path / "g.db"
    _graph(path)
    w = make_window(qtbot, path, wait_model=False)
    w.activity.show_changes()
    view = w.activity.dock.panel.changes
    view.since.setText("banana")
    view.show_button.click()
    qtbot.waitUntil(lambda: "is not a date" in view.note.text(), timeout=10_000)
    assert view.tree.topLevelItemCount() == 0
    view.since.setText("last week")
    view.show_button.click()
    qtbot.waitUntil(lambda: view.note.text().startswith("Since last week: "), timeout=10_000)
    assert {view.tree.topLevelItem(i).text(0) for i in range(view.tree.topLevelItemCount())} == {
        "Ann — added", "Gone — added"}
    assert "history starts on" in view.note.text()  # the graph is newer than last week: said, not refused


def test_an_older_copy_of_the_settings_saved_later_keeps_the_latest_opening(tmp_path):
    stale = config.load_settings()  # read before the opening, as the window's file menu holds it
    assert note_opening(str(tmp_path / "g.db"), "2026-03-01 10:00:00") is None
    stale.zoom = 120
    config.save_settings(stale)  # e.g. the zoom changed afterwards
    now = config.load_settings()
    assert now.zoom == 120 and now.last_opened[str((tmp_path / "g.db").resolve())] == "2026-03-01 10:00:00"
    assert note_opening(str(tmp_path / "g.db"), "2026-03-02 10:00:00") == "2026-03-01 10:00:00"
