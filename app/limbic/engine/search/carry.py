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

from limbic.engine.graph import signal_memory
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
    lex = lexicon.lexicon(db)  # the graph's word counts, read once and followed (lexicon.py)
    if lex is None:
        return
    measured = _measured(db, lex, rows)
    # A text's measure is kept by its text's hash, and each candidate's hash with its signals
    # (engine/graph/signal_memory.py, followed through the change log): only a text not measured yet is read.
    facts = signal_memory.memory(db).facts_of(db, ids)
    keys = {i: facts[i].text_key for i in ids if facts[i].text_key is not None}
    sizes = {i: measured[key] for i, key in keys.items() if key in measured}
    unread = [i for i in keys if i not in sizes]
    if unread:
        marks = ",".join("?" * len(unread))
        # The full-text row holds the current text (superseded observations are history, not what it says).
        df = lex.docs
        for i, text in db.execute(
                f"SELECT rowid, name || ' ' || obs_text FROM entity_fts WHERE rowid IN ({marks})", unread):
            held = {fold(w) for w in words(text or "")}
            sizes[i] = measured[hash(text or "")] = sum(math.log(rows / max(1, min(rows, df.get(w, 1)))) for w in held)
    for c in candidates:
        if c.entity_id in sizes:
            c.size = sizes[c.entity_id]
