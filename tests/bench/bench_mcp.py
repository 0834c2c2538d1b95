"""`limbic mcp` side by side with the reference memory server (`@modelcontextprotocol/server-memory`) on
the same graph, the two run in turn in each of several rounds (medians over the rounds): first-call
latency, read_graph warm, search_nodes p50/p95 over queries of which some match thousands of entities (and
those broad queries' median), one create on the whole graph, 2,000 entities in 10 calls into an empty graph,
memory; and Limbic's hybrid search. Ratios are Limbic's figure over the reference's. Writes
bench-results/mcp.md and mcp.json. The graphs live in the system's temporary folder (TMPDIR chooses
another: on /dev/shm no commit waits for the disk, which Limbic's do and the reference's file writes do not).

    PYTHONPATH=app nice .venv/bin/python -m tests.bench.bench_mcp [--entities 10000] [--rounds 5]

The reference is installed from npm into ~/.cache/limbic-test/ on first use; without node or npm
the script says so and exits 0. Limbic's graph gets vectors of the model's size (random, so nothing
waits for embedding when the servers start, as on a graph the app has embedded); `search` then costs
what it costs on a real graph (encode, KNN, full text, ranking), though its ranking means nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
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


BASELINE: dict[str, str] = {}  # --baseline: the app folder of another Limbic, run as a third server


def start(side: str, db: Path, jsonl: Path, home: Path, reference) -> RawServer:
    if side == "reference":
        command, env = reference
        return RawServer(command, env, cwd=str(db.parent))
    command, env = limbic_command(db, model=True)
    if side == "baseline":
        env = {**env, "PYTHONPATH": BASELINE["app"]}
    return RawServer(command, {**env, "LIMBIC_HOME": str(home)})


def first_answers(db, jsonl, home, reference, runs: int) -> dict:
    """Process start to the initialize answer, and to the first tool answer (open_nodes), medians in ms,
    the two servers started alternately."""
    times: dict = {side: {"init": [], "first": []} for side in SIDES}
    for run in range(runs):
        for side in order(run):
            t = time.perf_counter()
            s = start(side, db, jsonl, home, reference)
            s.initialize()
            times[side]["init"].append(time.perf_counter() - t)
            s.call("open_nodes", {"names": ["Entity 000001"]})
            times[side]["first"].append(time.perf_counter() - t)
            s.close()
    return {side: {"initialize_ms": round(statistics.median(v["init"]) * 1000, 1),
                   "first_tool_ms": round(statistics.median(v["first"]) * 1000, 1)} for side, v in times.items()}


SIDES = ("limbic", "reference")


def order(run: int) -> tuple[str, str]:
    """Which server goes first in this round: each in turn, so neither is flattered by a warmer machine."""
    return SIDES if run % 2 == 0 else SIDES[::-1]


def timed(s: RawServer, tool: str, arguments: dict) -> float:
    t = time.perf_counter()
    answer = s.call(tool, arguments)
    elapsed = time.perf_counter() - t
    if answer.get("isError") or answer.get("error"):
        raise SystemExit(f"{tool} failed: {answer}")
    return elapsed


def queries(n: int, broad: int) -> list[str]:
    """``n`` search_nodes queries, ``broad`` of them words most entities hold (each matches thousands), the rest
    one ticket each; broad ones spread through the list."""
    rare = [f"LMB-{(i * 977) % 9000 + 1000}" for i in range(n - broad)]
    out = list(rare)
    for k in range(broad):
        out.insert((k * n) // broad, WORDS[k % len(WORDS)])
    return out


def whole_graph_round(side, db, jsonl, home, reference, tmp: Path, searches: list[str], singles: int) -> dict:
    """One server on a fresh copy of the graph: read_graph warm, search_nodes, single creates, memory."""
    copy_db, copy_jsonl = tmp / f"round-{side}.db", tmp / "round" / "memory.jsonl"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{copy_db}{suffix}").unlink(missing_ok=True)
    shutil.copy(db, copy_db)
    copy_jsonl.parent.mkdir(exist_ok=True)
    shutil.copy(jsonl, copy_jsonl)
    ref = (reference[0], {**reference[1], "MEMORY_FILE_PATH": str(copy_jsonl)}) if reference else None
    s = start(side, copy_db, copy_jsonl, home, ref)
    out: dict = {}
    try:
        s.initialize()
        timed(s, "read_graph", {})  # warm: the file read once, caches filled
        out["read_graph_s"] = [timed(s, "read_graph", {}) for _ in range(3)]
        out["rss_after_read_graph_mb"] = round(rss_mb(s.proc.pid), 1)
        out["search_nodes_s"] = [timed(s, "search_nodes", {"query": q}) for q in searches]
        out["broad_at"] = [i for i, q in enumerate(searches) if not q.startswith("LMB-")]
        out["single_create_s"] = [timed(s, "create_entities", {"entities": [entity(i, "Single")]}) for i in range(singles)]
    finally:
        s.close()
    return out


def bulk_round(side, home, reference, tmp: Path, bulk: int) -> tuple[float, str]:
    """``bulk`` entities in 10 create_entities calls into an empty graph; seconds, and the SHA-256 of the ten
    answers' bytes as the server wrote them (one Limbic's and another's are the same when their replies are)."""
    empty_db, empty_jsonl = tmp / f"empty-{side}.db", tmp / "empty" / "memory.jsonl"
    for path in (empty_db, Path(f"{empty_db}-wal"), Path(f"{empty_db}-shm"), empty_jsonl):
        path.unlink(missing_ok=True)
    empty_jsonl.parent.mkdir(exist_ok=True)
    ref = (reference[0], {**reference[1], "MEMORY_FILE_PATH": str(empty_jsonl)}) if reference else None
    s = start(side, empty_db, empty_jsonl, home, ref)
    try:
        s.initialize()
        s.call("read_graph", {})
        per_call = bulk // 10
        t = time.perf_counter()
        for c in range(10):
            timed(s, "create_entities", {"entities": [entity(c * per_call + i, "Bulk") for i in range(per_call)]})
        elapsed = time.perf_counter() - t
        answers = hashlib.sha256(b"".join(s.raw[s.next_id - 9 + c] for c in range(10)))
        return elapsed, answers.hexdigest()
    finally:
        s.close()


