"""What an assistant's scope costs: search and read_graph through the scoped view beside the same calls unscoped.

    python -m tests.bench.bench_scopes [--entities 10000] [--rounds 7] [--queries 20] [--reads 3] [--fresh]

A report, never a pass/fail (``bench-results/bench_scopes_<entities>.json``). One graph of ``--entities`` entities (12 types,
three observations each, a relation each; full text only: the model is not loaded, so the scope's share of
the time is the largest it can be), called as `limbic mcp` calls its tools (GraphHost.invoke, without the wire)
in three states, alternated round by round: *unscoped* (nothing private, the assistant may read everything:
no view at all), *private* (1 % of the entities private: the connection narrowed to what is not private) and
*typed* (1 % private, and the assistant may read 11 of the 12 types). Each round times ``--queries`` searches
(limit 10) and ``--reads`` whole read_graph calls; the figures are medians over the rounds (of each round's median),
and each state's ratio to unscoped, in wall time and in the CPU time of the graph's thread (which other programs on a
shared machine disturb least).
The graph is built once per size and kept (``bench-results/scopes-graph-<entities>.db``); each run reads a copy
of it (``--fresh`` builds it again).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from limbic.mcp import activity as mcp_activity
from limbic.mcp.server import GraphHost
from limbic.mcp.tools import TOOLS_BY_NAME, arguments_for
from limbic.service import scope
from tests.bench.bench_mcp import WORDS, entity
from tests.bench.common import RESULTS, machine, write_results


def cached(path: Path, n: int, fresh: bool) -> None:
    """The bench graph of ``n`` entities at ``path``: a copy of the kept one, built first when there is none."""
    kept = RESULTS / f"scopes-graph-{n}.db"
    if fresh or not kept.exists():
        RESULTS.mkdir(exist_ok=True)
        partial = kept.with_suffix(".building")
        for stale in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
            stale.unlink(missing_ok=True)
        start = time.perf_counter()
        build(partial, n)  # closed, so its write-ahead log is folded into the file before it is kept or copied
        if Path(f"{partial}-wal").exists() and Path(f"{partial}-wal").stat().st_size:
            raise SystemExit(f"{partial} was left with a write-ahead log; not kept.")
        partial.replace(kept)
        print(f"built {n:,} entities in {time.perf_counter() - start:.1f} s ({kept})", flush=True)
    shutil.copyfile(kept, path)


def build(path: Path, n: int) -> None:
    from limbic.engine.graph.graph import Graph
    from limbic.engine.store.db import Database
    from limbic.service import memory

    g = Graph(Database(path))
    try:
        for start in range(0, n, 1000):
            memory.create_entities(g, [entity(i) for i in range(start, min(n, start + 1000))])
        relations = [{"from": f"Entity {i:06d}", "to": f"Entity {(i * 31 + 7) % n:06d}", "relationType": "relates to"}
                     for i in range(n)]
        for start in range(0, n, 1000):
            memory.create_relations(g, relations[start:start + 1000])
    finally:
        g.db.close()


STATES = {
    "unscoped": (0, "all"),
    "private": (1, "all"),
    "typed": (1, tuple(f"Type{i}" for i in range(11))),
}


def _set_state(graph, state: str) -> None:
    marked, read = STATES[state]
    scope.lift(graph)
    with graph.db.transaction():
        graph.db.execute("UPDATE entities SET private = ? WHERE id % 100 = 0 AND private != ?", (marked, marked))
    scope.set_access(graph, "bench", read, "all")


def _load() -> str:
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--queries", type=int, default=20)
    parser.add_argument("--reads", type=int, default=3, help="whole read_graph calls per state and round")
    parser.add_argument("--fresh", action="store_true", help="build the graph again rather than read the kept one")
    args = parser.parse_args()
    kinds = ("search", "read_graph")
    # (wall, CPU of the graph's thread) per state, kind and round: CPU time is what other programs on a shared
    # machine disturb least, so its ratios are the steadier ones.
    times: dict[str, dict[str, list[tuple[float, float]]]] = {s: {k: [] for k in kinds} for s in STATES}
    load_before = _load()
    with tempfile.TemporaryDirectory(prefix="limbic-bench-scopes-") as tmp:
        path = Path(tmp) / "g.db"
        cached(path, args.entities, args.fresh)
        host = GraphHost(path, None, load_model=False)
        host.start()
        host.submit(lambda: None).result()
        client = mcp_activity.Client(1, "bench", "1")
        queries = [WORDS[i % len(WORDS)] if i % 2 else f"LMB-{(i * 977) % args.entities}" for i in range(args.queries)]

        def timed(spec, arguments) -> float:  # on the graph's thread
            begin = time.thread_time()
            host.invoke(spec, arguments, client)
            return time.thread_time() - begin

        def call(tool: str, **arguments) -> tuple[float, float]:
            spec = TOOLS_BY_NAME[tool]
            begin = time.perf_counter()
            cpu = host.submit(timed, spec, arguments_for(spec, arguments)).result()
            return time.perf_counter() - begin, cpu

        def medians(pairs: list[tuple[float, float]]) -> tuple[float, float]:
            return statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)

        try:
            for r in range(args.rounds):
                order = list(STATES) if r % 2 == 0 else list(reversed(STATES))
                for state in order:
                    host.submit(lambda s=state: _set_state(host.graph(), s)).result()
                    call("search", query="warm up", limit=10)
                    times[state]["search"].append(medians([call("search", query=q, limit=10) for q in queries]))
                    times[state]["read_graph"].append(medians([call("read_graph") for _ in range(args.reads)]))
                print(f"round {r + 1}/{args.rounds}", flush=True)
        finally:
            host.close()
    results: dict = {"entities": args.entities, "rounds": args.rounds, "queries": args.queries, "reads": args.reads,
                     "load_average_before": load_before, "load_average_after": _load(), "machine": machine()}
    lines = [f"{args.entities:,} entities, full text only, medians of {args.rounds} alternated rounds "
             f"({args.queries} searches and {args.reads} read_graph per state and round); load average "
             f"{load_before} before, {results['load_average_after']} after", "",
             "| state | search p50 (ms) | × unscoped | CPU × | read_graph (ms) | × unscoped | CPU × |",
             "|---|---|---|---|---|---|---|"]
    base = {k: medians(v) for k, v in times["unscoped"].items()}
    for state in STATES:
        med = {k: medians(v) for k, v in times[state].items()}
        results[state] = {k: round(med[k][0] * 1000, 2) for k in kinds} | {
            f"{k}_cpu": round(med[k][1] * 1000, 2) for k in kinds} | {
            f"{k}_ratio": round(med[k][0] / base[k][0], 3) for k in kinds} | {
            f"{k}_cpu_ratio": round(med[k][1] / base[k][1], 3) for k in kinds}
        lines.append(f"| {state} | {med['search'][0] * 1000:.2f} | {med['search'][0] / base['search'][0]:.3f} | "
                     f"{med['search'][1] / base['search'][1]:.3f} | {med['read_graph'][0] * 1000:.1f} | "
                     f"{med['read_graph'][0] / base['read_graph'][0]:.3f} | "
                     f"{med['read_graph'][1] / base['read_graph'][1]:.3f} |")
    print("\n".join(lines))
    write_results(f"bench_scopes_{args.entities}", results, "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
