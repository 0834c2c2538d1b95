"""What aliases cost on a large graph: writing them, and every look-up that falls back to them.

Builds a graph of ``--entities`` entities (full text only) and gives each one alias, the worst
case for the look-ups, then times: one alias written in its own commit, all of them in one write,
Graph.resolve and MCP open_nodes by an alias, the quick switcher's look-up with and without the
aliases, and a word search naming an alias (its entity must come first). Medians in milliseconds.

    PYTHONPATH=app nice .venv/bin/python -m tests.bench.bench_aliases [--entities 20000]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from limbic.engine.graph.graph import Graph
from limbic.engine.search.search import search
from limbic.engine.store.db import Database
from limbic.service import memory
from limbic.service.lookup import find_entities


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entities", type=int, default=20_000)
    n = parser.parse_args().entities
    g = Graph(Database(Path(tempfile.mkdtemp(prefix="limbic-aliases-")) / "g.db"))
    with g.write(embed=False):
        for i in range(n):
            g.upsert_entity(f"Entity number {i}", "Thing", [f"observation about thing {i}"])
    probe = f"en{n // 2}"
    print(f"switcher look-up, {n:,} entities, no aliases: {median_ms(lambda: find_entities(g, probe), 10):.1f} ms")
    start = time.perf_counter()
    with g.write(embed=False):
        for i in range(n):
            g.add_alias(f"Entity number {i}", f"EN{i}")
    print(f"{n:,} aliases written in one write: {time.perf_counter() - start:.2f} s")
    start = time.perf_counter()
    for i in range(200):
        g.add_alias(f"Entity number {i}", f"Other name {i}")
    single = (time.perf_counter() - start) / 200 * 1000
    print(f"one alias written in its own commit: {single:.2f} ms")
    print(f"Graph.resolve by an alias: {median_ms(lambda: g.resolve(probe), 200):.3f} ms")
    print(f"MCP open_nodes by an alias: {median_ms(lambda: memory.open_nodes(g, [probe.upper()]), 200):.3f} ms")
    print(f"switcher look-up, {n:,} entities + {n:,} aliases: {median_ms(lambda: find_entities(g, probe), 10):.1f} ms")
    top = search(g, probe.upper(), record=False).results[0].name
    assert top == f"Entity number {n // 2}", top
    print(f"word search naming an alias: {median_ms(lambda: search(g, probe.upper(), record=False), 10):.1f} ms "
          f"(first: {top})")
    g.db.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
