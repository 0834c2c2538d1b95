"""What sync costs: a new device's first sync, steady-state apply, capture on the write path, the folder's size.

    python -m tests.bench.bench_sync [--entities 100000] [--changes 1000] [--rounds 7] [--burst 20] [--days 30] [--per-day 10000]

A report, never a pass/fail. Graphs are text-only (no model): the model's work (embedding what
arrives) is not part of these figures, and search here is the full-text branch, which is usable
before vectors are rebuilt.

1. First sync: device A holds ``--entities`` entities, joins the folder, writes a snapshot and
   compacts its segments away (what a folder looks like after a while), then publishes one more
   change; a new device B, in a
   process of its own (so its peak RSS is its own), starts from that snapshot. Then B's full-text
   search finds an entity of A while B has no vectors.
2. Steady state: ``--changes`` observations added on A (one commit each) and published as one
   segment; on B, the time from the segment's arrival to the last change found by a search.
3. Capture: an MCP-like write (``memory.add_observations`` through ``service.run``) on a graph
   joined to a folder and on one never joined; rounds interleave the two, median per round; the
   joined graph publishes each burst of writes as an MCP server's background exchange would, and
   that publish is reported per write beside the write (``capture``); then one more round's exchanges
   each with nothing remembered of the folder, as in the MCP server's short-lived exchange process.
4. Folder size: ``--days`` days of ``--per-day`` changes (commits of 10 observations), both
   devices exchanging ten times a day, snapshots and compaction as shipped; size at each day's end.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.engine.sync import folder as sync_files, snapshot, state as sync_state
from limbic.engine.vectors.index import VEC_TABLE
from limbic.engine.store.graph_identity import graph_id
from limbic.service import memory, memory_search, run
from limbic.service import sync as service_sync
from tests.bench.common import peak_rss_mb

WORDS = ("graph vector search sqlite observation relation memory session project decision note index fusion "
         "laptop desktop folder segment snapshot device clock conflict").split()


def _text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 18)))


def _build(path: Path, entities: int, seed: int = 1) -> None:
    g = Graph(Database(path))
    rng = random.Random(seed)
    try:
        with g.write(embed=False):
            for i in range(entities):
                g.create_entity(f"Entity {i}", rng.choice(["Person", "Project", "Topic"]), [_text(rng), _text(rng)])
    finally:
        g.db.close()


def _folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _hits(db_path: Path, query: str) -> list[str]:
    g = Graph(Database(db_path))
    try:
        found = memory_search.search(g, query, limit=5, record=False)
        return [r.get("name") for r in found.get("results", [])]
    finally:
        g.db.close()


CLEAR_ENV = "LIMBIC_BENCH_SYNC_CLEAR"  # set: the folder is written in the clear (the sealing's cost measured apart)


def _in_the_clear(on: bool) -> None:
    """Every exchange of this process in the clear (``on``) or sealed, as shipped."""
    from limbic.engine.sync import exchange as engine_exchange

    real = engine_exchange.exchange
    service_sync._exchange = (lambda *a, **kw: real(*a, **{**kw, "sealed": False})) if on else real  # noqa: SLF001


def first_sync_child(db: str, folder: str, last: str = "") -> None:
    """In its own process: B's first exchange, then a text search for ``last``; seconds and peak RSS as JSON."""
    _in_the_clear(bool(os.environ.get(CLEAR_ENV)))
    start = time.perf_counter()
    result = service_sync.exchange(Path(db), Path(folder))
    seconds = time.perf_counter() - start
    hits = _hits(Path(db), last) if last else []
    searchable = time.perf_counter() - start
    print(json.dumps({"seconds": round(seconds, 2), "peak_rss_mb": round(peak_rss_mb(), 1),
                      "received": result.received, "time_to_text_search_s": round(searchable, 2),
                      "found": bool(hits) and hits[0] == last}))


