"""Measurements that need a fresh process: start-up time and peak memory with a graph open.

Run as ``python -m tests.bench.probe startup|memory DB [QUERY...]``; prints one JSON line.
The parent notes the wall clock just before starting this process.
"""

from __future__ import annotations

import time

STARTED = time.time()  # before any heavy import: the interpreter's own start is the parent's to measure

import json  # noqa: E402
import logging  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

logger = logging.getLogger(__name__)


def _startup(db: str, queries: list[str]) -> dict:
    from limbic.engine.search.search import search
    from limbic.engine.session import open_graph

    opened = open_graph(db)
    ready = time.time()
    response = search(opened.graph, queries[0], record=False)
    first = time.time()
    opened.close()
    return {"module_start": STARTED, "ready": ready, "first_result": first, "results": len(response.results), "model_error": opened.model_error}


def _memory(db: str, queries: list[str]) -> dict:
    from limbic.engine.vectors import index, vector_index
    from limbic.engine.search.search import search
    from limbic.engine.session import open_graph
    from tests.bench.common import current_rss_mb, peak_rss_mb

    base = current_rss_mb()
    opened = open_graph(db)
    after_open = current_rss_mb()
    for q in queries:
        search(opened.graph, q, record=False)
    mirror = vector_index.mirror_for(opened.graph.db, index.VEC_TABLE)
    out = {
        "rss_before_open_mib": round(base, 1),
        "rss_open_with_model_mib": round(after_open, 1),
        "rss_after_searches_mib": round(current_rss_mb(), 1),
        "peak_rss_mib": round(peak_rss_mb(), 1),
        "mirror_mib": round(mirror.nbytes / (1 << 20), 1),
        "searches": len(queries),
    }
    opened.close()
    return out


def main(argv: list[str]) -> int:
    """Entry point of the child process."""
    what, db, *queries = argv
    result = _startup(db, queries) if what == "startup" else _memory(db, queries)
    print(json.dumps(result))
    return 0


def spawn(what: str, db: Path, queries: list[str], timeout: float = 300) -> dict:
    """Run a probe in a new interpreter; adds ``launched`` (wall clock just before the start)."""
    launched = time.time()
    proc = subprocess.run(
        [sys.executable, "-m", "tests.bench.probe", what, str(db), *queries],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=Path(__file__).resolve().parents[2],
    )
    if proc.returncode != 0:
        raise RuntimeError(f"probe {what} failed: {proc.stderr.strip()[-2000:]}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["launched"] = launched
    return result


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
