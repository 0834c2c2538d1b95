"""A precise timer on the UI thread: a stall is how late each tick comes (the benchmarks' yardstick)."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, QTimer


class Heartbeat:
    """Ticks every ``tick_ms`` on the thread that makes it; ``gaps`` holds how late each tick was (ms)."""

    def __init__(self, tick_ms: int) -> None:
        self.tick_ms = tick_ms
        self.gaps: list[float] = []
        self._last = time.perf_counter()
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(tick_ms)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append(max(0.0, (now - self._last) * 1000 - self.tick_ms))
        self._last = now

    def start(self) -> None:
        """Start a new measurement (earlier gaps are forgotten)."""
        self.gaps.clear()
        self._last = time.perf_counter()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()
