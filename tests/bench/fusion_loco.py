"""Fusion chosen by leave-one-collection-out: every ranking on every collection, then the choice.

    PYTHONPATH=app:. nice python -m tests.bench.fusion_loco --cache DIR [--reuse] NAME=FOLDER [NAME=FOLDER ...]

Each FOLDER is a BEIR collection (corpus.jsonl, queries.jsonl, qrels/*.tsv). Each is imported and
embedded once into DIR/NAME.db and its queries encoded once into DIR/NAME.carry-qvec.npz (by text,
shared with ``tests.bench.carry_eval``); later runs only rank. Both branches run once per query with
the engine's own code (the text branch as search runs it, stems included); every method then ranks
the same candidates, so the tables isolate the fusion. A question that names a time is answered as
search answers it: the model encodes the rest of it, and every method's list has the entities dated
then first (friendsqa-dated, where every question names one, measures the rules under that order).

Printed: one table per collection (BM25, KNN, plain RRF, blend, the fusion as it was, and each
candidate rule, equal votes with the meaning vote carried by query among them), then for each
collection the rule the *other* collections choose (best mean nDCG@10 over them) and what it scores
on the one left out. Each collection's means are kept in
DIR/NAME.loco.json; ``--reuse`` takes them from there, so collections can be run apart and chosen among together.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from limbic import config
from limbic.engine.search import carry, fusion, scoring
from limbic.engine.search.flat_terms import text_rows
from limbic.engine.text import stemming
from limbic.engine.vectors import index, vector_index
from limbic.engine.evaluation import DEPTH, entity_records, import_collection, load_collection, ndcg_at, recall_at
from limbic.engine.search import when
from limbic.engine.search.query import Query
from limbic.engine.search.search import fts_branch_scored, fts_terms, knn_evidence, passage_weight, similarities
from limbic.engine.session import open_graph
from limbic.engine.text.stopwords import BY_LANGUAGE
from tests.bench.carry_eval import cached_encoder

K = scoring.EXPANSION_FACTOR * (DEPTH + 1)
# The carry exponent of the "carry by query" rule (the one measured by ``tests.bench.carry_eval``).
CARRY = 0.5


LANGUAGE_PROBE = True
_probes: dict[str, np.ndarray] = {}


def language_shifted(graph, text: str, vector: np.ndarray) -> np.ndarray:
    """The query vector less that of its language's common words alone (what says "Spanish", not what is asked)."""
    lang = stemming.language(stemming.words(text))
    if lang not in _probes:
        words = " ".join(sorted(BY_LANGUAGE[lang]))
        _probes[lang] = graph.embedder.encode_query(words)
    q = vector / np.linalg.norm(vector)
    return q - _probes[lang]


def _order(cands: list[scoring.Candidate], bases: list[float]) -> list[int]:
    return [c.entity_id for _, c in sorted(zip(bases, cands), key=lambda t: -t[0])]


def _feedback(graph, vector: np.ndarray, cands: list[scoring.Candidate], first: list[int], depth: int) -> list[scoring.Candidate]:
    """The candidates with their similarity to the query moved towards its fused top ``depth`` (pseudo-relevance feedback)."""
    mirror = vector_index.mirror_for(graph.db, index.VEC_TABLE)
    where = mirror._where
    top = [mirror._mat[where[i]] for i in first[:depth] if i in where]
    if not top:
        return cands
    q = vector / np.linalg.norm(vector)
    q2 = q + np.mean([t / np.linalg.norm(t) for t in top], axis=0)
    sims = similarities(graph, q2, [c.entity_id for c in cands])
    out = []
    for c in cands:
        s = sims.get(c.entity_id)
        out.append(scoring.Candidate(c.entity_id, c.rrf_score, None if c.distance is None or s is None else 1.0 - s,
                                     c.knn_rank, c.fts_rank, c.bm25, s))
    return out


def unstemmed_text(graph, query: str, k: int) -> list[tuple[int, float]]:
    """The text branch as it was before stems: the words as written, in the columns that hold them."""
    terms = fts_terms(query)
    if not terms:
        return []
    parts = [f'"{t}"' for t in terms]
    if query and query[-1].isalnum():
        parts.append(f'"{terms[-1]}"*')
    expr = "{name entity_type obs_text} : (" + " OR ".join(parts) + ")"
    sql = "SELECT rowid, bm25(entity_fts, 2.0, 1.0, 1.0, 0.0, 0.0) AS s FROM entity_fts WHERE entity_fts MATCH ? ORDER BY s LIMIT ?"
    return [(r[0], float(r[1])) for r in graph.db.execute(sql, (expr, k))]


