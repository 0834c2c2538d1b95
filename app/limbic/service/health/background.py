"""The health scan in a process of its own, so a long scan never holds the window's interpreter.

A scan of a large graph spends seconds in Python loops and in numpy calls that keep the GIL, and
its garbage collections walk millions of objects; on a thread of the app every one of those is a
stall of the window. In a process started with ``spawn`` (the same on every platform, and safe with
Qt's threads) the scan opens its own read-only SQLite connection on the graph file, runs at a lower
priority, sends its progress through a pipe, and returns the report; the window only unpickles the
findings. Cancelling ends the process: it holds nothing but a read transaction.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from limbic.engine import errors
from limbic.engine.errors import Cancelled, LimbicError
from limbic.service.health.checks import check_kinds, scan_file
from limbic.service.health.findings import Report
from limbic.service.health.load import Handle
from limbic.service.health.structure import STALE_DAYS

logger = logging.getLogger(__name__)

NICENESS = 10  # the window's process keeps the upper hand on a shared core
POLL_SECONDS = 0.05  # how often the waiting thread looks at cancel
_SPAWN = multiprocessing.get_context("spawn")


def peak_memory_mib() -> float:
    """This process's peak resident memory so far, in MiB (0 where the platform does not say)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    try:
        import resource
    except ImportError:  # Windows
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


def _run(path: str, kinds: list[str] | None, stale_days: float, limit: int | None, conn) -> None:
    """The scan process: one scan on its own connection, progress and the result sent back through ``conn``."""
    try:
        os.nice(NICENESS)
    except (AttributeError, OSError):  # not on Windows; a lower priority is a courtesy, not a need
        pass
    shown: list[tuple[str, int]] = []

    def progress(stage: str, done: int, total: int) -> None:
        step = (stage, done * 100 // max(1, total))
        if not shown or shown[-1] != step:  # only when the visible value changes
            shown[:] = [step]
            conn.send(("progress", stage, done, total))

    try:
        report = scan_file(path, kinds, Handle(progress=progress), stale_days, limit)
        report.peak_mib = round(peak_memory_mib(), 1)
        conn.send(("done", report))
    except LimbicError as exc:
        conn.send(("failed", type(exc).__name__, str(exc)))
    except Exception as exc:  # the sentence goes back; the traceback stays in this process's stderr
        logger.exception("health scan failed")
        conn.send(("error", type(exc).__name__, str(exc)))
    finally:
        conn.close()


def _error_of(name: str, message: str) -> LimbicError:
    cls = getattr(errors, name, None)
    if isinstance(cls, type) and issubclass(cls, LimbicError) and cls is not errors.ImportFileError:
        return cls(message)
    return LimbicError(message)


def scan_in_process(path: Path | str, kinds: Sequence[str] | None = None, handle: Handle | None = None,
                    stale_days: float = STALE_DAYS, limit: int | None = 500) -> Report:
    """``scan_file`` in a separate process: the same report, with progress and cancel through ``handle``."""
    check_kinds(kinds)  # an unknown kind is refused here, not in the other process
    handle = handle or Handle()
    receive, send = _SPAWN.Pipe(duplex=False)
    proc = _SPAWN.Process(target=_run, name="limbic-health-scan", daemon=True,
                          args=(str(path), list(kinds) if kinds else None,
                                stale_days, limit, send))
    proc.start()
    send.close()  # ours is the reading end; the pipe reports the end once the process closes its copy
    try:
        while True:
            if handle.cancelled():
                raise Cancelled("The health check was cancelled.")
            if not receive.poll(POLL_SECONDS):
                continue
            try:
                message = receive.recv()
            except EOFError:
                proc.join(5)
                raise LimbicError(f"The health check stopped unexpectedly (exit code {proc.exitcode}).") from None
            if message[0] == "progress":
                handle.step(*message[1:])
            elif message[0] == "done":
                report: Report = message[1]
                logger.info("health: scanned in a separate process in %.1f s, peak memory %.0f MiB",
                            report.seconds, report.peak_mib)
                return report
            elif message[0] == "failed":
                raise _error_of(message[1], message[2])
            else:
                raise LimbicError(f"The health check stopped on an unexpected error ({message[1]}: {message[2]}).")
    finally:
        receive.close()
        if proc.is_alive():
            proc.terminate()
        proc.join(5)