def vector_rate(db_path: Path, sample: int) -> dict:
    """The model's work apart: embed ``sample`` of the entities waiting for a vector; the rate and the whole estimate."""
    from limbic.engine.session import open_graph

    opened = open_graph(db_path, load_model=True, origin="cli")
    try:
        g = opened.graph
        if g.embedder is None:
            return {"model": None}
        pending = g.pending_embeddings()
        ids = [r[0] for r in g.db.execute("SELECT id FROM entities ORDER BY id LIMIT ?", (sample,))]
        t0 = time.perf_counter()
        done = g.embed_pending(only=ids)
        seconds = time.perf_counter() - t0
    finally:
        opened.close()
    rate = done / seconds if seconds else 0.0
    return {"pending": pending, "sample": done, "sample_s": round(seconds, 1), "entities_per_s": round(rate, 1),
            "estimate_all_min": round(pending / rate / 60, 1) if rate else None}


def first_sync(work: Path, entities: int, sealed: bool = True) -> dict:
    work = work / ("sealed" if sealed else "clear")
    work.mkdir()
    _in_the_clear(not sealed)
    folder = work / "Sync"
    folder.mkdir()
    a, b = work / "a.db", work / "b.db"
    t0 = time.perf_counter()
    _build(a, entities)
    build_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    service_sync.exchange(a, folder)
    join_s = time.perf_counter() - t0
    g = Graph(Database(a))
    try:
        gid = graph_id(g.db)
        me = service_sync.this_device(a).id
        directory = sync_files.device_dir(folder, gid, me)
        seq = int(g.db.get_meta(sync_state.SEQ_KEY) or 0)
        pairing = service_sync.folder_pairing(folder, gid) if sealed else None
        t0 = time.perf_counter()
        snapshot.take(g, directory, seq, pairing.sealer if pairing else None)
        snapshot_s = time.perf_counter() - t0
        compacted = snapshot.compact(folder, gid, me)
        # One more change published after the snapshot, as in a folder in everyday use.
        with g.write(embed=False):
            g.add_observations("Entity 0", ["joined the folder"])
    finally:
        g.db.close()
    service_sync.exchange(a, folder)
    name = f"Entity {entities - 1}"
    out = subprocess.run([sys.executable, "-m", "tests.bench.bench_sync", "--first-sync-child", str(b), str(folder),
                          name], capture_output=True, text=True, check=True,
                         env={k: v for k, v in os.environ.items() if k != CLEAR_ENV} | ({} if sealed else {CLEAR_ENV: "1"}))
    child = json.loads(out.stdout.strip().splitlines()[-1])
    gb = Graph(Database(b))
    try:
        vectors = int(gb.db.scalar(f"SELECT count(*) FROM {VEC_TABLE}")) if gb.db.has_table(VEC_TABLE) else 0
        count = int(gb.db.scalar("SELECT count(*) FROM entities"))
    finally:
        gb.db.close()
    _in_the_clear(False)
    return {"entities": entities, "sealed": sealed, "build_s": round(build_s, 1), "join_s": round(join_s, 1),
            "snapshot_s": round(snapshot_s, 1), "segments_compacted": compacted,
            "first_sync_s": child["seconds"], "first_sync_peak_rss_mb": child["peak_rss_mb"],
            "time_to_text_search_s": child["time_to_text_search_s"], "entities_on_b": count,
            "text_search_finds_last_entity": child["found"], "vectors_on_b": vectors,
            "folder": folder, "a": a, "b": b}


def steady_state(first: dict, changes: int) -> dict:
    a, b, folder = first["a"], first["b"], first["folder"]
    rng = random.Random(7)
    g = Graph(Database(a))
    marker = "zebracorn" + str(rng.randrange(10**6))
    try:
        for i in range(changes):
            text = _text(rng) + (f" {marker}" if i == changes - 1 else "")
            with g.write(embed=False):
                g.add_observations(f"Entity {rng.randrange(first['entities'])}", [text])
    finally:
        g.db.close()
    t0 = time.perf_counter()
    service_sync.exchange(a, folder)
    publish_s = time.perf_counter() - t0
    t0 = time.perf_counter()  # the segment has arrived: B applies it and searches
    result = service_sync.exchange(b, folder)
    applied_s = time.perf_counter() - t0
    hits = _hits(b, marker)
    visible_s = time.perf_counter() - t0
    return {"changes": changes, "publish_s": round(publish_s, 2), "received": result.received,
            "apply_s": round(applied_s, 2), "arrival_to_visible_s": round(visible_s, 2), "found": bool(hits)}


