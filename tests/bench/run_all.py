"""The benchmark suite: ``make bench`` = ``python -m tests.bench.run_all``.

Writes bench-results/bench.json and bench-results/bench.md. Large graphs are built once
(vectors without the model) and cached under bench-results/; the ingest graph is imported
with the real model on every run and then searched as the smallest size.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from limbic.engine.vectors.embeddings import load_embedder
from tests.bench import bench_ingest, bench_search, probe
from tests.bench.build import cached_graph, remove_db
from tests.bench.common import RESULTS, ROOT, machine
from tests.bench.report import markdown
from tests.bench.synth import generate

logger = logging.getLogger(__name__)


def _args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m tests.bench.run_all", description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="10000,100000", help="cached graph sizes to search (comma-separated)")
    p.add_argument(
        "--ingest-size", type=int, default=1000,
        help="entities imported with the real model (then searched); 10000 is the goal size but slow on 2 shared cores",
    )
    p.add_argument("--queries", type=int, default=200, help="queries per graph")
    p.add_argument("--vec0-queries", type=int, default=60, help="sqlite-vec scans per graph above 10k entities (each ~80 ms at 100k)")
    p.add_argument("--startup-runs", type=int, default=3)
    p.add_argument("--rebuild", action="store_true", help="rebuild the cached graphs")
    p.add_argument("--skip-ui", action="store_true", help="do not run tests/bench/ui_stall.py")
    p.add_argument("--ui-entities", type=int, default=500, help="entities ui_stall.py imports (its own default is 5000)")
    return p.parse_args(argv)


def _startup(path: Path, query: str, runs: int, entities: int) -> dict:
    ready, first = [], []
    for _ in range(runs):
        r = probe.spawn("startup", path, [query])
        ready.append(r["ready"] - r["launched"])
        first.append(r["first_result"] - r["launched"])
    return {
        "entities": entities,
        "runs": runs,
        "ready_s": round(statistics.median(ready), 3),
        "first_result_s": round(statistics.median(first), 3),
        "all_ready_s": [round(x, 3) for x in ready],
        "all_first_result_s": [round(x, 3) for x in first],
    }


def _ui_stall(entities: int) -> dict | None:
    """The UI's own stall benchmark, when present; its report is folded into ours."""
    script = Path(__file__).with_name("ui_stall.py")
    if not script.is_file():
        return None
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    argv = ["-m", "tests.bench.ui_stall", "--entities", str(entities)]
    command = "python " + " ".join(argv)
    try:
        proc = subprocess.run([sys.executable, *argv], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        return {"command": command, "returncode": None, "output": "timed out after 900 s"}
    tail = (proc.stdout.strip() + ("\n" + proc.stderr.strip() if proc.returncode else "")).strip()
    out = {"command": command, "returncode": proc.returncode, "output": "\n".join(tail.splitlines()[-30:])}
    report = RESULTS / "ui_stall.json"
    if proc.returncode == 0 and report.is_file():
        try:
            out["report"] = json.loads(report.read_text(encoding="utf-8"))
        except ValueError:
            pass
    return out


def main(argv: list[str] | None = None) -> int:
    """Run every benchmark and write the report."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    args = _args(argv)
    started = time.perf_counter()
    RESULTS.mkdir(exist_ok=True)
    sizes = sorted({int(s) for s in args.sizes.split(",") if s.strip()})
    results: dict = {"machine": machine(), "command": "python -m tests.bench.run_all " + " ".join(argv or sys.argv[1:]), "builds_s": {}}
    results["command"] = results["command"].strip()
    embedder = load_embedder()

    # Ingest with the real model; the imported graph is then the smallest one searched.
    logger.info("importing %d entities with the real model", args.ingest_size)
    synth = generate(args.ingest_size, queries=args.queries)
    ingest_db = RESULTS / f"ingest-{args.ingest_size}.db"
    results["ingest"] = bench_ingest.run(ingest_db, embedder, synth)

    results["search"] = []
    graphs = [(args.ingest_size, ingest_db, synth.queries, "model")]
    for n in sizes:
        if n == args.ingest_size:
            continue
        path, queries, built = cached_graph(n, embedder, rebuild=args.rebuild, queries=args.queries)
        results["builds_s"][str(n)] = round(built, 1)
        graphs.append((n, path, queries[: args.queries], "synthetic"))
    graphs.sort(key=lambda g: g[0])
    for n, path, queries, kind in graphs:
        logger.info("searching the %d-entity graph", n)
        vec0 = len(queries) if n <= 10_000 else args.vec0_queries
        res = bench_search.run(path, embedder, queries, f"{n}", vec0)
        res["vectors"] = kind
        results["search"].append(res)

    largest_n, largest_path, largest_queries, _ = graphs[-1]
    texts = [q for _, q in largest_queries[:50]]
    logger.info("memory and start-up in fresh processes")
    results["memory"] = {"entities": largest_n, **probe.spawn("memory", largest_path, texts)}
    results["startup"] = [
        _startup(path, queries[0][1], args.startup_runs, n) for n, path, queries, _ in (graphs[0], graphs[-1])
    ]
    if not args.skip_ui:
        results["ui_stall"] = _ui_stall(args.ui_entities)

    for n, path, _, kind in graphs:
        if kind == "synthetic":
            remove_db(path)  # working copies; the cache stays
    results["total_s"] = round(time.perf_counter() - started, 1)
    results["finished"] = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    (RESULTS / "bench.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    (RESULTS / "bench.md").write_text(markdown(results), encoding="utf-8")
    print(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
