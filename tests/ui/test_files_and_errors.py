"""Files and errors: a failed open keeps the graph working, read-only files, bad import lines, file dialogs."""

from __future__ import annotations

import json
import os

from PySide6.QtWidgets import QDialog, QLabel

from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from tests.ui.conftest import make_window, open_entity, search


def test_a_failed_open_leaves_the_previous_graph_fully_working(qtbot, sample_window, tmp_path):
    w = sample_window
    open_entity(qtbot, w, "Chess")
    title, counts = w.windowTitle(), dict(w.catalog.counts)
    junk = tmp_path / "random.db"
    junk.write_bytes(os.urandom(8192))
    with qtbot.waitSignal(w.error_shown, timeout=30_000) as failed:
        w.files.switch_database(str(junk))
    assert "random.db" in failed.args[0]
    assert w.windowTitle() == title and w.catalog is not None and w.catalog.counts == counts
    qtbot.waitUntil(lambda: w.editor.name_edit.text() == "Chess", timeout=30_000)  # shown again
    assert search(qtbot, w, "HAR-2291")[0].name == "HAR-2291"
    ed = open_entity(qtbot, w, "Chess")
    qtbot.keyClicks(ed.obs_new, "Still saving after a failed open")
    ed.obs_add.click()
    with qtbot.waitSignal(w.entity_saved, timeout=30_000):
        w.save_action.trigger()
    assert search(qtbot, w, "Still saving after a failed open")[0].name == "Chess"


def test_a_read_only_file_disables_editing_up_front(qtbot, tmp_path, monkeypatch):
    path = tmp_path / "ro.db"
    g = Graph(Database(path))
    g.upsert_entity("Fixed", "Note", ["cannot change"])
    g.db.close()
    real_access = os.access
    # Root may write anything: pretend the file is not writable, as it is for an ordinary user.
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if (mode & os.W_OK and str(p) == str(path)) else real_access(p, mode, **kw))
    w = make_window(qtbot, path, wait_model=False)
    assert "(read-only)" in w.windowTitle()
    for action in (w.new_action, w.save_action, w.delete_action, w.files.import_action, w.organise.merge_action, w.organise.pin_action):
        assert not action.isEnabled(), action.text()
    ed = open_entity(qtbot, w, "Fixed")
    assert ed.name_edit.isReadOnly() and not ed.obs_new.isEnabled() and not ed.delete_button.isEnabled()
    w.on_dirty_changed(True)
    assert "(read-only)" in w.windowTitle()


def test_an_import_with_bad_lines_lists_every_one(qtbot, sample_window, tmp_path):
    w = sample_window
    source = tmp_path / "mixed.jsonl"
    lines = []
    for i in range(130):
        lines.append(json.dumps({"type": "entity", "name": f"Good {i}", "entityType": "Note"}))
        if i < 120:
            lines.append('{"type": "entity", "name": ')  # bad: cut short
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    w.files.ask_open_path = lambda title, file_filter: str(source)
    with qtbot.waitSignal(w.job_ended, timeout=60_000):
        w.files.import_action.trigger()
    dialog = w.files.import_problems
    assert dialog.isVisible() and not dialog.isModal()
    assert dialog.table.rowCount() == 100
    assert dialog.table.item(0, 0).text() == "2" and "not valid JSON" in dialog.table.item(0, 1).text()
    assert dialog.table.item(99, 0).text() == "200"
    assert "120 lines cannot be read (the first 100 are listed)" in dialog.findChildren(QLabel)[0].text()
    assert not w.findChildren(QDialog, "errorBox")  # no second box on top
    qtbot.wait(300)
    assert dialog.isVisible()  # stays until dismissed
    assert w.catalog.counts["entities"] == 50


def test_dialogs_start_in_the_graphs_folder_and_exports_get_their_extension(qtbot, sample_window, tmp_path, monkeypatch):
    from limbic.ui.common import safe_files

    w = sample_window
    seen: dict = {}

    def fake_save(parent, title, suggested, file_filter, confirm_overwrite=True, default_suffix=""):
        seen["suggested"], seen["suffix"] = suggested, default_suffix
        return str(tmp_path / "exports" / "mine")

    (tmp_path / "exports").mkdir()
    monkeypatch.setattr(safe_files, "save_file", fake_save)
    with qtbot.waitSignal(w.job_ended, timeout=60_000):
        w.files.export_action.trigger()
    assert seen["suggested"] == str(tmp_path / "sample.jsonl") and seen["suffix"] == "jsonl"
    assert (tmp_path / "exports" / "mine.jsonl").is_file()
    assert w.status.last_message.startswith("Exported 50 entities and")
    assert w.files.start_folder() == tmp_path / "exports"  # the next dialog starts where this one ended


def test_a_damaged_file_is_refused_when_the_window_opens_it(qtbot, tmp_path):
    from limbic.ui.shell.main_window import MainWindow
    from tests.ui.conftest import _OPEN_WINDOWS

    path = tmp_path / "damaged.db"
    g = Graph(Database(path))
    with g.write():
        for i in range(600):
            g.upsert_entity(f"Entity {i}", "Note", [f"observation number {i} " * 5])
    g.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    g.db.close()
    data = bytearray(path.read_bytes())
    for offset in range(len(data) // 2, len(data) // 2 + 3 * 4096, 97):  # scribble over three pages
        data[offset] = (data[offset] + 101) % 256
    path.write_bytes(bytes(data))
    before = path.read_bytes()
    w = MainWindow(path)
    qtbot.addWidget(w)
    _OPEN_WINDOWS.append(w)
    w.show()
    with qtbot.waitSignal(w.error_shown, timeout=60_000) as shown:
        w.start()
    assert "damaged" in shown.args[0] and "Traceback" not in shown.args[0]
    assert w.catalog is None
    w.close()
    qtbot.waitUntil(lambda: not w.engine.thread.isRunning(), timeout=30_000)
    assert path.read_bytes() == before  # nothing was written into it
