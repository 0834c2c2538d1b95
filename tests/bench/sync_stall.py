"""The window's worst stall while another device's 10,000 changes arrive through the sync folder and apply.

Run: .venv/bin/python -m tests.bench.sync_stall [--entities 2000] [--changes 10000]

The window is open on device B's graph, joined to a folder, idle. Device A (another process) then
publishes ``--changes`` changes (one observation each, as an assistant writes them) into the folder:
segments of up to 2,000 changes, each applied on the window's engine thread in a transaction of
its own. A precise 5 ms timer on the UI thread measures how late each tick comes, from A's publish
until B has applied everything, against the idle window's own noise. A report, never a pass/fail:
prints the figures and writes bench-results/sync_stall.json. Goal: worst ≤ 50 ms, as for an
outside writer (tests/bench/ui_stall.py).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[2]
OUT_DIR = ROOT / "bench-results"
TICK_MS = 5


def _prepare(home: Path, entities: int, changes: int) -> tuple[Path, Path, Path]:
    """A's graph joined to the folder, B started from it, then A's changes made and not yet published."""
    from limbic.engine.graph.graph import Graph
    from limbic.engine.store.db import Database
    from limbic.service import sync as service_sync
    from tests.bench.bench_sync import _build, _text

    folder, a, b = home / "Sync", home / "a.db", home / "b.db"
    folder.mkdir()
    _build(a, entities, seed=3)
    # Each graph file is its own device: A's under a device id of its own, B's as this machine's.
    device_a = service_sync.Device("a" * 16, "laptop")
    service_sync.exchange(a, folder, device_a, remember=False)
    service_sync.exchange(b, folder)
    rng = random.Random(5)
    g = Graph(Database(a))
    try:
        for i in range(changes):
            with g.write(embed=False):
                g.add_observations(f"Entity {rng.randrange(entities)}", [_text(rng) + f" change{i}"])
    finally:
        g.db.close()
    return folder, a, b


def publish_child(db: str, folder: str) -> None:
    """In its own process: device A publishes what it made (the window's process never does A's work)."""
    from limbic.service import sync as service_sync

    result = service_sync.exchange(Path(db), Path(folder), service_sync.Device("a" * 16, "laptop"), remember=False)
    print(json.dumps({"sent": result.sent, "segments": result.sent_segments}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=2000)
    parser.add_argument("--changes", type=int, default=10_000)
    parser.add_argument("--idle-seconds", type=float, default=30.0, help="the reference: the idle window's own noise")
    parser.add_argument("--publish-child", nargs=2, metavar=("DB", "FOLDER"))
    args = parser.parse_args()
    if args.publish_child:
        publish_child(*args.publish_child)
        return 0
    home = Path(tempfile.mkdtemp(prefix="limbic-sync-stall-"))
    os.environ["LIMBIC_HOME"] = str(home / "home")
    t0 = time.perf_counter()
    folder, a, b = _prepare(home, args.entities, args.changes)
    prepare_s = time.perf_counter() - t0

    from limbic.ui.shell.app import _application, _wait
    from limbic.ui.shell.main_window import MainWindow
    from tests.bench.heartbeat import Heartbeat
    from tests.bench.ui_stall import percentile, summarise

    app = _application([sys.argv[0]])
    window = MainWindow(b)
    window.show()
    window.start()
    if not _wait(app, lambda: window.catalog is not None and window.sync.exchanges >= 1, 300_000):
        sys.exit("sync_stall: the window did not open and sync")
    received: list[int] = []
    applied = [0.0]
    seen = [window.sync.exchanges]

    def follow() -> bool:
        if window.sync.exchanges != seen[0]:
            seen[0] = window.sync.exchanges
            result = window.sync.last_result
            if result is not None and result.received:
                received.append(result.received)
                applied[0] = time.perf_counter()
        return sum(received) >= args.changes

    beat = Heartbeat(TICK_MS)
    phases: dict[str, dict] = {}
    beat.start()
    start = time.perf_counter()
    _wait(app, lambda: time.perf_counter() - start >= args.idle_seconds, int(args.idle_seconds * 1000) + 10_000)
    beat.stop()
    phases["idle"] = summarise(beat.gaps, time.perf_counter() - start,
                               {"stalls_over_50ms": sum(1 for g in beat.gaps if g > 50)})

    beat.start()
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "tests.bench.sync_stall", "--publish-child", str(a), str(folder)],
                             stdout=subprocess.PIPE, text=True, env=os.environ.copy())
    done = _wait(app, follow, 1_800_000)
    beat.stop()
    elapsed = time.perf_counter() - start
    sent = json.loads(child.communicate()[0].strip().splitlines()[-1])
    gaps = beat.gaps
    phases["apply"] = summarise(gaps, elapsed, {
        "changes": args.changes, "segments": sent["segments"], "applied_all": done, "received": sum(received),
        "exchanges": len(received), "publish_to_applied_s": round(applied[0] - start, 2) if applied[0] else None,
        "stalls_over_50ms": sum(1 for g in gaps if g > 50), "p999_ms": round(percentile(gaps, 99.9), 2)})
    window.close()
    shutil.rmtree(home, ignore_errors=True)  # two graph files and a folder of segments
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    report = {"tick_ms": TICK_MS, "entities": args.entities, "prepare_s": round(prepare_s, 1),
              "load_average_1min": load, "phases": phases}
    OUT_DIR.mkdir(exist_ok=True)
    (OUT_DIR / "sync_stall.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
