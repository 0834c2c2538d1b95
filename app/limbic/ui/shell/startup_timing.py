"""Start-up timestamps on stderr, for measuring cold start of the app (installed or from source).

``LIMBIC_TIMING=1`` prints ``limbic-timing: window-shown <epoch seconds>`` when the window first
paints; with ``LIMBIC_TIMING_QUERY`` it then searches that query and prints ``first-results`` when
its results are on screen. ``LIMBIC_TIMING=quit`` closes the window after the last stamp.
"""

from __future__ import annotations

import os
import sys
import time

from PySide6.QtCore import QEvent, QObject, QTimer, Slot

TIMING_ENV = "LIMBIC_TIMING"
QUERY_ENV = "LIMBIC_TIMING_QUERY"


def enabled() -> bool:
    """Whether start-up timestamps were asked for."""
    return bool(os.environ.get(TIMING_ENV))


def stamp(event: str, detail: str = "") -> None:
    """Print one timestamp line (wall clock, so an outside harness can subtract its own start time)."""
    line = f"limbic-timing: {event} {time.time():.3f}"
    print(f"{line} {detail}".rstrip(), file=sys.stderr, flush=True)


class StartupTimer(QObject):
    """Watches the main window for its first paint and for the results of the timing query."""

    def __init__(self, window, query: str = "", quit_after: bool = False) -> None:
        super().__init__(window)
        self._window = window
        self._query = query
        self._quit_after = quit_after
        self._painted = False
        self._request: int | None = None
        window.installEventFilter(self)
        window.results_shown.connect(self.on_results_shown)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if not self._painted and obj is self._window and event.type() == QEvent.Type.Paint:
            self._painted = True
            stamp("window-shown")
            if self._query:
                QTimer.singleShot(0, self.on_search)  # not from inside a paint event
            elif self._quit_after:
                QTimer.singleShot(0, self._window.close)
        return False

    @Slot()
    def on_search(self) -> None:
        bar = self._window.search_bar
        bar.edit.setText(self._query)
        bar.on_debounced()
        self._request = self._window.engine.searches.latest

    @Slot(int)
    def on_results_shown(self, request_id: int) -> None:
        # The window may run the query again (e.g. once the model is ready): any answer to it counts.
        if self._request is None or request_id < self._request:
            return
        self._request = None
        top = self._window.model.result(0)
        stamp("first-results", f"mode={self._window.model.mode} top={top.name if top else '-'}")
        if self._quit_after:
            QTimer.singleShot(0, self._window.close)


def watch(window) -> StartupTimer | None:
    """Install the timer on the main window when ``LIMBIC_TIMING`` is set."""
    if not enabled():
        return None
    return StartupTimer(
        window,
        query=os.environ.get(QUERY_ENV, ""),
        quit_after=os.environ.get(TIMING_ENV, "").lower() == "quit",
    )
