"""The engine's thread: one long-lived QObject in one QThread owns the database and the model.

Every call from the UI arrives as a queued signal to a slot here, so the SQLite connection and
the ONNX session are created, used and closed on this thread only.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import apsw
from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot

from limbic.engine import signals
from limbic.engine.backup import backup_database
from limbic.engine.db import Database
from limbic.engine.errors import Cancelled, LimbicError
from limbic.engine.graph import Graph
from limbic.engine.jsonl import export_file, import_file
from limbic.engine.scoring import ScoringParams
from limbic.engine.search import search
from limbic.engine.session import try_load_model
from limbic.ui import editing

logger = logging.getLogger(__name__)

# Strong references: a QThread collected while running would abort the process.
_LIVE: set[Engine] = set()

RESULT_LIMIT = 20
POLL_MS = 1_500  # how often the file is checked for changes made by another program
PROGRESS_MIN_INTERVAL = 0.05  # seconds between progress signals (convention 6)


class RequestCounter:
    """Increasing request ids shared by the UI (which issues them) and the worker (which skips stale ones)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._latest = 0

    def next(self) -> int:
        with self._lock:
            self._latest += 1
            return self._latest

    @property
    def latest(self) -> int:
        return self._latest

    def is_stale(self, request_id: int) -> bool:
        return request_id < self._latest


@dataclass
class Catalog:
    """What the UI shows about the open file besides search results."""

    path: str
    counts: dict[str, int]
    entity_types: list[str]
    relation_types: list[str]
    names: list[str]
    pending: int = 0
    readonly_note: str | None = None  # why the file opened read-only, if it did


@dataclass
class TestHooks:
    """Slow-downs used by tests to make races and cancellation deterministic."""

    search_delay: dict[str, float] = field(default_factory=dict)  # query -> seconds
    progress_delay: float = 0.0  # seconds slept at each progress callback of a job


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


