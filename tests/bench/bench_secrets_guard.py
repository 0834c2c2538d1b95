"""How often the secrets guard would hold an ordinary note: Limbic's own checks beside detect-secrets.

    python -m tests.bench.bench_secrets_guard [--limit N] [--no-detect-secrets]

A report, never a pass/fail (``bench-results/bench_secrets_guard.json``). Every text of the sample graph
(``resources/sample_graph.jsonl``: names and observations), of the tuning and held-out collections under
``../shared/eval`` (titles, abstracts, queries) is given to ``engine/text/credentials`` and, where installed,
to detect-secrets 1.5 with its default plugins; each text held is a false positive (none of them holds a
credential). Also: microseconds per text, and the held-secrets table of the tests, as a check that both see them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from limbic.engine.text import credentials
from tests.bench.common import ROOT, write_results

EVAL = ROOT.parent / "shared" / "eval"


def texts(limit: int | None) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {"sample graph": []}
    for line in (ROOT / "resources" / "sample_graph.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        out["sample graph"] += [item.get("name", ""), *item.get("observations", [])]
    for collection in sorted(p for p in EVAL.glob("*") if p.is_dir()):
        rows: list[str] = []
        for name in ("corpus.jsonl", "queries.jsonl"):
            path = collection / name
            if path.exists():
                for line in path.read_text(encoding="utf-8").splitlines():
                    item = json.loads(line)
                    rows += [t for t in (item.get("title"), item.get("text")) if t]
        out[collection.name] = rows[:limit] if limit else rows
    return out


def _detect_secrets():
    try:
        from detect_secrets.core.scan import scan_line
        from detect_secrets.settings import default_settings
    except ImportError:
        return None

    def held(text: str) -> list[str]:
        with default_settings():
            return sorted({s.type for s in scan_line(text)})
    return held


def _measure(fn, rows: list[str]) -> tuple[list[tuple[str, str]], float]:
    held, spent = [], []
    for text in rows:
        start = time.perf_counter()
        found = fn(text)
        spent.append(time.perf_counter() - start)
        if found:
            held.append((text[:120], str(found)))
    return held, statistics.median(spent) * 1e6 if spent else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="texts per collection (default: all)")
    parser.add_argument("--no-detect-secrets", action="store_true")
    args = parser.parse_args()
    from tests.scopes.test_credentials import HELD

    checkers = {"limbic": lambda t: [f.what for f in credentials.find(t)]}
    ds = None if args.no_detect_secrets else _detect_secrets()
    if ds is not None:
        checkers["detect-secrets"] = ds
    results: dict = {"collections": {}, "secrets_seen": {}}
    lines = ["| texts | count | " + " | ".join(f"{k}: held (µs/text median)" for k in checkers) + " |",
             "|---|---|" + "---|" * len(checkers)]
    for name, rows in texts(args.limit).items():
        row = {"texts": len(rows)}
        cells = []
        for key, fn in checkers.items():
            held, micro = _measure(fn, rows)
            row[key] = {"held": len(held), "examples": held[:10], "median_us": round(micro, 1)}
            cells.append(f"{len(held)} ({micro:.0f})")
        results["collections"][name] = row
        lines.append(f"| {name} | {len(rows):,} | " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    for key, fn in checkers.items():
        results["secrets_seen"][key] = sum(1 for text, _ in HELD if fn(text))
    lines.append("")
    lines.append("Real-looking secrets of the test table seen: " + ", ".join(
        f"{k} {v}/{len(HELD)}" for k, v in results["secrets_seen"].items()))
    print(lines[-1])
    write_results("bench_secrets_guard", results, "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
