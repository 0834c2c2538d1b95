"""The meaning vote weighed by how much each text carries: nDCG@10 of the default ranking with and without.

    PYTHONPATH=app:. nice python -m tests.bench.carry_eval --cache DIR [--carry 1.0] NAME=FOLDER [NAME=FOLDER ...]

Each FOLDER is a BEIR collection, imported and embedded once into DIR/NAME.db (the cache of
``tests.bench.fusion_loco`` and ``tests.bench.time_eval``). Every query is searched with the default
ranking and with ``ScoringParams.carry`` set; printed per collection: nDCG@10 of both and the change.
"""

from __future__ import annotations

import argparse
import statistics
from dataclasses import replace
from pathlib import Path

from limbic import config
from limbic.engine.evaluation import DEPTH, entity_records, import_collection, load_collection, ndcg_at
from limbic.engine.search.query import Query
from limbic.engine.search.scoring import ScoringParams
from limbic.engine.search.search import search
from limbic.engine.session import open_graph


def run(name: str, folder: Path, cache: Path, carries: list[float]) -> dict[str, float]:
    """Mean nDCG@10 of the default and of each ``carry`` on one collection."""
    coll = load_collection(folder / "corpus.jsonl", folder / "queries.jsonl", next((folder / "qrels").glob("*.tsv")))
    opened = open_graph(cache / f"{name}.db", config.model_dir_override())
    graph = opened.graph
    try:
        import_collection(graph, coll, progress=lambda *a: None)
        _, name_to_doc = entity_records(coll.docs)
        to_doc = {eid: name_to_doc.get(n, n) for eid, n in graph.db.execute("SELECT id, name FROM entities")}
        arms = {"default": ScoringParams(), **{f"carry {c}": replace(ScoringParams(), carry=c) for c in carries}}
        scores: dict[str, list[float]] = {arm: [] for arm in arms}
        for qid, text in coll.queries.items():
            q = Query.read(text)
            for arm, params in arms.items():
                hits = search(graph, q, DEPTH + 1, record=False, params=params).results
                docs = [d for d in (to_doc[r.entity_id] for r in hits) if d != qid][:DEPTH]
                scores[arm].append(ndcg_at(docs, coll.qrels[qid]))
        return {arm: statistics.fmean(v) for arm, v in scores.items()}
    finally:
        opened.close()


def main(argv: list[str] | None = None) -> int:
    """Print nDCG@10 with and without the carry on each collection."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cache", required=True, type=Path)
    p.add_argument("--carry", type=float, action="append")
    p.add_argument("collections", nargs="+", metavar="NAME=FOLDER")
    args = p.parse_args(argv)
    for item in args.collections:
        name, folder = item.split("=", 1)
        r = run(name, Path(folder), args.cache, args.carry or [1.0])
        print(f"{name}: " + "; ".join(f"{arm} {v:.4f} ({v - r['default']:+.4f})" for arm, v in r.items()), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