def limbic_search(db, jsonl, home) -> dict:
    """Limbic's hybrid search (the reference has none): the first one loads the model."""
    s = start("limbic", db, jsonl, home, None)
    out: dict = {}
    try:
        s.initialize()
        s.call("open_nodes", {"names": []})
        out["rss_before_search_mb"] = round(rss_mb(s.proc.pid), 1)
        t = time.perf_counter()
        timed(s, "search", {"query": "harbor lantern"})
        out["first_search_ms"] = round((time.perf_counter() - t) * 1000, 1)
        texts = [f"{WORDS[i % 16]} {WORDS[(i * 5) % 16]} {i}" for i in range(40)]
        out["search_ms"] = stats_ms([timed(s, "search", {"query": q}) for q in texts])
        out["rss_after_search_mb"] = round(rss_mb(s.proc.pid), 1)
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


def summary(rounds: list[dict], side: str) -> dict:
    """Medians over the rounds of each round's figure (p95 within a round)."""
    per = [r[side] for r in rounds]
    med = statistics.median
    return {
        "read_graph_ms": round(med(med(p["read_graph_s"]) for p in per) * 1000, 1),
        "search_nodes_p50_ms": round(med(stats_ms(p["search_nodes_s"])["p50"] for p in per), 1),
        "search_nodes_p95_ms": round(med(stats_ms(p["search_nodes_s"])["p95"] for p in per), 1),
        # The broad queries' own median: p95 of 50 is about the third slowest, which one busy moment moves.
        "search_nodes_broad_ms": round(med(med(p["search_nodes_s"][i] for i in p["broad_at"]) for p in per) * 1000, 1),
        "single_create_ms": round(med(med(p["single_create_s"]) for p in per) * 1000, 2),
        "bulk_create_s": round(med(p["bulk_s"] for p in per), 3),
        "bulk_replies_sha256": sorted({p["bulk_replies"] for p in per}),  # one, unless the replies changed between rounds
        "rss_after_read_graph_mb": round(med(p["rss_after_read_graph_mb"] for p in per), 1),
        "rounds": len(per),
    }


