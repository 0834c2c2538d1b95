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

from limbic.engine.graph import signal_memory
from limbic.engine.search.carry import fold
from limbic.engine.search.query import Query
from limbic.engine.store.db import Database
from limbic.engine.text import stemming

# How far below the lowest observation that holds the query a bare entity's score is put.
BELOW = 0.99


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


def hold_below(db: Database, query: Query | None, ids: Sequence[int], scores: list[float],
               exact: Iterable[int] | Mapping[int, int]) -> None:
    """Lower the score of each bare entity (not an exact match) under every candidate whose observations
    hold the query; ``scores`` (``ids``' scores, in their order) are changed in place."""
    if query is None or not query.content or not ids:
        return
    exact = set(exact)
    bare = _empty(db, [i for i in ids if i not in exact])
    if not bare:
        return
    top_bare = max(s for i, s in zip(ids, scores) if i in bare)
    # Only an entity now below a bare one can be passed by it; those above stay above.
    below = [(i, s) for i, s in zip(ids, scores) if i not in bare and s < top_bare]
    holding = _holding(db, [i for i, _ in below], query) if below else set()
    if not holding:
        return
    cap = BELOW * min(s for i, s in below if i in holding)
    for n, (i, s) in enumerate(zip(ids, scores)):
        if i in bare and s > cap:
            # Scaled, not clipped, so bare entities keep their order among themselves.
            scores[n] = cap * s / top_bare
