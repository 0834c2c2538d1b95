"""What a person met driving the window at 1366×768: each test failed before its fix."""

from __future__ import annotations

from PySide6.QtCore import QStringListModel
from PySide6.QtWidgets import QLabel

from limbic.ui.shell.organise_menu import MergeDialog


def test_the_merge_dialog_says_the_merged_away_name_stays_as_an_alias(qtbot):
    """A merge keeps "PG" as an alias of the entity kept: the dialog said "PG" is deleted."""
    dialog = MergeDialog("PG", QStringListModel(["Postgres 16"]))
    qtbot.addWidget(dialog)
    words = " ".join(label.text() for label in dialog.findChildren(QLabel))
    assert "alias" in words and "is deleted" not in words
