"""Exports and opens that would surprise ask first: a CSV export into a folder of notes, a JSONL opened as a graph."""

from __future__ import annotations

import json

from tests.ui.conftest import JOB_TIMEOUT_MS


def test_a_csv_export_into_a_markdown_export_asks_and_a_no_leaves_the_folder(qtbot, sample_window, tmp_path):
    w = sample_window
    notes = tmp_path / "vault"
    with qtbot.waitSignal(w.job_ended, timeout=JOB_TIMEOUT_MS) as ended:
        w.files.ask_folder = lambda title, create=False: str(notes)
        w.files.export_md_action.trigger()
    assert ended.args == ["export", True], w.status.last_message
    before = sorted(p.name for p in notes.iterdir())
    asked: list[str] = []
    w.files.ask_replace = lambda question: asked.append(question) or False
    w.files.export_csv_action.trigger()
    assert len(asked) == 1 and "is not an earlier CSV export of Limbic" in asked[0]
    assert "beside what it holds" in asked[0]
    assert sorted(p.name for p in notes.iterdir()) == before  # nothing written
    assert "Nothing was exported" in w.status.last_message
    w.files.ask_replace = lambda question: asked.append(question) or True
    with qtbot.waitSignal(w.job_ended, timeout=JOB_TIMEOUT_MS) as ended:
        w.files.export_csv_action.trigger()
    assert ended.args == ["export", True], w.status.last_message
    assert (notes / "entities.csv").is_file() and set(before) <= {p.name for p in notes.iterdir()}


def test_opening_a_jsonl_as_a_graph_offers_to_import_it(qtbot, window, tmp_path):
    w = window
    source = tmp_path / "memory.jsonl"
    source.write_text(json.dumps({"type": "entity", "name": "Ana", "entityType": "Person",
                                  "observations": ["likes tea"]}) + "\n", encoding="utf-8")
    opened_before = str(w.files.p.db_path())
    asked: list[str] = []
    w.files.ask_open_path = lambda title, file_filter: str(source)
    w.files.ask_import = lambda question: asked.append(question) or False
    w.files.open_db_action.trigger()
    assert len(asked) == 1 and "memory.jsonl is a memory JSONL file, not a Limbic graph" in asked[0]
    assert str(w.files.p.db_path()) == opened_before  # declined: still the same graph, nothing imported
    w.files.ask_import = lambda question: asked.append(question) or True
    with qtbot.waitSignal(w.job_ended, timeout=JOB_TIMEOUT_MS) as ended:
        w.files.open_db_action.trigger()
    assert ended.args == ["import", True], w.status.last_message
    assert str(w.files.p.db_path()) == opened_before
    qtbot.waitUntil(lambda: w.catalog.counts["entities"] == 1, timeout=JOB_TIMEOUT_MS)
