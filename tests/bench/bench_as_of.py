"""The graph of a past moment on a large graph: upgrade, rebuild, `export --as-of` and `search --as-of`.

    python -m tests.bench.bench_as_of [--entities 100000] [--rounds 3] [--query "project decision"]

The cached benchmark graph (``build.py``, written in schema 7's shape, without history) is copied
to a private file and opened once, which upgrades it and folds its rows into the recorded history
(timed as "upgrade"). Each round then asks for the moment just after the upgrade, when every entity
exists: "rebuild" is the past graph alone (no text index, as an export needs), "export" the whole
JSONL export of that moment written to nowhere, "search" one search of it with the model (past
graph, its text index, today's vectors borrowed for unchanged entities, the search). Each figure is
the median over rounds; the peak memory is the process's.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from limbic.engine.graph.graph import Graph
from limbic.engine.history import asof
from limbic.engine.store import values
from limbic.engine.store.db import Database
from limbic.engine.vectors.embeddings import load_embedder
from limbic.service.history import export_as_of, search_as_of
from tests.bench.build import _cache_ok, cached_graph
from tests.bench.common import RESULTS, peak_rss_mb


class _Nowhere(io.TextIOBase):
    def write(self, text: str) -> int:
        return len(text)


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--query", default="project decision")
    args = parser.parse_args(argv)
    embedder = load_embedder()
    cache = RESULTS / f"graph-{args.entities}.db"
    if not _cache_ok(cache, args.entities, embedder):
        cached_graph(args.entities, embedder)  # builds the cache
    folder = Path(tempfile.mkdtemp(prefix="limbic-bench-asof-"))
    path = folder / "g.db"
    shutil.copyfile(cache, path)  # a copy of its own: the upgrade writes into it
    try:
        upgrade = _timed(lambda: Database(path).close())
        graph = Graph(Database(path), embedder)
        at = values.now_utc()
        times: dict[str, list[float]] = {"rebuild": [], "export": [], "search": []}
        for _ in range(args.rounds):
            times["rebuild"].append(_timed(lambda: asof.rebuild(graph.db, at, text_index=False).close()))
            times["export"].append(_timed(lambda: export_as_of(graph, at, _Nowhere())))
            times["search"].append(_timed(lambda: search_as_of(graph, args.query, at, 10)))
        result = {
            "entities": args.entities,
            "history_rows": int(graph.db.scalar("SELECT count(*) FROM history")),
            "upgrade_s": round(upgrade, 2),
            **{f"{k}_s": round(statistics.median(v), 2) for k, v in times.items()},
            "peak_rss_mb": round(peak_rss_mb()),
        }
        graph.db.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    for key, value in result.items():
        print(f"{key:>14}: {value}")
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "bench_as_of.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return result


if __name__ == "__main__":
    main()
