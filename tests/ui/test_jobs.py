"""Long jobs through the menus: import with progress and cancel, export, a bad file."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from tests.ui.conftest import search

JOB_MS = 120_000


def _write_jsonl(path, n: int) -> None:
    lines = [
        json.dumps({"type": "entity", "name": f"Imported note {i}", "entityType": "Note",
                    "observations": [f"Batch observation number {i} about greenhouse tomatoes"]})
        for i in range(n)
    ]
    lines.append(json.dumps({"type": "relation", "from": "Imported note 0", "to": "Imported note 1", "relationType": "follows"}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_import_through_the_menu_shows_progress_and_can_be_cancelled(qtbot, sample_window, tmp_path):
    w = sample_window
    source = tmp_path / "notes.jsonl"
    _write_jsonl(source, 120)
    w.files.ask_open_path = lambda title, file_filter: str(source)
    w.engine.worker.hooks.progress_delay = 0.05  # slow enough to click Cancel mid-way
    w.files.import_action.trigger()
    qtbot.waitUntil(lambda: w.status.progress.isVisible() and w.status.progress.value() > 0, timeout=JOB_MS)
    assert w.status.cancel.isVisible()
    with qtbot.waitSignal(w.job_ended, timeout=JOB_MS) as ended:
        qtbot.mouseClick(w.status.cancel, Qt.MouseButton.LeftButton)
    assert ended.args == ["import", False]
    assert "nothing was changed" in w.status.last_message
    assert not w.status.progress.isVisible()
    qtbot.waitUntil(lambda: w.catalog.counts["entities"] == 50)

    # The same import, left to finish: everything arrives and is searchable.
    w.engine.worker.hooks.progress_delay = 0.0
    with qtbot.waitSignal(w.job_ended, timeout=JOB_MS) as ended:
        w.files.import_action.trigger()
    assert ended.args == ["import", True]
    assert "120 entities read (120 new)" in w.status.last_message
    qtbot.waitUntil(lambda: w.catalog.counts["entities"] == 170)
    assert search(qtbot, w, "Imported note 7")[0].name == "Imported note 7"


def test_a_bad_import_file_is_one_sentence_and_changes_nothing(qtbot, sample_window, tmp_path):
    w = sample_window
    source = tmp_path / "bad.jsonl"
    source.write_text('{"type":"entity","name":"Fine","entityType":"Note","observations":[]}\n{"type":"entity", oops\n',
                      encoding="utf-8")
    w.files.ask_open_path = lambda title, file_filter: str(source)
    with qtbot.waitSignal(w.error_shown, timeout=JOB_MS) as shown:
        w.files.import_action.trigger()
    message = shown.args[0]
    assert "line 2" in message and "Traceback" not in message
    qtbot.waitUntil(lambda: not w.status.progress.isVisible())
    assert "Fine" not in [r.name for r in search(qtbot, w, "Fine")]
    assert w.catalog.counts["entities"] == 50


def test_export_through_the_menu_writes_every_line(qtbot, sample_window, tmp_path):
    w = sample_window
    target = tmp_path / "out.jsonl"
    w.files.ask_save_path = lambda title, suggested, file_filter: str(target)
    with qtbot.waitSignal(w.job_ended, timeout=JOB_MS) as ended:
        w.files.export_action.trigger()
    assert ended.args == ["export", True]
    lines = target.read_text(encoding="utf-8").splitlines()
    assert sum(json.loads(line)["type"] == "entity" for line in lines) == 50
    assert sum(json.loads(line)["type"] == "relation" for line in lines) == w.catalog.counts["relations"]


def test_changing_the_model_re_embeds_with_progress_and_cancel(qtbot, sample_window, tmp_path):
    import dataclasses

    from limbic import config
    from limbic.engine.vectors.embeddings import minilm_spec

    spec = minilm_spec()  # from the default multilingual model to a copy of MiniLM
    folder = tmp_path / "minilm-copy"
    folder.mkdir()
    (folder / "model.onnx").symlink_to(spec.onnx_path)
    (folder / "tokenizer.json").symlink_to(spec.tokenizer_path)
    (folder / "limbic_model.json").write_text(json.dumps({"name": "minilm-copy", "dim": 384, "max_tokens": 256}))
    w = sample_window
    w.engine.worker.hooks.progress_delay = 0.3  # each progress step of the re-embedding waits: time to press Cancel
    w.files.apply_settings(dataclasses.replace(w.files.settings, model_dir=str(folder)))
    assert config.load_settings().model_dir == str(folder)
    qtbot.waitUntil(lambda: w.model_name == "minilm-copy", timeout=JOB_MS)
    qtbot.waitUntil(lambda: w.status.progress.isVisible(), timeout=JOB_MS)
    with qtbot.waitSignal(w.job_ended, timeout=JOB_MS) as ended:
        w.on_cancel()
    assert ended.args == ["embed", False]
    assert "resumes next time" in w.status.last_message
    assert w.status.model.text() == "Model: minilm-copy"
    assert not w.status.progress.isVisible()
