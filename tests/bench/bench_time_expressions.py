"""What reading a query's time expression costs: every query pays it, so most must pay almost nothing.

Over the SciFact train queries as written (a few hold a time word or a digit and are parsed; the rest are
turned away by the pre-check), and the same queries with a time expression added, English and Spanish in
turn. Each query is timed as the best of five runs of many calls; the figure is the median per call across
queries, with the 95th percentile.

    PYTHONPATH=app:. .venv/bin/python -m tests.bench.bench_time_expressions [--queries FILE] [--loops 40]

Prints JSON and writes bench-results/time_expressions.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from datetime import datetime
from pathlib import Path

from limbic.engine.text import time_expressions
from limbic.engine.text.time_expressions import find_time
from tests.bench.common import RESULTS

QUERIES = Path("/work/shared/eval/scifact-train/queries.jsonl")
NOW = datetime(2024, 3, 14, 10, 30)
ADDED = ["last weekend before April 10, 2023", "en agosto de 2023", "hace dos semanas", "on 16 June, 2023",
         "el mes pasado", "between March and June 2023", "yesterday", "antes del 10 de abril de 2023"]


def _per_call_us(texts: list[str], loops: int, repeats: int = 5) -> list[float]:
    """Each text's cost per call: the best of `repeats` runs of `loops` calls, as timeit takes it (the
    machine is shared; the best run is the one other work disturbed least)."""
    costs = []
    for text in texts:
        runs = []
        for _ in range(repeats):
            start = time.perf_counter()
            for _ in range(loops):
                find_time(text, NOW)
            runs.append((time.perf_counter() - start) / loops * 1e6)
        costs.append(min(runs))
    return costs


def _summary(costs: list[float]) -> dict[str, float]:
    ordered = sorted(costs)
    return {"n": len(costs), "median_us": round(statistics.median(costs), 2),
            "p95_us": round(ordered[int(0.95 * (len(ordered) - 1))], 2)}


def main() -> None:
    """Time find_time over the queries as written and with a time expression added; print and save."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=Path, default=QUERIES)
    parser.add_argument("--loops", type=int, default=40)
    args = parser.parse_args()
    with args.queries.open(encoding="utf-8") as fh:
        queries = [json.loads(line)["text"] for line in fh if line.strip()]
    find_time("warm up on 16 June, 2023", NOW)
    turned_away = [q for q in queries if not time_expressions._may_hold_time(q)]
    parsed = [q for q in queries if time_expressions._may_hold_time(q)]
    found = [q for q in parsed if find_time(q, NOW) is not None]
    with_time = [f"{q.rstrip('.')} {ADDED[i % len(ADDED)]}" for i, q in enumerate(queries)]
    missed = [q for q in with_time if find_time(q, NOW) is None]
    report = {
        "queries": str(args.queries), "loops": args.loops, "load_average_1min": round(os.getloadavg()[0], 2),
        "as_written_all": _summary(_per_call_us(queries, args.loops)),
        "as_written_turned_away_by_precheck": _summary(_per_call_us(turned_away, args.loops)),
        "as_written_parsed": _summary(_per_call_us(parsed, args.loops)),
        "as_written_with_a_match": {"n": len(found), "examples": found[:5]},
        "with_a_time_expression_added": _summary(_per_call_us(with_time, args.loops)),
        "added_but_not_found": len(missed),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "time_expressions.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
