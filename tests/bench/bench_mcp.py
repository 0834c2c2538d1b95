"""`limbic mcp` side by side with the reference memory server (`@modelcontextprotocol/server-memory`) on
the same graph: first-call latency, create throughput, bulk create, search_nodes and search p50/p95,
and the memory of three servers on one graph before and after a meaning search. Ratios are Limbic's
figure over the reference's. Writes bench-results/mcp.md and mcp.json.

    PYTHONPATH=app nice .venv/bin/python -m tests.bench.bench_mcp [--entities 10000] [--singles 200]

The reference is installed from npm into ~/.cache/limbic-test/ on first use; without node or npm
the script says so and exits 0. Limbic's graph gets vectors of the model's size (random, so nothing
waits for embedding when the servers start, as on a graph the app has embedded); `search` then costs
what it costs on a real graph (encode, KNN, full text, ranking), though its ranking means nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from tests.bench.common import RESULTS, machine, stats_ms
from tests.mcp.raw import RawServer, limbic_command, reference_command

WORDS = "alpha beta gamma delta kappa lambda sigma omega river stone cloud ember maple cedar harbor lantern".split()


def entity(i: int, prefix: str = "Entity") -> dict:
    words = [WORDS[(i * k + k) % len(WORDS)] for k in range(1, 9)]
    return {"name": f"{prefix} {i:06d}", "entityType": f"Type{i % 12}",
            "observations": [" ".join(words), f"ticket LMB-{i}", f"seen in {WORDS[i % 16]} {i % 97}"]}


def build(db: Path, jsonl: Path, n: int) -> None:
    """The same graph for both: Limbic's file (with vectors) and the reference's memory.jsonl."""
    from limbic.engine.vectors import index
    from limbic.engine.store.db import Database
    from limbic.engine.vectors.embeddings import load_embedder
    from limbic.engine.graph.graph import Graph
    from limbic.service import memory

    relations = [{"from": f"Entity {i:06d}", "to": f"Entity {(i * 31 + 7) % n:06d}", "relationType": "relates to"}
                 for i in range(n)]
    with jsonl.open("w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(json.dumps({"type": "entity", **entity(i)}, ensure_ascii=False) + "\n")
        for r in relations:
            fh.write(json.dumps({"type": "relation", **r}, ensure_ascii=False) + "\n")
    g = Graph(Database(db))
    try:
        for start in range(0, n, 1000):
            memory.create_entities(g, [entity(i) for i in range(start, min(n, start + 1000))])
        for start in range(0, n, 1000):
            memory.create_relations(g, relations[start : start + 1000])
        embedder = load_embedder()
        index.prepare_vectors(g.db, embedder)
        rng = np.random.default_rng(7)
        ids = [r[0] for r in g.db.execute("SELECT id FROM entities ORDER BY id")]
        for start in range(0, len(ids), 1000):
            sources = [index.load_source(g.db, i) for i in ids[start : start + 1000]]
            vectors = rng.standard_normal((len(sources), embedder.dim)).astype(np.float32)
            with g.db.transaction():
                index.write_vectors(g.db, sources, vectors / np.linalg.norm(vectors, axis=1, keepdims=True))
    finally:
        g.db.close()


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def start(side: str, db: Path, jsonl: Path, home: Path, reference) -> RawServer:
    if side == "reference":
        command, env = reference
        return RawServer(command, env, cwd=str(db.parent))
    command, env = limbic_command(db, model=True)
    return RawServer(command, {**env, "LIMBIC_HOME": str(home)})


def first_answers(side, db, jsonl, home, reference, runs: int) -> dict:
    """Process start to the initialize answer, and to the first tool answer (open_nodes), medians in ms."""
    init, first = [], []
    for _ in range(runs):
        t = time.perf_counter()
        s = start(side, db, jsonl, home, reference)
        s.initialize()
        init.append(time.perf_counter() - t)
        s.call("open_nodes", {"names": ["Entity 000001"]})
        first.append(time.perf_counter() - t)
        s.close()
    return {"initialize_ms": round(statistics.median(init) * 1000, 1), "first_tool_ms": round(statistics.median(first) * 1000, 1)}


def timed(s: RawServer, tool: str, arguments: dict) -> float:
    t = time.perf_counter()
    answer = s.call(tool, arguments)
    elapsed = time.perf_counter() - t
    if answer.get("isError") or answer.get("error"):
        raise SystemExit(f"{tool} failed: {answer}")
    return elapsed


def session(side, db, jsonl, home, reference, singles: int, bulk: int, queries: int) -> dict:
    """One server: reads, a meaning search (Limbic), single creates, bulk creates."""
    out: dict = {}
    s = start(side, db, jsonl, home, reference)
    try:
        s.initialize()
        s.call("open_nodes", {"names": []})
        out["rss_before_search_mb"] = round(rss_mb(s.proc.pid), 1)
        rare = [timed(s, "search_nodes", {"query": f"LMB-{(i * 977) % 9000 + 1000}"}) for i in range(queries)]
        out["search_nodes_ms"] = stats_ms(rare)
        out["read_graph_ms"] = stats_ms([timed(s, "read_graph", {}) for _ in range(3)])
        if side == "limbic":
            t = time.perf_counter()
            timed(s, "search", {"query": "harbor lantern"})
            out["first_search_ms"] = round((time.perf_counter() - t) * 1000, 1)
            texts = [f"{WORDS[i % 16]} {WORDS[(i * 5) % 16]} {i}" for i in range(queries)]
            out["search_ms"] = stats_ms([timed(s, "search", {"query": q}) for q in texts])
            out["rss_after_search_mb"] = round(rss_mb(s.proc.pid), 1)
        t = time.perf_counter()
        for i in range(singles):
            timed(s, "create_entities", {"entities": [entity(i, "Single")]})
        out["single_creates_per_s"] = round(singles / (time.perf_counter() - t), 1)
        per_call = bulk // 10
        t = time.perf_counter()
        for c in range(10):
            timed(s, "create_entities", {"entities": [entity(c * per_call + i, "Bulk") for i in range(per_call)]})
        out["bulk_create_s"] = round(time.perf_counter() - t, 2)
        out["bulk_entities"] = per_call * 10
    finally:
        s.close()
    return out


def three_servers(side, db, jsonl, home, reference) -> dict:
    """Three servers on one graph: resident memory of each after a read, and (Limbic) after a meaning search."""
    servers = [start(side, db, jsonl, home, reference) for _ in range(3)]
    try:
        for s in servers:
            s.initialize()
            s.call("read_graph", {"limit": 10} if side == "limbic" else {})
        before = [round(rss_mb(s.proc.pid), 1) for s in servers]
        after = None
        if side == "limbic":
            for s in servers:
                s.call("search", {"query": "cedar river"})
            after = [round(rss_mb(s.proc.pid), 1) for s in servers]
    finally:
        for s in servers:
            s.close()
    return {"rss_each_mb": before, "rss_each_after_search_mb": after}


def ratio(a, b) -> str:
    return "–" if not a or not b else f"{a / b:.2f}×"


def markdown(r: dict) -> str:
    lim, ref = r["limbic"], r["reference"]
    ls, rs = lim["session"], ref["session"]
    rows = [
        ("process start → initialize answer (ms, median)", lim["first"]["initialize_ms"], ref["first"]["initialize_ms"]),
        ("process start → first tool answer (ms, median)", lim["first"]["first_tool_ms"], ref["first"]["first_tool_ms"]),
        ("single create_entities (calls/s)", ls["single_creates_per_s"], rs["single_creates_per_s"]),
        (f"bulk create: {ls['bulk_entities']:,} entities in 10 calls (s)", ls["bulk_create_s"], rs["bulk_create_s"]),
        ("search_nodes p50 (ms)", ls["search_nodes_ms"]["p50"], rs["search_nodes_ms"]["p50"]),
        ("search_nodes p95 (ms)", ls["search_nodes_ms"]["p95"], rs["search_nodes_ms"]["p95"]),
        ("read_graph p50 (ms)", ls["read_graph_ms"]["p50"], rs["read_graph_ms"]["p50"]),
        ("search p50 / p95 (ms; the reference has none: vs its search_nodes p50)",
         f"{ls['search_ms']['p50']} / {ls['search_ms']['p95']}", rs["search_nodes_ms"]["p50"]),
        ("first search, model loaded on demand (ms)", ls["first_search_ms"], None),
        ("RSS of one server before a meaning search (MiB)", ls["rss_before_search_mb"], rs["rss_before_search_mb"]),
        ("RSS of one server after a meaning search (MiB)", ls["rss_after_search_mb"], None),
        ("RSS of each of 3 servers on one graph (MiB)", max(lim["three"]["rss_each_mb"]), max(ref["three"]["rss_each_mb"])),
        ("... after a meaning search in each (MiB)", max(lim["three"]["rss_each_after_search_mb"]), None),
    ]
    lines = [
        "# `limbic mcp` beside the reference memory server",
        "",
        f"{r['finished']} · commit {r['machine']['commit']} · {r['machine']['cpus']} CPUs "
        f"(1-min load {r['machine']['load_average_1min_at_start']} at start) · {r['entities']:,} entities, "
        f"reference {r['reference_version']}",
        "",
        f"Command: `{r['command']}`",
        "",
        "| measure | limbic mcp | reference | ratio (limbic / reference) |",
        "|---|---:|---:|---:|",
    ]
    for label, a, b in rows:
        number_a = a if isinstance(a, (int, float)) else None
        lines.append(f"| {label} | {a} | {'–' if b is None else b} | {ratio(number_a, b) if b is not None else '–'} |")
    lines += ["", "Ratios: for calls/s higher is better for Limbic; for ms, s and MiB lower is. RSS: VmRSS of each server "
              "process; three servers: the largest of the three. The machine's load is stated above: every figure, "
              "the reference's too, grows with it."]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=10_000)
    parser.add_argument("--singles", type=int, default=200)
    parser.add_argument("--bulk", type=int, default=2_000)
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--starts", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        try:
            reference = reference_command(tmp / "memory.jsonl")
        except Exception as exc:
            print(f"The reference server could not be installed from npm ({exc}); nothing was measured.")
            return 0
        if reference is None:
            print("node or npm is not installed, so the reference server cannot run; nothing was measured.")
            return 0
        home = tmp / "home"
        home.mkdir()
        db, jsonl = tmp / "bench.db", tmp / "memory.jsonl"
        t = time.perf_counter()
        build(db, jsonl, args.entities)
        print(f"built {args.entities:,} entities in {time.perf_counter() - t:.0f} s", flush=True)
        results: dict = {"entities": args.entities, "machine": machine(), "command": " ".join(["python -m tests.bench.bench_mcp", *sys.argv[1:]])}
        package = json.loads((Path(reference[0][1]).parents[1] / "package.json").read_text())
        results["reference_version"] = package.get("version")
        for side in ("limbic", "reference"):
            results[side] = {"first": first_answers(side, db, jsonl, home, reference, args.starts)}
            print(side, "first answers", results[side]["first"], flush=True)
            results[side]["three"] = three_servers(side, db, jsonl, home, reference)
            print(side, "three servers", results[side]["three"], flush=True)
            results[side]["session"] = session(side, db, jsonl, home, reference, args.singles, args.bulk, args.queries)
            print(side, "session", results[side]["session"], flush=True)
        results["finished"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "mcp.json").write_text(json.dumps(results, indent=2))
    report = markdown(results)
    (RESULTS / "mcp.md").write_text(report)
    print(report)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())