def candidates(graph, vector, knn, fts, weight: float = 1.0) -> list[scoring.Candidate]:
    cands = scoring.reciprocal_rank_fusion(knn, fts, scoring.RRF_K)
    missing = [c.entity_id for c in cands if c.distance is None]
    sims = similarities(graph, vector, missing, weight) if missing else {}
    for c in cands:
        c.similarity = sims.get(c.entity_id) if c.distance is None else 1.0 - c.distance
    return cands


def _shared_pool(cands: list[scoring.Candidate]) -> list[float]:
    """Both branches standardised over the same candidates (each's best left out of its spread), then summed."""
    sims = [c.similarity for c in cands]
    if any(s is None for s in sims) or len(cands) < 4:
        return [c.rrf_score for c in cands]
    texts = [(-c.bm25 if c.bm25 is not None else None) for c in cands]
    known = [t for t in texts if t is not None]
    floor = min(known) if known else 0.0
    texts = [floor if t is None else t for t in texts]

    def z(values):
        rest = sorted(values, reverse=True)[1:]
        mean = sum(rest) / len(rest)
        std = (sum((v - mean) ** 2 for v in rest) / len(rest)) ** 0.5 or 1.0
        return [min(fusion.Z_CAP, (v - mean) / std) for v in values]

    return [a + b for a, b in zip(z(sims), z(texts) if known else [0.0] * len(cands))]


def _rank_committee(*scorings: list[float]) -> list[float]:
    """Each fusion's reciprocal ranks summed (RRF of rankings, k = 60): a candidate both put high leads."""
    total = [0.0] * len(scorings[0])
    for scores in scorings:
        for rank, i in enumerate(sorted(range(len(scores)), key=lambda j: -scores[j]), 1):
            total[i] += 1.0 / (60 + rank)
    return total


def rules(graph, vector, cands, meaning, weight: float = 1.0) -> dict[str, list[int]]:
    """Every candidate fusion rule's ranking of one query's candidates (``weight``: ``passage_weight``)."""
    mode = "hybrid" if any(c.bm25 is not None for c in cands) else "semantic"
    out = {
        "stems + confirmation": _order(cands, fusion.adaptive_base_relevance(cands, mode, meaning, fusion.Signals(confirmation=True))),
        "z-sum, no confirmation": _order(cands, fusion.adaptive_base_relevance(cands, mode, meaning, fusion.Signals(confirmation=False))),
    }
    # The same, the meaning vote weighed by what each text carries, as far as the query is short (as search does).
    carry.measure(graph.db, cands, text_rows(graph.db))
    out[f"z-sum + carry by query {CARRY}"] = _order(cands, fusion.adaptive_base_relevance(
        cands, mode, meaning, fusion.Signals(confirmation=False), carry=CARRY * weight))
    out["z over the shared pool"] = _order(cands, _shared_pool(cands))
    minmax = fusion.adaptive_base_relevance(cands, mode, meaning, fusion.Signals(standardise=False))
    out["min-max votes"] = _order(cands, minmax)
    z = fusion.adaptive_base_relevance(cands, mode, meaning, fusion.Signals())
    blend = scoring.blended_base_relevance(cands, mode)
    out["committee: z-sum and blend, by rank"] = _order(cands, _rank_committee(z, blend))
    for depth in (3,):
        fb = _feedback(graph, vector, cands, out["z-sum, no confirmation"], depth)
        out[f"z-sum + feedback top {depth}"] = _order(fb, fusion.adaptive_base_relevance(fb, mode, meaning, fusion.Signals(confirmation=False)))
    return out


