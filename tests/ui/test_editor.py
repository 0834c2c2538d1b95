"""Editor round trips: create, rename, delete and undo, unsaved changes, Back/Forward."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from tests.ui.conftest import open_entity, search


def _save(qtbot, w):
    with qtbot.waitSignal(w.entity_saved, timeout=30_000) as saved:
        w.save_action.trigger()
    return saved.args[0]


def test_create_then_found_by_search(qtbot, sample_window):
    w = sample_window
    w.new_action.trigger()
    ed = w.editor
    qtbot.keyClicks(ed.name_edit, "Quokka sighting")
    ed.type_edit.setEditText("Event")
    qtbot.keyClicks(ed.obs_new, "Saw a quokka on Rottnest Island at dawn")
    ed.obs_add.click()
    assert ed.is_dirty()
    entity_id = _save(qtbot, w)
    qtbot.waitUntil(lambda: ed.entity_id == entity_id and not ed.is_dirty(), timeout=30_000)
    # Found at once, by meaning and by its words: the vector was computed when it was saved.
    results = search(qtbot, w, "small marsupial seen on an island")
    assert results[0].name == "Quokka sighting"
    assert results[0].branch in ("meaning", "both")


def test_edit_observation_shows_up_in_search_at_once(qtbot, sample_window):
    w = sample_window
    ed = open_entity(qtbot, w, "Chess")
    qtbot.keyClicks(ed.obs_new, "Joined the Benimaclet chess club on Tuesdays")
    ed.obs_add.click()
    ed.obs_list.item(0).setText("Rapid rating 1702 on Lichess")
    _save(qtbot, w)
    results = search(qtbot, w, "1702")
    assert results[0].name == "Chess"
    assert results[0].observations[0] == "Rapid rating 1702 on Lichess"


def test_rename_keeps_relations(qtbot, sample_window):
    w = sample_window
    ed = open_entity(qtbot, w, "Harbor API")
    ed.name_edit.clear()
    qtbot.keyClicks(ed.name_edit, "Harbor Gateway")
    _save(qtbot, w)
    ed = open_entity(qtbot, w, "HAR-2291")
    outgoing = [ed.out_list.item(i).text() for i in range(ed.out_list.count())]
    assert "belongs_to → Harbor Gateway" in outgoing
    assert search(qtbot, w, "Harbor Gateway")[0].name == "Harbor Gateway"


def test_add_relation_with_completion_and_follow_it(qtbot, sample_window):
    w = sample_window
    ed = open_entity(qtbot, w, "Chess")
    assert "Marta Quintero" in ed.names_model.stringList()
    assert "works_with" in ed.rel_types_model.stringList()
    ed.rel_type.setText("played_with")
    ed.rel_target.setText("Tomás Ferreira")
    ed.rel_add.click()
    _save(qtbot, w)
    qtbot.waitUntil(lambda: ed.out_list.count() == 1 and not ed.is_dirty(), timeout=30_000)
    with qtbot.waitSignal(w.entity_shown, timeout=30_000):
        ed.on_follow(ed.out_list.item(0))
    assert ed.name_edit.text() == "Tomás Ferreira"
    incoming = [ed.in_list.item(i).text() for i in range(ed.in_list.count())]
    assert "played_with ← Chess" in incoming
    # Back and Forward (Alt+Left / Alt+Right) walk the opened entities.
    with qtbot.waitSignal(w.entity_shown, timeout=30_000):
        w.entities.back_action.trigger()
    assert ed.name_edit.text() == "Chess"
    with qtbot.waitSignal(w.entity_shown, timeout=30_000):
        w.entities.forward_action.trigger()
    assert ed.name_edit.text() == "Tomás Ferreira"


def test_a_relation_whose_target_is_gone_at_save_is_refused_in_a_sentence(qtbot, sample_window):
    w = sample_window
    ed = open_entity(qtbot, w, "Chess")
    # As if the target existed when the relation was added and was deleted (by another program) before Save.
    ed._target_exists = lambda name: True
    ed.rel_type.setText("played_with")
    ed.rel_target.setText("Nobody At All")
    ed.rel_add.click()
    with qtbot.waitSignal(w.error_shown, timeout=30_000) as failed:
        w.save_action.trigger()
    assert "Nobody At All" in failed.args[0] and "Traceback" not in failed.args[0]
    assert ed.is_dirty()  # the draft is kept: nothing is lost
    qtbot.waitUntil(lambda: "Nobody At All" in w.status.last_message)


def test_delete_then_undo_brings_everything_back(qtbot, sample_window):
    w = sample_window
    ed = open_entity(qtbot, w, "Tide Clock")
    before_out = sorted(ed.out_list.item(i).text() for i in range(ed.out_list.count()))
    before_in = sorted(ed.in_list.item(i).text() for i in range(ed.in_list.count()))
    before_obs = [ed.obs_list.item(i).text() for i in range(ed.obs_list.count())]
    with qtbot.waitSignal(w.entity_deleted, timeout=30_000):
        w.delete_action.trigger()
    assert not ed.has_entity
    assert "Tide Clock" not in [r.name for r in search(qtbot, w, "Tide Clock")]
    assert w.undo.undo_action.isEnabled()
    with qtbot.waitSignal(w.entity_shown, timeout=30_000):
        w.undo.undo_action.trigger()
    assert ed.name_edit.text() == "Tide Clock"
    assert [ed.obs_list.item(i).text() for i in range(ed.obs_list.count())] == before_obs
    assert sorted(ed.out_list.item(i).text() for i in range(ed.out_list.count())) == before_out
    assert sorted(ed.in_list.item(i).text() for i in range(ed.in_list.count())) == before_in
    assert search(qtbot, w, "Tide Clock")[0].name == "Tide Clock"


def test_unsaved_changes_are_never_dropped_silently(qtbot, sample_window):
    w = sample_window
    ed = open_entity(qtbot, w, "Chess")
    ed.name_edit.setText("Chess and Go")
    ed.on_edited()
    asked: list[str] = []

    def cancel():
        asked.append(ed.draft().name)
        return QMessageBox.StandardButton.Cancel

    w.ask_unsaved = cancel
    w.open_entity("Running")
    qtbot.wait(300)
    assert asked == ["Chess and Go"]
    assert ed.name_edit.text() == "Chess and Go" and ed.is_dirty()
    # Save: the change is written, then the other entity opens.
    w.ask_unsaved = lambda: QMessageBox.StandardButton.Save
    with qtbot.waitSignal(w.entity_shown, timeout=30_000):
        w.open_entity("Running")
    assert ed.name_edit.text() == "Running"
    assert search(qtbot, w, "Chess and Go")[0].name == "Chess and Go"


def test_an_observation_is_edited_in_place_over_several_lines(qtbot, sample_window):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QPlainTextEdit

    w = sample_window
    ed = open_entity(qtbot, w, "Chess")
    item = ed.obs_list.item(0)
    ed.obs_list.setCurrentItem(item)
    ed.obs_list.editItem(item)
    qtbot.waitUntil(lambda: ed.obs_list.findChild(QPlainTextEdit, "observationEditor") is not None)
    editor = ed.obs_list.findChild(QPlainTextEdit, "observationEditor")
    editor.selectAll()
    qtbot.keyClicks(editor, "Openings: Sicilian")
    qtbot.keyClick(editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)  # a new line, not the end of editing
    qtbot.keyClicks(editor, "Endgames: rook and pawn")
    qtbot.keyClick(editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # Ctrl+Enter keeps it too
    qtbot.waitUntil(lambda: ed.obs_list.item(0).text() == "Openings: Sicilian\nEndgames: rook and pawn")
    assert ed.is_dirty()
    _save(qtbot, w)
    results = search(qtbot, w, "rook and pawn endgames")
    assert results[0].name == "Chess"
    assert "Openings: Sicilian\nEndgames: rook and pawn" in results[0].observations
