"""LIMBIC_TIMING: the stamps the start-up measurement of the packaged app relies on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

ROOT = Path(__file__).resolve().parents[2]
STAMP = re.compile(r"^limbic-timing: (\S+) (\d+\.\d+)(.*)$", re.M)


def test_no_timer_unless_asked(monkeypatch):
    from limbic.ui.shell import startup_timing

    monkeypatch.delenv(startup_timing.TIMING_ENV, raising=False)
    assert startup_timing.watch(object()) is None


def test_stamps_window_then_first_results_of_the_query(qtbot, tmp_path, monkeypatch, capfd, graph):
    from limbic.engine.formats.jsonl import import_file
    from limbic.ui.shell import startup_timing
    from limbic.ui.shell.main_window import MainWindow

    import_file(graph, ROOT / "resources" / "sample_graph.jsonl")
    graph.embed_pending()
    db_path = graph.db.path
    graph.db.close()

    monkeypatch.setenv(startup_timing.TIMING_ENV, "quit")
    monkeypatch.setenv(startup_timing.QUERY_ENV, "charged twice when the payment network timed out")
    window = MainWindow(db_path)
    qtbot.addWidget(window)
    timer = startup_timing.watch(window)
    assert timer is not None
    window.show()
    window.start()
    err = ""

    def stamped() -> bool:
        nonlocal err
        err += capfd.readouterr().err
        return "first-results" in err

    qtbot.waitUntil(stamped, timeout=120_000)
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=10_000)  # "quit" closes the window
    window.engine.stop(10_000)
    stamps = STAMP.findall(err)
    assert [name for name, _t, _rest in stamps] == ["window-shown", "first-results"]
    assert float(stamps[0][1]) <= float(stamps[1][1])
    assert "mode=hybrid" in stamps[1][2] and "top=HAR-2291" in stamps[1][2]
