"""What recording this device's own writes costs on a graph that syncs (``engine/sync/own.py``).

    python -m tests.bench.bench_own_record [--entities 10000] [--rounds 7] [--out bench-own-record.json]

A report, never a pass/fail. A graph of ``--entities`` entities joins a folder; then, alternated round by round
on the same graph, the same writes are timed with the record kept and with it switched off (the hooks taken out):
100 single writes (one new entity with a text, one commit each, as an assistant's ``create_entities`` of one),
100 texts added to an existing entity, and one batch of 200 new entities with two texts each (a bulk
``create_entities``). Medians of the rounds, and the ratio recorded / not; and what the records take in the file.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from limbic.engine.graph.graph import Graph
from limbic.engine.store import db as store_db
from limbic.engine.store.db import Database
from limbic.engine.sync import exchange as engine_exchange, own


def _timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def _writes(graph: Graph, tag: str) -> dict[str, float]:
    out = {}
    out["single writes, 100 (s)"] = _timed(lambda: [graph.upsert_entity(f"{tag} single {i}", "Note", [f"text {i}"])
                                                     for i in range(100)])
    out["texts added, 100 (s)"] = _timed(lambda: [graph.add_observations("Hub", [f"{tag} added {i}"]) for i in range(100)])

    def batch() -> None:
        with graph.write():
            for i in range(200):
                graph.upsert_entity(f"{tag} batch {i}", "Note", [f"first {i}", f"second {i}"])

    out["batch of 200 entities (s)"] = _timed(batch)
    return out


def _recording(on: bool) -> None:
    hooks = store_db.HOOKS
    for hook, where in ((own._begin, hooks.after_begin), (own._keep, hooks.before_commit)):
        if on and hook not in where:
            where.append(hook)
        elif not on and hook in where:
            where.remove(hook)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entities", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--out", default="bench-own-record.json")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        graph = Graph(Database(root / "g.db"), embedder=None)
        with graph.write():
            graph.upsert_entity("Hub", "Note", ["the entity texts are added to"])
            for i in range(args.entities):
                graph.upsert_entity(f"Entity {i}", "Note", [f"observation {i}"])
        folder = root / "Sync"
        folder.mkdir()
        engine_exchange.exchange(graph, folder, engine_exchange.Device("bench" * 4, "bench"), sealed=False)
        times: dict[str, dict[str, list[float]]] = {"recorded": {}, "not recorded": {}}
        for r in range(args.rounds):
            for arm in (("recorded", "not recorded") if r % 2 == 0 else ("not recorded", "recorded")):
                _recording(arm == "recorded")
                for name, seconds in _writes(graph, f"{arm} {r}").items():
                    times[arm].setdefault(name, []).append(seconds)
        _recording(True)
        kept = graph.db.scalar("SELECT coalesce(sum(length(undo) + length(steps)), 0) FROM sync_replay")
        records = graph.db.scalar("SELECT count(*) FROM sync_replay")
        graph.db.close()
    rows = []
    for name in times["recorded"]:
        on, off = statistics.median(times["recorded"][name]), statistics.median(times["not recorded"][name])
        rows.append({"writes": name, "recorded": round(on, 4), "not recorded": round(off, 4),
                     "ratio": round(on / off, 2) if off else None})
        print(f"{name:28} recorded {on:8.4f}  not recorded {off:8.4f}  ratio {on / off:5.2f}")
    print(f"records kept: {records}, {kept / 1024:.0f} KiB")
    report = {"entities": args.entities, "rounds": args.rounds, "medians": rows, "records": records,
              "kept_bytes": kept}
    Path(args.out).write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
