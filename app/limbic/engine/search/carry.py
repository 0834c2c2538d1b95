"""How much a candidate's text carries: the rarity of its distinct words, summed (its information, not its length).

A turn like "Thanks, John. I definitely will!" is near many questions in meaning and says nothing
specific: its words are the graph's commonest. A text's specific content is measured as the sum, over
its distinct words, of their inverse document frequency in the graph's own full-text vocabulary, so
a short text holding one rare name carries more than a long one made of common words, and no word
count is fixed. Read when ``ScoringParams.carry`` is set (0.5, by how short the query is, by default).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence

from limbic.engine.search import lexicon
from limbic.engine.search.candidates import Candidate
from limbic.engine.store.db import Database
from limbic.engine.text.stemming import words

# Texts whose measure is kept at most (then the cache starts again).
MAX_KEPT = 200_000
_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


fold = lexicon.fold  # a word as the full-text index stores it (bare.py reads it from here)


def _measured(db: Database, lex: lexicon.Lexicon, rows: int) -> dict[int, float]:
    """The texts' measures known for this graph while its vocabulary was not read again and its size holds (1 %)."""
    cache = _cache.get(db)
    if cache is None or cache[0] != lex.readings or abs(cache[1] - rows) > rows // 100 or len(cache[2]) > MAX_KEPT:
        cache = _cache[db] = (lex.readings, rows, {})
    return cache[2]


def measure(db: Database, candidates: Sequence[Candidate], rows: int) -> None:
    """Set each candidate's ``size`` to its specific content: Σ log(n / df) over its distinct words."""
    ids = [c.entity_id for c in candidates]
    if not ids or rows <= 0:
        return
    marks = ",".join("?" * len(ids))
    # The full-text row holds the current text (superseded observations are history, not what it says).
    texts = dict(db.execute(
        f"SELECT rowid, name || ' ' || obs_text FROM entity_fts WHERE rowid IN ({marks})", ids))
    lex = lexicon.lexicon(db)  # the graph's word counts, read once and followed (lexicon.py)
    if lex is None:
        return
    measured = _measured(db, lex, rows)
    # A text's measure is kept by its text's hash: reading the row is cheap, splitting it into words is not.
    keys = {i: hash(t or "") for i, t in texts.items()}
    df = lex.docs
    for i, text in texts.items():
        if keys[i] not in measured:
            held = {fold(w) for w in words(text or "")}
            measured[keys[i]] = sum(math.log(rows / max(1, min(rows, df.get(w, 1)))) for w in held)
    for c in candidates:
        if c.entity_id in keys:
            c.size = measured[keys[c.entity_id]]
