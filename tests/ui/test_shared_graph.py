"""One graph, two programs: another program's commits show up in the window; nobody's edit is undone."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFileDialog

from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from limbic.service import entities as ops
from tests.ui.conftest import open_entity, search

OUTSIDE_WAIT_MS = 30_000  # how long the test waits for another program's commit to show (it polls every 0.5 s)


@pytest.fixture
def assistant(sample_window, embedder):
    """Another program writing the window's file, as `limbic mcp` would."""
    g = Graph(Database(sample_window.db_path), embedder)
    g.db.origin = "assistant"
    yield g
    g.db.close()


def test_an_assistants_new_entities_appear_in_the_window_by_themselves(qtbot, sample_window, assistant):
    w = sample_window
    search(qtbot, w, "sourdough starter feeding")
    before = w.catalog.counts["entities"]
    with assistant.write():
        assistant.upsert_entity("Sourdough starter", "Recipe", ["Feed the sourdough starter twice a day with rye flour"])
        assistant.upsert_entity("Rye flour", "Ingredient", ["Whole rye flour from the mill"])
        assistant.upsert_entity("Bread schedule", "Plan", ["Bake on Saturdays after feeding the starter"])
    shown = lambda: {w.model.result(i).name for i in range(w.model.rowCount())}  # noqa: E731
    qtbot.waitUntil(lambda: "Sourdough starter" in shown(), timeout=OUTSIDE_WAIT_MS)
    assert w.catalog.counts["entities"] == before + 3
    assert "Sourdough starter" in w.catalog.names.values()
    assert "3 entities added by an assistant" in w.status.last_message


def test_the_open_entity_follows_an_outside_change_and_an_outside_delete(qtbot, sample_window, assistant):
    w = sample_window
    editor = open_entity(qtbot, w, "HAR-2291")
    with qtbot.waitSignal(w.entity_shown, timeout=10_000):
        assistant.add_observations("HAR-2291", ["Reopened by the assistant after the audit"])
    assert "Reopened by the assistant after the audit" in [t for _, t in editor.draft().observations]
    with qtbot.waitSignal(w.changes_shown, timeout=10_000):
        assistant.delete_entity("HAR-2291")
    qtbot.waitUntil(lambda: not editor.has_entity, timeout=5_000)
    assert "deleted by another program" in w.status.last_message


def test_a_save_after_an_outside_change_keeps_both(qtbot, sample_window, assistant):
    w = sample_window
    editor = open_entity(qtbot, w, "HAR-2291")
    editor.type_edit.setEditText("Incident")  # the person's edit: the type only
    assert editor.is_dirty()
    target = next(n for n in w.catalog.names.values() if n != "HAR-2291")
    with qtbot.waitSignal(w.changes_shown, timeout=10_000):
        assistant.add_observations("HAR-2291", ["Assistant: linked to the outage report"])
        assistant.add_relation("HAR-2291", target, "mentions")
    assert editor.is_dirty()  # the person's draft is not thrown away
    with qtbot.waitSignal(w.entity_saved, timeout=10_000):
        editor.on_save()
    view = ops.load_view(assistant, "HAR-2291")
    assert view.entity.entity_type == "Incident"
    assert "Assistant: linked to the outage report" in view.entity.observation_texts
    assert ("mentions", target) in {(r.relation_type, r.to_name) for r in view.outgoing}


def test_a_true_conflict_is_shown_to_the_person_who_decides(qtbot, sample_window, assistant):
    w = sample_window
    editor = open_entity(qtbot, w, "HAR-2291")
    oid, text = editor.draft().observations[0]
    editor.obs_list.item(0).setText(text + " (checked by me)")
    asked: list = []

    def answer(error):
        asked.append(error)
        return ops.MINE

    w.entities.ask_conflict = answer
    with qtbot.waitSignal(w.changes_shown, timeout=10_000):
        assistant.edit_observation(oid, text + " (checked by the assistant)")
    with qtbot.waitSignal(w.entity_saved, timeout=10_000):
        editor.on_save()
    assert len(asked) == 1 and asked[0].conflicts[0].theirs == text + " (checked by the assistant)"
    assert assistant.get_entity("HAR-2291").observation_texts[0] == text + " (checked by me)"


