"""The six-step hybrid search: encode, retrieve (KNN + FTS5), fuse (RRF), re-rank (limbic), hydrate, record."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone

import apsw
from typing import TYPE_CHECKING

from limbic.engine.graph import signals

from limbic.engine.graph import signal_memory
from limbic.engine.search import bare, carry, crosslingual, readable, scoring, usage, when

from limbic.engine.text import stemming

from limbic.engine.vectors import index
from limbic.engine.search import spelling
from limbic.engine.search.flat_terms import text_rows
from limbic.engine.search.text_branch import (  # noqa: F401  (callers import the text branch from here)
    BM25_WEIGHTS, TextPlan, fts_match_expression, run_fts, run_text, text_plan,
)
# The reading of a query lives in query.py; these names are kept here for the callers that import them.
from limbic.engine.search.query import (  # noqa: F401
    MAX_FTS_TERMS, MAX_IDENTIFIER_TOKENS, MAX_QUERY_CHARS, MAX_QUERY_TOKENS, Query, as_query, clean_query, fts_terms,
    normalise_name, query_terms,
)
from limbic.engine.graph.graph import Graph
from limbic.engine.search.scoring import Candidate, ScoringParams

if TYPE_CHECKING:
    import numpy as np

    from limbic.engine.store.db import Database, SideReader

logger = logging.getLogger(__name__)

MODE_HYBRID = "hybrid"
MODE_SEMANTIC = "semantic"
MODE_FTS = "fts"
# What the person asks for (``search(..., branches=...)``): both branches, or one of them.
BRANCHES = ("both", "meaning", "words")

MAX_LIMIT = 10_000  # results one search returns at most: a larger limit cannot overflow SQLite's LIMIT
# From this many entities the full-text branch runs on a second connection, at the same time as
# the query is encoded and the vectors scanned (README, "How search works").
SIDE_READER_ROWS = 20_000
TIER_NAME, TIER_PHRASE, TIER_NONE = 2, 1, 0


@dataclass
class SearchResult:
    """One ranked entity with everything that explains its score."""

    entity_id: int
    name: str
    entity_type: str
    observations: list[str]
    limbic_score: float
    base_relevance: float
    importance: float
    temporal: float
    cooc_boost: float
    distance: float | None
    rrf_score: float
    branch: str  # "text", "meaning" or "both"
    knn_rank: int | None = None
    fts_rank: int | None = None
    exact: bool = False
    time_match: bool | None = None  # whether it happened in the time the query names (None: it names none)
    spelt_like: tuple[str, ...] = ()  # the near spellings of the query's words it holds ("restic" for "restik")

    @property
    def spelling_note(self) -> str | None:
        """The breakdown's line for a hit found through near spellings: "spelt like 'restic'"."""
        return "spelt like " + ", ".join(f"'{w}'" for w in self.spelt_like) if self.spelt_like else None


@dataclass
class SearchResponse:
    query: str
    mode: str
    results: list[SearchResult] = field(default_factory=list)
    terms: list[str] = field(default_factory=list)  # the query's tokens, for highlighting
    note: str | None = None
    no_match: bool = False  # nothing in the graph matches the query well enough to show
    time_label: str | None = None  # the time the query names ("June 2023"), if it names one

    def time_note(self, result: SearchResult) -> str | None:
        """The breakdown's line for a hit's time: "June 2023 ✓" when it happened then, "June 2023 ✗" when not."""
        if self.time_label is None or result.time_match is None:
            return None
        return f"{self.time_label} {'✓' if result.time_match else '✗'}"

    @property
    def no_match_sentence(self) -> str:
        """What to tell the person when nothing matched well enough."""
        return f"No good match for “{self.query.strip()}”."

    def to_json(self) -> dict:
        """The seed's output shape (SPEC §6)."""
        items = []
        for r in self.results:
            item = {
                "name": r.name,
                "entityType": r.entity_type,
                "observations": r.observations,
                "limbic_score": round(r.limbic_score, 6),
                "scoring": {
                    "importance": round(r.importance, 6),
                    "temporal_factor": round(r.temporal, 6),
                    "cooc_boost": round(r.cooc_boost, 6),
                },
                "distance": None if r.distance is None else round(r.distance, 6),
            }
            if self.mode == MODE_HYBRID:
                item["rrf_score"] = round(r.rrf_score, 6)
            note = self.time_note(r)
            if note is not None:  # only a query naming a time says so: other replies stay as they were
                item["scoring"]["time"] = note
            if r.spelt_like:  # likewise only a hit found through a near spelling
                item["scoring"]["spelling"] = r.spelling_note
            items.append(item)
        out: dict = {"mode": self.mode, "results": items}
        if self.no_match:
            out["no_good_match"] = True
        return out


