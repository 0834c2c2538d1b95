"""Where one search's time goes: each stage of ``search()`` timed on its own, on the cached benchmark graphs.

    nice .venv/bin/python -m tests.bench.search_profile --sizes 200,100000 --queries 100

Every step the search calls is wrapped with a timer (nothing else changes), each query is searched
once to warm up and then measured, and the medians and p95s of each stage per search are printed
and written to bench-results/search_profile.{json,md}. Stages nest: "both branches" holds the
encoding, the vector scan and the wait for the text branch, which runs on the side reader from
20,000 entities on (its own time is then the "FTS ... (other thread)" row, spent in parallel).
"""

from __future__ import annotations

import argparse
import functools
import logging
import threading
import time
from collections import defaultdict

import numpy as np

from limbic.engine.graph import signals
from limbic.engine.graph.graph import Graph
from limbic.engine.search import bare, carry, crosslingual, query as query_module, readable, scoring, when
from limbic.engine.search import search as search_module

try:
    from limbic.engine.search import text_branch
except ImportError:  # older code, measured for a comparison
    text_branch = None
try:
    from limbic.engine.search import spelling
except ImportError:
    spelling = None
try:
    from limbic.engine.search import usage
except ImportError:
    usage = None
from limbic.engine.store.db import Database
from tests.bench.build import cached_graph, remove_db
from tests.bench.common import write_results

logger = logging.getLogger(__name__)

# (module, attribute, stage) in the order a search meets them; a stage is timed inclusively.
STAGES = [
    (query_module.Query, "read", "read the query (words, stems, time expressions)"),
    (search_module, "text_rows", "count the rows"),
    (search_module, "passage_weight", "passage weight (token count)"),
    (search_module, "_both_branches", "both branches at once (wall)"),
    (search_module, "text_plan", "text plan (word frequencies, absent stems)"),
    (spelling, "near_spellings", "near spellings"),
    (search_module, "run_fts", "FTS"),  # older code: the search ran the query itself
    (text_branch, "run_fts", "FTS"),
    (search_module, "knn_evidence", "KNN (and the graph's similarity spread)"),
    (search_module, "_exact_tiers", "tiers: exact names and phrases"),
    (search_module, "_alias_tiers", "tiers: aliases"),
    (crosslingual, "language_free", "cross-language probe"),
    (scoring, "reciprocal_rank_fusion", "fusion: RRF"),
    (search_module, "similarities", "fusion: similarity of text-only hits"),
    (query_module.Query, "readable", "floor: is it a word"),
    (readable, "literal_holders", "floor: literal holders"),
    (carry, "measure", "carry"),
    (when, "matching", "time: what happened then"),
    (search_module, "rank", "ranking (signals, fusion's base, bare rule)"),
    (signals, "load_signals", "signals"),  # older code: read per search
    (usage, "factors", "signals (kept in memory) and use factors"),
    (scoring, "base_relevance", "fusion: adaptive base relevance"),
    (bare, "hold_below", "bare-entity rule"),
    (Graph, "entities_by_ids", "hydration"),
    (signals, "record_access", "recording"),
]


class Timers:
    """Per-search stage times: each wrapped call adds its duration to its stage (thread-safe)."""

    def __init__(self) -> None:
        self.current: dict[str, float] = defaultdict(float)
        self.lock = threading.Lock()
        self.side = threading.local()  # the stages running on each thread

    def wrap(self, fn, stage: str):
        timers = self

        @functools.wraps(fn)
        def timed(*args, **kwargs):
            active = timers.side.__dict__.setdefault("active", set())
            if stage in active:  # a stage calling itself (signals loaded in two parts) is counted once
                return fn(*args, **kwargs)
            active.add(stage)
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - t0
                active.discard(stage)
                name = stage if threading.current_thread() is threading.main_thread() else stage + " (other thread)"
                with timers.lock:
                    timers.current[name] += elapsed
        return timed

    def take(self) -> dict[str, float]:
        with self.lock:
            out, self.current = dict(self.current), defaultdict(float)
        return out


