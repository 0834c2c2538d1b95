"""Sync for `limbic mcp`: when the graph file has a sync folder, exchange with it in the background.

After the server's writes (debounced, so a burst of tool calls goes out as one segment) and every
so often to take in the other devices' changes. The exchange opens its own connection on its own
thread, so no answer waits for it; what it applies reaches this server as any other writer's
commits do. Only one program syncs a file at a time (the service's lock file): a server that finds
it taken tries again at its next turn.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path

from limbic.engine.errors import LimbicError
from limbic.service import sync as service_sync

logger = logging.getLogger(__name__)

DEBOUNCE_SECONDS = float(os.environ.get("LIMBIC_SYNC_DEBOUNCE", "2.0"))  # quiet time after a write
RECEIVE_SECONDS = 30.0  # how often the folder is read when nothing is written here


class BackgroundSync:
    """One thread that exchanges with the graph file's sync folder, when it has one."""

    def __init__(self, db_path: Path, debounce: float = DEBOUNCE_SECONDS, every: float = RECEIVE_SECONDS) -> None:
        self.db_path = Path(db_path)
        self.debounce = debounce
        self.every = every
        self.exchanges = 0  # exchanges run (tests wait on it)
        self.last_error: str | None = None
        self._due: float | None = time.monotonic()  # once at start: what arrived while no server ran
        self._unsent = False  # a write of this server not exchanged yet
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="limbic-sync", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def written(self) -> None:
        """This server committed: exchange once writes have been quiet for ``debounce`` seconds."""
        with self._lock:
            self._due = time.monotonic() + self.debounce
            self._unsent = True
        self._wake.set()

    def stop(self, timeout: float = 30.0) -> None:
        """Stop: a write still waiting for its quiet spell goes out first (within ``timeout`` seconds)."""
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _loop(self) -> None:
        while True:
            if self._stop.is_set():
                if self._unsent:
                    self.run_once()
                return
            with self._lock:
                due = self._due if self._due is not None else time.monotonic() + self.every
            wait = due - time.monotonic()
            if wait > 0:
                self._wake.wait(wait)
                self._wake.clear()
                continue  # a newer write may have moved the time
            with self._lock:
                self._due, self._unsent = None, False
            self.run_once()

    def run_once(self) -> None:
        """One exchange when the file has a sync folder (a failure is logged, never raised)."""
        folder = service_sync.remembered_folder(self.db_path)
        if folder is None:
            return
        try:
            result = service_sync.exchange_if_free(self.db_path, folder)
            self.last_error = None
            if result is None:
                logger.info("another program syncs %s now; trying again later", self.db_path)
            elif result.sent or result.received:
                logger.info("synced: %d sent, %d received, %d conflicts", result.sent, result.received, result.conflicts)
            if result is not None and result.confirm_needed:
                logger.warning("sync waits for a person: %s", " ".join(result.confirm_needed))
        except LimbicError as exc:  # the folder unreachable, a newer schema: said in the log, tried again later
            self.last_error = str(exc)
            logger.warning("sync: %s", exc)
        except Exception:
            self.last_error = "unexpected"
            logger.exception("sync failed")
        finally:
            self.exchanges += 1
