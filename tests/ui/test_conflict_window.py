"""A choice in the Conflicts view reaches the open editor, and the view speaks the window's language throughout."""

from __future__ import annotations

from PySide6.QtCore import Qt

from limbic.ui.sync import sync_flow
from tests.ui.conftest import make_window, open_entity
from tests.ui.test_conflict_choices import _four_conflicts, _select
from tests.ui.test_spanish_window import spanish  # noqa: F401  (the fixture)


def _view(qtbot, window):
    qtbot.waitUntil(lambda: window.sync.state == "conflicts", timeout=30_000)
    view = window.sync.show_conflicts()
    qtbot.waitUntil(lambda: len(view.conflicts) == 4, timeout=30_000)
    view.activateWindow()  # its keys are the view's own shortcuts: they work where it is the active window
    qtbot.waitUntil(view.isActiveWindow, timeout=5_000)
    view.list.setFocus()
    return view


def _texts(editor) -> list[str]:
    return [editor.obs_list.item(i).text() for i in range(editor.obs_list.count())]


def test_keeping_both_texts_shows_both_in_the_open_editor(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(sync_flow, "FOLDER_DEBOUNCE_MS", 50)
    a = _four_conflicts(tmp_path)
    window = make_window(qtbot, a, wait_model=False)
    editor = open_entity(qtbot, window, "Ada")
    view = _view(qtbot, window)
    text = _select(view, "field", "content")
    other = text.theirs if text.kept == "mine" else text.mine
    assert other not in _texts(editor)
    qtbot.keyClick(view.list, Qt.Key.Key_B)
    # The editor follows the choice without being opened again, as it follows a sync's changes.
    qtbot.waitUntil(lambda: {"deadline in April", "deadline in May"} <= set(_texts(editor)), timeout=30_000)
    type_conflict = _select(view, "field", "type")
    keep = "theirs" if type_conflict.kept == "mine" else "mine"
    qtbot.keyClick(view.list, Qt.Key.Key_T if keep == "theirs" else Qt.Key.Key_M)
    wanted = type_conflict.theirs if keep == "theirs" else type_conflict.mine
    qtbot.waitUntil(lambda: editor.type_edit.currentText() == wanted, timeout=30_000)


def test_deleting_again_clears_the_open_entity_and_says_the_person_chose_it(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(sync_flow, "FOLDER_DEBOUNCE_MS", 50)
    a = _four_conflicts(tmp_path)
    window = make_window(qtbot, a, wait_model=False)
    said: list[str] = []
    monkeypatch.setattr(window.status, "say", lambda text, *args: said.append(text))
    editor = open_entity(qtbot, window, "Charles")
    view = _view(qtbot, window)
    _select(view, "deleted_here", "_row")
    qtbot.keyClick(view.list, Qt.Key.Key_M)  # this device's side: the deletion
    qtbot.waitUntil(lambda: editor.entity_id is None, timeout=30_000)
    assert any("you chose to delete it again" in s for s in said)
    assert not any("another program" in s for s in said)


def test_the_conflicts_view_in_spanish_has_no_english_left(qtbot, tmp_path, monkeypatch, spanish):  # noqa: F811
    monkeypatch.setattr(sync_flow, "FOLDER_DEBOUNCE_MS", 50)
    a = _four_conflicts(tmp_path)
    window = make_window(qtbot, a, wait_model=False)
    view = _view(qtbot, window)
    lines = [view.list.item(i).text() for i in range(view.list.count())]
    english = ("changed on both devices", "deleted here", "deleted on", "kept because", "delete again", "(kept:",
               "observation of", "renamed onto", "mine “", "theirs “")
    assert not [line for line in lines if any(word in line for word in english)], lines
    assert any("cambi" in line for line in lines) and any("borr" in line for line in lines), lines

    _select(view, "deleted_here", "_row")
    theirs = view.theirs.toPlainText()
    # The entity the other device kept, in Spanish and without the file's own fields (when made, privacy flag).
    assert "Nombre: Charles" in theirs.splitlines() and "  · his notes are in a museum" in theirs.splitlines()
    assert not [w for w in ("name:", "type:", "status:", "created at", "private", "observations:") if w in theirs], theirs
    assert view.mine.toPlainText() == "Borrado en este dispositivo."

    _select(view, "rename_taken", "name")
    qtbot.keyClick(view.list, Qt.Key.Key_M)  # this device's name is another entity's there: said, in Spanish
    qtbot.waitUntil(lambda: "Atlas" in view.why.text() and "“Atlas”" in view.why.text().split(";")[0]
                    and not view.why.text().startswith("Detectado"), timeout=30_000)
    assert "Another entity" not in view.why.text() and "Otra entidad" in view.why.text()


def test_a_deleted_entitys_side_lists_what_a_person_knows_it_by(qtbot):
    """The whole row of an entity is shown as fields a person knows, in order: no raw column, no private: 0."""
    from limbic.ui.sync.conflicts_view import shown_value

    text = shown_value({"name": "Charles", "type": "Person", "status": "paused", "created_at": "2026-01-01 10:00:00",
                        "private": 0, "observations": ["designed an engine"]})
    assert text.splitlines() == ["Name: Charles", "Type: Person", "Status: paused", "Observations:",
                                 "  · designed an engine"]
    assert "Private: kept from every assistant" in shown_value({"name": "Ann", "private": 1})


def test_a_choice_that_changes_the_entity_being_edited_keeps_the_edits_and_says_whose_change_it_was(
        qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(sync_flow, "FOLDER_DEBOUNCE_MS", 50)
    a = _four_conflicts(tmp_path)
    window = make_window(qtbot, a, wait_model=False)
    said: list[str] = []
    monkeypatch.setattr(window.status, "say", lambda text, *args: said.append(text))
    editor = open_entity(qtbot, window, "Ada")
    editor.obs_new.setText("born in London")
    editor.obs_add.click()
    assert editor.is_dirty()
    view = _view(qtbot, window)
    _select(view, "field", "content")
    qtbot.keyClick(view.list, Qt.Key.Key_B)
    qtbot.waitUntil(lambda: any("Your choice changed the entity you are editing" in s for s in said), timeout=30_000)
    assert "born in London" in _texts(editor) and editor.is_dirty()  # the person's edit stays


def test_a_long_device_name_keeps_the_buttons_within_the_view(qtbot):
    """The other device's name is on the T button; a long one is shortened there, whole in the side's title."""
    from limbic.engine.sync.conflicts import SyncConflict
    from limbic.ui.sync.conflicts_view import ConflictsView

    name = "Escritorio del estudio de casa, el de la ventana"
    c = SyncConflict(1, "observation", "g1", "Ada", "content", "field", "deadline in April", "deadline in May",
                     "aaaa", "bbbb", "mine", "2026-12-07 10:00:00", my_device_name="laptop", their_device_name=name)
    view = ConflictsView()
    qtbot.addWidget(view)
    view.set_conflicts([c])
    assert view.minimumSizeHint().width() <= 760, view.minimumSizeHint()
    assert name in view.theirs_title.text()
    assert view.buttons["theirs"].text().startswith("Keep Escritorio") and view.buttons["theirs"].text().endswith("(T)")
