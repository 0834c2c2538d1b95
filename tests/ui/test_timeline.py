"""The editor's timeline, the entity as it was at one of its events, and its dates in the world."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.ui.editor.observation_delegate import DATES_ROLE
from tests.history.conftest import Clock, patch_clock
from tests.ui.conftest import make_window, open_entity


def _graph(path, monkeypatch):
    """Ann's life a minute apart in 2025, written by the person and then by Claude."""
    import limbic.engine.graph.graph  # noqa: F401 - loaded before patching, so its name is patched too
    import limbic.engine.store.changes  # noqa: F401

    clock = Clock()
    with monkeypatch.context() as m:
        patch_clock(m, clock)
        g = Graph(Database(path))
        clock.advance(60)
        g.create_entity("Ann", "Person", ["lives in Oslo"])
        g.create_entity("Acme", "Company")
        g.db.activity.set_origin("assistant", "Claude")
        clock.advance(60)
        g.add_observations("Ann", ["plays chess"])
        clock.advance(60)
        g.add_relation("Ann", "Acme", "works_at")
        g.db.close()


def _timeline(qtbot, w):
    panel = w.editor.history_panel
    panel.tabs.setCurrentWidget(panel.timeline)
    qtbot.waitUntil(lambda: panel.timeline.list.count() >= 4, timeout=10_000)
    return panel.timeline


def test_the_timeline_lists_the_entity_life_and_an_event_shows_it_as_it_was(qtbot, tmp_path, monkeypatch):
    _graph(tmp_path / "g.db", monkeypatch)
    w = make_window(qtbot, tmp_path / "g.db", wait_model=False)
    ed = open_entity(qtbot, w, "Ann")
    assert ed.history_panel.isVisible()
    view = _timeline(qtbot, w)
    rows = view.rows()
    assert rows[0].startswith("Claude started a relation · ") and "works_at → Acme" in rows[0]
    assert rows[-1].startswith("You created it · ")
    # The oldest event: Ann before Claude wrote anything.
    view.list.setCurrentRow(view.list.count() - 1)
    view._chosen(view.list.item(view.list.count() - 1))
    flow = w.timeline
    qtbot.waitUntil(flow.showing_past, timeout=10_000)
    assert "As of" in flow.past.banner.text() and "Read-only" in flow.past.banner.text()
    text = flow.past.body.toPlainText()
    assert "lives in Oslo" in text and "plays chess" not in text and "works_at" not in text
    assert not flow.past.earlier.isEnabled() and flow.past.later.isEnabled()
    flow.past.later.click()  # the next event: Claude's observation added
    qtbot.waitUntil(lambda: "plays chess" in flow.past.body.toPlainText(), timeout=10_000)
    assert "works_at" not in flow.past.body.toPlainText() and flow.past.earlier.isEnabled()
    ed.name_edit.setText("Ann (edited)")  # an unsaved edit made before looking back is still there after
    flow.past.back.click()
    assert not flow.showing_past() and ed.stack.currentIndex() == 1 and ed.name_edit.text() == "Ann (edited)"


def test_dates_are_set_shown_beside_the_row_and_undone(qtbot, tmp_path, monkeypatch):
    _graph(tmp_path / "g.db", monkeypatch)
    w = make_window(qtbot, tmp_path / "g.db", wait_model=False)
    ed = open_entity(qtbot, w, "Ann")
    flow = w.timeline
    answers = [("March", ""), ("2024-03-01", "2025-01-31")]

    def dialog(words, start, until):
        d = flow.__class__.make_dialog(flow, words, start, until)
        d.exec = lambda: (d.start.setText(answers[0][0]), d.until.setText(answers[0][1]), d.accept(),
                          d.result())[-1]
        seen.append(d)
        return d

    seen = []
    flow.make_dialog = dialog
    ed.obs_list.setCurrentRow(0)
    flow.ask_dates(ed.obs_list)
    # A date Limbic cannot read: the dialog says so and stays; nothing is written.
    assert not seen[0].error.isHidden() and "must be a date" in seen[0].error.text()
    assert seen[0].result() != QDialog.DialogCode.Accepted
    answers.pop(0)
    with qtbot.waitSignal(w.entity_shown, timeout=10_000):
        flow.ask_dates(ed.obs_list)
    qtbot.waitUntil(lambda: ed.obs_list.item(0).data(DATES_ROLE) == "since 2024-03-01 · until 2025-01-31",
                    timeout=10_000)
    ed.out_list.setCurrentRow(0)
    answers[0] = ("2020-01-01", "")
    with qtbot.waitSignal(w.entity_shown, timeout=10_000):
        flow.ask_dates(ed.out_list)
    qtbot.waitUntil(lambda: ed.out_list.item(0).text() == "works_at → Acme   (since 2020-01-01)", timeout=10_000)
    assert not ed.is_dirty()
    with qtbot.waitSignal(w.entity_shown, timeout=10_000):
        w.undo.on_undo()
    # Only the relation's dates are taken back: the observation's, set by the step before, stay.
    qtbot.waitUntil(lambda: ed.obs_list.item(0).data(DATES_ROLE) == "since 2024-03-01 · until 2025-01-31",
                    timeout=10_000)
    assert ed.out_list.item(0).text() == "works_at → Acme"


def test_a_read_only_file_shows_its_timeline_and_refuses_dates_with_a_sentence(qtbot, tmp_path, monkeypatch):
    import os

    _graph(tmp_path / "g.db", monkeypatch)
    real_access = os.access
    monkeypatch.setattr("limbic.engine.store.db.os.access",
                        lambda p, mode: False if mode == os.W_OK else real_access(p, mode))
    w = make_window(qtbot, tmp_path / "g.db", wait_model=False)
    ed = open_entity(qtbot, w, "Ann")
    assert w.readonly
    _timeline(qtbot, w)  # reading the past needs no writing
    asked = []
    w.timeline.make_dialog = lambda *a: asked.append(a)
    ed.obs_list.setCurrentRow(0)
    w.timeline.ask_dates(ed.obs_list)
    assert asked == [] and "read-only" in w.status.last_message