def install(timers: Timers, embedder) -> list[tuple[object, str, object]]:
    """Wrap every stage; returns what to put back."""
    undo = []
    for owner, name, stage in STAGES:
        raw = getattr(owner, "__dict__", {}).get(name)
        if raw is None:  # a step older code does not have
            continue
        if isinstance(raw, classmethod):
            wrapped = classmethod(timers.wrap(raw.__func__, stage))
        else:
            wrapped = timers.wrap(raw, stage)
        undo.append((owner, name, raw))
        setattr(owner, name, wrapped)
    # The references search.py took at import time (``from ... import as_query``) read through the class.
    undo.append((embedder, "encode_query", None))
    embedder.encode_query = timers.wrap(embedder.encode_query, "encode")
    return undo


def uninstall(undo) -> None:
    for owner, name, raw in reversed(undo):
        if raw is None:
            delattr(owner, name)
        else:
            setattr(owner, name, raw)


def _forget(db) -> None:
    """Empty the connection's memory of signals (older code has none): every candidate is read again."""
    try:
        from limbic.engine.graph import signal_memory
    except ImportError:
        return
    memory = signal_memory.memory(db)
    memory.facts.clear()
    memory.use.clear()


def profile(n: int, embedder, queries: int, record: bool, forget: bool = False) -> dict:
    path, qs, _ = cached_graph(n, embedder, queries=queries)
    texts = [q for _, q in qs[:queries]]
    db = Database(path)
    graph = Graph(db, embedder)
    timers = Timers()
    try:
        for q in texts:  # warm-up: caches, the vector mirror, the side reader
            search_module.search(graph, q, record=False)
        undo = install(timers, embedder)
        rows, totals = [], []
        try:
            for q in texts:
                if forget:
                    _forget(db)
                timers.take()
                t0 = time.perf_counter()
                search_module.search(graph, q, record=record)
                totals.append(time.perf_counter() - t0)
                rows.append(timers.take())
        finally:
            uninstall(undo)
    finally:
        db.close()
        remove_db(path)
    stages = sorted({s for r in rows for s in r}, key=lambda s: [st for _, _, st in STAGES].index(s.replace(" (other thread)", ""))
                    if s.replace(" (other thread)", "") in [st for _, _, st in STAGES] else 0)
    if "encode" in stages:
        stages.remove("encode")
        stages.insert(stages.index("passage weight (token count)") + 1 if "passage weight (token count)" in stages else 0, "encode")
    out = {"entities": n, "queries": len(texts), "record": record, "signals_forgotten": forget,
           "total_ms": _stats([t for t in totals]), "stages": {}}
    for s in stages:
        values = [r.get(s, 0.0) for r in rows]
        out["stages"][s] = {**_stats(values), "share_of_p50": round(float(np.median(values)) / float(np.median(totals)), 3)}
    return out


def _stats(seconds: list[float]) -> dict:
    ms = np.asarray(seconds) * 1000
    return {"p50": round(float(np.median(ms)), 2), "p95": round(float(np.percentile(ms, 95)), 2), "mean": round(float(ms.mean()), 2)}


def markdown(results: list[dict]) -> str:
    lines = []
    for res in results:
        cold = ", signals read afresh each search" if res.get("signals_forgotten") else ""
        lines += [f"### {res['entities']:,} entities ({res['queries']} queries, recording {'on' if res['record'] else 'off'}{cold})", "",
                  "| stage | p50 ms | p95 ms | mean ms |", "|---|---:|---:|---:|",
                  f"| **whole search** | **{res['total_ms']['p50']}** | **{res['total_ms']['p95']}** | **{res['total_ms']['mean']}** |"]
        for s, v in res["stages"].items():
            lines.append(f"| {s} | {v['p50']} | {v['p95']} | {v['mean']} |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench.search_profile", description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="200,100000")
    p.add_argument("--queries", type=int, default=100)
    p.add_argument("--no-record", action="store_true", help="searches leave no trace (recording not timed)")
    p.add_argument("--forget", action="store_true",
                   help="empty the memory of signals before each measured search (as for queries never asked before)")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    from limbic.engine.vectors.embeddings import load_embedder

    embedder = load_embedder()
    results = [profile(int(n), embedder, args.queries, not args.no_record, args.forget) for n in args.sizes.split(",") if n.strip()]
    text = markdown(results)
    print(text)
    write_results("search_profile", {"results": results}, text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
