"""Runs the force layout on a plain thread and posts throttled position snapshots to the UI thread.

The thread works on arrays only (never the database); the UI gets at most one snapshot every
``SNAPSHOT_S`` seconds, and a newer run or ``stop()`` ends the current one at its next step.
"""

from __future__ import annotations

import logging
import sys
import threading
import time

import numpy as np
from PySide6.QtCore import QObject, Signal

from limbic.service.graph_view import ForceLayout, LayoutParams

logger = logging.getLogger(__name__)

SNAPSHOT_S = 0.12  # seconds between snapshots posted to the UI
PAINT_WAIT_S = 0.15  # how long the layout waits for the UI to draw a snapshot before stepping on
# While a layout runs the interpreter switches threads every millisecond instead of every five, so
# the UI thread never waits long for its turn between two numpy calls of the layout.
SWITCH_INTERVAL_S = 0.001


class LayoutRunner(QObject):
    """One layout at a time; signals carry the run's number so late ones can be told apart."""

    snapshot = Signal(object, int)  # positions (n, 2), run number
    finished = Signal(object, int, bool)  # final positions, run number, converged (False: stopped)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.run_number = 0
        self._stop = threading.Event()
        self._drawn = threading.Event()
        self._thread: threading.Thread | None = None
        self._switch: float | None = None

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
        if self._switch is None:
            self._switch = sys.getswitchinterval()
            sys.setswitchinterval(SWITCH_INTERVAL_S)
        self._thread = threading.Thread(
            target=self._work, args=(stepper, self.run_number, self._stop), name="limbic-layout", daemon=True
        )
        self._thread.start()
        return self.run_number

    def drawn(self) -> None:
        """The UI has drawn the last snapshot: the layout may step on (it pauses meanwhile, so the
        drawing does not compete with it for the interpreter)."""
        self._drawn.set()

    def _work(self, stepper: ForceLayout, number: int, stop: threading.Event) -> None:
        last = time.monotonic()
        try:
            for pos in stepper.run(stop.is_set):
                now = time.monotonic()
                if now - last >= SNAPSHOT_S and not stop.is_set():
                    self._drawn.clear()
                    if not self._post(self.snapshot, pos, number):
                        return
                    self._drawn.wait(PAINT_WAIT_S)
                    last = time.monotonic()
                time.sleep(0)  # let the UI thread take the interpreter between steps
        except Exception:  # a layout failure must not take the app down; the picture stays as it was
            logger.exception("the layout failed")
            return
        if not stop.is_set():
            self._post(self.finished, stepper.positions.copy(), number, stepper.converged)

    @staticmethod
    def _post(signal, *args) -> bool:
        """Emit from the layout's thread; False when the runner was deleted meanwhile (the view closed
        while its layout ran): nobody is left to draw, so the run ends quietly."""
        try:
            signal.emit(*args)
        except RuntimeError:  # "Signal source has been deleted"
            return False
        return True

    def stop(self, wait_s: float = 5.0) -> None:
        """Stop the running layout (its positions so far stay on screen) and wait for its thread."""
        self._stop.set()
        self._drawn.set()
        thread = self._thread
        if thread is not None and thread.is_alive() and thread is not threading.current_thread():
            thread.join(wait_s)
        self._thread = None
        self.restore_switch()

    def restore_switch(self) -> None:
        """Give the interpreter its usual thread switch interval back (after a layout ended)."""
        if self._switch is not None:
            sys.setswitchinterval(self._switch)
            self._switch = None
