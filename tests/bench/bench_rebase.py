"""What putting a late change in its place costs: a device takes back what it applied after it and applies it all
again (``engine/sync/rebase.py``).

    python -m tests.bench.bench_rebase [--entities 100000] [--late 10,1000,10000] [--out bench-rebase.json]

A report, never a pass/fail. Device C holds ``--entities`` entities (text only, no model) and joins the folder;
device A then makes N changes (one observation each, one commit each, over fifty entities) and C applies them; device B had made one
change before all of A's and publishes it only now: C meets it N changes late. Timed on C: the exchange that
applies A's changes (with the record a rebase needs, and again without it, on a copy), the exchange that puts B's
change in its place (the rebase, one write transaction: the longest any other writer waits), and the size of
what is kept. A and B exchange through a folder of their own, so they never apply C's graph; C's folder holds
everything.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.engine.sync import exchange as engine_exchange, rebase
from tests.bench.bench_sync import _build


def _sync(graph: Graph, folder: Path, name: str) -> engine_exchange.Exchange:
    return engine_exchange.exchange(graph, folder, engine_exchange.Device(name * 4, name), sealed=False)


def _copy_devices(src: Path, dst: Path) -> None:
    """What a sync tool does: every device's files of ``src`` present in ``dst`` too."""
    for path in src.rglob("*"):
        if path.is_file():
            target = dst / path.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.exists():
                shutil.copy2(path, target)


def one(work: Path, base: Path, late: int) -> dict:
    work.mkdir(parents=True)
    ab, everyone = work / "ab", work / "all"
    ab.mkdir()
    everyone.mkdir()
    a, b = Graph(Database(work / "a.db")), Graph(Database(work / "b.db"))
    shutil.copy2(base, work / "c.db")
    c = Graph(Database(work / "c.db"))
    counted = {"taken": 0, "refused": 0}
    real = rebase.take_back

    def take_back(db, rows):
        try:
            out = real(db, rows)
        except rebase.CannotTakeBack:
            counted["refused"] += 1
            raise
        counted["taken"] += 1
        return out

    rebase.take_back = take_back
    try:
        _sync(a, ab, "aaaa")
        _sync(b, ab, "bbbb")
        _copy_devices(ab, everyone)
        t0 = time.perf_counter()
        _sync(c, everyone, "cccc")  # joins: publishes its graph
        join_s = time.perf_counter() - t0
        time.sleep(1.1)  # B's change after C's own (its published graph is never taken back)
        b.upsert_entity("Before", "Topic", ["made before every change of A"])
        time.sleep(1.1)  # creation times are kept to the second: A's changes come after B's in clock order
        a.upsert_entity("Stream", "Topic", ["first"])
        for i in range(late - 1):  # spread over fifty entities, as a person's or an assistant's writes are
            if i < 49:
                a.upsert_entity(f"Stream {i}", "Topic", [f"change {i} of a long stream"])
            else:
                a.add_observations(f"Stream {i % 49}", [f"change {i} of a long stream"])
        _sync(a, ab, "aaaa")
        _copy_devices(ab, everyone)
        shutil.copy2(work / "c.db", work / "c-plain.db")
        t0 = time.perf_counter()
        applied = _sync(c, everyone, "cccc")
        apply_s = time.perf_counter() - t0
        kept_bytes = c.db.scalar("SELECT coalesce(sum(length(steps) + length(undo)), 0) FROM sync_replay")
        # The same apply without the record, on a copy of C as it was before it.
        plain = Graph(Database(work / "c-plain.db"))
        real_keep = rebase.Recording.keep
        rebase.Recording.keep = lambda self, *a, **k: None
        try:
            t0 = time.perf_counter()
            _sync(plain, everyone, "cccc")
            plain_s = time.perf_counter() - t0
        finally:
            rebase.Recording.keep = real_keep
            plain.db.close()
        _sync(b, ab, "bbbb")
        _copy_devices(ab, everyone)
        t0 = time.perf_counter()
        rebased = _sync(c, everyone, "cccc")
        rebase_s = time.perf_counter() - t0
        order = [t for (t,) in c.db.execute(
            "SELECT content FROM observations WHERE content IN ('made before every change of A', 'first') ORDER BY id")]
        return {"late": late, "entities_on_c": c.db.scalar("SELECT count(*) FROM entities"),
                "join_s": round(join_s, 2), "apply_s": round(apply_s, 3), "apply_without_record_s": round(plain_s, 3),
                "applied": applied.received, "kept_mb": round(kept_bytes / 2**20, 2),
                "rebase_s": round(rebase_s, 3), "rebase_received": rebased.received, "rebases": counted["taken"],
                "refused": counted["refused"], "in_clock_order": order == ["made before every change of A", "first"]}
    finally:
        rebase.take_back = real
        for g in (a, b, c):
            g.db.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entities", type=int, default=100_000)
    ap.add_argument("--late", default="10,1000,10000", help="how many changes late, comma-separated")
    ap.add_argument("--out", default="bench-rebase.json")
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base.db"
        t0 = time.perf_counter()
        _build(base, args.entities)
        print(f"built {args.entities} entities in {time.perf_counter() - t0:.1f} s", flush=True)
        for late in (int(x) for x in args.late.split(",")):
            row = one(Path(tmp) / f"late-{late}", base, late)
            rows.append(row)
            print(json.dumps(row), flush=True)
    report = {"entities": args.entities, "runs": rows,
              "rebase_s_median": statistics.median(r["rebase_s"] for r in rows) if rows else None}
    Path(args.out).write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
