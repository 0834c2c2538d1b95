"""The engine's thread: one long-lived QObject in one QThread owns the database and the model.

Every operation of the app is a plain service function ``fn(graph, *args)`` that the UI hands to
``Engine.run``; it reaches the worker as one queued signal and runs here, so the SQLite
connection and the ONNX session are created, used and closed on this thread only. The worker
also follows the file's change log, so commits by other programs reach the window as the same
``ChangeSet`` records as the app's own.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import apsw
from PySide6.QtCore import QObject, QTimer, Signal, Slot

from limbic import service
from limbic.engine.errors import Cancelled, LimbicError
from limbic.service import follow, opening
from limbic.service.background import embed_batch
from limbic.service.catalog import Catalog, CatalogDelta, catalog_delta, read_catalog
from limbic.service.filters import SearchFilter, filtered_search
from limbic.service.types import ChangeSet, Cursor, Graph, ScoringParams
from limbic.ui.workers.connection import (ConnectionWorker, Failure, JobContext, KeyedRequests, KeyView, TestHooks, Throttle,
                                  WorkerThread, sentence_for)
from limbic.ui.workers.reader import Reader
from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtCore import QCoreApplication

translate = QCoreApplication.translate  # the window's language (limbic.ui.common.i18n)

logger = logging.getLogger(__name__)

# Strong references: a QThread collected while running would abort the process.
_LIVE: set[Engine] = set()

RESULT_LIMIT = 20
NO_GRAPH = QT_TRANSLATE_NOOP("Worker", "No graph is open; open or create one from the File menu.")

__all__ = ["Catalog", "CatalogDelta", "Engine", "EngineWorker", "Failure", "JobContext", "running_engines"]


class EngineWorker(ConnectionWorker):
    """Runs every engine call of the app, one at a time, on its own thread."""

    opened = Signal(object)  # Catalog
    open_failed = Signal(str)
    catalog_changed = Signal(object)  # Catalog (all of it)
    catalog_delta = Signal(object)  # CatalogDelta
    model_loading = Signal(str)
    model_ready = Signal(str)  # model name
    model_failed = Signal(str)  # why semantic search is off
    progress = Signal(str, int, int)  # stage, done, total
    job_started = Signal(str)  # job title
    job_finished = Signal(str, str)  # job kind, summary sentence (jobs the worker starts itself)
    job_cancelled = Signal(str, str)  # job kind, sentence
    failed = Signal(str, str)  # what was being done, plain sentence
    op_done = Signal(int, object)  # ticket, Outcome
    op_failed = Signal(int, object)  # ticket, Failure
    outside_changes = Signal(object)  # ChangeSet committed by other programs

    def __init__(self, keyed: KeyedRequests) -> None:
        super().__init__()
        self.keyed = keyed
        self.embedder = None
        self.params = ScoringParams()
        self.hooks = TestHooks()
        self._cancel = threading.Event()  # set from the UI thread; read here
        self._cursor = Cursor()
        self._embedding: dict | None = None  # the background embedding under way: done, total, graph

    # -- called from the UI thread directly (thread-safe) ---------------------------------

    def cancel_job(self) -> None:
        """Ask the running job to stop at its next check."""
        self._cancel.set()

    def clear_cancel(self) -> None:
        """A new job starts: forget the last one's Cancel."""
        self._cancel.clear()

    def stop_running(self) -> None:
        """On shutdown: the running job stops at its next check, a running read inside SQLite at once."""
        self.cancel_job()
        self.interrupt_running()

    def release(self) -> None:
        """The model and the background embedding's state go with the connection."""
        self.embedder = None
        self._embedding = None

    @property
    def _searching(self) -> int | None:
        """The ticket of the search inside SQLite now, if any."""
        running = self._running
        return running[1] if running is not None and running[0] == "search" else None

    def _fail(self, what: str, exc: BaseException) -> None:
        self.failed.emit(what, sentence_for(what, exc))

    # -- database and model -----------------------------------------------------------------

    @Slot(str)
    def open_database(self, path: str) -> None:
        """Open (or create) a graph file; the model, if loaded already, is attached to it.

        A file that cannot be opened leaves the one already open working.
        """
        try:
            graph, cursor, version = opening.open_app_graph(path)
        except Exception as exc:  # LimbicError or anything unexpected: the window stays usable
            if not isinstance(exc, LimbicError):
                logger.error("opening %s failed", path, exc_info=exc)
            self.open_failed.emit(str(exc) if isinstance(exc, LimbicError) else f"{path} cannot be opened ({type(exc).__name__}).")
            return
        self._close_graph()
        self.graph, self._cursor, self._seen_version = graph, cursor, version
        self.opened.emit(read_catalog(graph))
        if self.embedder is not None:
            self._attach_and_embed()

    @Slot(str)
    def load_model(self, model_dir: str) -> None:
        """Load the model (the bundled one for an empty string), then embed what waits for it."""
        self.model_loading.emit(model_dir or "the bundled model")
        embedder, error = opening.try_load_model(Path(model_dir) if model_dir else None, shared=True)
        if embedder is None:
            # A failed change of model keeps the one already loaded.
            self.model_failed.emit(error or "The model cannot be loaded.")
            return
        self.embedder = embedder
        self.model_ready.emit(embedder.spec.name)
        if self.graph is not None:
            self._attach_and_embed()

    def _attach_and_embed(self) -> None:
        assert self.graph is not None
        if self.graph.db.readonly:
            # Nothing can be stored: search uses full text and the vectors already in the file.
            self.graph.embedder = self.embedder
            return
        try:
            pending = self.graph.attach_embedder(self.embedder)
        except Exception as exc:
            self._fail(translate("EngineWorker", "preparing the vectors"), exc)
            return
        if pending:
            self._start_embedding(pending)

    # -- embedding in the background, one batch per turn ------------------------------------

    def _start_embedding(self, total: int) -> None:
        """Embed what waits one batch at a time: an edit asked for meanwhile runs between two batches."""
        if self._embedding is not None:
            self._embedding["total"] = max(self._embedding["total"], self._embedding["done"] + total)
            return
        self._embedding = {"done": 0, "total": total, "graph": self.graph}
        self._embed_throttle = Throttle(self.progress.emit)
        self.job_started.emit(translate("EngineWorker", "Embedding %n entities", "", total))
        self._embed_throttle("embed", 0, total)
        if self.hooks.progress_delay:
            time.sleep(self.hooks.progress_delay)
        QTimer.singleShot(0, self._embed_step)

    @Slot()
    def _embed_step(self) -> None:
        state = self._embedding
        if state is None:
            return
        graph = self.graph
        if graph is None or self.closing or graph is not state["graph"] or graph.embedder is None:
            self._embedding = None  # another file or the end: the next open starts again
            self.job_cancelled.emit("embed", "")
            return
        if self._cancel.is_set():
            self._cancel.clear()
            self._embedding = None
            self.job_cancelled.emit("embed", "Embedding was cancelled; it resumes next time.")
            return
        try:
            with service.collect(graph.db) as done:
                embedded = embed_batch(graph)
            state["done"] += embedded
            if not done.empty:
                self._announce(done)
        except Exception as exc:
            self._embedding = None
            self._fail("embedding", exc)
            self.job_cancelled.emit("embed", "")
            return
        if not embedded or state["done"] >= state["total"] and not graph.pending_embeddings():
            self._embedding = None
            self._embed_throttle("embed", state["total"], state["total"])
            self.job_finished.emit("embed", "")
            return
        self._embed_throttle("embed", min(state["done"], state["total"]), state["total"])
        if self.hooks.progress_delay:
            time.sleep(self.hooks.progress_delay)
        QTimer.singleShot(0, self._embed_step)

    @Slot(object)
    def set_params(self, params: ScoringParams) -> None:
        self.params = params

    def on_commits(self) -> None:
        """Follow commits made by other programs to the same file, through its change log."""
        assert self.graph is not None
        try:
            outside = follow.others_since(self.graph.db, self._cursor)
        except Exception:  # a file gone away is reported by the next real call
            logger.debug("reading the change log failed", exc_info=True)
            return
        if outside.empty:
            return  # e.g. another program recorded access signals
        logger.info("the file changed outside this window")
        self._announce(outside)
        self.outside_changes.emit(outside)
        if outside.graph_changed and self.graph.embedder is not None and not self.graph.db.readonly:
            if self.graph.pending_embeddings():
                self._attach_and_embed()

    def _announce(self, done: ChangeSet) -> None:
        """Send the catalog's changes for a change set (the whole catalog when it cannot say)."""
        assert self.graph is not None
        if done.full:
            self.catalog_changed.emit(read_catalog(self.graph))
        elif done.graph_changed:
            self.catalog_delta.emit(catalog_delta(self.graph, done))

    # -- the generic runner -----------------------------------------------------------------

    @Slot(int, str, object, object, str, str, bool)
    def run_op(self, ticket: int, key: str, fn: object, args: object, what: str, job_title: str,
               interruptible: bool) -> None:
        """Run ``fn(graph, *args)`` (with a ``JobContext`` last when it is a job) and report its Outcome.

        A request superseded by a newer one with the same key is skipped before it starts.
        """
        if self.closing or self.keyed.is_stale(key, ticket):
            return
        if self.graph is None:
            self.op_failed.emit(ticket, Failure(translate("Worker", NO_GRAPH)))
            return
        call_args = tuple(args)  # type: ignore[arg-type]
        if job_title:
            self.job_started.emit(job_title)
            throttle = Throttle(self.progress.emit)

            def progress(stage: str, done: int, total: int) -> None:
                throttle(stage, done, total)
                if self.hooks.progress_delay:
                    time.sleep(self.hooks.progress_delay)

            call_args += (JobContext(progress, self._cancel.is_set),)
        if interruptible:
            with self._run_state:
                self._running = (key, ticket)
        try:
            outcome = service.run(self.graph, fn, *call_args)  # type: ignore[arg-type]
        except apsw.InterruptError:
            return  # superseded by a newer request with the same key
        except Cancelled as exc:
            self.op_failed.emit(ticket, Failure(str(exc), exc))
            return
        except LimbicError as exc:
            self.op_failed.emit(ticket, Failure(str(exc), exc))
            return
        except Exception as exc:
            self.op_failed.emit(ticket, Failure(sentence_for(what, exc)))
            return
        finally:
            if interruptible:
                with self._run_state:
                    self._running = None
            if job_title:
                self._cancel.clear()
        if not outcome.changes.empty:
            self._announce(outcome.changes)
        self.op_done.emit(ticket, outcome)

    def search_op(self, graph: Graph, query: str, entity_type: str, branches: str = "both",
                  flt: SearchFilter | None = None) -> object:
        """The search the window runs as the person types (records nothing: typing is not using)."""
        delay = self.hooks.search_delay.get(query, 0.0)
        end = time.monotonic() + delay
        while time.monotonic() < end and self._running is not None and not self.keyed.is_stale(*self._running):
            time.sleep(0.01)
        return filtered_search(graph, query, replace(flt or SearchFilter(), entity_type=entity_type), RESULT_LIMIT,
                               params=self.params, branches=branches)

    # -- jobs the worker starts itself ------------------------------------------------------

    def _run_job(self, kind: str, title: str, job: Callable) -> object | None:
        """Run a plain engine function with throttled progress and the cancel flag."""
        self.job_started.emit(title)
        throttle = Throttle(self.progress.emit)

        def progress(stage: str, done: int, total: int) -> None:
            throttle(stage, done, total)
            if self.hooks.progress_delay:
                time.sleep(self.hooks.progress_delay)

        with service.collect(self.graph.db) as done:
            try:
                result = job(progress, self._cancel.is_set)
            except Cancelled as exc:
                self.job_cancelled.emit(kind, str(exc))
                result = None
            except Exception as exc:
                self._fail("embedding", exc)
                self.job_cancelled.emit(kind, "")
                result = None
            finally:
                self._cancel.clear()
        if self.graph is not None and not done.empty:
            self._announce(done)
        if result is not None:
            self.job_finished.emit(kind, "")
        return result

    @Slot()
    def embed_pending(self) -> None:
        if self.graph is not None and self.graph.embedder is not None:
            self._attach_and_embed()