def fts_branch_scored(graph: Graph, query: str | Query, k: int) -> list[tuple[int, float]]:
    """(entity id, bm25) best first for the words as typed (no near spellings); FTS5's bm25() is lower for better matches."""
    db = graph.db
    return run_fts(db, text_plan(db, as_query(query), text_rows(db), graph.vectors_ready, near=False).expr, k)


def _text_branch(db: Database, query: Query, k: int, rows: int, tiers: bool, meaning: bool) -> tuple[list[tuple[int, float]], dict[int, int], TextPlan]:
    """The full-text branch, the exact matches and its plan (``TextPlan``: whether it was left to meaning,
    every term flat, and the near spellings searched), on ``db`` (the graph's or its side reader's).

    The exact matches are looked for (``tiers``) when the text branch found something, was left
    to meaning, or is all there is (no ``meaning`` branch).
    """
    plan = text_plan(db, query, rows, meaning)
    fulltext = run_text(db, plan, k)
    exact = _exact_tiers(db, query, k) if tiers and (fulltext or plan.flat or not meaning) else {}
    return fulltext, ({**exact, **_alias_tiers(db, query)} if tiers else exact), plan


def _both_branches(graph: Graph, side: SideReader, query: Query, k: int, rows: int, weight: float):
    """Both branches at once on a large graph: the text branch on the side reader while this thread
    encodes the query, scans the vectors and looks for exact matches.

    (Splitting a long text query by id between the two threads was measured: each part pays
    BM25's statistics over the whole index again, and the median got slower.)
    """
    assert graph.embedder is not None
    plan = text_plan(graph.db, query, rows, meaning=True)
    job = side.submit(run_text, plan, k) if plan.expr is not None or plan.near_expr is not None else None
    try:
        vector = graph.embedder.encode_query(query.capped)
        semantic, meaning = knn_evidence(graph, vector, k, weight)
        tiers = _exact_tiers(graph.db, query, k)
        if job is not None and not job.done():  # still waiting: the meaning branch's candidates' signals meanwhile
            signal_memory.memory(graph.db).of(graph.db, [i for i, _ in semantic])
    except BaseException:
        if job is not None:
            side.interrupt()
            with contextlib.suppress(Exception):
                job.result()
        raise
    fulltext = job.result() if job is not None else []
    tiers = {**(tiers if fulltext or plan.flat else {}), **_alias_tiers(graph.db, query)}
    return fulltext, tiers, plan, vector, semantic, meaning


def fts_branch(graph: Graph, query: str | Query, k: int) -> list[int]:
    """Entity ids by BM25, best first."""
    return [entity_id for entity_id, _ in fts_branch_scored(graph, query, k)]


def exact_tiers(graph: Graph, query: str | Query, k: int) -> dict[int, int]:
    """Entities that hold the query exactly: as their whole name, or (for identifiers) as a phrase."""
    return _exact_tiers(graph.db, as_query(query), k)


