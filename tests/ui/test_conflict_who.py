"""A conflict the person made is theirs: "you" and "Keep yours", not "another writer" and "Keep theirs"."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from limbic.ui.activity.activity_panel import ConflictDialog
from tests.ui.test_revert_preview_words import _plan


def _texts(dialog) -> str:
    return " ".join(label.text() for label in dialog.findChildren(QLabel)) + " " + dialog.windowTitle()


def test_the_activity_conflict_dialog_says_you_for_the_persons_own_edit(qtbot, tmp_path):
    dialog = ConflictDialog(_plan(tmp_path, "app"), "revert")
    qtbot.addWidget(dialog)
    assert "another writer" not in _texts(dialog) and "someone else" not in _texts(dialog)
    assert "you changed the same things" in dialog.windowTitle()
    assert dialog.keep_button.text() == "Keep yours, take back the rest"
    assert dialog.conflict_rows()[0][1] == "you"


def test_the_activity_conflict_dialog_says_theirs_for_an_assistant(qtbot, tmp_path):
    dialog = ConflictDialog(_plan(tmp_path, "assistant", "Cursor"), "revert")
    qtbot.addWidget(dialog)
    assert "another writer changed the same things" in dialog.windowTitle()
    assert dialog.keep_button.text() == "Keep theirs, take back the rest"
    assert dialog.conflict_rows()[0][1] == "Cursor"


def _conflict(qtbot, tmp_path, origin: str) -> tuple[object, list]:
    """The person edits Ann's text in the window while ``origin`` edits it too, then saves: what was asked."""
    from limbic.engine.graph.graph import Graph
    from limbic.engine.store.db import Database
    from limbic.service import activity
    from tests.ui.conftest import make_window, open_entity

    path = tmp_path / "g.db"
    g = Graph(Database(path))
    g.create_entity("Ann", "Person", ["lives in Oslo"])
    g.db.close()
    w = make_window(qtbot, path, wait_model=False)
    editor = open_entity(qtbot, w, "Ann")
    editor.obs_list.item(0).setText("lives in Bergen")
    asked: list = []
    w.entities.ask_conflict = lambda error: asked.append((error, w.entities.conflict_by_person))
    other = Graph(Database(path))
    try:
        activity.set_origin(other, origin)
        oid = other.db.scalar("SELECT id FROM observations WHERE content = 'lives in Oslo'")
        with qtbot.waitSignal(w.changes_shown, timeout=30_000):
            other.edit_observation(oid, "lives in Trondheim")
    finally:
        other.db.close()
    editor.on_save()
    qtbot.waitUntil(lambda: bool(asked), timeout=30_000)
    return w, asked


def test_the_editor_says_yours_when_the_other_side_is_the_persons_own_edit(qtbot, tmp_path):
    """The person edited Ann on the command line too: the editor asked “Keep theirs”."""
    w, asked = _conflict(qtbot, tmp_path, "cli")
    error, yours = asked[0]
    assert yours
    box, _mine, theirs = w.entities.conflict_box(error, yours)
    assert theirs.text() == "Keep yours from elsewhere" and "another program" not in box.text()
    assert "you changed the same things elsewhere" in box.text()


def test_the_editor_says_theirs_when_an_assistant_wrote(qtbot, tmp_path):
    w, asked = _conflict(qtbot, tmp_path, "assistant")
    error, yours = asked[0]
    assert not yours
    box, _mine, theirs = w.entities.conflict_box(error, yours)
    assert theirs.text() == "Keep theirs" and "another program changed the same things" in box.text()