def _spread(values: list[float], scale: float = 1.0, digits: int = 3) -> dict:
    """The median of the rounds' figures, with the lowest and highest (the machine is shared and noisy)."""
    return {"median": round(statistics.median(values) * scale, digits), "min": round(min(values) * scale, digits),
            "max": round(max(values) * scale, digits)}


def capture(work: Path, rounds: int, writes: int = 200, burst: int = 20) -> dict:
    """The same MCP-like writes on a graph with a sync folder and on one without, rounds interleaved.

    The writes' own time is what a caller waits for. Capture's work (the change log's rows turned into
    a segment, stamps, the file) runs after a burst, in the exchange an MCP server starts in the
    background once writes are quiet: here after every ``burst`` writes, in this process, and
    counted per write beside the write. The two graphs take turns write by write (each going first
    in turn), so both see the same machine: on a shared one, whole rounds of one kind then the other
    measured other programs' load as much as sync. The figures are the median of the rounds, with
    their range. Starting that exchange's own process is a fixed cost per exchange, not per write,
    measured apart.
    """
    folder = work / "CaptureSync"
    folder.mkdir()
    paths = {"with": work / "cap_with.db", "without": work / "cap_without.db"}
    for p in paths.values():
        _build(p, 2000, seed=5)
    service_sync.exchange(paths["with"], folder)
    graphs = {k: Graph(Database(p)) for k, p in paths.items()}
    medians: dict[str, list[float]] = {"with": [], "without": []}
    publish: list[float] = []  # per write, each round
    exchanges: list[float] = []  # each exchange's own time
    rng = random.Random(11)
    try:
        for _ in range(rounds):
            times: dict[str, list[float]] = {"with": [], "without": []}
            spent = 0.0
            for _ in range(0, writes, burst):
                for _ in range(burst):
                    for kind in sorted(graphs, reverse=len(times["with"]) % 2 == 1):
                        item = [{"entityName": f"Entity {rng.randrange(2000)}", "contents": [_text(rng)]}]
                        t0 = time.perf_counter()
                        run(graphs[kind], memory.add_observations, item)
                        times[kind].append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                service_sync.exchange(graphs["with"], folder)
                exchanges.append(time.perf_counter() - t0)
                spent += exchanges[-1]
            for kind in graphs:
                medians[kind].append(statistics.median(times[kind]))
            publish.append(spent / writes)
        fresh = []  # the same exchange with nothing remembered of the folder, as in the MCP server's own process
        for _ in range(0, writes, burst):
            for _ in range(burst):
                item = [{"entityName": f"Entity {rng.randrange(2000)}", "contents": [_text(rng)]}]
                run(graphs["with"], memory.add_observations, item)
            sync_files._VERIFIED.clear()
            t0 = time.perf_counter()
            service_sync.exchange(graphs["with"], folder)
            fresh.append(time.perf_counter() - t0)
        segments = len(list(folder.rglob("*.seg")))
    finally:
        for g in graphs.values():
            g.db.close()
    ratios = [w / wo for w, wo in zip(medians["with"], medians["without"])]
    with_publish = [(w + p) / wo for w, p, wo in zip(medians["with"], publish, medians["without"])]
    w, wo, pub = statistics.median(medians["with"]), statistics.median(medians["without"]), statistics.median(publish)
    starts = []
    for _ in range(3):  # the MCP server's exchange process, with nothing left to send
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "limbic.mcp.sync", str(paths["with"])], capture_output=True,
                       env=os.environ.copy(), check=True)
        starts.append(time.perf_counter() - t0)
    return {"rounds": rounds, "writes_per_round": writes, "burst": burst, "with_ms": round(w * 1000, 3),
            "without_ms": round(wo * 1000, 3), "ratio": round(w / wo, 3),
            "publish_ms_per_write": round(pub * 1000, 3), "with_and_publish_ratio": round((w + pub) / wo, 3),
            "spread": {"with_ms": _spread(medians["with"], 1000), "without_ms": _spread(medians["without"], 1000),
                       "ratio": _spread(ratios), "publish_ms_per_write": _spread(publish, 1000),
                       "with_and_publish_ratio": _spread(with_publish)},
            "exchange_ms": _spread(exchanges, 1000, 2), "exchange_fresh_ms": _spread(fresh, 1000, 2),
            "segments_in_folder": segments, "exchange_process_s": round(statistics.median(starts), 2)}


