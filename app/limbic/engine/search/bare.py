"""An entity that is only a name ranks below every entity whose observations hold the query's words.

A bare entity ("Backups", type Topic, nothing written yet) is the shortest document full text can
score, so BM25 gives its name match the highest score in the graph, and the model puts a bare
name as near a short query as any note; both votes lead, and it came first for "where are the
photo backups" above the note that says where they are. It has nothing to read: unless its name is
the query (an exact match, which ranks first anyway), it follows every entity whose observations
hold one of the query's words (or their stems), in its own order otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from limbic.engine.graph import signal_memory
from limbic.engine.search.carry import fold
from limbic.engine.search.query import Query
from limbic.engine.store.db import Database
from limbic.engine.text import stemming

# How far below the lowest observation that holds the query a bare entity's score is put.
BELOW = 0.99


class Scored(Protocol):
    entity_id: int
    limbic_score: float


def _empty(db: Database, ids: Sequence[int]) -> set[int]:
    """Which of ``ids`` are only a name (kept with the candidates' signals, followed through the change log)."""
    facts = signal_memory.memory(db).facts_of(db, ids)
    return {i for i in ids if facts[i].bare}


def _holding(db: Database, ids: Sequence[int], query: Query) -> set[int]:
    """Which of ``ids`` have observations holding one of the query's words, as written or as a stem."""
    wanted = {fold(t) for t in query.content} | {s for stems in query.stems for s in stems}
    marks = ",".join("?" * len(ids))
    out = set()
    for rowid, text in db.execute(f"SELECT rowid, obs_text FROM entity_fts WHERE rowid IN ({marks})", list(ids)):
        for word in set(stemming.words(text or "")):
            if fold(word) in wanted or any(stemming.stem(word, lang) in wanted for lang in stemming.LANGS):
                out.add(rowid)
                break
    return out


def hold_below(db: Database, query: Query | None, results: Sequence[Scored], exact: Iterable[int] | Mapping[int, int]) -> None:
    """Lower the score of each bare entity (not an exact match) under every result whose observations hold the query."""
    if query is None or not query.content or not results:
        return
    exact = set(exact)
    bare = _empty(db, [r.entity_id for r in results if r.entity_id not in exact])
    if not bare:
        return
    top_bare = max(r.limbic_score for r in results if r.entity_id in bare)
    # Only an entity now below a bare one can be passed by it; those above stay above.
    below = [r for r in results if r.entity_id not in bare and r.limbic_score < top_bare]
    holding = _holding(db, [r.entity_id for r in below], query) if below else set()
    if not holding:
        return
    cap = BELOW * min(r.limbic_score for r in below if r.entity_id in holding)
    for r in results:
        if r.entity_id in bare and r.limbic_score > cap:
            # Scaled, not clipped, so bare entities keep their order among themselves.
            r.limbic_score = cap * r.limbic_score / top_bare