def _exact_tiers(db: Database, query: Query, k: int) -> dict[int, int]:
    tiers: dict[int, int] = {}
    wanted = query.name_key
    if not wanted:
        return tiers
    terms = query.terms
    if query.identifier:
        phrase = stemming.RAW_COLUMNS + ' : "' + " ".join(terms) + '"'
        for (entity_id,) in db.execute("SELECT rowid FROM entity_fts WHERE entity_fts MATCH ? LIMIT ?", (phrase, k)):
            tiers[entity_id] = TIER_PHRASE
    # Names compare without case and extra spaces; the index narrows the look-up to likely rows.
    for entity_id, name in db.execute(
        "SELECT id, name FROM entities WHERE name = ? COLLATE NOCASE UNION "
        "SELECT id, name FROM entities WHERE id IN (SELECT rowid FROM entity_fts WHERE entity_fts MATCH ? LIMIT ?)",
        (query.text.strip(), "name : " + (f'"{" ".join(terms)}"' if terms else '""'), k),
    ):
        if normalise_name(name) == wanted:
            tiers[entity_id] = TIER_NAME
    return tiers


def _alias_tiers(db: Database, query: Query) -> dict[int, int]:
    """An alias names its entity as its name does ("NYC": New York City); one index probe, so always looked for."""
    if not query.name_key or not db.has_table("entity_aliases"):
        return {}
    return {entity_id: TIER_NAME for entity_id, alias in db.execute(
        "SELECT entity_id, alias FROM entity_aliases WHERE alias = ? COLLATE NOCASE", (query.text.strip(),))
        if normalise_name(alias) == query.name_key}


def passage_weight(graph: Graph, query: str | Query) -> float:
    """How far long entities' further windows count for this query: 1 for a short one, 0 for one
    as long as a window (``chunked_knn.passage_weight``)."""
    from limbic.engine.vectors import chunked_knn

    embedder = graph.embedder
    if embedder is None:
        return 1.0
    text = query.text if isinstance(query, Query) else query
    tokens = embedder.count_tokens([text[:MAX_QUERY_CHARS]])[0]
    return chunked_knn.passage_weight(tokens, embedder.spec.text_budget)


def knn_branch(graph: Graph, vector: np.ndarray, k: int, weight: float = 1.0) -> list[tuple[int, float]]:
    """(entity id, cosine distance), nearest first (exact, from the in-memory mirrors); ``weight``: ``passage_weight``."""
    from limbic.engine.vectors import chunked_knn  # numpy loads with the first search, not at start-up

    return chunked_knn.knn(graph.db, index.VEC_TABLE, vector, k, weight)


def knn_evidence(graph: Graph, vector: np.ndarray, k: int,
                 weight: float = 1.0) -> tuple[list[tuple[int, float]], scoring.MeaningStats]:
    """The KNN branch and how the query's similarity spreads over the whole graph."""
    from limbic.engine.vectors import chunked_knn

    hits, stats = chunked_knn.knn_with_stats(graph.db, index.VEC_TABLE, vector, k, weight)
    return hits, scoring.MeaningStats(stats.mean, stats.std, stats.count)


def similarities(graph: Graph, vector: np.ndarray, ids: list[int], weight: float = 1.0) -> dict[int, float]:
    """Exact cosine similarity of the query to these entities (those with a vector), as the KNN branch scores it."""
    from limbic.engine.vectors import chunked_knn

    return chunked_knn.similarities(graph.db, index.VEC_TABLE, vector, ids, weight)


