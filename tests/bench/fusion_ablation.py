"""Fusion ablation on a BEIR collection: every ranking method, and the default with each signal turned off.

    python -m tests.bench.fusion_ablation ../shared/eval/arguana [--weak-text] [--limit-queries N]

Both branches run once per query (at the depth `limbic eval` uses); every method then ranks the
same candidates, so the table isolates the fusion. The collection is imported and embedded once
per model into the same cache `limbic eval` uses. `--weak-text` lets the text branch search only
two of each query's words (chosen at random, fixed seed): a collection where full text is weak,
to check that the default still beats the meaning branch alone there.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from dataclasses import replace
from pathlib import Path

from limbic import config
from limbic.engine.search import fusion, scoring
from limbic.engine.vectors import index, vector_index
from limbic.engine.vectors.embeddings import resolve_spec
from limbic.engine.evaluation import DEPTH, cache_path, entity_records, import_collection, load_collection, ndcg_at, recall_at
from limbic.engine.search.scoring import ScoringParams
from limbic.engine.search.search import exact_tiers, fts_terms, knn_evidence, passage_weight, rank, similarities
from limbic.engine.session import open_graph

SIGNAL_OFF = {
    "adaptive − standardise (min-max)": fusion.Signals(standardise=False),
    "adaptive − exact similarity": fusion.Signals(exact_similarity=False),
    "adaptive + confirmation (the default before)": fusion.Signals(confirmation=True),
    "adaptive, no signal (= min-max blend)": fusion.Signals(False, False, False),
}


def text_branch(graph, terms: list[str], k: int) -> list[tuple[int, float]]:
    if not terms:
        return []
    expr = " OR ".join(f'"{t}"' for t in terms)
    sql = "SELECT rowid, bm25(entity_fts, 2.0, 1.0, 1.0) AS s FROM entity_fts WHERE entity_fts MATCH ? ORDER BY s LIMIT ?"
    return [(r[0], float(r[1])) for r in graph.db.execute(sql, (expr, k))]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("collection", help="a BEIR folder: corpus.jsonl, queries.jsonl, qrels/*.tsv")
    p.add_argument("--weak-text", action="store_true")
    p.add_argument("--limit-queries", type=int, default=0)
    p.add_argument("--stats-depth", type=int, default=fusion.STATS_DEPTH, help="hits each branch is standardised over")
    p.add_argument(
        "--db", help="an imported copy of the collection whose embedding may be unfinished: only the documents "
        "with a vector take part, and only queries whose own and relevant documents are among them",
    )
    args = p.parse_args(argv)
    fusion.STATS_DEPTH = args.stats_depth
    folder = Path(args.collection)
    qrels = sorted((folder / "qrels").glob("*.tsv"))[0]
    coll = load_collection(folder / "corpus.jsonl", folder / "queries.jsonl", qrels)
    model_dir = config.model_dir_override()
    if args.db:
        opened = open_graph(Path(args.db), model_dir, readonly=True)
    else:
        db_path = cache_path(config.cache_dir() / "eval", folder / "corpus.jsonl", resolve_spec(model_dir).identity())
        db_path.parent.mkdir(parents=True, exist_ok=True)
        opened = open_graph(db_path, model_dir)
    graph = opened.graph
    try:
        if not args.db:
            import_collection(graph, coll)
        _, name_to_doc = entity_records(coll.docs)
        id_to_doc = {eid: name_to_doc.get(name, name) for eid, name in graph.db.execute("SELECT id, name FROM entities")}
        embedded = set(vector_index.mirror_for(graph.db, index.VEC_TABLE).ids()) if args.db else None
        if embedded is not None:
            vector_index.mirror_for(graph.db, index.VEC_TABLE).refresh(graph.db)
            embedded = set(vector_index.mirror_for(graph.db, index.VEC_TABLE).ids())
            have = {id_to_doc[i] for i in embedded}
            coll.queries = {q: t for q, t in coll.queries.items() if q in have and set(coll.qrels[q]) <= have}
            coll.docs = [d for d in coll.docs if d[0] in have]
        params = ScoringParams()
        k = params.expansion_factor * (DEPTH + 1)
        rng = random.Random(5)
        methods = ["bm25", "knn", "rrf", "seed", "blend", "adaptive", *SIGNAL_OFF, "adaptive + floor"]
        runs: dict[str, list[tuple[float, float]]] = {m: [] for m in methods}
        weights = []
        items = list(coll.queries.items())[: args.limit_queries or None]
        for n, (qid, text) in enumerate(items, 1):
            terms = fts_terms(text)
            if args.weak_text:
                terms = rng.sample(terms, min(2, len(terms)))
            vector = graph.embedder.encode_query(text)
            weight = passage_weight(graph, text)
            knn, meaning = knn_evidence(graph, vector, k, weight)
            fts = text_branch(graph, terms, k if embedded is None else 4 * k)
            if embedded is not None:
                fts = [h for h in fts if h[0] in embedded][:k]
            cands = scoring.reciprocal_rank_fusion(knn, fts, params.rrf_k)
            missing = [c.entity_id for c in cands if c.distance is None]
            sims = similarities(graph, vector, missing, weight)
            for c in cands:
                c.similarity = sims.get(c.entity_id) if c.distance is None else 1.0 - c.distance
            mode = "hybrid" if fts else "semantic"
            lists = {"bm25": [i for i, _ in fts], "knn": [i for i, _ in knn], "rrf": [c.entity_id for c in cands]}
            for name, base in (("seed", scoring.BASE_SEED), ("blend", scoring.BASE_BLEND), ("adaptive", scoring.BASE_ADAPTIVE)):
                ranked = rank(graph, cands, mode, replace(params, base_relevance=base), {}, meaning)
                lists[name] = [r.entity_id for r in ranked]
            for name, sig in SIGNAL_OFF.items():
                bases = fusion.adaptive_base_relevance(cands, mode, meaning, sig)
                lists[name] = [c.entity_id for _, c in sorted(zip(bases, cands), key=lambda t: -t[0])]
            lists["adaptive + floor"] = [] if scoring.below_floor(cands, meaning) else lists["adaptive"]
            if fts:
                by_knn = sorted((c for c in cands if c.knn_rank), key=lambda c: c.knn_rank)
                by_fts = sorted((c for c in cands if c.fts_rank), key=lambda c: c.fts_rank)
                weights.append(fusion.confirmation(cands, by_knn, by_fts, meaning))
            rels = coll.qrels[qid]
            for m, ids in lists.items():
                docs = [d for d in (id_to_doc[i] for i in ids) if d != qid][:DEPTH]
                runs[m].append((ndcg_at(docs, rels), recall_at(docs, rels)))
            if n % 100 == 0:
                print(f"{n}/{len(items)}", file=sys.stderr, flush=True)
    finally:
        opened.close()
    label = folder.name + (" (weak text)" if args.weak_text else "")
    print(f"{label}: {len(coll.docs)} documents, {len(items)} queries, model {resolve_spec(model_dir).name}")
    print(f"| method | nDCG@10 | Recall@100 |\n|---|---|---|")
    for m, vals in runs.items():
        print(f"| {m} | {statistics.fmean(v[0] for v in vals):.4f} | {statistics.fmean(v[1] for v in vals):.4f} |")
    if weights:
        q = statistics.quantiles(weights, n=4)
        print(f"text weight (confirmation): quartiles {q[0]:.2f} / {q[1]:.2f} / {q[2]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
