"""The revert preview calls the person's own edits theirs: "you changed since", not "another writer… their work"."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from limbic.engine.graph import revert
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service import activity
from limbic.ui.activity.revert_preview import RevertPreview


def _plan(tmp_path, editor_origin: str, client: str = ""):
    """An assistant's observation, replaced since by ``editor_origin``: the plan of taking the assistant's change back."""
    g = Graph(Database(tmp_path / "g.db"))
    try:
        activity.set_origin(g, "app")
        with g.db.activity.using("create"):
            g.upsert_entity("Tomás Ferreira", "Person", ["Tech lead"])
        activity.set_origin(g, "assistant", "Claude Desktop")
        with g.db.activity.using("add_observations"):
            g.add_observations("Tomás Ferreira", ["Owns the v2.9 release checklist"])
        theirs = int(g.db.scalar("SELECT max(id) FROM change_log"))
        activity.set_origin(g, editor_origin, client)
        obs = int(g.db.scalar("SELECT id FROM observations WHERE content = 'Owns the v2.9 release checklist'"))
        with g.db.activity.using("edit"):
            g.supersede_observation(obs, "Owns the v2.9 and v2.10 release checklists")
        return revert.plan(g, [theirs])
    finally:
        g.db.close()


def _texts(dialog) -> list[str]:
    return [label.text() for label in dialog.findChildren(QLabel)]


def test_the_preview_says_you_for_the_persons_own_edit(qtbot, tmp_path):
    preview = RevertPreview(_plan(tmp_path, "app"), "revert")
    qtbot.addWidget(preview)
    assert "It will keep 1 piece you changed since (your edits stay as you left them):" in _texts(preview)
    assert not any("another writer" in t for t in _texts(preview))
    assert preview.take_button.text() == "Keep yours, take back the rest"
    (kept,) = preview.kept
    assert "was replaced since by “Owns the v2.9 and v2.10 release checklists” (you, in Limbic, " in kept


def test_the_preview_says_another_writer_for_an_assistant(qtbot, tmp_path):
    preview = RevertPreview(_plan(tmp_path, "assistant", "Cursor"), "revert")
    qtbot.addWidget(preview)
    assert "It will keep 1 piece another writer changed since (their work stays as they left it):" in _texts(preview)
    assert preview.take_button.text() == "Keep theirs, take back the rest"
