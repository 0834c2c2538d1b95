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