def markdown(r: dict) -> str:
    lim, ref, base = r["limbic"], r["reference"], r.get("baseline")
    first, search = r["first"], r["limbic_search"]
    rows = [
        ("process start → initialize answer (ms)", first["limbic"]["initialize_ms"], first["reference"]["initialize_ms"]),
        ("process start → first tool answer (ms)", first["limbic"]["first_tool_ms"], first["reference"]["first_tool_ms"]),
        (f"read_graph, {r['entities']:,} entities, warm (ms)", lim["read_graph_ms"], ref["read_graph_ms"]),
        (f"search_nodes p50, {r['queries']} queries, {r['broad']} broad (ms)", lim["search_nodes_p50_ms"], ref["search_nodes_p50_ms"]),
        (f"search_nodes p95, {r['queries']} queries, {r['broad']} broad (ms)", lim["search_nodes_p95_ms"], ref["search_nodes_p95_ms"]),
        (f"search_nodes median of the {r['broad']} broad queries (ms)", lim["search_nodes_broad_ms"], ref["search_nodes_broad_ms"]),
        (f"one create_entities on the {r['entities']:,}-entity graph (ms)", lim["single_create_ms"], ref["single_create_ms"]),
        (f"{r['bulk']:,} entities in 10 calls into an empty graph (s)", lim["bulk_create_s"], ref["bulk_create_s"]),
        ("RSS after read_graph (MiB)", lim["rss_after_read_graph_mb"], ref["rss_after_read_graph_mb"]),
        ("RSS of each of 3 servers on one graph (MiB)", max(r["three"]["limbic"]["rss_each_mb"]),
         max(r["three"]["reference"]["rss_each_mb"])),
        ("hybrid search p50 / p95 (ms; the reference has none)", f"{search['search_ms']['p50']} / {search['search_ms']['p95']}", None),
        ("first search, model loaded on demand (ms)", search["first_search_ms"], None),
        ("RSS before / after a meaning search (MiB)", f"{search['rss_before_search_mb']} / {search['rss_after_search_mb']}", None),
        ("... each of 3 servers after a meaning search (MiB)", max(r["three"]["limbic"]["rss_each_after_search_mb"]), None),
    ]
    lines = [
        "# `limbic mcp` beside the reference memory server",
        "",
        f"{r['finished']} · commit {r['machine']['commit']} · {r['machine']['cpus']} CPUs "
        f"(1-min load {r['machine']['load_average_1min_at_start']} at start, {r['load_at_end']} at end) · "
        f"{r['entities']:,} entities, reference {r['reference_version']}",
        "",
        f"Command: `{r['command']}`",
        "",
        "| measure | limbic mcp | reference | ratio (limbic / reference) |",
        "|---|---:|---:|---:|",
    ]
    for label, a, b in rows:
        number_a = a if isinstance(a, (int, float)) else None
        lines.append(f"| {label} | {a} | {'–' if b is None else b} | {ratio(number_a, b) if b is not None else '–'} |")
    if base:
        lines += ["", f"Baseline: `limbic mcp` from `{r['baseline_app']}`, run in the same rounds as a third server "
                  "(the three in turn, each first in one round of three).", "",
                  "| measure | limbic mcp | baseline | reference | limbic / reference | baseline / reference |",
                  "|---|---:|---:|---:|---:|---:|"]
        for label, key in (("read_graph, warm (ms)", "read_graph_ms"), ("search_nodes p50 (ms)", "search_nodes_p50_ms"),
                           ("search_nodes p95 (ms)", "search_nodes_p95_ms"),
                           ("search_nodes, broad queries' median (ms)", "search_nodes_broad_ms"),
                           ("one create_entities (ms)", "single_create_ms"),
                           (f"{r['bulk']:,} entities in 10 calls (s)", "bulk_create_s"),
                           ("RSS after read_graph (MiB)", "rss_after_read_graph_mb")):
            lines.append(f"| {label} | {lim[key]} | {base[key]} | {ref[key]} | {ratio(lim[key], ref[key])} | "
                         f"{ratio(base[key], ref[key])} |")
    lines += ["", bulk_replies_line(r)]
    lines += ["", f"Each figure is the median over {lim['rounds']} rounds; in each round both servers ran, in turn "
              "(Limbic first in odd rounds, the reference first in even ones), on fresh copies of the same graph. "
              "read_graph: the median of 3 calls after one warm-up call; search_nodes: p50 and p95 of one round's "
              "queries; one create: the median of a round's single creates. Ratios: lower is better for Limbic. "
              "RSS: VmRSS of the server process. The machine's load is stated above: every figure, the "
              "reference's too, grows with it; the ratios much less."]
    return "\n".join(lines) + "\n"


