"""One arm of a before/after search latency comparison on a cached benchmark graph.

Run it alternately with two versions of the code (a git worktree of the earlier commit for
"before"), so that both arms see the same load on a shared machine:

    for round in 1 2 3; do
      PYTHONPATH=/tmp/before/app:. .venv/bin/python -m tests.bench.search_ab /tmp/ab/before-$round.json
      PYTHONPATH=app:. .venv/bin/python -m tests.bench.search_ab /tmp/ab/after-$round.json
    done
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

from tests.bench import bench_search
from tests.bench.build import cached_graph


def main(argv: list[str] | None = None) -> int:
    """Measure search on the cached ``--size`` graph with the code on the path; write bench_search's figures to OUT."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--size", type=int, default=100_000)
    p.add_argument("--queries", type=int, default=200)
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    from limbic.engine.search import search as search_module
    from limbic.engine.vectors.embeddings import load_embedder

    embedder = load_embedder()
    path, queries, _ = cached_graph(args.size, embedder, queries=args.queries)
    res = bench_search.run(path, embedder, queries[: args.queries], str(args.size), 0)
    res["code"] = str(Path(search_module.__file__).resolve())
    Path(args.out).write_text(json.dumps(res, indent=1), encoding="utf-8")
    logging.info("%s: search p50 %.1f ms p95 %.1f ms", res["code"], res["search_ms"]["p50"], res["search_ms"]["p95"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
