"""Shared helpers of the benchmarks: where results go, percentiles, memory, and what the machine is."""

from __future__ import annotations

import json
import logging
import os
import platform
import resource
import subprocess
import sys
from pathlib import Path

import numpy as np

logger = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench-results"


def write_results(stem: str, results: dict, markdown: str) -> None:
    """Write a benchmark's figures as ``stem``.json and its table as ``stem``.md under bench-results/, and say so."""
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{stem}.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    (RESULTS / f"{stem}.md").write_text(markdown, encoding="utf-8")
    print(f"wrote {RESULTS / (stem + '.json')} and {stem}.md")


def stats_ms(seconds: list[float]) -> dict[str, float]:
    """p50 / p95 / mean of a list of durations, in milliseconds."""
    if not seconds:
        return {"p50": float("nan"), "p95": float("nan"), "mean": float("nan"), "n": 0}
    ms = np.asarray(seconds, dtype=float) * 1000
    return {
        "p50": round(float(np.percentile(ms, 50)), 2),
        "p95": round(float(np.percentile(ms, 95)), 2),
        "mean": round(float(ms.mean()), 2),
        "n": len(ms),
    }


def peak_rss_mb() -> float:
    """The process's peak resident set size so far, in MiB."""
    # Linux: VmHWM belongs to this program's memory; ru_maxrss would carry over the parent's peak from before exec.
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024  # bytes on macOS, KiB elsewhere


def current_rss_mb() -> float:
    """The resident set size now, in MiB (Linux; else the peak)."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1 << 20)
    except OSError:
        return peak_rss_mb()


def machine() -> dict:
    """What the figures were measured on."""
    import apsw
    import onnxruntime
    import sqlite_vec

    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except OSError:
        commit = ""
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "load_average_1min_at_start": round(load, 2),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "onnxruntime": onnxruntime.__version__,
        "sqlite": apsw.sqlite_lib_version(),
        "sqlite_vec": getattr(sqlite_vec, "__version__", "?"),
        "commit": commit,
    }


class ShapeRecorder:
    """Stands in for the ONNX session and notes the (batch, sequence) shape of every model call."""

    def __init__(self, session) -> None:
        self._session = session
        self.shapes: list[tuple[int, int]] = []
        self.real_tokens: list[int] = []

    def run(self, outputs, feeds, *args, **kwargs):
        """Delegate to the real session, keeping the input shape and the count of real tokens."""
        ids = feeds["input_ids"]
        self.shapes.append((int(ids.shape[0]), int(ids.shape[1])))
        self.real_tokens.append(int(feeds["attention_mask"].sum()))
        return self._session.run(outputs, feeds, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._session, name)

    def take(self) -> tuple[list[tuple[int, int]], list[int]]:
        shapes, real = self.shapes, self.real_tokens
        self.shapes, self.real_tokens = [], []
        return shapes, real


def record_shapes(embedder) -> ShapeRecorder:
    """Put a ShapeRecorder in front of the embedder's model (idempotent)."""
    session = embedder._session  # the benchmark looks at what the model is fed; nothing else does
    if not isinstance(session, ShapeRecorder):
        session = ShapeRecorder(session)
        embedder._session = session
    return session
