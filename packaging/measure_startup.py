"""Time the packaged app's start: to the window shown and to the first search result on screen.

Usage: python packaging/measure_startup.py [--exe dist/limbic/limbic] [--runs 5]

Imports the sample graph into a temporary file with the same executable, then starts the app
``--runs`` times with ``LIMBIC_TIMING=quit`` and a query, and reports each run and the median. The
runs follow the import, so the app's files are in the page cache; ``--drop-caches`` (root, Linux)
empties the page cache before each run to time a start from disk, like the first one after boot.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUERY = "charged twice when the payment network timed out"
STAMP = re.compile(r"^limbic-timing: (\S+) (\d+\.\d+)", re.M)


def drop_page_cache() -> None:
    """Write dirty pages and drop the clean ones, so the next start reads its files from disk."""
    os.sync()
    Path("/proc/sys/vm/drop_caches").write_text("1\n")


def one_run(exe: str, db: Path, env: dict[str, str], timeout: float = 120) -> dict[str, float]:
    """Start the app once; seconds from launch to each stamp."""
    start = time.time()
    proc = subprocess.run([exe, "--db", str(db)], env=env, capture_output=True, text=True, timeout=timeout)
    stamps = {name: float(t) - start for name, t in STAMP.findall(proc.stderr)}
    if proc.returncode != 0 or "first-results" not in stamps:
        raise RuntimeError(f"the app did not report its start (exit {proc.returncode}):\n{proc.stderr[-2000:]}")
    return stamps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exe", default=str(ROOT / "dist" / "limbic" / "limbic"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--drop-caches", action="store_true", help="start from disk each time (root, Linux)")
    parser.add_argument("--platform", default="offscreen", help="QT_QPA_PLATFORM (offscreen without a display)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="limbic-startup-") as tmp:
        env = dict(os.environ, LIMBIC_HOME=str(Path(tmp) / "home"), QT_QPA_PLATFORM=args.platform,
                   LIMBIC_TIMING="quit", LIMBIC_TIMING_QUERY=QUERY)
        env.pop("LIMBIC_DB", None)
        db = Path(tmp) / "sample.db"
        subprocess.run([args.exe, "import", str(ROOT / "resources" / "sample_graph.jsonl"), "--db", str(db)],
                       env=env, check=True, capture_output=True)
        runs = []
        for _ in range(args.runs):
            if args.drop_caches:
                drop_page_cache()
            runs.append(one_run(args.exe, db, env))
    for i, r in enumerate(runs, start=1):
        print(f"run {i}: window shown {r['window-shown']:.2f} s, first result {r['first-results']:.2f} s")
    window = statistics.median(r["window-shown"] for r in runs)
    first = statistics.median(r["first-results"] for r in runs)
    kind = "from disk" if args.drop_caches else "warm page cache"
    print(f"median of {len(runs)} ({kind}): window shown {window:.2f} s, first search result {first:.2f} s ({args.exe})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
