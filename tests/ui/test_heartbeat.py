"""The UI thread keeps running its event loop while the worker encodes and searches.

How long the UI thread stalls is measured by the benchmark ``tests/bench/ui_stall.py`` (it prints
worst and 99th-percentile stalls and writes a report); this test only checks the behaviour: a
timer on the UI thread goes on ticking while a job runs on the worker, which a blocked UI thread
could not do, however fast or slow the machine is.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QTimer

TICK_MS = 10


class TickCounter:
    """Counts a UI-thread timer's ticks, and those that came while the engine ran a long job."""

    def __init__(self, engine) -> None:
        self.engine = engine
        self.ticks = 0
        self.during_job = 0
        self.timer = QTimer()
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self.tick)

    def tick(self) -> None:
        self.ticks += 1
        if self.engine.busy_job:
            self.during_job += 1


def test_the_ui_thread_keeps_ticking_while_the_worker_encodes_and_searches(qtbot, sample_window, tmp_path):
    w = sample_window
    source = tmp_path / "more.jsonl"
    source.write_text("\n".join(
        json.dumps({"type": "entity", "name": f"Greenhouse log {i}", "entityType": "Log",
                    "observations": [f"Watered the tomatoes and peppers, day {i}; humidity {40 + i % 30}%"]})
        for i in range(200)) + "\n", encoding="utf-8")
    w.files.ask_open_path = lambda title, file_filter: str(source)
    counter = TickCounter(w.engine)
    counter.timer.start()
    # Embedding 200 entities, then a stream of searches, all off the UI thread.
    with qtbot.waitSignal(w.job_ended, timeout=120_000) as ended:
        w.files.import_action.trigger()
    assert ended.args == ["import", True]
    assert counter.during_job >= 3  # the UI thread ran its timers while the import encoded
    before = counter.ticks
    for query in ["tomato watering", "HAR-2291", "backups of photos", "médico", "humidity 55%"] * 4:
        request_id = w.engine.search(query)
        qtbot.waitUntil(lambda rid=request_id: w.search.shown_request == rid, timeout=30_000)
    counter.timer.stop()
    assert counter.ticks > before  # and while the searches ran
    assert w.model.rowCount() > 0
