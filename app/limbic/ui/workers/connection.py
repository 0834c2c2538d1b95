"""What the engine's and the reader's threads share: tickets, failures, and one thread lifecycle.

Each of the two threads owns one graph connection through a ``ConnectionWorker``, started, shut
down and waited for by a ``WorkerThread``; ``ui/workers/worker.py`` (the engine's thread) and
``ui/workers/reader.py`` (the read-only connection searches use) build on this module, never on each other.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot

from limbic.engine.errors import LimbicError
from limbic.service.types import Graph
from PySide6.QtCore import QCoreApplication

translate = QCoreApplication.translate  # the window's language (limbic.ui.common.i18n)

logger = logging.getLogger(__name__)

POLL_MS = 500  # how often the file is checked for commits by other programs (they show within 2 s)
PROGRESS_MIN_INTERVAL = 0.05  # seconds between progress signals (convention 6)


class KeyedRequests:
    """Tickets for ``Engine.run``: the newest ticket of each key wins, older ones are stale."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._next = 0
        self._latest: dict[str, int] = {}

    def next(self, key: str) -> int:
        with self._lock:
            self._next += 1
            self._latest[key] = self._next
            return self._next

    def latest(self, key: str) -> int:
        with self._lock:
            return self._latest.get(key, 0)

    def is_stale(self, key: str, ticket: int) -> bool:
        with self._lock:
            return self._latest.get(key, ticket) != ticket


class KeyView:
    """One key's tickets seen as a plain request counter (``latest``, ``next``, ``is_stale``)."""

    def __init__(self, keyed: KeyedRequests, key: str) -> None:
        self._keyed, self._key = keyed, key

    @property
    def latest(self) -> int:
        return self._keyed.latest(self._key)

    def next(self) -> int:
        return self._keyed.next(self._key)

    def is_stale(self, ticket: int) -> bool:
        return self._keyed.is_stale(self._key, ticket)


@dataclass
class JobContext:
    """What a long operation gets besides the graph: throttled progress and the cancel flag."""

    progress: Callable[[str, int, int], None]
    cancelled: Callable[[], bool]


@dataclass
class TestHooks:
    """Slow-downs used by tests to make races and cancellation deterministic."""

    search_delay: dict[str, float] = field(default_factory=dict)  # query -> seconds
    progress_delay: float = 0.0  # seconds slept at each progress callback of a job


@dataclass
class Failure:
    """Why an operation failed: a sentence for the person and, for expected failures, the error."""

    message: str
    error: LimbicError | None = None


class Throttle:
    """Lets a progress value through when the visible percentage changes, at most every 50 ms."""

    def __init__(self, emit: Callable[[str, int, int], None]) -> None:
        self._emit = emit
        self._last_time = 0.0
        self._last_key: tuple[str, int] | None = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        percent = int(100 * done / total) if total else 100
        now = time.monotonic()
        final = done >= total
        if (stage, percent) == self._last_key and not final:
            return
        if not final and now - self._last_time < PROGRESS_MIN_INTERVAL and self._last_key and self._last_key[0] == stage:
            return
        self._last_time, self._last_key = now, (stage, percent)
        self._emit(stage, done, total)


class ConnectionWorker(QObject):
    """What the engine's and the reader's workers share: a graph connection owned by their thread,
    a poll timer started there, and the interruptible operation inside SQLite now, which the UI
    thread may stop when a newer one with the same key comes."""

    closing_what = "the database"  # for the log, when closing fails
    poll_ms = POLL_MS

    def __init__(self) -> None:
        super().__init__()
        self.graph: Graph | None = None
        self.closing = False
        self._run_state = threading.Lock()
        self._running: tuple[str, int] | None = None
        self._timer: QTimer | None = None
        self._seen_version: int | None = None  # the file's data_version at the last look

    # -- called from the UI thread directly (thread-safe) ---------------------------------

    def interrupt(self, key: str, newer: int) -> None:
        """Stop a running interruptible operation of ``key`` older than ``newer`` at SQLite's next step."""
        with self._run_state:
            if self._running is not None and self._running[0] == key and self._running[1] < newer and self.graph is not None:
                self.graph.db.interrupt()

    def interrupt_running(self) -> None:
        """Stop whatever runs inside SQLite now (on shutdown)."""
        with self._run_state:
            if self._running is not None and self.graph is not None:
                self.graph.db.interrupt()

    # -- lifecycle (on the worker's thread) -------------------------------------------------

    @Slot()
    def start(self) -> None:
        """Runs first on the worker's thread: the poll timer must live there."""
        self._timer = QTimer(self)
        self._timer.setInterval(self.poll_ms)
        self._timer.timeout.connect(self.poll)
        self._timer.start()

    @Slot()
    def shutdown(self) -> None:
        """Close the file on the thread that opened it, then end the thread's event loop."""
        self.closing = True
        if self._timer is not None:
            self._timer.stop()
        self._close_graph()
        self.release()
        QThread.currentThread().quit()

    def _close_graph(self) -> None:
        if self.graph is not None:
            try:
                self.graph.db.close()
            except Exception:  # closing must never stop a shutdown
                logger.exception("closing %s failed", self.closing_what)
            self.graph = None

    @Slot()
    def poll(self) -> None:
        """Look for commits made through other connections since the last look (``on_commits`` acts)."""
        if self.graph is None or self.closing:
            return
        try:
            version = self.graph.db.data_version()
        except Exception:  # a file gone away is reported by the next real call
            logger.debug("polling %s failed", self.closing_what, exc_info=True)
            return
        if version != self._seen_version:
            self._seen_version = version
            self.on_commits()

    def on_commits(self) -> None:
        """What this worker does with other connections' commits."""
        raise NotImplementedError

    def release(self) -> None:
        """After the connection closed: let go of what else this worker holds (its model)."""

    def stop_running(self) -> None:
        """On shutdown: stop what runs now, so the thread can end (the engine's worker cancels its job)."""
        self.interrupt_running()


class WorkerThread(QObject):
    """One worker on its own thread: started with it, shut down on it, waited for; one per connection."""

    sig_shutdown = Signal()

    def __init__(self, worker: ConnectionWorker, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.worker = worker
        self.thread = QThread()
        self.thread.setObjectName(name)
        worker.moveToThread(self.thread)
        self.thread.started.connect(worker.start)
        self.sig_shutdown.connect(worker.shutdown)

    def start(self) -> None:
        """Start the thread; the worker's ``start`` runs first on it."""
        self.thread.start()

    def is_running(self) -> bool:
        """Whether the thread still runs."""
        return self.thread.isRunning()

    def stop(self, timeout_ms: int) -> bool:
        """Stop what runs, close the connection on its thread and wait for the thread to end."""
        if not self.thread.isRunning():
            return True
        self.worker.closing = True
        self.worker.stop_running()
        self.sig_shutdown.emit()
        return self.thread.wait(timeout_ms)


def sentence_for(what: str, exc: BaseException) -> str:
    """A plain sentence for a failure: the error's own for expected ones, else a pointer to the log."""
    if isinstance(exc, LimbicError):
        return str(exc)
    logger.error("unexpected error while %s", what, exc_info=exc)
    return translate("Connection", "Something went wrong while {what} ({name}); the details are in the "
               "log file.").format(what=what, name=type(exc).__name__)
