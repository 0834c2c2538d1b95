"""Questions that name a time, before and after time is understood: nDCG@10 of the default ranking per collection.

    PYTHONPATH=app:. nice python -m tests.bench.time_eval --cache DIR NAME=FOLDER [NAME=FOLDER ...]

Each FOLDER is a BEIR collection; it is imported and embedded once into DIR/NAME.db (the same cache
as ``tests.bench.fusion_loco``). For every query
the default search runs as it did before time was read (the query's time set to None: the whole text
encoded, nothing matched against when things happened, which tests/engine/test_query_read_once.py
holds to the earlier answers) and as it does now; a query naming no time is answered the same both
ways, so only those naming one are searched. Printed per collection: how many queries name a time,
nDCG@10 of those before and after, the change that makes over all queries, and the variants measured against
the default (``--variants``): what happened then matched (recency lifted) but not ranked first.
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


def _qrels(folder: Path) -> Path:
    return next((folder / "qrels").glob("*.tsv"))


def run(name: str, folder: Path, cache: Path, variants: bool) -> dict[str, float]:
    """nDCG@10 of the default ranking before and after on one collection (and the variants)."""
    coll = load_collection(folder / "corpus.jsonl", folder / "queries.jsonl", _qrels(folder))
    opened = open_graph(cache / f"{name}.db", config.model_dir_override())
    graph = opened.graph
    try:
        import_collection(graph, coll, progress=lambda *a: None)
        names = dict(graph.db.execute("SELECT id, name FROM entities"))
        _, name_to_doc = entity_records(coll.docs)
        to_doc = {eid: name_to_doc.get(n, n) for eid, n in names.items()}

        def score(query: Query, qid: str, params: ScoringParams) -> float:
            hits = search(graph, query, DEPTH + 1, record=False, params=params).results
            docs = [d for d in (to_doc[r.entity_id] for r in hits) if d != qid][:DEPTH]
            return ndcg_at(docs, coll.qrels[qid])

        default = ScoringParams()
        later = {"after": default}
        if variants:
            later["no_first"] = replace(default, time_first=False)  # matched, but not ranked first
        arms: dict[str, list[float]] = {"before": [], **{arm: [] for arm in later}}
        for qid, text in coll.queries.items():
            q = Query.read(text)
            if q.time is None:
                continue  # answered the same both ways
            arms["before"].append(score(replace(q, time=None), qid, default))
            for arm, params in later.items():
                arms[arm].append(score(q, qid, params))
        timed = len(arms["before"])
        out = {"queries": len(coll.queries), "timed": timed}
        for arm, values in arms.items():
            out[arm] = statistics.fmean(values) if values else float("nan")
            # Over all queries the others are equal: the change is the timed ones' change, diluted.
            out[arm + "_all_delta"] = (sum(values) - sum(arms["before"])) / len(coll.queries)
        return out
    finally:
        opened.close()


def main(argv: list[str] | None = None) -> int:
    """Print before/after nDCG@10 of the default ranking on each collection."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cache", required=True, type=Path)
    p.add_argument("--variants", action="store_true")
    p.add_argument("collections", nargs="+", metavar="NAME=FOLDER")
    args = p.parse_args(argv)
    args.cache.mkdir(parents=True, exist_ok=True)
    for item in args.collections:
        name, folder = item.split("=", 1)
        r = run(name, Path(folder), args.cache, args.variants)
        arms = [a for a in ("after", "no_first") if a in r]
        print(f"{name}: {r['queries']} queries, {r['timed']} name a time; nDCG@10 of those before {r['before']:.4f}, "
              + "; ".join(f"{a} {r[a]:.4f} (change over all queries {r[a + '_all_delta']:+.4f})" for a in arms),
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