def bulk_replies_line(r: dict) -> str:
    """Whether the bulk load's ten answers were the same bytes for Limbic and the baseline, in every round."""
    mine = r["limbic"]["bulk_replies_sha256"]
    line = f"The bulk load's ten answers (SHA-256 of their bytes): limbic {', '.join(h[:16] for h in mine)}"
    if not r.get("baseline"):
        return line + "."
    theirs = r["baseline"]["bulk_replies_sha256"]
    same = mine == theirs and len(mine) == 1
    return f"{line}, baseline {', '.join(h[:16] for h in theirs)}: " + ("the same bytes in every round." if same else
                                                                        "**they differ**.")


def bulk_markdown(r: dict) -> str:
    """The report of ``--only-bulk``: the bulk load alone, each server in turn in each round."""
    sides = [side for side in ("limbic", "baseline", "reference") if side in r]
    lines = ["# `limbic mcp` beside the reference memory server: the bulk load", "",
             f"{r['finished']} · commit {r['machine']['commit']} · {r['machine']['cpus']} CPUs "
             f"(1-min load {r['machine']['load_average_1min_at_start']} at start, {r['load_at_end']} at end) · "
             f"reference {r['reference_version']}", "", f"Command: `{r['command']}`", "",
             f"| {r['bulk']:,} entities in 10 calls into an empty graph | median (s) | each round (s) | / reference |",
             "|---|---:|---|---:|"]
    for side in sides:
        each = ", ".join(f"{round(p[side]['bulk_s'], 3)}" for p in r["rounds"])
        lines.append(f"| {side} | {r[side]['bulk_create_s']} | {each} | "
                     f"{ratio(r[side]['bulk_create_s'], r['reference']['bulk_create_s'])} |")
    return "\n".join([*lines, "", bulk_replies_line(r), ""])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=10_000)
    parser.add_argument("--singles", type=int, default=20)
    parser.add_argument("--bulk", type=int, default=2_000)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--broad", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--baseline", type=Path, default=None,
                        help="the app folder of another Limbic (e.g. `git archive <commit> | tar -x -C /tmp/old`, "
                             "then /tmp/old/app), measured in the same rounds")
    parser.add_argument("--only-bulk", action="store_true",
                        help="only the bulk load (no 10,000-entity graph is built): writes bench-results/mcp_bulk.{md,json}")
    args = parser.parse_args()
    if args.baseline is not None:
        if not (args.baseline / "limbic" / "__main__.py").exists():
            print(f"{args.baseline} holds no limbic package (give the app folder of a Limbic tree); nothing was measured.")
            return 2
        BASELINE["app"] = str(args.baseline.resolve())
    sides = SIDES + (("baseline",) if BASELINE else ())
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
        if args.only_bulk:
            return only_bulk(args, sides, home, reference, tmp)
        db, jsonl = tmp / "bench.db", tmp / "memory.jsonl"
        t = time.perf_counter()
        build(db, jsonl, args.entities)
        print(f"built {args.entities:,} entities in {time.perf_counter() - t:.0f} s", flush=True)
        results: dict = {"entities": args.entities, "queries": args.queries, "broad": args.broad, "bulk": args.bulk,
                         "machine": machine(), "command": " ".join(["python -m tests.bench.bench_mcp", *sys.argv[1:]])}
        package = json.loads((Path(reference[0][1]).parents[1] / "package.json").read_text())
        results["reference_version"] = package.get("version")
        results["first"] = first_answers(db, jsonl, home, reference, args.starts)
        print("first answers", results["first"], flush=True)
        results["three"] = {side: three_servers(side, db, jsonl, home, reference) for side in SIDES}
        print("three servers", results["three"], flush=True)
        searches = queries(args.queries, args.broad)
        rounds = []
        for run in range(args.rounds):
            this: dict = {}
            for side in (order(run) if len(sides) == 2 else sides[run % 3:] + sides[: run % 3]):
                this[side] = whole_graph_round(side, db, jsonl, home, reference, tmp, searches, args.singles)
                this[side]["bulk_s"], this[side]["bulk_replies"] = bulk_round(side, home, reference, tmp, args.bulk)
            rounds.append(this)
            print(f"round {run + 1}:", {side: {"read_graph_ms": round(statistics.median(v["read_graph_s"]) * 1000, 1),
                                               "search_nodes_p95_ms": stats_ms(v["search_nodes_s"])["p95"],
                                               "bulk_s": round(v["bulk_s"], 3)} for side, v in this.items()}, flush=True)
        results["rounds"] = rounds
        for side in sides:
            results[side] = summary(rounds, side)
        if BASELINE:
            results["baseline_app"] = BASELINE["app"]
        results["limbic_search"] = limbic_search(db, jsonl, home)
    return _write_report(results, "mcp", markdown)


