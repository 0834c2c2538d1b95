"""Retrieval evaluation on a BEIR collection: nDCG@10 and Recall@100 for each ranking method."""

from __future__ import annotations

import csv
import hashlib
import json
import math
import statistics
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from limbic.engine.search import scoring
from limbic.engine.graph.graph import Graph
from limbic.engine.formats.jsonl import EntityRecord, import_records
from limbic.engine.search.query import Query
from limbic.engine.search.scoring import ScoringParams
from limbic.engine.search.search import fts_branch, knn_branch, passage_weight, search

DEPTH = 100


@dataclass
class Collection:
    docs: list[tuple[str, str, str]]  # (doc id, title, text)
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]


def load_collection(corpus: Path, queries: Path, qrels: Path) -> Collection:
    """Read BEIR's corpus.jsonl, queries.jsonl and a qrels TSV; only judged queries are kept."""
    docs = []
    with open(corpus, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                d = json.loads(line)
                docs.append((str(d["_id"]), (d.get("title") or "").strip(), (d.get("text") or "").strip()))
    judged: dict[str, dict[str, int]] = {}
    with open(qrels, encoding="utf-8") as fh:
        for row in csv.reader(fh, delimiter="\t"):
            if len(row) < 3 or row[0] == "query-id":
                continue
            judged.setdefault(row[0], {})[row[1]] = int(row[2])
    qs = {}
    with open(queries, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                q = json.loads(line)
                if str(q["_id"]) in judged:
                    qs[str(q["_id"])] = q["text"]
    return Collection(docs, qs, judged)


def _stored(name: str) -> str:
    """The name as the graph keeps it (trimmed, composed), so a stored name maps back to its document."""
    return unicodedata.normalize("NFC", name.strip())


def entity_records(docs: list[tuple[str, str, str]]) -> tuple[list[EntityRecord], dict[str, str]]:
    """Documents as entities: name = title (the id prefixed where titles collide), type Paper."""
    seen: dict[str, int] = {}
    for _, title, _ in docs:
        seen[title] = seen.get(title, 0) + 1
    records, name_to_doc = [], {}
    for i, (doc_id, title, text) in enumerate(docs, start=1):
        if not title:
            name = doc_id  # "<id>: " would be stored trimmed, and no longer map back to its document
        elif seen[title] == 1 and len(title) <= 512:
            name = title
        else:
            name = f"{doc_id}: {title}"[:512]
        records.append(EntityRecord(i, name, "Paper", [text] if text else []))
        name_to_doc[_stored(name)] = doc_id
    return records, name_to_doc


def ndcg_at(ranked: list[str], rels: dict[str, int], k: int = 10) -> float:
    dcg = sum((2 ** rels.get(d, 0) - 1) / math.log2(i + 2) for i, d in enumerate(ranked[:k]))
    ideal = sorted(rels.values(), reverse=True)[:k]
    idcg = sum((2**r - 1) / math.log2(i + 2) for i, r in enumerate(ideal))
    return dcg / idcg if idcg > 0 else 0.0


def recall_at(ranked: list[str], rels: dict[str, int], k: int = DEPTH) -> float:
    relevant = {d for d, r in rels.items() if r > 0}
    return len(relevant & set(ranked[:k])) / len(relevant) if relevant else 0.0


METHODS = ("bm25", "knn", "rrf", "seed_hybrid", "blend_hybrid", "hybrid")


def evaluate(
    graph: Graph,
    coll: Collection,
    params: ScoringParams | None = None,
    progress: Callable[[int, int], None] | None = None,
    now: datetime | None = None,
) -> dict[str, dict[str, float]]:
    """Mean nDCG@10 and Recall@100 of each branch alone, plain RRF, the seed's hybrid, the fixed blend and the default.

    A hit whose document id is the query's own id is dropped before scoring, as BEIR does
    (ArguAna's queries are also documents of its corpus). ``now``: the time the questions are asked
    ("last week" counts from it; the clock's when not given), so a run can be repeated.
    """
    params = params or ScoringParams()
    seed = replace(params, base_relevance=scoring.BASE_SEED)
    blend = replace(params, base_relevance=scoring.BASE_BLEND)
    names = dict(graph.db.execute("SELECT id, name FROM entities"))
    _, name_to_doc = entity_records(coll.docs)
    id_to_doc = {eid: name_to_doc.get(name, name) for eid, name in names.items()}
    k = params.expansion_factor * DEPTH
    runs: dict[str, list[tuple[float, float]]] = {m: [] for m in METHODS}
    for n, (qid, text) in enumerate(coll.queries.items(), start=1):
        rels = coll.qrels[qid]
        query = Query.read(text, now)  # read once for the branches and the three rankings
        fts = fts_branch(graph, query, k)
        knn = (knn_branch(graph, graph.embedder.encode_query(text), k, passage_weight(graph, query))
               if graph.vectors_ready else [])
        fused = [c.entity_id for c in scoring.reciprocal_rank_fusion(knn, fts, params.rrf_k)]
        lists = {
            "bm25": fts,
            "knn": [i for i, _ in knn],
            "rrf": fused,
            "seed_hybrid": _ranked(graph, query, seed),
            "blend_hybrid": _ranked(graph, query, blend),
            "hybrid": _ranked(graph, query, params),
        }
        for method, ids in lists.items():
            docs = [d for d in (id_to_doc[i] for i in ids) if d != qid][:DEPTH]
            runs[method].append((ndcg_at(docs, rels), recall_at(docs, rels)))
        if progress:
            progress(n, len(coll.queries))
    return {
        m: {"ndcg@10": statistics.fmean(v[0] for v in vals), "recall@100": statistics.fmean(v[1] for v in vals)}
        for m, vals in runs.items()
        if vals
    }


def _ranked(graph: Graph, query: Query, params: ScoringParams) -> list[int]:
    # One more than the depth: the query's own document may be among the hits and is dropped.
    return [r.entity_id for r in search(graph, query, DEPTH + 1, record=False, params=params).results]


def cache_path(folder: Path, corpus: Path, model_identity: str | None) -> Path:
    """Where the imported and embedded collection is kept for this corpus file and this model."""
    st = corpus.stat()
    key = f"{corpus.resolve()}|{st.st_size}|{int(st.st_mtime)}|{model_identity or 'no-model'}"
    digest = hashlib.blake2b(key.encode("utf-8"), digest_size=8).hexdigest()
    stem = "".join(ch if ch.isalnum() else "-" for ch in corpus.resolve().parent.name)[:40]
    return folder / f"{stem}-{digest}.db"


def import_collection(graph: Graph, coll: Collection, progress=None) -> None:
    """Load the corpus into a graph (embedding it); skipped when it is already there."""
    records, _ = entity_records(coll.docs)
    if graph.counts()["entities"] != len(records):
        import_records(graph, records, [], progress=progress)
    # A run stopped while embedding leaves documents without a vector; an import only embeds what
    # it changed, so they are embedded here, or every later run would rank without them.
    if graph.pending_embeddings():
        graph.embed_pending(progress=(lambda d, t: progress("embed", d, t)) if progress else None)
