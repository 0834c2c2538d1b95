"""Worst case within the documented limits: one entity with 450,000 observations (a ~51 MB JSONL line).

Each step runs as its own ``limbic`` process, so its wall time and peak resident memory are its
own; the same steps on an entity with 10,000 observations (the size the tests cover) are the
reference in the same run. Prints a table; nothing is asserted::

    nice .venv/bin/python -m tests.safety.big_entity [--observations 450000] [--reference 10000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORDS = (
    "graph vector sqlite search memory entity relation model local desktop index token window budget "
    "observation import export backup restore check repair signal access ranking fusion meaning text "
    "note project person place idea task paper tool library version release issue commit branch"
).split()

EDIT = """
import sys
from limbic.engine.session import open_graph
opened = open_graph(sys.argv[1])
opened.graph.add_observations("Huge", ["one more observation about a late change"])
opened.close()
"""


def write_jsonl(path: Path, n: int) -> int:
    rng = random.Random(n)
    obs = [f"Observation {i}: " + " ".join(rng.choice(WORDS) for _ in range(13)) for i in range(n)]
    line = json.dumps({"type": "entity", "name": "Huge", "entityType": "Log", "observations": obs}, ensure_ascii=False)
    extra = json.dumps({"type": "entity", "name": "Small", "entityType": "Note", "observations": ["a vector database note"]})
    path.write_text(line + "\n" + extra + "\n", encoding="utf-8")
    return len(line.encode("utf-8"))


def run(args: list[str], env: dict[str, str], stdout=subprocess.DEVNULL) -> tuple[float, float, int]:
    """(seconds, peak RSS in MiB, exit code) of one child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, env=env, stdout=stdout, stderr=subprocess.PIPE, cwd=ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
    if proc.returncode not in (0, 2):
        print(f"  {' '.join(args[2:])} exited {proc.returncode}: {err.strip()[-300:]}", file=sys.stderr)
    return seconds, usage.ru_maxrss / 1024, proc.returncode


def measure(n: int, folder: Path) -> dict[str, tuple[float, float, int]]:
    src = folder / f"huge-{n}.jsonl"
    size = write_jsonl(src, n)
    db = folder / f"huge-{n}.db"
    env = {**os.environ, "LIMBIC_HOME": str(folder / "home"), "PYTHONPATH": str(ROOT / "app")}
    py = [sys.executable]
    lim = py + ["-m", "limbic", "--db", str(db)]
    steps = {
        "import + embed": lim + ["import", str(src)],
        "search (hybrid)": lim + ["search", "late change graph", "--no-record"],
        "search --json": lim + ["search", "Huge", "--json", "--no-record"],
        "edit (add 1 observation)": py + ["-c", EDIT, str(db)],
        "check": lim + ["check"],
        "export": lim + ["export", "-o", str(folder / f"out-{n}.jsonl")],
    }
    out = {"line size (MB)": (size / 1e6, 0.0, 0)}
    for name, args in steps.items():
        out[name] = run(args, env)
        print(f"  {n:>7} observations  {name:<26} {out[name][0]:7.1f} s  {out[name][1]:7.0f} MiB", file=sys.stderr)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--observations", type=int, default=450_000)
    parser.add_argument("--reference", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ref = measure(args.reference, folder)
        big = measure(args.observations, folder)
    print(f"{'step':<26}{args.reference:>10,} obs: s / MiB{args.observations:>12,} obs: s / MiB{'time ratio':>12}")
    for step in big:
        if step == "line size (MB)":
            print(f"{step:<26}{ref[step][0]:>20.1f}{big[step][0]:>24.1f}")
            continue
        (rs, rm, _), (bs, bm, _) = ref[step], big[step]
        print(f"{step:<26}{rs:>10.1f} / {rm:>6.0f}{bs:>14.1f} / {bm:>6.0f}{bs / max(rs, 1e-9):>12.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
