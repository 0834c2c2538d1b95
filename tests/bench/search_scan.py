"""The vector branch of a large graph: the exact scan as einsum against the same scan as BLAS's sgemv.

    python -m tests.bench.search_scan --size 100000 --queries 200

Interleaved query by query after a warm-up (each way first for half the queries), on the cached
benchmark graph (opened, never written); prints and writes ``bench-results/search_scan.json``: each
way's time and CPU time (every thread) per KNN branch with its windows and the similarity spread
(p50 / p95), whether the two return the same top 10 (ids and order; distances within 1e-6) and top
100, the largest difference of a returned distance and of the spread, and the process's resident
size with the model loaded, before and after the mirrors are. OPENBLAS_NUM_THREADS=1 as in the app (tests/bench/__init__.py).
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path

import numpy as np

from limbic.engine.store.db import Database
from limbic.engine.vectors import chunked_knn, index, vector_index
from limbic.engine.vectors.embeddings import load_embedder
from tests.bench.common import RESULTS

K = 100


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _ms(xs: list[float]) -> dict:
    return {"p50": round(float(np.median(xs)) * 1e3, 2), "p95": round(float(np.percentile(xs, 95)) * 1e3, 2)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", type=int, default=100_000, help="the cached benchmark graph of this many entities")
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--out", default=str(RESULTS / "search_scan.json"))
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    path = RESULTS / f"graph-{args.size}.db"
    texts = [q for _, q in json.loads((RESULTS / f"graph-{args.size}.queries.json").read_text(encoding="utf-8"))]
    embedder = load_embedder()
    vectors = [embedder.encode_query(t) for t in texts[: args.queries]]
    db = Database(path)
    try:
        rss_before = rss_mib()
        first = vector_index.mirror_for(db, index.VEC_TABLE)
        first.refresh(db)
        windows = chunked_knn._windows(db, index.VEC_TABLE)
        rss = rss_mib()
        wall: dict[str, list[float]] = {"einsum": [], "blas": []}
        cpu: dict[str, list[float]] = {"einsum": [], "blas": []}

        def knn(q, way: str):
            chunked_knn.BLAS_FROM = 0 if way == "blas" else 10**12
            c, a = time.process_time(), time.perf_counter()
            out = chunked_knn.knn_with_stats(db, index.VEC_TABLE, q, K, 1.0)
            wall[way].append(time.perf_counter() - a)
            cpu[way].append(time.process_time() - c)
            return out

        for q in vectors:  # warm-up
            knn(q, "einsum"), knn(q, "blas")
        for xs in (*wall.values(), *cpu.values()):
            xs.clear()
        same10, same100, ddist, dmean, dstd = [], [], [], [], []
        for i, q in enumerate(vectors):
            got = {way: knn(q, way) for way in (("einsum", "blas") if i % 2 else ("blas", "einsum"))}
            (e, es), (b, bs) = got["einsum"], got["blas"]
            same10.append([x for x, _ in e[:10]] == [x for x, _ in b[:10]])
            same100.append(len({x for x, _ in e} & {x for x, _ in b}) / len(e))
            ddist.append(max(abs(x - y) for (_, x), (_, y) in zip(e, b)))
            dmean.append(abs(es.mean - bs.mean))
            dstd.append(abs(es.std - bs.std))
        out = {
            "graph": str(path),
            "entities": len(first),
            "windows": 0 if windows is None else len(windows),
            "queries": len(vectors),
            "knn_ms": {way: _ms(xs) for way, xs in wall.items()},
            "knn_cpu_ms": {way: _ms(xs) for way, xs in cpu.items()},
            "top10_same_order": round(float(np.mean(same10)), 4),
            "top100_overlap": round(float(np.mean(same100)), 4),
            "largest_distance_difference": float(np.max(ddist)),
            "largest_spread_difference": {"mean": float(np.max(dmean)), "std": float(np.max(dstd))},
            "mirrors_mib": round((first.nbytes + (windows.nbytes if windows is not None else 0)) / 2**20, 1),
            "rss_mib": {"model_loaded": round(rss_before, 1), "and_both_mirrors": round(rss, 1)},
        }
    finally:
        db.close()
    Path(args.out).parent.mkdir(exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1), encoding="utf-8")
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
