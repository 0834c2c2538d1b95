"""The graph's layout thread when its view goes away mid-run: it ends quietly, without an error in the thread."""

from __future__ import annotations

import sys
import threading

import numpy as np
import shiboken6

from limbic.ui.graph.runner import LayoutRunner


def test_a_layout_whose_runner_is_deleted_ends_quietly(qtbot, monkeypatch):
    errors: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: errors.append(args.exc_value))
    switch = sys.getswitchinterval()
    rng = np.random.default_rng(3)
    n = 3000  # seconds of layout: still running when the runner goes
    src, dst = rng.integers(0, n, 9000), rng.integers(0, n, 9000)
    try:
        runner = LayoutRunner()
        runner.start(n, src, dst)
        thread = runner._thread
        qtbot.wait(300)  # past the first snapshot
        assert thread.is_alive()
        shiboken6.delete(runner)  # as when the window closes while the layout runs
        thread.join(20)
        assert not thread.is_alive()
        assert errors == []
    finally:
        sys.setswitchinterval(switch)