class EngineWorker(QObject):
    """Runs every engine call of the app, one at a time, on its own thread."""

    opened = Signal(object)  # Catalog
    open_failed = Signal(str)
    catalog_changed = Signal(object)  # Catalog
    model_loading = Signal(str)
    model_ready = Signal(str)  # model name
    model_failed = Signal(str)  # why semantic search is off
    results_ready = Signal(int, object)  # request id, SearchResponse
    entity_loaded = Signal(int, object)  # request id, EntityView
    entity_missing = Signal(int, str)  # request id, sentence
    saved = Signal(int, int)  # request id, entity id
    deleted = Signal(object)  # EntitySnapshot
    restored = Signal(int, str)  # entity id, note
    progress = Signal(str, int, int)  # stage, done, total
    job_started = Signal(str)  # job title
    job_finished = Signal(str, str)  # job kind, summary sentence
    job_cancelled = Signal(str, str)  # job kind, sentence
    failed = Signal(str, str)  # what was being done, plain sentence
    external_change = Signal()

    def __init__(self, searches: RequestCounter, entities: RequestCounter) -> None:
        super().__init__()
        self.searches = searches
        self.entities = entities
        self.graph: Graph | None = None
        self.embedder = None
        self.params = ScoringParams()
        self.hooks = TestHooks()
        self.closing = False
        self._cancel = threading.Event()  # set from the UI thread; read here
        # Which search is inside SQLite right now; the UI thread interrupts it when a newer one comes.
        self._search_state = threading.Lock()
        self._searching: int | None = None
        self._data_version: int | None = None
        self._timer: QTimer | None = None

    # -- called from the UI thread directly (thread-safe) ---------------------------------

    def cancel_job(self) -> None:
        """Ask the running job to stop at its next check."""
        self._cancel.set()

    def clear_cancel(self) -> None:
        self._cancel.clear()

    def interrupt_search(self, newer: int) -> None:
        """Stop a running search older than request ``newer`` at SQLite's next step.

        Only while a search holds the flag: an interrupt never reaches an edit or an import.
        """
        with self._search_state:
            if self._searching is not None and self._searching < newer and self.graph is not None:
                self.graph.db.conn.interrupt()

    # -- lifecycle --------------------------------------------------------------------------

    @Slot()
    def start(self) -> None:
        """Runs first on the worker thread: the poll timer must live here."""
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self.poll)
        self._timer.start()

    @Slot()
    def shutdown(self) -> None:
        """Close the file on the thread that opened it, then end the thread's event loop."""
        self.closing = True
        if self._timer is not None:
            self._timer.stop()
        self._close_graph()
        QThread.currentThread().quit()

    def _close_graph(self) -> None:
        if self.graph is not None:
            try:
                self.graph.db.close()
            except Exception:  # closing must never stop a shutdown
                logger.exception("closing the database failed")
            self.graph = None

    def _fail(self, what: str, exc: BaseException) -> None:
        if isinstance(exc, LimbicError):
            message = str(exc)
        else:
            logger.error("unexpected error while %s", what, exc_info=exc)
            message = f"Something went wrong while {what} ({type(exc).__name__}); the details are in the log file."
        self.failed.emit(what, message)

    def _catalog(self) -> Catalog:
        g = self.graph
        assert g is not None
        return Catalog(
            str(g.db.path), g.counts(), g.entity_types(), g.relation_types(),
            [r[0] for r in g.db.execute("SELECT name FROM entities ORDER BY name")],
            g.pending_embeddings() if g.embedder else 0,
            g.db.readonly_note if g.db.readonly else None,
        )

    def _changed(self) -> None:
        """Tell the UI about new names and types after a write of ours."""
        if self.graph is not None:
            self.catalog_changed.emit(self._catalog())
            self._data_version = self.graph.db.data_version()

    # -- database and model -----------------------------------------------------------------

    @Slot(str)
    def open_database(self, path: str) -> None:
        """Open (or create) a graph file; the model, if loaded already, is attached to it."""
        self._close_graph()
        try:
            db = Database(Path(path))
            try:
                self.graph = Graph(db)
            except BaseException:
                db.close()
                raise
            self._data_version = db.data_version()
        except Exception as exc:  # LimbicError or anything unexpected: the window stays usable
            self.graph = None
            if not isinstance(exc, LimbicError):
                logger.error("opening %s failed", path, exc_info=exc)
            self.open_failed.emit(str(exc) if isinstance(exc, LimbicError) else f"{path} cannot be opened ({type(exc).__name__}).")
            return
        self.opened.emit(self._catalog())
        if self.embedder is not None:
            self._attach_and_embed()

    @Slot(str)
    def load_model(self, model_dir: str) -> None:
        """Load the model (the bundled one for an empty string), then embed what waits for it."""
        self.model_loading.emit(model_dir or "the bundled model")
        embedder, error = try_load_model(Path(model_dir) if model_dir else None)
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
            self._fail("preparing the vectors", exc)
            return
        if pending:
            self._run_job("embed", f"Embedding {pending} entities", lambda p, c: self.graph.embed_pending(
                progress=lambda d, t: p("embed", d, t), cancelled=c))

    @Slot(object)
    def set_params(self, params: ScoringParams) -> None:
        self.params = params

    @Slot()
    def poll(self) -> None:
        """Notice commits made by another program (or another window) to the same file."""
        if self.graph is None or self.closing:
            return
        try:
            version = self.graph.db.data_version()
        except Exception:  # a file gone away is reported by the next real call
            return
        if self._data_version is not None and version != self._data_version:
            logger.info("the file changed outside this window")
            self._data_version = version
            self.catalog_changed.emit(self._catalog())
            self.external_change.emit()
            if self.graph.embedder is not None and self.graph.pending_embeddings():
                self._attach_and_embed()
        self._data_version = version

    # -- search and entities ----------------------------------------------------------------

    @Slot(int, str, str)
    def search(self, request_id: int, query: str, entity_type: str) -> None:
        """Run one search unless a newer one was asked for meanwhile."""
        if self.closing or self.searches.is_stale(request_id) or self.graph is None:
            return
        delay = self.hooks.search_delay.get(query, 0.0)
        end = time.monotonic() + delay
        while time.monotonic() < end and not self.searches.is_stale(request_id):
            time.sleep(0.01)
        with self._search_state:
            self._searching = request_id
        try:
            response = search(self.graph, query, RESULT_LIMIT, record=False, params=self.params,
                              entity_type=entity_type or None)
        except apsw.InterruptError:
            return  # superseded by a newer search
        except Exception as exc:
            self._fail("searching", exc)
            return
        finally:
            with self._search_state:
                self._searching = None
        if not self.searches.is_stale(request_id):
            self.results_ready.emit(request_id, response)

    @Slot(int, object, bool, object)
    def load_entity(self, request_id: int, ref: object, record: bool, together: object = ()) -> None:
        """Load an entity for the editor; ``record`` counts it as an access (opening a hit).

        ``together`` holds the hits shown with it, which then count as having come up together.
        """
        if self.closing or self.entities.is_stale(request_id) or self.graph is None:
            return
        try:
            view = editing.load_view(self.graph, ref)  # type: ignore[arg-type]
        except LimbicError as exc:
            self.entity_missing.emit(request_id, str(exc))
            return
        except Exception as exc:
            self._fail("opening the entity", exc)
            return
        if record:
            signals.record_access(self.graph.db, [view.entity.id], together=list(together or ()))
            self._data_version = self.graph.db.data_version()
        self.entity_loaded.emit(request_id, view)

    @Slot(int, object)
    def save_entity(self, request_id: int, draft: editing.EntityDraft) -> None:
        """Save the editor's draft; the vector is recomputed here, in the same transaction."""
        if self.graph is None:
            return
        try:
            entity_id = editing.apply_draft(self.graph, draft)
        except Exception as exc:
            self._fail("saving the entity", exc)
            return
        self.saved.emit(request_id, entity_id)
        self._changed()

    @Slot(int)
    def delete_entity(self, entity_id: int) -> None:
        if self.graph is None:
            return
        try:
            snap = editing.delete_with_snapshot(self.graph, entity_id)
        except Exception as exc:
            self._fail("deleting the entity", exc)
            return
        self.deleted.emit(snap)
        self._changed()

    @Slot(object)
    def restore_entity(self, snap: editing.EntitySnapshot) -> None:
        if self.graph is None:
            return
        try:
            entity_id, skipped = editing.restore(self.graph, snap)
        except Exception as exc:
            self._fail("undoing the deletion", exc)
            return
        note = f" ({skipped} relations could not be restored because their other end is gone)" if skipped else ""
        self.restored.emit(entity_id, note)
        self._changed()

    # -- long jobs --------------------------------------------------------------------------

    def _run_job(self, kind: str, title: str, job: Callable) -> object | None:
        """Run a plain engine function with throttled progress and the cancel flag."""
        self.job_started.emit(title)
        throttle = Throttle(self.progress.emit)

        def progress(stage: str, done: int, total: int) -> None:
            throttle(stage, done, total)
            if self.hooks.progress_delay:
                time.sleep(self.hooks.progress_delay)

        try:
            result = job(progress, self._cancel.is_set)
        except Cancelled as exc:
            self.job_cancelled.emit(kind, str(exc))
            return None
        except Exception as exc:
            self._fail({"import": "importing", "export": "exporting", "backup": "backing up"}.get(kind, "embedding"), exc)
            self.job_cancelled.emit(kind, "")
            return None
        finally:
            self._cancel.clear()
            if self.graph is not None:
                self._changed()
        return result

    @Slot(str)
    def import_file(self, path: str) -> None:
        """Import a memory JSONL file (all of it or nothing), then embed it."""
        if self.graph is None:
            return
        summary = self._run_job("import", f"Importing {Path(path).name}",
                                lambda p, c: import_file(self.graph, Path(path), progress=p, cancelled=c))
        if summary is not None:
            self.job_finished.emit("import", f"Imported {Path(path).name}: {summary.describe()}")

    @Slot(str)
    def export_file(self, path: str) -> None:
        if self.graph is None:
            return
        n = self._run_job("export", f"Exporting to {Path(path).name}", lambda p, c: export_file(self.graph, Path(path)))
        if n is not None:
            self.job_finished.emit("export", f"Exported {n} lines to {path}.")

    @Slot(str)
    def backup_now(self, _unused: str = "") -> None:
        """Take a rolling backup of the open file (SQLite's online backup: edits can go on)."""
        if self.graph is None:
            return
        path = self._run_job("backup", "Backing up", lambda p, c: backup_database(self.graph.db, reason="manual"))
        if path is not None:
            self.job_finished.emit("backup", f"Backed up to {path}.")

    @Slot()
    def embed_pending(self) -> None:
        if self.graph is not None and self.graph.embedder is not None:
            self._attach_and_embed()


