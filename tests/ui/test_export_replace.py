"""File → Export asks before replacing a file that is not an earlier export, and keeps it when told no."""

from __future__ import annotations

import json

from tests.ui.conftest import JOB_TIMEOUT_MS


def test_export_asks_before_replacing_an_unrelated_file(qtbot, sample_window, tmp_path):
    w = sample_window
    target = tmp_path / "notes.txt"
    target.write_text("hand-written notes\n", encoding="utf-8")
    asked: list[str] = []
    w.files.ask_save_path = lambda title, suggested, file_filter: str(target)
    w.files.ask_replace = lambda question: asked.append(question) or False
    w.files.export_action.trigger()
    assert asked and "is not an earlier memory JSONL export" in asked[0]
    assert target.read_text(encoding="utf-8") == "hand-written notes\n"
    w.files.ask_replace = lambda question: asked.append(question) or True
    with qtbot.waitSignal(w.job_ended, timeout=JOB_TIMEOUT_MS) as ended:
        w.files.export_action.trigger()
    assert ended.args == ["export", True] and len(asked) == 2
    assert json.loads(target.read_text(encoding="utf-8").splitlines()[0])["type"] == "entity"


def test_restoring_another_graph_asks_first(qtbot, sample_window, tmp_path):
    from limbic.engine.store.db import Database
    from limbic.engine.graph.graph import Graph

    w = sample_window
    other = tmp_path / "other.db"
    g = Graph(Database(other))
    g.upsert_entity("Unrelated", "Thing", ["from another graph"])
    g.db.close()
    before = w.catalog.counts["entities"]
    asked: list[str] = []
    w.files.ask_replace = lambda question: asked.append(question) or False
    with qtbot.waitSignal(w.job_ended, timeout=JOB_TIMEOUT_MS) as ended:
        w.files.restore_backup(str(other))
    assert ended.args == ["restore-backup", False]
    qtbot.waitUntil(lambda: bool(asked), timeout=JOB_TIMEOUT_MS)
    assert "holds another graph than" in asked[0] and "--force" not in asked[0]
    assert w.catalog.counts["entities"] == before
    w.files.ask_replace = lambda question: asked.append(question) or True
    with qtbot.waitSignal(w.job_ended, timeout=JOB_TIMEOUT_MS):
        w.files.restore_backup(str(other))
    qtbot.waitUntil(lambda: len(asked) == 2, timeout=JOB_TIMEOUT_MS)
    qtbot.waitUntil(lambda: w.catalog.counts["entities"] == 1, timeout=JOB_TIMEOUT_MS)
