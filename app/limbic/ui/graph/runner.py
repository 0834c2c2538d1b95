"""Runs the force layout on a plain thread and posts throttled position snapshots to the UI thread.

The thread works on arrays only (never the database); the UI gets at most one snapshot every
``SNAPSHOT_S`` seconds, and a newer run or ``stop()`` ends the current one at its next step.
"""

from __future__ import annotations

import logging
import threading
import time

import numpy as np
from PySide6.QtCore import QObject, Signal

from limbic.engine.layout import ForceLayout, LayoutParams

logger = logging.getLogger(__name__)

SNAPSHOT_S = 0.12  # seconds between snapshots posted to the UI


class LayoutRunner(QObject):
    """One layout at a time; signals carry the run's number so late ones can be told apart."""

    snapshot = Signal(object, int)  # positions (n, 2), run number
    finished = Signal(object, int, bool)  # final positions, run number, converged (False: stopped)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.run_number = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(
        self,
        n: int,
        src: np.ndarray,
        dst: np.ndarray,
        *,
        initial: np.ndarray | None = None,
        pinned: np.ndarray | None = None,
        params: LayoutParams | None = None,
        seed: int = 0,
    ) -> int:
        """Stop any running layout and start this one; returns its run number."""
        self.stop()
        self.run_number += 1
        self._stop = threading.Event()
        stepper = ForceLayout(n, src, dst, seed=seed, initial=initial, pinned=pinned, params=params)
        self._thread = threading.Thread(
            target=self._work, args=(stepper, self.run_number, self._stop), name="limbic-layout", daemon=True
        )
        self._thread.start()
        return self.run_number

    def _work(self, stepper: ForceLayout, number: int, stop: threading.Event) -> None:
        last = time.monotonic()
        try:
            for pos in stepper.run(stop.is_set):
                now = time.monotonic()
                if now - last >= SNAPSHOT_S and not stop.is_set():
                    last = now
                    self.snapshot.emit(pos, number)
                time.sleep(0)  # let the UI thread take the interpreter between steps
        except Exception:  # a layout failure must not take the app down; the picture stays as it was
            logger.exception("the layout failed")
            return
        if not stop.is_set():
            self.finished.emit(stepper.positions.copy(), number, stepper.converged)

    def stop(self, wait_s: float = 5.0) -> None:
        """Stop the running layout (its positions so far stay on screen) and wait for its thread."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread.is_alive() and thread is not threading.current_thread():
            thread.join(wait_s)
        self._thread = None
