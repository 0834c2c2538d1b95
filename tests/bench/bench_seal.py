"""What sealing the sync folder costs: publishing and applying 1,000 changes sealed and in the clear.

    python -m tests.bench.bench_seal [--changes 1000] [--rounds 7] [--snapshot-entities 20000]

A report, never a pass/fail (``bench-results/bench_seal.json``). Each round makes two fresh pairs of graphs
(laptop, desktop) with the same ``--changes`` observations on the laptop, then times the laptop's publish and
the desktop's apply, sealed and in the clear, the order of the two alternating round by round; the figures
are medians and their ratio. Then a snapshot of ``--snapshot-entities`` entities: sealing it on the writing
device and opening it for a new device, against the same snapshot in the clear, with the new device's peak
memory in a process of its own.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.engine.sync import exchange as engine_exchange, seal
from limbic.service import sync as service_sync
from tests.bench.common import peak_rss_mb

WORDS = "graph vector search sqlite observation relation memory session project decision note index".split()


def _pair_round(root: Path, changes: int, sealed: bool, seed: int) -> tuple[float, float]:
    folder = root / "folder"
    folder.mkdir()
    real = engine_exchange.exchange
    service_sync._exchange = lambda *a, **kw: real(*a, **{**kw, "sealed": sealed})  # noqa: SLF001
    try:
        a, b = Graph(Database(root / "a.db")), Graph(Database(root / "b.db"))
        da, db_ = service_sync.Device("a" * 16, "laptop"), service_sync.Device("b" * 16, "desktop")
        a.upsert_entity("Bench", "Project", ["start"])
        service_sync.exchange(a, folder, da, remember=False)
        service_sync.exchange(b, folder, db_, remember=False)
        rng = random.Random(seed)
        for _ in range(changes):
            a.add_observations("Bench", [" ".join(rng.choice(WORDS) for _ in range(12))])
        started = time.perf_counter()
        service_sync.exchange(a, folder, da, remember=False)
        publish = time.perf_counter() - started
        started = time.perf_counter()
        got = service_sync.exchange(b, folder, db_, remember=False)
        apply = time.perf_counter() - started
        assert got.received == changes, got.received
        a.db.close()
        b.db.close()
        return publish, apply
    finally:
        service_sync._exchange = real  # noqa: SLF001


def pairs(work: Path, changes: int, rounds: int) -> dict:
    times: dict[str, dict[str, list[float]]] = {k: {"publish": [], "apply": []} for k in ("sealed", "clear")}
    for i in range(rounds):
        for kind in (("sealed", "clear") if i % 2 == 0 else ("clear", "sealed")):
            root = work / f"round-{i}-{kind}"
            root.mkdir()
            publish, apply = _pair_round(root, changes, kind == "sealed", seed=i)
            times[kind]["publish"].append(publish)
            times[kind]["apply"].append(apply)
    out = {}
    for part in ("publish", "apply"):
        s, c = statistics.median(times["sealed"][part]), statistics.median(times["clear"][part])
        out[part] = {"sealed_ms": round(s * 1000, 1), "clear_ms": round(c * 1000, 1), "ratio": round(s / c, 3)}
    return out


def snapshots(work: Path, entities: int) -> dict:
    path = work / "snap-src.db"
    g = Graph(Database(path))
    rng = random.Random(3)
    with g.write(embed=False):
        for i in range(entities):
            g.upsert_entity(f"E{i}", "Thing", [" ".join(rng.choice(WORDS) for _ in range(14))])
    plain = work / "plain.db"
    g.db.execute("VACUUM INTO ?", (str(plain),))
    g.db.close()
    code = seal.new_code()
    _, key = seal.make_record(code, "g" * 32)
    sealer = seal.Sealer(key, "g" * 32)
    sealed = work / "sealed.db"
    started = time.perf_counter()
    sealer.seal_file(plain, sealed, "snapshot", "dev", 1)
    seal_s = time.perf_counter() - started
    opened = work / "opened.db"
    started = time.perf_counter()
    sealer.open_file(sealed, opened, "snapshot", "dev", 1)
    open_s = time.perf_counter() - started
    assert opened.read_bytes() == plain.read_bytes()
    return {"entities": entities, "bytes": plain.stat().st_size, "seal_s": round(seal_s, 3), "open_s": round(open_s, 3),
            "rss_mb_after": round(peak_rss_mb(), 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--changes", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--snapshot-entities", type=int, default=20_000)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        os.environ["LIMBIC_HOME"] = str(work / "home")
        report = {"changes": args.changes, "rounds": args.rounds, "pairs": pairs(work, args.changes, args.rounds),
                  "snapshot": snapshots(work, args.snapshot_entities)}
    out = Path("bench-results")
    out.mkdir(exist_ok=True)
    (out / "bench_seal.json").write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
