"""How much a candidate's text carries: the rarity of its distinct words, summed (its information, not its length).

A turn like "Thanks, John. I definitely will!" is near many questions in meaning and says nothing
specific: its words are the graph's commonest. A text's specific content is measured as the sum, over
its distinct words, of their inverse document frequency in the graph's own full-text vocabulary, so
a short text holding one rare name carries more than a long one made of common words, and no word
count is fixed. Read when ``ScoringParams.carry`` is set (0.5, by how short the query is, by default).
"""

from __future__ import annotations

import math
import time
import unicodedata
import weakref
from collections.abc import Sequence

import apsw

from limbic.engine.search.candidates import Candidate
from limbic.engine.store.db import Database
from limbic.engine.text.stemming import words

# Document frequencies are reused while the graph's size stays within 1 % and for this long. Looking
# them up is what the carry costs: on a 100,000-entity graph about 230 ms for a first search's ~100
# candidate texts (a common word's count walks its whole list of rows), then a few ms once known; a
# word's share of the graph barely moves in an hour unless the graph grows, which the 1 % catches.
CACHE_SECONDS = 3600.0
_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# Texts whose measure is kept at most (then the cache starts again).
MAX_KEPT = 200_000


def fold(word: str) -> str:
    """A lower-case word as FTS5's unicode61 tokenizer stores it: accents off."""
    if word.isascii():
        return word
    return "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))


def _epoch(db: Database, rows: int) -> tuple[dict[str, int], dict[int, float]]:
    """The document frequencies and the texts' measures known for this graph while its size holds."""
    now = time.monotonic()
    cache = _cache.get(db)
    if (cache is None or now - cache[0] > CACHE_SECONDS or abs(cache[1] - rows) > rows // 100
            or len(cache[3]) > MAX_KEPT):
        cache = _cache[db] = (now, rows, {}, {})
    return cache[2], cache[3]


def _frequencies(db: Database, known: dict[str, int], terms: set[str]) -> None:
    wanted = [t for t in terms if t not in known]
    for start in range(0, len(wanted), 500):
        part = wanted[start:start + 500]
        try:
            db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.limbic_fts_carry USING fts5vocab(main, entity_fts, 'row')")
            found = dict(db.execute(
                f"SELECT term, doc FROM temp.limbic_fts_carry WHERE term IN ({','.join('?' * len(part))})", part))
        except apsw.Error:
            return
        for t in part:
            known[t] = int(found.get(t, 0))


def measure(db: Database, candidates: Sequence[Candidate], rows: int) -> None:
    """Set each candidate's ``size`` to its specific content: Σ log(n / df) over its distinct words."""
    ids = [c.entity_id for c in candidates]
    if not ids or rows <= 0:
        return
    marks = ",".join("?" * len(ids))
    # The full-text row holds the current text (superseded observations are history, not what it says).
    texts = dict(db.execute(
        f"SELECT rowid, name || ' ' || obs_text FROM entity_fts WHERE rowid IN ({marks})", ids))
    df, measured = _epoch(db, rows)
    # A text's measure is kept by its text's hash: reading the row is cheap, splitting it into words is not.
    keys = {i: hash(t or "") for i, t in texts.items()}
    terms = {i: {fold(w) for w in words(t or "")} for i, t in texts.items() if keys[i] not in measured}
    _frequencies(db, df, set().union(*terms.values()) if terms else set())
    for i, held in terms.items():
        measured[keys[i]] = sum(math.log(rows / max(1, min(rows, df.get(t, 1)))) for t in held)
    for c in candidates:
        if c.entity_id in keys:
            c.size = measured[keys[c.entity_id]]
