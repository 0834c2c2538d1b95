"""Undo and redo of every edit, named in the Edit menu; Ctrl+Z from any focus; the keys text fields must not swallow."""

from __future__ import annotations

from PySide6.QtCore import Qt

from limbic.engine.store.db import Database
from tests.ui.conftest import open_entity, search


def _save(qtbot, w):
    with qtbot.waitSignal(w.entity_saved, timeout=30_000) as saved:
        w.save_action.trigger()
    return saved.args[0]


def _undo(qtbot, w, action=None):
    with qtbot.waitSignal(w.step_done, timeout=30_000) as done:
        (action or w.undo.undo_action).trigger()
    return done.args[0]


def _row(path, entity_id):
    db = Database(path, readonly=True)
    try:
        return db.one("SELECT id, name, created_at FROM entities WHERE id = ?", (entity_id,))
    finally:
        db.close()


def test_ctrl_z_in_the_search_box_restores_a_deleted_entity_with_its_id(qtbot, sample_window, tmp_path):
    w = sample_window
    ed = open_entity(qtbot, w, "Tide Clock")
    entity_id = ed.entity_id
    before = _row(tmp_path / "sample.db", entity_id)
    with qtbot.waitSignal(w.entity_deleted, timeout=30_000):
        w.delete_action.trigger()
    assert w.undo.undo_action.text().replace("&", "") == "Undo delete of “Tide Clock”"
    w.search_bar.focus()
    qtbot.keyClicks(w.search_bar.edit, "tide")
    with qtbot.waitSignal(w.entity_shown, timeout=30_000) as shown:
        qtbot.keyClick(w.search_bar.edit, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert w.search_bar.edit.text() == "tide"  # the query was not what got undone
    assert shown.args == [entity_id]
    assert _row(tmp_path / "sample.db", entity_id) == before  # same id, same creation time
    assert w.undo.redo_action.text().replace("&", "") == "Redo delete of “Tide Clock”"


def test_rename_observation_and_relation_edits_undo_and_redo(qtbot, sample_window):
    w = sample_window
    ed = open_entity(qtbot, w, "Chess")
    obs_before = [ed.obs_list.item(i).text() for i in range(ed.obs_list.count())]
    ed.name_edit.clear()
    qtbot.keyClicks(ed.name_edit, "Chess and Go")
    _save(qtbot, w)
    qtbot.waitUntil(lambda: not ed.is_dirty() and ed.name_edit.text() == "Chess and Go", timeout=30_000)
    assert w.undo.undo_action.text().replace("&", "") == "Undo rename of “Chess”"

    qtbot.keyClicks(ed.obs_new, "Plays the Sicilian defence")
    ed.obs_add.click()
    ed.rel_type.setText("played_with")
    ed.rel_target.setText("Tomás Ferreira")
    ed.rel_add.click()
    _save(qtbot, w)
    qtbot.waitUntil(lambda: not ed.is_dirty() and ed.out_list.count() == 1, timeout=30_000)
    assert w.undo.undo_action.text().replace("&", "") == "Undo edit of “Chess and Go”"

    assert _undo(qtbot, w) == "edit of “Chess and Go”"
    qtbot.waitUntil(lambda: ed.name_edit.text() == "Chess and Go" and ed.out_list.count() == 0, timeout=30_000)
    assert [ed.obs_list.item(i).text() for i in range(ed.obs_list.count())] == obs_before
    assert _undo(qtbot, w) == "rename of “Chess”"
    qtbot.waitUntil(lambda: ed.name_edit.text() == "Chess", timeout=30_000)
    assert search(qtbot, w, "Chess")[0].name == "Chess"

    assert _undo(qtbot, w, w.undo.redo_action) == "rename of “Chess”"
    assert _undo(qtbot, w, w.undo.redo_action) == "edit of “Chess and Go”"
    qtbot.waitUntil(lambda: ed.name_edit.text() == "Chess and Go" and ed.out_list.count() == 1, timeout=30_000)
    assert "Plays the Sicilian defence" in [ed.obs_list.item(i).text() for i in range(ed.obs_list.count())]


def test_keys_the_search_box_must_not_swallow(qtbot, sample_window, tmp_path):
    w = sample_window
    open_entity(qtbot, w, "Chess")
    asked: list[str] = []
    w.entities.confirm_delete = lambda name: asked.append(name) or False
    w.search_bar.focus()
    qtbot.keyClicks(w.search_bar.edit, "alpha beta")
    w.search_bar.edit.setCursorPosition(0)
    qtbot.keyClick(w.search_bar.edit, Qt.Key.Key_Delete, Qt.KeyboardModifier.ControlModifier)
    assert asked == []  # no question about deleting the open entity
    assert w.search_bar.edit.text().strip() == "beta"
    # Ctrl+E exports from the search box.
    target = tmp_path / "out.jsonl"
    w.files.ask_save_path = lambda title, suggested, file_filter: str(target)
    with qtbot.waitSignal(w.job_ended, timeout=60_000):
        qtbot.keyClick(w.search_bar.edit, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert target.exists()


def test_the_shortcuts_list_names_every_shortcut_of_the_window_and_fits(qtbot, sample_window):
    from PySide6.QtGui import QKeySequence
    from PySide6.QtWidgets import QAbstractScrollArea

    from limbic.ui.dialogs.dialogs import ShortcutsDialog

    w = sample_window
    dlg = ShortcutsDialog(w)
    qtbot.addWidget(dlg)
    portable = QKeySequence.SequenceFormat.PortableText
    listed = set()
    for r in range(dlg.table.rowCount()):
        for chunk in dlg.table.item(r, 0).text().split(" / "):
            listed.update(QKeySequence(part.strip()).toString(portable) for part in chunk.split(" or "))
    keys = {s.toString(portable) for a in w.findChildren(type(w.undo.undo_action)) for s in a.shortcuts()[:1]}
    keys.discard("")
    assert sorted(keys - listed) == []
    dlg.show()
    qtbot.waitExposed(dlg)
    assert isinstance(dlg.table, QAbstractScrollArea)
    assert dlg.table.horizontalScrollBar().maximum() == 0 and dlg.table.verticalScrollBar().maximum() == 0