def _write_report(results: dict, name: str, words) -> int:
    """The run's end (load, time), its JSON and its Markdown report in bench-results/, the report printed."""
    results["load_at_end"] = round(os.getloadavg()[0], 2)
    results["finished"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{name}.json").write_text(json.dumps(results, indent=2))
    report = words(results)
    (RESULTS / f"{name}.md").write_text(report)
    print(report)
    return 0


def only_bulk(args, sides: tuple[str, ...], home: Path, reference, tmp: Path) -> int:
    results: dict = {"bulk": args.bulk, "machine": machine(),
                     "command": " ".join(["python -m tests.bench.bench_mcp", *sys.argv[1:]])}
    package = json.loads((Path(reference[0][1]).parents[1] / "package.json").read_text())
    results["reference_version"] = package.get("version")
    rounds = []
    for run in range(args.rounds):
        this: dict = {}
        for side in (order(run) if len(sides) == 2 else sides[run % 3:] + sides[: run % 3]):
            this[side] = dict(zip(("bulk_s", "bulk_replies"), bulk_round(side, home, reference, tmp, args.bulk)))
        rounds.append(this)
        print(f"round {run + 1}:", {side: round(v["bulk_s"], 3) for side, v in this.items()}, flush=True)
    results["rounds"] = rounds
    for side in sides:
        per = [r[side] for r in rounds]
        results[side] = {"bulk_create_s": round(statistics.median(p["bulk_s"] for p in per), 3),
                         "bulk_replies_sha256": sorted({p["bulk_replies"] for p in per}), "rounds": len(per)}
    if BASELINE:
        results["baseline_app"] = BASELINE["app"]
    return _write_report(results, "mcp_bulk", bulk_markdown)


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())
