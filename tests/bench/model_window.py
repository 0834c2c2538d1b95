"""Window and model comparison on a subset of a BEIR collection: quality against indexing time.

Makes a seeded subset (N judged queries; their relevant documents plus random others up to D
documents; for ArguAna ``--drop-query-ids`` leaves the queries' own texts out of the corpus, as BEIR
scores it), then for each model imports it with the real model (timed, wall and CPU) and runs
``limbic.engine.evaluation``.
A model is a folder, a model name, or ``NAME@TOKENS`` for the default model with another window.

    .venv/bin/python -m tests.bench.model_window ../shared/eval/scifact-train \\
        multilingual-e5-small@512 multilingual-e5-small@256 all-MiniLM-L6-v2
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import tempfile
import time
from pathlib import Path

from limbic.engine.vectors import embeddings
from limbic.engine.evaluation import evaluate, import_collection, load_collection
from limbic.engine.graph.graph import Graph


def make_subset(src: Path, dst: Path, queries: int, docs: int, drop_query_ids: bool, seed: int = 7) -> Path:
    qrels_file = next((src / "qrels").glob("*.tsv"))
    qrels: dict[str, dict[str, str]] = {}
    with open(qrels_file, encoding="utf-8") as fh:
        for row in csv.reader(fh, delimiter="\t"):
            if len(row) >= 3 and row[0] != "query-id":
                qrels.setdefault(row[0], {})[row[1]] = row[2]
    rng = random.Random(seed)
    judged = [json.loads(line) for line in open(src / "queries.jsonl", encoding="utf-8")]
    judged = [q for q in judged if q["_id"] in qrels]
    rng.shuffle(judged)
    chosen = judged[:queries]
    qids = {q["_id"] for q in chosen}
    relevant = {d for q in chosen for d in qrels[q["_id"]]}
    corpus = [json.loads(line) for line in open(src / "corpus.jsonl", encoding="utf-8")]
    if drop_query_ids:  # ArguAna: a query's own text is in the corpus and is never its answer
        corpus = [d for d in corpus if d["_id"] not in qids]
    others = [d for d in corpus if d["_id"] not in relevant]
    rng.shuffle(others)
    kept = [d for d in corpus if d["_id"] in relevant] + others[: max(0, docs - len(relevant))]
    (dst / "qrels").mkdir(parents=True, exist_ok=True)
    (dst / "corpus.jsonl").write_text("".join(json.dumps(d) + "\n" for d in kept), encoding="utf-8")
    (dst / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in chosen), encoding="utf-8")
    rows = ["query-id\tcorpus-id\tscore"] + [f"{q['_id']}\t{d}\t{s}" for q in chosen for d, s in qrels[q["_id"]].items()]
    (dst / "qrels" / "test.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return dst


def spec_for(choice: str) -> embeddings.ModelSpec:
    name, _, tokens = choice.partition("@")
    spec = embeddings.resolve_spec(Path(name))
    if tokens:
        spec = embeddings.ModelSpec(**{**spec.__dict__, "max_tokens": int(tokens)})
    return spec


def run(subset: Path, choice: str) -> dict:
    from limbic.engine.store.db import Database

    coll = load_collection(subset / "corpus.jsonl", subset / "queries.jsonl", subset / "qrels" / "test.tsv")
    embedder = embeddings.Embedder(spec_for(choice))
    with tempfile.TemporaryDirectory() as tmp:
        graph = Graph(Database(Path(tmp) / "eval.db"), embedder)
        try:
            t0, c0 = time.perf_counter(), time.process_time()
            import_collection(graph, coll)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            results = evaluate(graph, coll)
        finally:
            graph.db.close()
    return {
        "model": choice, "docs": len(coll.docs), "queries": len(coll.queries),
        "import_wall_s": round(wall, 1), "import_cpu_s": round(cpu, 1),
        **{m: {"ndcg@10": round(v["ndcg@10"], 4), "recall@100": round(v["recall@100"], 4)} for m, v in results.items()},
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench.model_window", description=__doc__.splitlines()[0])
    p.add_argument("collection", type=Path, help="a BEIR folder (corpus.jsonl, queries.jsonl, qrels/*.tsv)")
    p.add_argument("models", nargs="+")
    p.add_argument("--queries", type=int, default=300)
    p.add_argument("--docs", type=int, default=2000)
    p.add_argument("--drop-query-ids", action="store_true", help="leave the queries' own texts out (ArguAna)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        subset = make_subset(args.collection, Path(tmp), args.queries, args.docs, args.drop_query_ids)
        for choice in args.models:
            print(json.dumps(run(subset, choice)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