class Engine(QObject):
    """The UI side of the worker: owns the thread, issues request ids, forwards calls as queued signals."""

    sig_open = Signal(str)
    sig_load_model = Signal(str)
    sig_params = Signal(object)
    sig_search = Signal(int, str, str)
    sig_load_entity = Signal(int, object, bool, object)
    sig_save = Signal(int, object)
    sig_delete = Signal(int)
    sig_restore = Signal(object)
    sig_import = Signal(str)
    sig_export = Signal(str)
    sig_backup = Signal(str)
    sig_shutdown = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.searches = RequestCounter()
        self.entities = RequestCounter()
        self.saves = RequestCounter()
        self.thread = QThread()
        self.thread.setObjectName("limbic-engine")
        self.worker = EngineWorker(self.searches, self.entities)
        self.worker.moveToThread(self.thread)
        _LIVE.add(self)
        self.thread.started.connect(self.worker.start)
        w = self.worker
        self.sig_open.connect(w.open_database)
        self.sig_load_model.connect(w.load_model)
        self.sig_params.connect(w.set_params)
        self.sig_search.connect(w.search)
        self.sig_load_entity.connect(w.load_entity)
        self.sig_save.connect(w.save_entity)
        self.sig_delete.connect(w.delete_entity)
        self.sig_restore.connect(w.restore_entity)
        self.sig_import.connect(w.import_file)
        self.sig_export.connect(w.export_file)
        self.sig_backup.connect(w.backup_now)
        self.sig_shutdown.connect(w.shutdown)
        self.thread.start()

    def search(self, query: str, entity_type: str = "") -> int:
        """Queue a search; returns its request id (every older one becomes stale)."""
        request_id = self.searches.next()
        self.worker.interrupt_search(request_id)
        self.sig_search.emit(request_id, query, entity_type)
        return request_id

    def load_entity(self, ref: int | str, record: bool = False, together: tuple[int, ...] = ()) -> int:
        request_id = self.entities.next()
        self.sig_load_entity.emit(request_id, ref, record, tuple(together))
        return request_id

    def save(self, draft: editing.EntityDraft) -> int:
        request_id = self.saves.next()
        self.sig_save.emit(request_id, draft)
        return request_id

    def start_job(self, signal: Signal, path: str) -> None:
        self.worker.clear_cancel()
        signal.emit(path)

    def cancel(self) -> None:
        self.worker.cancel_job()

    def stop(self, timeout_ms: int = 30_000) -> bool:
        """Cancel any job, close the file on its thread and wait for the thread to end."""
        if not self.thread.isRunning():
            _LIVE.discard(self)
            return True
        self.worker.closing = True
        self.worker.cancel_job()
        self.sig_shutdown.emit()
        finished = self.thread.wait(timeout_ms)
        if finished:
            _LIVE.discard(self)
        else:
            logger.error("the engine thread did not stop within %d ms", timeout_ms)
        return finished


def running_engines() -> list[Engine]:
    """Engines whose thread still runs (tests fail when one leaks)."""
    return [e for e in list(_LIVE) if e.thread.isRunning()]
