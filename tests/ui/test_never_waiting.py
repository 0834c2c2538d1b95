"""Search and opening answered during a long job from what is committed; changes refused, never queued."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from tests.ui.conftest import search

JOB_MS = 120_000


def _write_jsonl(path, n: int) -> None:
    lines = [json.dumps({"type": "entity", "name": f"Imported note {i}", "entityType": "Note",
                         "observations": [f"Batch observation number {i} about greenhouse tomatoes"]}) for i in range(n)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_search_open_and_counts_during_an_import(qtbot, sample_window, tmp_path):
    w = sample_window
    source = tmp_path / "notes.jsonl"
    _write_jsonl(source, 120)
    hooks = w.engine.worker.hooks
    hooks.progress_delay = 0.05  # the graph stage of the import takes several seconds
    # The embedding stage waits longer at each step (set on the worker's thread as the stage changes).
    pace = {"embed": 1.5, "other": 0.05}
    w.engine.worker.progress.connect(lambda stage, d, t: setattr(hooks, "progress_delay", pace.get(stage, pace["other"])))
    ended: list = []
    w.job_ended.connect(lambda kind, ok: ended.append((kind, ok)))
    qtbot.waitUntil(lambda: bool(w.engine.reader.path), timeout=30_000)
    w.files.import_path(str(source))
    qtbot.waitUntil(lambda: w.status.progress.isVisible() and w.status.progress.value() > 0, timeout=JOB_MS)

    # A query typed now is answered from what is committed, while the import holds the write lock.
    results = search(qtbot, w, "HAR-2291")
    assert results[0].name == "HAR-2291"
    assert not ended and w.engine.busy_job

    # Enter on a result opens it at once.
    w.search_bar.focus()
    with qtbot.waitSignal(w.entity_shown, timeout=5_000):
        qtbot.keyClick(w.search_bar.edit, Qt.Key.Key_Return)
    assert w.editor.name_edit.text() == "HAR-2291" and not ended

    # Ctrl+S is refused with a message, and nothing is replayed after the job.
    w.editor.name_edit.end(False)
    qtbot.keyClicks(w.editor.name_edit, " renamed")
    assert w.editor.is_dirty()
    saved: list = []
    w.entity_saved.connect(saved.append)
    w.save_action.trigger()
    assert "wait until the running job ends" in w.status.last_message
    assert w.editor.is_dirty()

    # The counts follow the import's commit before the (slow) embedding ends.
    qtbot.waitUntil(lambda: w.catalog.counts["entities"] == 170, timeout=JOB_MS)
    assert not ended
    assert w.status.counts.text().startswith("170 entities")
    pace.update(embed=0, other=0)  # all the slow job had to show is shown: the rest of it at full speed
    hooks.progress_delay = 0
    qtbot.waitUntil(lambda: bool(ended), timeout=JOB_MS)
    assert ended == [("import", True)]
    qtbot.wait(500)
    assert not saved and w.editor.is_dirty()
    assert search(qtbot, w, "HAR-2291")[0].name == "HAR-2291"  # the old name: nothing was saved


def test_a_save_during_the_background_embedding_lands_between_two_batches(qtbot, tmp_path):
    from limbic.engine.store.db import Database
    from limbic.engine.graph.graph import Graph
    from tests.ui.conftest import make_window, open_entity

    path = tmp_path / "backlog.db"
    g = Graph(Database(path))  # written without a model: every entity waits for its vector
    for i in range(200):
        g.upsert_entity(f"Waiting note {i}", "Note", [f"observation {i}"])
    g.db.close()
    w = make_window(qtbot, path, wait_model=False)
    w.engine.worker.hooks.progress_delay = 1.0  # each batch of 64 waits a second after it is written
    ended: list = []
    w.job_ended.connect(lambda kind, ok: ended.append((kind, ok)))
    qtbot.waitUntil(lambda: w.status.progress.isVisible(), timeout=120_000)
    ed = open_entity(qtbot, w, "Waiting note 150")
    qtbot.keyClicks(ed.obs_new, "saved while embedding")
    ed.obs_add.click()
    with qtbot.waitSignal(w.entity_saved, timeout=10_000):
        w.save_action.trigger()
    assert not ended  # the save did not wait for the whole backlog
    w.engine.worker.hooks.progress_delay = 0  # the rest of the backlog at full speed
    qtbot.waitUntil(lambda: bool(ended), timeout=120_000)
    assert ended == [("embed", True)]