def test_going_back_to_editing_after_a_conflict_writes_nothing(qtbot, sample_window, assistant):
    w = sample_window
    editor = open_entity(qtbot, w, "HAR-2291")
    oid, text = editor.draft().observations[0]
    editor.obs_list.item(0).setText("mine")
    w.entities.ask_conflict = lambda error: None
    with qtbot.waitSignal(w.changes_shown, timeout=10_000):
        assistant.edit_observation(oid, "theirs")
    editor.on_save()
    qtbot.waitUntil(lambda: "conflict" in w.status.last_message, timeout=10_000)
    assert assistant.get_entity("HAR-2291").observation_texts[0] == "theirs"
    assert editor.is_dirty()


def _browse_with_the_real_dialog(qtbot, w, folder):
    """Open the app's own Open dialog on ``folder``, let it list and type every file, then cancel it."""
    seen: list = []

    def inspect() -> None:
        dialog = next(d for d in w.findChildren(QFileDialog) if d.isVisible())
        from PySide6.QtWidgets import QFileSystemModel

        model = dialog.findChild(QFileSystemModel)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            qtbot.wait(50)
            root = model.index(str(folder))
            for row in range(model.rowCount(root)):
                for col in range(4):  # name, size, type, date: what the view paints
                    model.data(model.index(row, col, root))
                model.fileIcon(model.index(row, 0, root))
            if model.rowCount(root) >= 3:
                seen.append(model.rowCount(root))
        dialog.reject()

    QTimer.singleShot(200, inspect)
    path = type(w.files).ask_open_path(w.files, "Open database", "All files (*);;Limbic database (*.db)")
    assert path == "" and seen  # the dialog listed the graph, its -wal and -shm


def test_file_dialogs_never_drop_the_apps_locks_on_the_open_graph(qtbot, sample_window, monkeypatch, tmp_path):
    w = sample_window
    folder = w.db_path.parent
    monkeypatch.setattr("pathlib.Path.home", lambda: folder)
    editor = open_entity(qtbot, w, "HAR-2291")
    editor.obs_new.setText("Written before the dialog")
    editor.on_add_observation()
    with qtbot.waitSignal(w.entity_saved, timeout=10_000):
        editor.on_save()
    assert (folder / (w.db_path.name + "-wal")).exists()
    _browse_with_the_real_dialog(qtbot, w, folder)
    # Another program connects, writes and closes. If the app's locks were gone, closing the
    # last connection it knows of would delete the app's -wal and -shm from under it.
    code = (
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
        "c.execute(\"INSERT INTO meta(key, value) VALUES ('outside', 'yes')\"); c.commit(); c.close()"
    )
    subprocess.run([sys.executable, "-c", code, str(w.db_path)], check=True, timeout=60)
    assert (folder / (w.db_path.name + "-wal")).exists()
    editor = open_entity(qtbot, w, "HAR-2291")
    editor.obs_new.setText("Written after the dialog")
    editor.on_add_observation()
    with qtbot.waitSignal(w.entity_saved, timeout=10_000):
        editor.on_save()
    w.close()
    qtbot.waitUntil(lambda: not w.engine.thread.isRunning(), timeout=30_000)
    from limbic.engine.check import check_graph

    g = Graph(Database(w.db_path))
    try:
        texts = g.get_entity("HAR-2291").observation_texts
        assert "Written before the dialog" in texts and "Written after the dialog" in texts
        assert g.db.get_meta("outside") == "yes"
        report = check_graph(g.db)
        assert report.consistent, report
    finally:
        g.db.close()