class Engine(QObject):
    """The UI side of the worker: owns the thread, issues tickets, runs operations there."""

    sig_open = Signal(str)
    sig_load_model = Signal(str)
    sig_params = Signal(object)
    sig_embed = Signal()
    sig_run = Signal(int, str, object, object, str, str, bool)
    # Every operation run through ``run`` that committed something, before its own callback: the
    # window refreshes what changed from here, whoever asked for it.
    changes_applied = Signal(object)  # ChangeSet
    results_ready = Signal(int, object)  # search ticket, SearchResponse
    job_done = Signal(str, bool, str, bool)  # job key, finished, sentence, failed (not cancelled)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.keyed = KeyedRequests()
        self.searches = KeyView(self.keyed, "search")
        self.search_filter: SearchFilter | None = None  # the window's search filters (relation, status, dates)
        self.entities = KeyView(self.keyed, "entity")
        self._callbacks: dict[int, tuple[str, Callable | None, Callable | None, bool]] = {}
        self.worker = EngineWorker(self.keyed)
        self.lifecycle = WorkerThread(self.worker, "limbic-engine", self)
        self.thread = self.lifecycle.thread
        _LIVE.add(self)
        w = self.worker
        self.sig_open.connect(w.open_database)
        self.sig_load_model.connect(w.load_model)
        self.sig_params.connect(w.set_params)
        self.sig_embed.connect(w.embed_pending)
        self.sig_run.connect(w.run_op)
        w.op_done.connect(self._on_op_done)
        w.op_failed.connect(self._on_op_failed)
        # Searches and views are answered on a second, read-only connection, so they never wait
        # behind an import or a re-embedding (connected first: it must know of a new file before
        # the window searches it).
        self.reader = Reader(self.keyed, w, self)
        w.opened.connect(self._on_opened)
        w.model_ready.connect(self.reader.sig_model)
        self.reader.worker.op_done.connect(self._on_op_done)
        self.reader.worker.op_failed.connect(self._on_op_failed)
        self.lifecycle.start()

    @property
    def busy_job(self) -> bool:
        """A long job the person started runs now (an import, an export, a backup, a restore).

        The embedding the engine starts by itself (after an open or another program's commit) does
        not count: edits wait for it, batch by batch, instead of being refused.
        """
        return any(is_job for _, _, _, is_job in self._callbacks.values())

    def run(
        self,
        key: str,
        fn: Callable,
        *args: object,
        on_done: Callable | None = None,
        on_failed: Callable[[Failure], None] | None = None,
        what: str = "working",
        job: str = "",
        interruptible: bool = False,
        with_ticket: bool = False,
    ) -> int:
        """Run ``fn(graph, *args)`` on the engine's thread; ``on_done(value)`` follows on this thread.

        A newer call with the same ``key`` supersedes this one: if it has not started it is skipped,
        and its result is dropped either way (an ``interruptible`` one is also stopped inside
        SQLite). ``job`` (a title) makes it a long job: progress is shown, the Cancel button stops
        it, ``fn`` gets a ``JobContext`` as its last argument, and ``job_done`` reports its end.
        ``with_ticket`` calls ``on_done(ticket, value)``. Returns the ticket.
        """
        ticket = self.keyed.next(key)
        if with_ticket and on_done is not None:
            on_done = functools.partial(on_done, ticket)
        self._callbacks[ticket] = (key, on_done, on_failed, bool(job))
        if job:
            self.worker.clear_cancel()
        if interruptible:
            self.worker.interrupt(key, ticket)
        self.sig_run.emit(ticket, key, fn, args, what, job, interruptible)
        return ticket

    def set_params(self, params: ScoringParams) -> None:
        """New scoring constants, in force for the very next search on either thread."""
        self.worker.params = params  # replaced whole, never mutated: safe to read from the reader
        self.sig_params.emit(params)

    def read(self, key: str, fn: Callable, *args: object, on_done: Callable | None = None,
             on_failed: Callable[[Failure], None] | None = None, what: str = "reading",
             with_ticket: bool = False) -> int:
        """Run a read-only ``fn(graph, *args)`` on the reader's connection, at once even during a job.

        Same contract as ``run`` (newest call per key wins; an older running one is interrupted);
        when the reader cannot answer for the open file, the engine's thread does.
        """
        if not self.reader.path:
            return self.run(key, fn, *args, on_done=on_done, on_failed=on_failed, what=what, interruptible=True,
                            with_ticket=with_ticket)
        ticket = self.keyed.next(key)
        if with_ticket and on_done is not None:
            on_done = functools.partial(on_done, ticket)
        self._callbacks[ticket] = (key, on_done, on_failed, False)
        # An older read of this key may still run on the engine's thread (asked before the reader was ready).
        self.worker.interrupt(key, ticket)
        self.reader.run(ticket, key, fn, args)
        return ticket

    def search(self, query: str, entity_type: str = "", branches: str = "both") -> int:
        """Queue a search; its results arrive as ``results_ready`` unless a newer one was asked for."""
        fn = self._reader_search if self.reader.path else self.worker.search_op
        return self.read("search", fn, query, entity_type, branches, self.search_filter, what="searching",
                         on_done=self.results_ready.emit, on_failed=self._search_failed, with_ticket=True)

    def _reader_search(self, graph: Graph, query: str, entity_type: str, branches: str = "both",
                       flt: SearchFilter | None = None) -> object:
        """``search_op`` on the reader's thread (same constants, same test hooks)."""
        self.reader.worker.wait_hook(query)
        return filtered_search(graph, query, replace(flt or SearchFilter(), entity_type=entity_type), RESULT_LIMIT,
                               params=self.worker.params, branches=branches)

    @Slot(object)
    def _on_opened(self, catalog: Catalog) -> None:
        self.reader.follow(catalog.path)

    def _search_failed(self, failure: Failure) -> None:
        if failure.message != translate("Worker", NO_GRAPH):  # the window already says why no file is open
            self.worker.failed.emit("searching", failure.message)

    @Slot(int, object)
    def _on_op_done(self, ticket: int, outcome: object) -> None:
        key, on_done, _, is_job = self._callbacks.pop(ticket, ("", None, None, False))
        wrapped = isinstance(outcome, service.Outcome)  # the reader answers with a bare value
        if wrapped and not outcome.changes.empty:
            self.changes_applied.emit(outcome.changes)  # even a superseded write changed the graph
        if key and not self.keyed.is_stale(key, ticket) and on_done is not None:
            on_done(outcome.value if wrapped else outcome)
        if is_job:
            self.job_done.emit(key, True, "", False)

    @Slot(int, object)
    def _on_op_failed(self, ticket: int, failure: Failure) -> None:
        key, _, on_failed, is_job = self._callbacks.pop(ticket, ("", None, None, False))
        if key and not self.keyed.is_stale(key, ticket):
            if on_failed is not None:
                on_failed(failure)
            elif not is_job:
                self.worker.failed.emit(key, failure.message)
        if is_job:
            self.job_done.emit(key, False, failure.message, not isinstance(failure.error, Cancelled))

    def cancel(self) -> None:
        self.worker.cancel_job()

    def stop(self, timeout_ms: int = 30_000) -> bool:
        """Cancel any job, close the file on its thread and wait for the thread to end."""
        self.reader.stop(timeout_ms)
        finished = self.lifecycle.stop(timeout_ms)
        _LIVE.discard(self)  # asked once: a thread that will not end is logged, not asked again
        if not finished:
            logger.error("the engine thread did not stop within %d ms", timeout_ms)
        return finished


def running_engines() -> list[Engine]:
    """Engines whose thread still runs (tests fail when one leaks)."""
    return [e for e in list(_LIVE) if e.lifecycle.is_running() or e.reader.lifecycle.is_running()]
