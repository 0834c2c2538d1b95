"""The vector branch of a large graph: the exact scan against the coarse pass (sign bits, then exact scores).

    python -m tests.bench.search_coarse --size 100000 --queries 100
    python -m tests.bench.search_coarse --db GRAPH --queries-file QUERIES.jsonl --keep-min 0 --sample 212

Interleaved query by query after a warm-up; prints and writes (bench-results/search_coarse.json) each
path's time per KNN branch (p50 / p95), how many of the exact top 100 and top 10 the coarse pass returns,
how far its estimate of the query's similarity spread is from the exact one, and the memory: the
mirrors' arrays, the sign bits, and the process's resident size before and after the bits were made.
``--keep-min`` and ``--sample`` scale the coarse pass down to a small collection (the share of rows
kept and sampled at 100,000 entities is 1/16 and 4,096/100,000), as a stand-in for a large graph of
real texts.
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
    p.add_argument("--db", help="any graph file instead (opened, never written)")
    p.add_argument("--queries-file", help="queries, one JSON object with 'text' a line (BEIR layout)")
    p.add_argument("--queries", type=int, default=100)
    p.add_argument("--keep-min", type=int, default=chunked_knn.COARSE_MIN)
    p.add_argument("--sample", type=int, default=chunked_knn.STATS_SAMPLE)
    p.add_argument("--out", default=str(RESULTS / "search_coarse.json"))
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    path = Path(args.db) if args.db else RESULTS / f"graph-{args.size}.db"
    if args.queries_file:
        texts = [json.loads(line)["text"] for line in open(args.queries_file, encoding="utf-8")]
    else:
        texts = [q for _, q in json.loads((RESULTS / f"graph-{args.size}.queries.json").read_text(encoding="utf-8"))]
    embedder = load_embedder()
    vectors = [embedder.encode_query(t) for t in texts[: args.queries]]
    chunked_knn.COARSE_MIN, chunked_knn.STATS_SAMPLE = args.keep_min, args.sample
    db = Database(path)
    try:
        first = vector_index.mirror_for(db, index.VEC_TABLE)
        first.refresh(db)
        windows = chunked_knn._windows(db, index.VEC_TABLE)
        rss_mirrors = rss_mib()
        t0 = time.perf_counter()
        first.sign_bits()
        if windows is not None:
            windows.sign_bits()
        bits_ms = (time.perf_counter() - t0) * 1e3
        rss_bits = rss_mib()

        def knn(q, exact: bool):
            chunked_knn.COARSE_FROM = 10**12 if exact else 0
            a = time.perf_counter()
            out = chunked_knn.knn_with_stats(db, index.VEC_TABLE, q, K, 1.0)
            return out, time.perf_counter() - a

        for q in vectors:  # warm-up
            knn(q, True), knn(q, False)
        t_exact, t_coarse, rec100, rec10, same10, dmean, dstd = ([] for _ in range(7))
        for i, q in enumerate(vectors):
            runs = {}
            for exact in ((True, False) if i % 2 else (False, True)):
                runs[exact] = knn(q, exact)
            (ex, sx), tx = runs[True]
            (co, sc), tc = runs[False]
            t_exact.append(tx)
            t_coarse.append(tc)
            rec100.append(len({e for e, _ in ex} & {e for e, _ in co}) / len(ex))
            rec10.append(len({e for e, _ in ex[:10]} & {e for e, _ in co[:10]}) / len(ex[:10]))
            same10.append(ex[:10] == co[:10])
            dmean.append(abs(sx.mean - sc.mean) / sx.std if sx.std else 0.0)
            dstd.append(abs(sx.std - sc.std) / sx.std if sx.std else 0.0)
        out = {
            "graph": str(path),
            "entities": len(first),
            "windows": 0 if windows is None else len(windows),
            "queries": len(vectors),
            "kept_rows": {"min": args.keep_min, "share": f"1/{chunked_knn.COARSE_SHARE}", "stats_sample": args.sample},
            "knn_ms": {"exact": _ms(t_exact), "coarse": _ms(t_coarse)},
            "top100_overlap": {"mean": round(float(np.mean(rec100)), 4), "min": round(float(np.min(rec100)), 3)},
            "top10_overlap": {"mean": round(float(np.mean(rec10)), 4), "min": round(float(np.min(rec10)), 3)},
            "top10_same_ids_scores_order": round(float(np.mean(same10)), 4),
            "stats_error": {"mean_in_stds_max": round(float(np.max(dmean)), 4), "std_relative_max": round(float(np.max(dstd)), 4)},
            "memory_mib": {
                "arrays_with_bits": round((first.nbytes + (windows.nbytes if windows is not None else 0)) / 2**20, 1),
                "rss_with_mirrors": round(rss_mirrors, 1),
                "rss_with_bits": round(rss_bits, 1),
            },
            "bits_build_ms": round(bits_ms, 1),
        }
    finally:
        db.close()
    Path(args.out).parent.mkdir(exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1), encoding="utf-8")
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
