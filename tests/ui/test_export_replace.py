"""File → Export asks before replacing a file that is not an earlier export, and keeps it when told no."""

from __future__ import annotations

import json

from tests.ui.conftest import JOB_TIMEOUT_MS


def test_export_asks_before_replacing_an_unrelated_file(qtbot, sample_window, tmp_path):
    w = sample_window
    target = tmp_path / "notes.txt"
    target.write_text("hand-written notes\n", encoding="utf-8")
    asked: list[str] = []
    w._ask_save_path = lambda title, suggested, file_filter: str(target)
    w._ask_replace = lambda question: asked.append(question) or False
    w.export_action.trigger()
    assert asked and "is not an earlier memory JSONL export" in asked[0]
    assert target.read_text(encoding="utf-8") == "hand-written notes\n"
    w._ask_replace = lambda question: asked.append(question) or True
    with qtbot.waitSignal(w.job_ended, timeout=JOB_TIMEOUT_MS) as ended:
        w.export_action.trigger()
    assert ended.args == ["export", True] and len(asked) == 2
    assert json.loads(target.read_text(encoding="utf-8").splitlines()[0])["type"] == "entity"
