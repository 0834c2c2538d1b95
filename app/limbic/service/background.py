"""What a long-running front end without a window (``limbic mcp``) needs around its graph: the model
loaded only when a meaning search first needs it, a background embedder that brings new writes into
meaning search within seconds, and a check that the graph file is still the one it opened.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

from limbic.engine.vectors import index
from limbic.engine.store.db import Database
from limbic.engine.errors import LimbicError, ValidationError
from limbic.engine.session import OpenGraph, attach_model

logger = logging.getLogger(__name__)

EMBED_BATCH = 8  # small batches: an encoder's working memory grows with the batch, and this one runs beside a server
IDLE_SECONDS = 30.0  # how long the embedder sleeps when nothing wakes it


class GraphFile:
    """The identity (device, inode) of the file a connection opened, compared with what its path names now.

    Only ``os.stat`` on the path: nothing but SQLite opens the graph file.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        st = os.stat(self.path)
        self.identity = (st.st_dev, st.st_ino)

    def problem(self) -> str | None:
        """Why writes must stop (the file was deleted or replaced since it was opened), or None."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            what = "was deleted"
        except OSError as exc:
            what = f"cannot be looked at ({exc.strerror or exc})"
        else:
            if (st.st_dev, st.st_ino) == self.identity:
                return None
            what = "was replaced by another file"
        return (
            f"The graph file {self.path} {what} while this server was running, so writes are refused: they would go "
            "into the old file and be lost. Reads still show the old file; restart the server to use the new one."
        )

    def check(self) -> None:
        """Raise ValidationError when the file is no longer the one opened."""
        problem = self.problem()
        if problem:
            raise ValidationError(problem)


def load_model_into(opened: OpenGraph, model_dir: Path | None) -> str | None:
    """Load the model into a graph opened without one; returns why meaning search is off, or None."""
    attach_model(opened, model_dir, low_memory=True)
    return opened.model_error


def embed_batch(graph) -> int:
    """Embed one batch of the entities waiting for a vector (so a caller can yield between batches); returns how many."""
    ids = index.pending_ids(graph.db, index.EMBED_BATCH)
    if ids:
        return graph.embed_pending(only=ids)
    if graph.embedder is None:
        return 0
    # Then the further windows of long entities from a file made before them.
    return index.embed_backlog_batch(graph.db, graph.embedder, index.EMBED_BATCH)[0]


def embed_backlog(graph) -> int:
    """Embed every entity waiting for a vector, now, in small batches; returns how many."""
    if graph.embedder is None:
        return 0
    return index.embed_pending(graph.db, graph.embedder, batch_size=EMBED_BATCH)


class BackgroundEmbedder:
    """A thread with its own connection that embeds entities waiting for a vector.

    Writes return once committed; ``wake`` after each one, and the waiting entities get their
    vectors within about the time it takes to encode them. The vectors it stores reach the
    server's own connection through the change log, as any other writer's do.
    """

    def __init__(self, path: Path, embedder, origin: str) -> None:
        self.path = Path(path)
        self.origin = origin  # the change log's writer: the front end it embeds for
        self.embedder = embedder.for_another_thread()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        # What waits: the entities this front end wrote. The whole backlog (None) only at the start:
        # several servers on one file would otherwise each embed every other one's writes too.
        self._todo: set[int] | None = None
        self.embedded = 0  # how many vectors it stored, for tests and benchmarks
        self.idle = threading.Event()  # set while nothing waits
        self._thread = threading.Thread(target=self._run, name="limbic-embedder", daemon=True)

    def start(self) -> None:
        self._wake.set()
        self._thread.start()

    def wake(self, ids: set[int]) -> None:
        """These entities were written: embed them (those still waiting for a vector)."""
        if not ids:
            return
        with self._lock:
            if self._todo is not None:
                self._todo |= ids
        self.idle.clear()
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=30)

    def _take(self) -> set[int] | None:
        with self._lock:
            todo, self._todo = self._todo, set()
        return todo

    def _run(self) -> None:
        db = None
        try:
            db = Database(self.path)
            db.origin = self.origin
            while not self._stop.is_set():
                self._wake.wait(IDLE_SECONDS)
                self._wake.clear()
                if self._stop.is_set():
                    break
                todo = self._take()
                if todo == set():
                    self.idle.set()
                    continue
                try:
                    self.embedded += index.embed_pending(
                        db, self.embedder, EMBED_BATCH, cancelled=self._stop.is_set, only=todo)
                except LimbicError as exc:
                    logger.info("embedding waits: %s", exc)
                except Exception:
                    logger.exception("embedding in the background failed; it is tried again after the next write")
                if not self._wake.is_set():
                    self.idle.set()
        except Exception:
            logger.exception("the background embedder stopped")
        finally:
            if db is not None:
                db.close()