def month(work: Path, days: int, per_day: int, entities: int = 2000) -> dict:
    folder = work / "MonthSync"
    folder.mkdir()
    a, b = work / "month_a.db", work / "month_b.db"
    _build(a, entities, seed=9)
    service_sync.exchange(a, folder)
    service_sync.exchange(b, folder)
    rng = random.Random(13)
    sizes = []
    commits_per_exchange = max(1, per_day // 10 // 10)  # 10 exchanges a day, 10 observations a commit
    t_start = time.perf_counter()
    for day in range(days):
        for _ in range(10):
            g = Graph(Database(a))
            try:
                for _ in range(commits_per_exchange):
                    with g.write(embed=False):
                        for _ in range(10):
                            g.add_observations(f"Entity {rng.randrange(entities)}", [_text(rng)])
            finally:
                g.db.close()
            service_sync.exchange(a, folder)
            service_sync.exchange(b, folder)
        sizes.append(_folder_bytes(folder))
    files = sum(1 for p in folder.rglob("*") if p.is_file())
    return {"days": days, "changes_per_day": commits_per_exchange * 100, "final_mb": round(sizes[-1] / 1e6, 1),
            "max_mb": round(max(sizes) / 1e6, 1), "files": files, "per_day_mb": [round(s / 1e6, 1) for s in sizes],
            "db_mb": round(a.stat().st_size / 1e6, 1), "seconds": round(time.perf_counter() - t_start, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entities", type=int, default=100_000)
    ap.add_argument("--changes", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--burst", type=int, default=20, help="capture: writes between two exchanges")
    ap.add_argument("--days", type=int, default=30)
    ap.add_argument("--per-day", type=int, default=10_000)
    ap.add_argument("--parts", default="first,capture,month", help="which parts to run (steady needs first)")
    ap.add_argument("--first-sync-child", nargs="+", metavar="DB FOLDER [NAME]")
    ap.add_argument("--clear-too", action="store_true",
                    help="first sync: also in the clear, before the sealed one, to report sealing's cost")
    ap.add_argument("--vector-sample", type=int, default=500, help="entities embedded to time the model apart")
    args = ap.parse_args(argv)
    if args.first_sync_child:
        first_sync_child(*args.first_sync_child)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        os.environ["LIMBIC_HOME"] = str(work / "home")
        parts = set(args.parts.split(","))
        report: dict = {}
        if "first" in parts:
            if args.clear_too:
                clear = first_sync(work, args.entities, sealed=False)
                report["first_sync_clear"] = {k: v for k, v in clear.items() if not isinstance(v, Path)}
            first = first_sync(work, args.entities)
            report["first_sync"] = {k: v for k, v in first.items() if not isinstance(v, Path)}
            report["steady_state"] = steady_state(first, args.changes)
            report["first_sync"]["vector_rebuild"] = vector_rate(first["b"], args.vector_sample)
            if args.clear_too:
                report["first_sync_sealed_over_clear"] = {
                    k: round(report["first_sync"][k] / max(report["first_sync_clear"][k], 1e-9), 3)
                    for k in ("first_sync_s", "first_sync_peak_rss_mb")}
        if "capture" in parts:
            report["capture"] = capture(work, args.rounds, burst=args.burst)
        if "month" in parts:
            report["month"] = month(work, args.days, args.per_day)
    out = Path("bench-results")
    out.mkdir(exist_ok=True)
    (out / "bench_sync.json").write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