def search(
    graph: Graph,
    query: str | Query,
    limit: int = 10,
    record: bool = True,
    params: ScoringParams | None = None,
    entity_type: str | None = None,
    status: str | None = None,
    branches: str = "both",
    now: datetime | None = None,
) -> SearchResponse:
    """Run the six steps; ``record=False`` is a search that leaves no trace (preview, evaluation).

    ``branches``: "both" (hybrid), "meaning" (vectors only) or "words" (full text only); ``query``: the
    text, or a ``Query`` already read (a caller asking one text several ways reads it once); ``now``:
    the time of asking, which "last week" counts from (the clock's when not given).
    """
    params = params or ScoringParams()
    limit = max(1, min(int(limit), MAX_LIMIT))
    q = as_query(query, now)  # the one reading of the text: every step below gets what it learned
    query, terms = q.text, list(q.terms)
    use_vectors = graph.vectors_ready
    if not query.strip():
        return SearchResponse(query, MODE_HYBRID if use_vectors else MODE_FTS, terms=terms)
    if not terms:  # "*", "-", "?": no word to look for, and the model would only guess
        return SearchResponse(query, MODE_HYBRID if use_vectors else MODE_FTS, terms=terms, no_match=True)
    k = params.expansion_factor * limit * (5 if entity_type or status else 1)
    if params.base_relevance == scoring.BASE_ADAPTIVE:
        # The fusion standardises each branch over its best hits: it needs that many of them.
        from limbic.engine.search.fusion import STATS_DEPTH

        k = max(k, STATS_DEPTH)

    # 1-2. Encode and retrieve in both branches.
    semantic: list[tuple[int, float]] = []
    meaning: scoring.MeaningStats | None = None
    vector = None
    use_vectors = use_vectors and branches != "words"
    use_text = branches != "meaning" or not use_vectors
    rows = text_rows(graph.db) if use_text else 0
    side = None
    # Both branches (``branches`` is "both"), a large graph, and no write of this connection's open.
    if use_text and use_vectors and rows >= SIDE_READER_ROWS and not graph.db.in_transaction:
        side = graph.db.side_reader()
    weight = passage_weight(graph, q) if use_vectors else 1.0
    if side is not None:
        fulltext, tiers, plan, vector, semantic, meaning = _both_branches(graph, side, q, k, rows, weight)
    else:
        if use_vectors:
            assert graph.embedder is not None
            vector = graph.embedder.encode_query(q.capped)
            semantic, meaning = knn_evidence(graph, vector, k, weight)
        if use_text:
            fulltext, tiers, plan = _text_branch(graph.db, q, k, rows, branches != "meaning", use_vectors)
        else:
            fulltext, tiers, plan = [], {}, TextPlan(None)
    flat = plan.flat
    mode = MODE_FTS if not use_vectors else (MODE_HYBRID if fulltext else MODE_SEMANTIC)
    if vector is not None and crosslingual.applies(q.content, bool(fulltext or tiers)):
        # A short query sharing no word with the notes: meaning alone answers, without its language.
        vector = crosslingual.language_free(graph.embedder, q.language, vector)
        semantic, meaning = knn_evidence(graph, vector, k, weight)

    # 3. Fuse; exact matches the branches missed join as full-text hits.
    candidates = scoring.reciprocal_rank_fusion(semantic, fulltext, params.rrf_k)
    known = {c.entity_id for c in candidates}
    best_bm25 = min((c.bm25 for c in candidates if c.bm25 is not None), default=0.0)
    for entity_id in tiers:
        if entity_id not in known:
            candidates.append(Candidate(entity_id, rrf_score=1.0 / (params.rrf_k + 1), fts_rank=1, bm25=best_bm25))
    if vector is not None and meaning is not None:
        # Text hits the meaning branch did not reach still have a similarity: the fusion weighs it.
        missing = [c.entity_id for c in candidates if c.distance is None]
        sims = similarities(graph, vector, missing, weight) if missing else {}
        for c in candidates:
            c.similarity = sims.get(c.entity_id) if c.distance is None else 1.0 - c.distance
        # No word in the query ("qwertyuiop", "qqq xq", "zz"): the model would only guess, so full text
        # and exact names answer alone ("zz" finds the entities holding it, and nothing else). A real
        # word is answered by meaning even when no entity holds it: a query in another language than
        # the notes ("copia de seguridad") shares no word with them, and its best hits stand out from
        # the graph less than a same-language query's would (the chance floor turned it away).
        if params.floor and candidates and not flat and not q.readable(graph.db, rows or text_rows(graph.db)):
            holders = readable.literal_holders(graph.db, list(q.content), q.ends_in_word, k)
            candidates = [c for c in candidates if c.entity_id in holders or c.entity_id in tiers]
    if entity_type:
        types = dict(graph.db.execute(
            f"SELECT id, entity_type FROM entities WHERE id IN ({','.join('?' * len(candidates))})",
            [c.entity_id for c in candidates],
        )) if candidates else {}
        candidates = [c for c in candidates if types.get(c.entity_id) == entity_type]
    if status and candidates:
        statuses = dict(graph.db.execute(
            f"SELECT id, status FROM entities WHERE id IN ({','.join('?' * len(candidates))})",
            [c.entity_id for c in candidates],
        ))
        candidates = [c for c in candidates if statuses.get(c.entity_id) == status]
    if not candidates:
        return SearchResponse(query, mode, terms=terms, no_match=True)

    if params.carry > 0 and vector is not None:
        carry.measure(graph.db, candidates, rows or text_rows(graph.db))
        if params.carry_by_query:  # a question asks for what a text says; a whole text asks for its like
            params = replace(params, carry=params.carry * weight)
    # 4. Limbic re-ranking; what happened in the time the query names counts more.
    timed = when.matching(graph.db, [c.entity_id for c in candidates], q.time) if q.time is not None else None
    ranked = rank(graph, candidates, mode, params, tiers, meaning, timed, q, limit)

    # 5. Hydrate.
    entities = graph.entities_by_ids([r.entity_id for r in ranked])
    results = []
    for r in ranked:
        ent = entities.get(r.entity_id)
        if ent is None:
            continue
        r.name, r.entity_type, r.observations = ent.name, ent.entity_type, ent.observation_texts
        if plan.near and r.fts_rank is not None:
            r.spelt_like = spelling.spelt_like([ent.name, ent.entity_type, *r.observations], plan.near)
        results.append(r)
    response = SearchResponse(query, mode, results, terms, time_label=q.time.label if q.time is not None else None)

    # 6. Record access signals (best effort; never changes the answer).
    if record and results:
        signals.record_access(graph.db, [r.entity_id for r in results])
    return response


