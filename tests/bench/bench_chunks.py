"""Long entities embedded in windows: what they cost.

* KNN and search at 100k (the cached benchmark graph, whose long entities have the windows the
  engine would make), with and without the windows, interleaved query by query in one process;
  top-10 against float64 brute force over every vector, each entity by its best.
* Memory: vectors per 100k entities and the mirrors' bytes.
* Import of long texts (abstracts of a BEIR corpus) with the real model, with and without windows.
* One entity of 450,000 observations: reading it, making its texts, encoding them.

    PYTHONPATH=app:. .venv/bin/python -m tests.bench.bench_chunks [--size 100000] [--corpus FILE] [--huge 450000]

Prints JSON and writes bench-results/chunks.json and bench-results/chunks.md.
"""

from __future__ import annotations

import argparse
import json
import time
import tracemalloc
from functools import partial
from pathlib import Path

import numpy as np

from limbic.engine.vectors import chunked_knn, index, index_chunks, vector_index
from limbic.engine.store.db import Database
from limbic.engine.vectors.embeddings import load_embedder
from limbic.engine.vectors.entity_chunks import build_chunks
from limbic.engine.vectors.entity_text import EntitySource, build_text
from limbic.engine.graph.graph import Graph
from limbic.engine.search.search import search
from tests.bench.build import cached_graph, remove_db
from tests.bench.common import RESULTS, machine, peak_rss_mb, stats_ms


def _truth(db: Database, vectors: list[np.ndarray], k: int) -> list[list[int]]:
    """Exact float64 top-k over every stored vector, each entity scored by its best."""
    ids, mats = [], []
    for table, shift in ((index.VEC_TABLE, 0), (index_chunks.CHUNK_TABLE, index_chunks.SLOT_BITS)):
        if not db.has_table(table):
            continue
        rows = db.execute(f"SELECT rowid, embedding FROM {table}").fetchall()
        ids.append(np.array([r[0] >> shift for r in rows], dtype=np.int64))
        mats.append(np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1).astype(np.float64))
    owner, mat = np.concatenate(ids), np.concatenate(mats)
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    uniq, inverse = np.unique(owner, return_inverse=True)
    out = []
    for v in vectors:
        sims = mat @ (v.astype(np.float64) / np.linalg.norm(v))
        best = np.full(len(uniq), -np.inf)
        np.maximum.at(best, inverse, sims)
        order = np.lexsort((uniq, -best))[:k]
        out.append([int(uniq[i]) for i in order])
    return out


def knn_at_size(n: int, embedder) -> dict:
    work, queries, built = cached_graph(n, embedder)
    db = Database(work)
    graph = Graph(db, embedder)
    try:
        texts = [q for _, q in queries]
        vectors = [embedder.encode_query(q) for q in texts]
        first = vector_index.mirror_for(db, index.VEC_TABLE)
        first.load(db)
        windows = vector_index.mirror_for(db, index_chunks.CHUNK_TABLE, follow_log=False)
        t0 = time.perf_counter()
        windows.load(db)
        windows_load = time.perf_counter() - t0
        k = 100
        real_windows = chunked_knn._windows
        off = lambda db, table: None  # noqa: E731 - the same search with the windows hidden
        for q in texts[:3]:
            search(graph, q, record=False)
        knn_on, knn_off, e2e_on, e2e_off = [], [], [], []
        for n_query, (q, v) in enumerate(zip(texts, vectors)):
            arms = [(True, knn_on, e2e_on), (False, knn_off, e2e_off)]
            # The second search of a query finds its full-text pages cached: each arm goes first half the time.
            for windows_on, knn_times, e2e_times in (arms if n_query % 2 == 0 else arms[::-1]):
                chunked_knn._windows = real_windows if windows_on else off
                a = time.perf_counter()
                chunked_knn.knn(db, index.VEC_TABLE, v, k)
                b = time.perf_counter()
                search(graph, q, record=False)
                c = time.perf_counter()
                knn_times.append(b - a)
                e2e_times.append(c - b)
        chunked_knn._windows = real_windows
        rng = np.random.default_rng(5)
        _, wmat, _ = windows.rows(db)
        probes = wmat[rng.choice(len(wmat), size=min(100, len(wmat)), replace=False)] if len(wmat) else np.zeros((0, first.dim))
        probes = probes + rng.standard_normal(probes.shape).astype(np.float32) * 0.02
        probe_list = list(probes / np.linalg.norm(probes, axis=1, keepdims=True)) if len(probes) else []
        exact = {}
        for name, vecs in (("queries", vectors), ("near_duplicates_of_windows", probe_list)):
            truth = _truth(db, vecs, 10)
            got = [[i for i, _ in chunked_knn.knn(db, index.VEC_TABLE, v, 10)] for v in vecs]
            exact[name] = {"n": len(vecs), "same_order_as_float64": sum(a == b for a, b in zip(got, truth)) / max(1, len(vecs))}
        entities = len(first)
        long_entities = int(db.scalar("SELECT count(DISTINCT entity_id) FROM embedding_chunks"))
        return {
            "entities": entities,
            "graph_built_s": round(built, 1),
            "long_entities": long_entities,
            "windows": len(windows),
            "vectors_per_100k": round((entities + len(windows)) * 100_000 / entities),
            "first_mirror_mib": round(first.nbytes / (1 << 20), 1),
            "windows_mirror_mib": round(windows.nbytes / (1 << 20), 1),
            "windows_mirror_load_ms": round(windows_load * 1000, 1),
            "knn_ms": {"with_windows": stats_ms(knn_on), "first_vectors_only": stats_ms(knn_off)},
            "search_ms": {"with_windows": stats_ms(e2e_on), "first_vectors_only": stats_ms(e2e_off)},
            "exactness": exact,
        }
    finally:
        db.close()
        remove_db(work)


