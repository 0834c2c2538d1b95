"""An import joins Edit → Undo: undo takes back what it brought, redo brings it again."""

from __future__ import annotations

import json

from tests.ui.conftest import JOB_TIMEOUT_MS


def test_an_import_is_named_in_edit_undo_and_undone_and_redone(qtbot, window, tmp_path):
    w = window
    path = tmp_path / "people.jsonl"
    path.write_text("\n".join(json.dumps(o) for o in (
        {"type": "entity", "name": "Ana", "entityType": "Person", "observations": ["likes tea"]},
        {"type": "entity", "name": "Bo", "entityType": "Person", "observations": []},
    )) + "\n", encoding="utf-8")
    with qtbot.waitSignal(w.job_ended, timeout=JOB_TIMEOUT_MS) as ended:
        w.files.import_path(str(path))
    assert ended.args == ["import", True], w.status.last_message
    qtbot.waitUntil(lambda: w.catalog.counts["entities"] == 2, timeout=JOB_TIMEOUT_MS)
    assert w.undo.undo_action.isEnabled() and w.undo.undo_action.text() == "&Undo import of “people.jsonl”"
    w.undo.undo_action.trigger()
    qtbot.waitUntil(lambda: w.catalog.counts["entities"] == 0, timeout=JOB_TIMEOUT_MS)
    # The list may follow the undone rows before the undo's job has handed its step to Redo.
    qtbot.waitUntil(lambda: w.undo.redo_action.text() == "Re&do import of “people.jsonl”", timeout=JOB_TIMEOUT_MS)
    w.undo.redo_action.trigger()
    qtbot.waitUntil(lambda: w.catalog.counts["entities"] == 2, timeout=JOB_TIMEOUT_MS)
