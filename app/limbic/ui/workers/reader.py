"""The reader's thread: searches and views answered from what is committed, even while a job writes.

The engine's thread owns the writing connection and runs one operation at a time, so an import
or a re-embedding used to hold every search behind it. The reader owns a second, read-only
connection to the same file on its own thread (WAL lets readers go on while a writer commits)
and answers read-only operations there. Its vector mirror follows the writer's commits through
the change log, like any other reader's, and it reports the counts as each commit lands.

The file is opened here only after the engine's thread has it open, so the graph file is already
known to this process and nothing but SQLite ever opens it (``db.inspect_file`` skips it).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import apsw
from PySide6.QtCore import QObject, Signal, Slot

from limbic.engine.errors import LimbicError
from limbic.service.opening import open_read_only_graph
from limbic.ui.workers.connection import ConnectionWorker, Failure, KeyedRequests, WorkerThread, sentence_for

logger = logging.getLogger(__name__)

POLL_MS = 500  # how often the reader looks for the writer's commits (the counts follow them)


class ReaderWorker(ConnectionWorker):
    """Runs read-only operations ``fn(graph, *args)`` on a read-only connection, one at a time."""

    ready = Signal(str)  # path of the file the reader answers for ("" when it cannot)
    op_done = Signal(int, object)  # ticket, value
    op_failed = Signal(int, object)  # ticket, Failure
    counts_changed = Signal(object, int)  # counts, entities waiting for a vector

    closing_what = "the reader's connection"
    poll_ms = POLL_MS

    def __init__(self, keyed: KeyedRequests, source) -> None:
        super().__init__()
        self.keyed = keyed
        self.source = source  # the engine's worker: its embedder, params and test hooks

    @Slot(str)
    def open(self, path: str) -> None:
        """Open the file the engine's thread has just opened; without it, reads go to that thread."""
        self._close_graph()
        if self.closing:
            return
        try:
            graph = open_read_only_graph(path)
        except Exception as exc:  # e.g. a file only readable as immutable: the engine's thread answers
            logger.info("no second reader for %s: %s", path, exc)
            self.ready.emit("")
            return
        self.graph = graph
        self._seen_version = graph.db.data_version()
        self.use_model()
        self.ready.emit(path)

    @Slot()
    def use_model(self) -> None:
        """Take the engine's model (its ONNX session and tokenizer are shared, not copied)."""
        embedder = self.source.embedder
        if self.graph is not None and embedder is not None:
            current = self.graph.embedder
            if current is None or current.identity != embedder.identity or current._session is not embedder._session:
                self.graph.embedder = embedder.for_another_thread()

    def on_commits(self) -> None:
        """Report the counts whenever another connection (the engine's thread included) committed."""
        graph = self.graph
        assert graph is not None
        try:
            pending = graph.pending_embeddings() if graph.embedder else 0
            self.counts_changed.emit(graph.counts(), pending)
        except Exception:
            logger.debug("the reader's poll failed", exc_info=True)

    # -- the runner -------------------------------------------------------------------------

    @Slot(int, str, object, object)
    def run_op(self, ticket: int, key: str, fn: object, args: object) -> None:
        """Run ``fn(graph, *args)``; a request superseded by a newer one of its key is skipped."""
        if self.closing or self.keyed.is_stale(key, ticket):
            return
        if self.graph is None:
            self.op_failed.emit(ticket, Failure("No graph is open; open or create one from the File menu."))
            return
        with self._run_state:
            self._running = (key, ticket)
        try:
            value = fn(self.graph, *tuple(args))  # type: ignore[operator]
        except apsw.InterruptError:
            return  # superseded
        except LimbicError as exc:
            self.op_failed.emit(ticket, Failure(str(exc), exc))
            return
        except Exception as exc:
            self.op_failed.emit(ticket, Failure(sentence_for("reading the graph", exc)))
            return
        finally:
            with self._run_state:
                self._running = None
        self.op_done.emit(ticket, value)

    def wait_hook(self, query: str) -> None:
        """Tests slow a query down to make races deterministic; a newer query ends the wait."""
        end = time.monotonic() + self.source.hooks.search_delay.get(query, 0.0)
        while time.monotonic() < end and self._running is not None and not self.keyed.is_stale(*self._running):
            time.sleep(0.01)


class Reader(QObject):
    """The UI side of the reader: owns its thread and says whether it can answer for the open file."""

    sig_open = Signal(str)
    sig_model = Signal()
    sig_run = Signal(int, str, object, object)

    def __init__(self, keyed: KeyedRequests, source, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path = ""  # the file the reader answers for, "" while it cannot
        self.worker = ReaderWorker(keyed, source)
        self.lifecycle = WorkerThread(self.worker, "limbic-reader", self)
        self.thread = self.lifecycle.thread
        self.sig_open.connect(self.worker.open)
        self.sig_model.connect(self.worker.use_model)
        self.sig_run.connect(self.worker.run_op)
        self.worker.ready.connect(self.on_ready)
        self.lifecycle.start()

    @Slot(str)
    def on_ready(self, path: str) -> None:
        self.path = path

    def follow(self, path: str) -> None:
        """The engine's thread opened ``path``: stop answering for the old file, open the new one."""
        self.path = ""
        self.sig_open.emit(path)

    def run(self, ticket: int, key: str, fn: Callable, args: tuple) -> None:
        self.worker.interrupt(key, ticket)
        self.sig_run.emit(ticket, key, fn, args)

    def stop(self, timeout_ms: int) -> bool:
        """Stop the running read, close the connection on its thread and wait for it."""
        return self.lifecycle.stop(timeout_ms)
