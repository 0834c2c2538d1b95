"""The meaning vote weighed by how much each text carries: nDCG@10 of the default ranking with and without.

    PYTHONPATH=app:. nice python -m tests.bench.carry_eval --cache DIR [--arm MEASURE:CARRY ...] NAME=FOLDER [...]

Each FOLDER is a BEIR collection, imported and embedded once into DIR/NAME.db (the cache of
``tests.bench.fusion_loco`` and ``tests.bench.time_eval``); the texts the model encodes for its
queries are kept in DIR/NAME.carry-qvec.npz, so a second run only ranks. Every query is searched
with the default ranking less the carry ("off") and with each arm: MEASURE is ``specific`` (Σ IDF of the text's distinct
words, what search uses), ``specific-unshared`` (the same, only for candidates the text branch did
not find), ``specific-by-query`` (the exponent scaled by how short the query is, ``passage_weight``) or ``length`` (characters of name and observations, the first measure tried), CARRY the
exponent. Printed per collection: nDCG@10 of each arm and its change from "off", and the
failure mode the carry is for: how many of the top 10 are, on average, texts of at most
``SHORT_WORDS`` words that are not relevant ("Thanks, John. I definitely will!").
"""

from __future__ import annotations

import argparse
import statistics
from dataclasses import replace
from pathlib import Path

import numpy as np

from limbic import config
from limbic.engine.evaluation import DEPTH, entity_records, import_collection, load_collection, ndcg_at
from limbic.engine.search import carry as carry_module
from limbic.engine.search.query import Query
from limbic.engine.search.scoring import ScoringParams
from limbic.engine.search.search import search
from limbic.engine.session import open_graph

_specific = carry_module.measure
# What "a short generic turn" means for the failure count (a diagnostic only: search fixes no word count).
SHORT_WORDS = 10


def _length(db, candidates, rows) -> None:
    """The first measure tried: characters of the name and observations."""
    ids = [c.entity_id for c in candidates]
    marks = ",".join("?" * len(ids))
    sizes = dict(db.execute(
        f"SELECT e.id, length(e.name) + coalesce((SELECT sum(length(o.content)) FROM observations o "
        f"WHERE o.entity_id = e.id), 0) FROM entities e WHERE e.id IN ({marks})", ids))
    for c in candidates:
        c.size = sizes.get(c.entity_id)


def cached_encoder(graph, file: Path):
    """The embedder's query encoding, remembered in ``file`` by text."""
    known: dict[str, np.ndarray] = {}
    if file.exists():
        with np.load(file, allow_pickle=True) as data:
            known = {str(t): v for t, v in zip(data["texts"], data["vectors"])}
    encode = graph.embedder.encode_query

    def cached(text: str) -> np.ndarray:
        if text not in known:
            known[text] = encode(text)
        return known[text]

    def save() -> None:
        texts = list(known)
        np.savez(file, texts=np.array(texts, dtype=object), vectors=np.stack([known[t] for t in texts]))

    graph.embedder.encode_query = cached
    return save


def run(name: str, folder: Path, cache: Path, arms: list[str], limit: int | None = None) -> dict[str, float]:
    """Mean nDCG@10 without the carry and with each arm on one collection."""
    coll = load_collection(folder / "corpus.jsonl", folder / "queries.jsonl", next((folder / "qrels").glob("*.tsv")))
    opened = open_graph(cache / f"{name}.db", config.model_dir_override())
    graph = opened.graph
    try:
        import_collection(graph, coll, progress=lambda *a: None)
        save = cached_encoder(graph, cache / f"{name}.carry-qvec.npz")
        _, name_to_doc = entity_records(coll.docs)
        to_doc = {eid: name_to_doc.get(n, n) for eid, n in graph.db.execute("SELECT id, name FROM entities")}
        off = replace(ScoringParams(), carry=0.0)  # the baseline: the default ranking without the carry
        settings: dict[str, tuple[ScoringParams, object]] = {"off": (off, _specific)}
        for arm in arms:
            measure, exponent = arm.rsplit(":", 1)
            params = replace(off, carry=float(exponent), carry_unshared="-unshared" in measure,
                             carry_by_query="-by-query" in measure)
            settings[arm] = (params, _length if measure.startswith("length") else _specific)
        scores: dict[str, list[float]] = {arm: [] for arm in settings}
        short_docs = {doc for doc, _, text in coll.docs if len(text.split()) <= SHORT_WORDS}
        shorts: dict[str, list[int]] = {arm: [] for arm in settings}
        qids = list(coll.queries)[:limit] if limit else list(coll.queries)
        for qid in qids:
            q = Query.read(coll.queries[qid])
            for arm, (params, measure) in settings.items():
                carry_module.measure = measure  # type: ignore[assignment]
                hits = search(graph, q, DEPTH + 1, record=False, params=params).results
                docs = [d for d in (to_doc[r.entity_id] for r in hits) if d != qid][:DEPTH]
                scores[arm].append(ndcg_at(docs, coll.qrels[qid]))
                shorts[arm].append(sum(d in short_docs and d not in coll.qrels[qid] for d in docs[:10]))
        save()
        out = {arm: statistics.fmean(v) for arm, v in scores.items()}
        out.update({f"{arm} short": statistics.fmean(v) for arm, v in shorts.items()})
        return out
    finally:
        carry_module.measure = _specific  # type: ignore[assignment]
        opened.close()


def main(argv: list[str] | None = None) -> int:
    """Print nDCG@10 with and without each carry on each collection."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cache", required=True, type=Path)
    p.add_argument("--arm", action="append", help="MEASURE:CARRY, e.g. specific:1.0")
    p.add_argument("--limit", type=int, help="only the first N queries of each collection")
    p.add_argument("collections", nargs="+", metavar="NAME=FOLDER")
    args = p.parse_args(argv)
    for item in args.collections:
        name, folder = item.split("=", 1)
        r = run(name, Path(folder), args.cache, args.arm or ["specific:1.0"], args.limit)
        arms = [a for a in r if not a.endswith(" short")]
        print(f"{name}: " + "; ".join(
            f"{arm} {r[arm]:.4f} ({r[arm] - r['off']:+.4f}, short wrong {r[arm + ' short']:.2f})" for arm in arms), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