def import_long(corpus: Path, embedder, docs: int) -> dict:
    """Import the first ``docs`` documents of a corpus (as ``limbic eval`` maps them), with and without windows."""
    rows = [json.loads(line) for line in corpus.open(encoding="utf-8")][:docs]
    out = {}
    for label, cap in (("first_vector_only", 1), ("windows", None)):
        path = RESULTS / f"import-{label}.db"
        remove_db(path)
        original = index_chunks.build_chunks
        if cap is not None:
            index_chunks.build_chunks = partial(original, max_chunks=cap)
        g = Graph(Database(path), embedder)
        try:
            w0, c0 = time.perf_counter(), time.process_time()
            with g.write():
                for r in rows:
                    g.upsert_entity(f"{r['_id']} {r.get('title', '')}"[:200], "Paper", [r["text"]])
            wall, cpu = time.perf_counter() - w0, time.process_time() - c0
            windows = int(g.db.scalar("SELECT count(*) FROM embedding_chunks"))
        finally:
            index_chunks.build_chunks = original
            g.db.close()
            remove_db(path)
        out[label] = {"docs": len(rows), "wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "windows": windows,
                      "docs_per_cpu_s": round(len(rows) / cpu, 2)}
    return out


def huge_entity(n: int, embedder) -> dict:
    """One entity of ``n`` short observations: reading, making its texts, and encoding them."""
    rng = np.random.default_rng(3)
    words = [f"word{i}" for i in range(5000)]
    obs = tuple(" ".join(rng.choice(words, size=8)) + f" entry {i}" for i in range(n))
    path = RESULTS / "huge.db"
    remove_db(path)
    g = Graph(Database(path), embedder)
    try:
        with g.write(embed=False):
            eid = g.upsert_entity("Huge log", "Log", list(obs[:1]))
            g.db.executemany(
                "INSERT INTO observations(entity_id, content, created_at) VALUES (?, ?, '2026-01-01T00:00:00Z')",
                ((eid, o) for o in obs[1:]),
            )
        t0 = time.perf_counter()
        src = index.load_source(g.db, eid)
        read = time.perf_counter() - t0
        t0 = time.perf_counter()
        digest = src.digest()
        digest_s = time.perf_counter() - t0
        tracemalloc.start()
        t0 = time.perf_counter()
        first = build_text(src, embedder.count_tokens, embedder.spec.text_budget)
        first_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        texts = build_chunks(src, embedder.count_tokens, embedder.spec.text_budget)
        chunks_s = time.perf_counter() - t0
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert texts[0] == first and digest
        t0 = time.perf_counter()
        embedder.encode(texts)
        encode_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        g.embed_pending()
        embed_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        with g.write():
            g.add_observations("Huge log", ["one more entry at the end"])
        append_s = time.perf_counter() - t0
    finally:
        g.db.close()
        remove_db(path)
    return {
        "observations": n,
        "read_s": round(read, 2),
        "digest_s": round(digest_s, 2),
        "first_text_s": round(first_s, 2),
        "all_texts_s": round(chunks_s, 2),
        "texts_peak_mib": round(peak / (1 << 20), 1),
        "texts": len(texts),
        "encode_all_s": round(encode_s, 2),
        "embed_pending_s": round(embed_s, 2),
        "append_one_observation_s": round(append_s, 2),
        "peak_rss_mib": peak_rss_mb(),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=100_000)
    ap.add_argument("--corpus", type=Path)
    ap.add_argument("--docs", type=int, default=150)
    ap.add_argument("--huge", type=int, default=450_000)
    ap.add_argument("--skip", nargs="*", default=[])
    ap.add_argument("--max-chunks", type=int, help="vectors per entity for this run (1: as before windows)")
    args = ap.parse_args()
    if args.max_chunks:
        index_chunks.build_chunks = partial(index_chunks.build_chunks, max_chunks=args.max_chunks)
    embedder = load_embedder()
    RESULTS.mkdir(exist_ok=True)
    out: dict = {"machine": machine()}
    if "knn" not in args.skip:
        out["knn"] = knn_at_size(args.size, embedder)
    if args.corpus:
        out["import"] = import_long(args.corpus, embedder, args.docs)
    if "huge" not in args.skip:
        out["huge"] = huge_entity(args.huge, embedder)
    text = json.dumps(out, indent=1)
    print(text)
    name = "chunks" if not args.max_chunks else f"chunks-max{args.max_chunks}"
    (RESULTS / f"{name}.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
