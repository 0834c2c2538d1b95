"""Sync for `limbic mcp`: when the graph file has a sync folder, exchange with it in the background.

After the server's writes (debounced, so a burst of tool calls goes out as one segment) and every
so often to take in the other devices' changes. The exchange runs in a short-lived process of its
own (``python -m limbic.mcp.sync FILE``; in a bundle, where the executable is ``limbic`` itself, its hidden
command ``limbic _sync-exchange FILE``), watched from a thread, so no answer waits for it and no
second connection in this process can disturb the server's file locks (SQLite's POSIX locks are
per process); what it applies reaches this server as any other writer's commits do. Only one program syncs a file at a time (the service's lock file): a server that finds
it taken tries again at its next turn.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from limbic import config, storage_places
from limbic.engine.errors import LimbicError
from limbic.service import sync as service_sync

logger = logging.getLogger(__name__)

DEBOUNCE_SECONDS = float(os.environ.get("LIMBIC_SYNC_DEBOUNCE", "2.0"))  # quiet time after a write
RECEIVE_SECONDS = 30.0  # how often the folder is read when nothing is written here
RETRY_SECONDS = 3.0  # after an exchange that failed or found the file busy, the next try comes this soon
EXCHANGE_SECONDS = 1800  # an exchange that takes longer is stopped; the next one resumes the work
CHILD_COMMAND = "_sync-exchange"  # the hidden `limbic` command a bundle's exchange process runs
CREATE_NO_WINDOW = 0x08000000  # Windows: a console program started from a windowless one opens no window


def exchange_command(db_path: Path) -> list[str]:
    """How this program starts its exchange process: a bundle (PyInstaller) has no ``-m``, only its own commands."""
    if getattr(sys, "frozen", False):
        return [sys.executable, CHILD_COMMAND, str(db_path)]
    return [sys.executable, "-m", "limbic.mcp.sync", str(db_path)]


def child_options() -> dict:
    """What else the exchange process is started with: on Windows, no console window of its own."""
    return {"creationflags": CREATE_NO_WINDOW} if sys.platform == "win32" else {}


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
                if self._due is None:  # nothing written: the next reading of the folder, kept until it is due
                    self._due = time.monotonic() + self.every
                due = self._due
            wait = due - time.monotonic()
            if wait > 0:
                self._wake.wait(wait)
                self._wake.clear()
                continue  # a newer write may have moved the time
            with self._lock:
                self._due, self._unsent = None, False
            if not self.run_once():
                with self._lock:  # what was due is still due: try again soon, not at the next 30 s turn
                    retry = time.monotonic() + min(self.every, RETRY_SECONDS)
                    self._due = retry if self._due is None else min(self._due, retry)

    def run_once(self) -> bool:
        """One exchange when the file has a sync folder (a failure is logged, never raised).

        False when the exchange failed or another program held the file's sync lock.
        """
        folder = service_sync.remembered_folder(self.db_path)
        if folder is None:
            return True
        private = storage_places.redirected_settings(config.data_dir())
        if private:  # a Microsoft Store client: this server's settings and lock are not the app's
            if self.last_error != private:
                logger.warning("%s", private)
            self.last_error = private
            return True
        done_well = False
        try:
            done = subprocess.run(exchange_command(self.db_path), capture_output=True, text=True, encoding="utf-8",
                                  errors="replace", timeout=EXCHANGE_SECONDS, env=os.environ.copy(), **child_options())
            lines = done.stdout.strip().splitlines()
            report = json.loads(lines[-1]) if lines else {"error": done.stderr.strip()[-500:] or "no answer"}
            self.last_error = report.get("error")
            if self.last_error:
                logger.warning("sync: %s", self.last_error)
            elif report.get("busy"):
                logger.info("another program syncs %s now; trying again later", self.db_path)
            else:
                done_well = True
                if report.get("sent") or report.get("received"):
                    logger.info("synced: %s sent, %s received, %s conflicts", report["sent"], report["received"],
                                report["conflicts"])
            if report.get("confirm_needed"):
                logger.warning("sync waits for a person: %s", " ".join(report["confirm_needed"]))
        except (OSError, ValueError, subprocess.SubprocessError) as exc:
            self.last_error = str(exc)
            logger.warning("sync could not run: %s", exc)
        finally:
            self.exchanges += 1
        return done_well


def exchange_once(db_path: Path) -> dict:
    """One exchange of this file under its sync lock, as the report the server logs."""
    try:
        result = service_sync.exchange_if_free(db_path)
    except LimbicError as exc:  # the folder unreachable, a newer schema: one sentence
        return {"error": str(exc)}
    if result is None:
        return {"busy": True}
    return {"sent": result.sent, "received": result.received, "conflicts": result.conflicts,
            "confirm_needed": result.confirm_needed}


def child_main(argv: list[str]) -> int:
    """The exchange process: one exchange of the graph file ``argv[0]``, its report as one line of JSON."""
    if len(argv) != 1:
        print(json.dumps({"error": "the exchange process takes one graph file"}))
        return 2
    print(json.dumps(exchange_once(Path(argv[0]))))
    return 0


if __name__ == "__main__":  # the server's exchange process
    raise SystemExit(child_main(sys.argv[1:]))