def run_collection(name: str, folder: Path, cache: Path) -> dict[str, list[float]]:
    qrels = sorted((folder / "qrels").glob("*.tsv"))[0]
    coll = load_collection(folder / "corpus.jsonl", folder / "queries.jsonl", qrels)
    opened = open_graph(cache / f"{name}.db", config.model_dir_override())
    graph = opened.graph
    try:
        import_collection(graph, coll, progress=lambda *a: None)
        _, name_to_doc = entity_records(coll.docs)
        id_to_doc = {eid: name_to_doc.get(n, n) for eid, n in graph.db.execute("SELECT id, name FROM entities")}
        qids = list(coll.queries)
        save = cached_encoder(graph, cache / f"{name}.carry-qvec.npz")
        runs: dict[str, list[float]] = {}
        for n, qid in enumerate(qids):
            q = Query.read(coll.queries[qid])
            text, vector = q.text, graph.embedder.encode_query(q.capped)  # as search encodes it
            fts = fts_branch_scored(graph, q, K)
            weight = passage_weight(graph, text)  # as search weighs long entities' windows
            knn, meaning = knn_evidence(graph, vector, K, weight)
            cands = candidates(graph, vector, knn, fts, weight)
            raw = unstemmed_text(graph, text, K)
            before = candidates(graph, vector, knn, raw, weight)
            mode = "hybrid" if fts else "semantic"
            lists = {
                "bm25 (no stems)": [i for i, _ in raw],
                "bm25": [i for i, _ in fts],
                "knn": [i for i, _ in knn],
                "rrf (no stems)": [c.entity_id for c in before],
                "rrf": [c.entity_id for c in cands],
                "blend (no stems)": _order(before, scoring.blended_base_relevance(before, "hybrid" if raw else "semantic")),
                "blend": _order(cands, scoring.blended_base_relevance(cands, mode)),
                "default as it was (no stems)": _order(before, fusion.adaptive_base_relevance(
                    before, "hybrid" if raw else "semantic", meaning, fusion.Signals(confirmation=True))),
                **rules(graph, vector, cands, meaning, weight),
            }
            if LANGUAGE_PROBE:
                shifted = language_shifted(graph, text, vector)
                knn2, meaning2 = knn_evidence(graph, shifted, K, weight)
                cands2 = candidates(graph, shifted, knn2, fts, weight)
                lists["knn − language"] = [i for i, _ in knn2]
                lists["z-sum − language"] = _order(cands2, fusion.adaptive_base_relevance(
                    cands2, mode, meaning2, fusion.Signals(confirmation=False)))
            if q.time is not None:  # what happened then first, as search orders it
                dated = when.matching(graph.db, list({i for ids in lists.values() for i in ids}), q.time).dated
                lists = {m: sorted(ids, key=lambda i: i not in dated) for m, ids in lists.items()}
            rels = coll.qrels[qid]
            for m, ids in lists.items():
                docs = [d for d in (id_to_doc[i] for i in ids) if d != qid][:DEPTH]
                runs.setdefault(m, []).append(ndcg_at(docs, rels))
                runs.setdefault(m + " R@100", []).append(recall_at(docs, rels))
            if (n + 1) % 200 == 0:
                print(f"{name}: {n + 1}/{len(qids)}", file=sys.stderr, flush=True)
        save()
    finally:
        opened.close()
    return runs


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cache", required=True, type=Path)
    p.add_argument("--reuse", action="store_true", help="take a collection's means from DIR/NAME.loco.json when there")
    p.add_argument("collections", nargs="+", help="NAME=FOLDER")
    args = p.parse_args(argv)
    means: dict[str, dict[str, float]] = {}
    for spec in args.collections:
        name, folder = spec.split("=", 1)
        kept = args.cache / f"{name}.loco.json"
        if args.reuse and kept.exists():
            saved = json.loads(kept.read_text(encoding="utf-8"))
            runs, means[name] = {m: [0.0] * saved["queries"] for m in saved["means"]}, saved["means"]
        else:
            runs = run_collection(name, Path(folder), args.cache)
            means[name] = {m: statistics.fmean(v) for m, v in runs.items()}
            # Each collection's means are kept, so the choice can be made again with collections run apart.
            kept.write_text(json.dumps({"queries": len(runs["bm25"]), "means": means[name]}), encoding="utf-8")
        print(f"\n{name} ({len(runs['bm25'])} queries)\n| method | nDCG@10 | Recall@100 |\n|---|---|---|")
        for m in runs:
            if not m.endswith(" R@100"):
                print(f"| {m} | {means[name][m]:.4f} | {means[name][m + ' R@100']:.4f} |")
        sys.stdout.flush()
    fixed = {"bm25", "knn", "rrf", "blend"}
    rivals = [m for m in next(iter(means.values())) if not m.endswith(" R@100") and m.split(" (")[0] not in fixed]
    if len(means) > 1:
        print("\n| left out | chosen by the others | its nDCG@10 there | best single branch there | blend there |\n|---|---|---|---|---|")
        for out in means:
            others = [n for n in means if n != out]
            pick = max(rivals, key=lambda m: statistics.fmean(means[n][m] for n in others))
            best = max(means[out][m] for m in ("bm25", "bm25 (no stems)", "knn"))
            print(f"| {out} | {pick} | {means[out][pick]:.4f} | {best:.4f} | {means[out]['blend']:.4f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