def rank(
    graph: Graph,
    candidates: list[Candidate],
    mode: str,
    params: ScoringParams,
    tiers: dict[int, int] | None = None,
    meaning: scoring.MeaningStats | None = None,
    timed: when.Matches | None = None,
    query: Query | None = None,
    limit: int | None = None,
) -> list[SearchResult]:
    """Score fused candidates with the limbic formula; exact matches first, then best score first.

    The signals come from the connection's memory of them (``usage.factors``); ``timed``: those that happened in the time
    the query names (None: it names none); those dated then come next after exact matches (``params.time_first``);
    ``query``: what was asked, so that an entity that is only a name follows those whose observations hold it;
    ``limit``: how many of the best to return (all when None).
    """
    tiers = tiers or {}
    now = datetime.now(timezone.utc)
    bases = scoring.base_relevance(candidates, mode, params, meaning)
    ids = [c.entity_id for c in candidates]
    in_times = [None if timed is None else i in timed for i in ids]
    # A question about then is not answered better by what was touched lately: recency waits.
    use = usage.factors(graph.db, ids, now, params, in_times)
    scores = [scoring.limbic_score(base, imp, temp, cooc, params) * status
              for base, imp, temp, cooc, status in zip(bases, use.importance, use.temporal, use.cooc, use.status)]
    bare.hold_below(graph.db, query, ids, scores, tiers)
    first = timed.dated if timed is not None and params.time_first else set()
    order = sorted(range(len(ids)), key=lambda n: (-tiers.get(ids[n], TIER_NONE), ids[n] not in first, -scores[n],
                                                     -candidates[n].rrf_score))
    out = []
    for n in order if limit is None else order[:limit]:
        cand = candidates[n]
        out.append(SearchResult(
            cand.entity_id, "", "", [], scores[n], bases[n], use.importance[n], use.temporal[n], use.cooc[n],
            cand.distance, cand.rrf_score, cand.branch, cand.knn_rank, cand.fts_rank,
            tiers.get(cand.entity_id, TIER_NONE) > TIER_NONE, in_times[n],
        ))
    return out
