"""Measure `limbic mcp` on a synthetic graph: the memory operations called directly, the same calls
through the real server over stdio (the protocol's share is the ratio), and the size of what the
reads hand an assistant.

    PYTHONPATH=app nice python scripts/mcp_measure.py [--entities 20000] [--runs 15]

Text only (no model), so the numbers are the store's and the protocol's, not the encoder's.
Prints medians in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from limbic.service import memory

APP = str(Path(__file__).resolve().parents[1] / "app")
WORDS = "alpha beta gamma delta kappa lambda sigma omega river stone cloud ember maple cedar harbor lantern".split()


def build(path: Path, n: int) -> None:
    g = Graph(Database(path))
    try:
        for start in range(0, n, 1000):
            batch = []
            for i in range(start, min(n, start + 1000)):
                words = [WORDS[(i * k + k) % len(WORDS)] for k in range(1, 9)]
                batch.append({"name": f"Entity {i:06d}", "entityType": f"Type{i % 12}",
                              "observations": [" ".join(words), f"ticket LMB-{i}", f"seen in {WORDS[i % 16]} {i % 97}"]})
            memory.create_entities(g, batch)
        for start in range(0, n, 1000):
            memory.create_relations(g, [{"from": f"Entity {i:06d}", "to": f"Entity {(i * 31 + 7) % n:06d}",
                                         "relationType": "relates to"} for i in range(start, min(n, start + 1000))])
    finally:
        g.db.close()


CALLS = [
    ("read_graph (first page)", "read_graph", {}),
    ("read_graph (a middle page)", "read_graph", {"offset": 10_000}),
    ("search_nodes, rare text", "search_nodes", {"query": "LMB-1234"}),
    ("search_nodes, common word", "search_nodes", {"query": "cedar"}),
    ("open_nodes, 3 names", "open_nodes", {"names": ["Entity 000001", "Entity 000500", "Entity 001234"]}),
    ("search (full text)", "search", {"query": "harbor lantern 42"}),
    ("add_observations (a write)", "add_observations", None),
]


def direct(path: Path, runs: int) -> dict[str, tuple[float, int]]:
    g = Graph(Database(path))
    out = {}
    try:
        for label, tool, args in CALLS:
            times, size = [], 0
            for r in range(runs):
                if args is None:
                    call_args = [[{"entityName": "Entity 000002", "contents": [f"direct note {r} {time.time()}"]}]]
                elif tool == "search":
                    call_args = [args["query"]]
                else:
                    call_args = list(args.values())
                t = time.perf_counter()
                value = getattr(memory, tool)(g, *call_args, **({"record": False} if tool == "search" else {}))
                times.append(time.perf_counter() - t)
                size = len(json.dumps(value, ensure_ascii=False, indent=2))
            out[label] = (statistics.median(times) * 1000, size)
    finally:
        g.db.close()
    return out


async def served(path: Path, runs: int) -> dict[str, float]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "limbic", "mcp", "--db", str(path), "--no-model"],
                                   env={"PYTHONPATH": APP})
    out = {}
    start = time.perf_counter()
    async with Client(params, mode="legacy") as client:
        out["start and initialize"] = (time.perf_counter() - start) * 1000
        await client.call_tool("open_nodes", {"names": []})  # wait for the file to be open
        for label, tool, args in CALLS:
            times = []
            for r in range(runs):
                call_args = args if args is not None else {
                    "observations": [{"entityName": "Entity 000003", "contents": [f"served note {r} {time.time()}"]}]}
                t = time.perf_counter()
                result = await client.call_tool(tool, call_args)
                times.append(time.perf_counter() - t)
                assert not result.is_error, result.content[0].text
            out[label] = statistics.median(times) * 1000
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "measure.db"
        t = time.perf_counter()
        build(path, args.entities)
        print(f"built {args.entities:,} entities (3 observations, 1 relation each) in {time.perf_counter() - t:.1f} s")
        near = direct(path, args.runs)
        far = anyio.run(served, path, args.runs)
    print(f"server start to initialized: {far.pop('start and initialize'):.0f} ms")
    print(f"{'call':<30}{'direct ms':>11}{'server ms':>11}{'ratio':>7}{'JSON chars':>12}")
    for label, (ms, size) in near.items():
        print(f"{label:<30}{ms:>11.1f}{far[label]:>11.1f}{far[label] / ms:>7.2f}{size:>12,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
