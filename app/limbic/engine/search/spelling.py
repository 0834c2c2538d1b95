"""Near spellings: a query word that no entity holds also matches the graph's words spelt like it.

"restik bakups" holds no word of the graph; "restic" and "backups" are one letter away. A query
word absent from the full-text index (as written and as each of its stems) is searched as the
words of the graph's vocabulary within ``max_distance`` edits of it (an edit: a letter added,
dropped, changed, or two neighbours swapped), the nearest ones first, and a hit through a near
spelling counts ``NEAR_WEIGHT`` of what the same word typed right would (``combine``). Words the
graph holds are never respelt, so a query whose words are all in the graph searches as before.

The words come from the graph's vocabulary (``lexicon``: read once per connection and kept current
through the change log), never read per search; each near spelling chosen is checked against the
index itself to be a word as written (not only another word's stem), so one that left the graph
since, or a stem like "earli", is never searched.
"""

from __future__ import annotations

import logging
import unicodedata

import apsw
from rapidfuzz import process
from rapidfuzz.distance import OSA

from limbic.engine.search import lexicon
from limbic.engine.store.db import Database
from limbic.engine.text import stemming
from limbic.engine.text.stopwords import is_stopword

logger = logging.getLogger(__name__)

# Words shorter than this are never respelt: "seen" is one edit from been, seven and see.
MIN_CHARS = 5
# Up to this many letters a word is respelt by one edit; longer ones by two.
ONE_EDIT_UP_TO = 7
# A near spelling starts with the same letter: a slip of the first letter is rare, and without this
# rule "radiation" met "variation" (as Lucene's spell checker, whose minPrefix is 1 by default).
SAME_FIRST = 1
# Only a question is respelt: the words a pasted passage holds and the graph lacks are its own
# words, not slips (the same line as for the times a query names, query.MAX_TIME_QUERY_WORDS).
MAX_QUERY_WORDS = 48
# Near spellings searched per query word at most (the nearest, then the commonest).
MAX_NEAR = 3
# What a hit through a near spelling counts, against the same word typed right (BM25 is additive
# over a query's words, so the near words' share of a hit's score is scaled by this).
NEAR_WEIGHT = 0.5


def fold(word: str) -> str:
    """A lower-case word as unicode61 stores it: accents off."""
    if word.isascii():
        return word
    return "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))


def max_distance(word: str) -> int:
    """How many edits a query word may be from its near spellings: 0 (too short), 1, or 2 for a long word."""
    n = len(word)
    if n < MIN_CHARS or not word.isalpha():
        return 0
    return 1 if n <= ONE_EDIT_UP_TO else 2


def _near(lex: lexicon.Lexicon, word: str) -> list[tuple[str, int]]:
    """The graph's words within ``max_distance(word)`` edits of ``word``, same first letter: (word, edits)."""
    d = max_distance(word)
    if d == 0:
        return []
    head = word[:SAME_FIRST]
    pool = [w for n in range(len(word) - d, len(word) + d + 1) for w in lex.words_of_length(n)
            if w.startswith(head) and w != word and not is_stopword(w)]
    return [(w, int(dist)) for w, dist, _ in process.extract(word, pool, scorer=OSA.distance, score_cutoff=d, limit=None)]


def _written(db: Database, word: str) -> bool:
    """Whether some entity holds ``word`` as written (not only as another word's stem: "earli")."""
    return db.one('SELECT 1 FROM entity_fts WHERE entity_fts MATCH ? LIMIT 1', (f'{stemming.RAW_COLUMNS} : "{word}"',)) is not None


def _starts_a_word(db: Database, prefix: str) -> bool:
    """Whether some word of the index starts with ``prefix``."""
    return db.one('SELECT 1 FROM entity_fts WHERE entity_fts MATCH ? LIMIT 1', (f'"{prefix}"*',)) is not None


def near_spellings(db: Database, content: tuple[str, ...] | list[str],
                   unfinished: str | None = None) -> dict[str, tuple[str, ...]]:
    """For each query word the graph does not hold (as written or as a stem), its near spellings the graph does.

    The nearest first; among as near, the words more entities hold. Words too short to respell, and
    words with digits, are left as they are; so is ``unfinished`` (the word the query ends inside,
    searched as a prefix) while some word of the graph starts with it.
    """
    candidates = [t for t in content if max_distance(fold(t))]
    if not candidates:
        return {}
    lex = lexicon.lexicon(db)  # the graph's words, read once and followed (lexicon.py)
    if lex is None:
        return {}
    docs = lex.docs
    out: dict[str, tuple[str, ...]] = {}
    try:
        for t in candidates:
            word = fold(t)
            if word in docs or any(s in docs for s in stemming.query_stems(t)):
                continue
            if t == unfinished and _starts_a_word(db, word):
                continue
            hits = sorted(_near(lex, word), key=lambda h: (h[1], -docs.get(h[0], 0), h[0]))
            chosen: list[str] = []
            for w, _ in hits:
                if len(chosen) < MAX_NEAR and _written(db, w):
                    chosen.append(w)
            if chosen:
                out[t] = tuple(chosen)
    except apsw.Error as exc:  # the index cannot be read: the words are searched as typed
        logger.info("near spellings unavailable: %s", exc)
        return {}
    return out


def combine(exact: list[tuple[int, float]], with_near: list[tuple[int, float]], k: int) -> list[tuple[int, float]]:
    """The text branch's hits with near spellings weighed below exact words, best first.

    ``exact``: (id, bm25) of the query as typed; ``with_near``: of the same query with the near
    spellings added. BM25 sums over a query's words, so a hit's near share is the difference,
    and it counts ``NEAR_WEIGHT`` of it (bm25() is negative: lower is better).
    """
    base = dict(exact)
    scores = dict(exact)
    for entity_id, score in with_near:
        own = base.get(entity_id, 0.0)
        scores[entity_id] = own + NEAR_WEIGHT * min(0.0, score - own)
    return sorted(scores.items(), key=lambda kv: (kv[1], kv[0]))[:k]


def spelt_like(texts: list[str], near: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """Which near spellings these texts (a hit's name, type and observations) hold, in the query's order."""
    if not near:
        return ()
    wanted = {w for ws in near.values() for w in ws}
    stems = {s: w for w in wanted for s in stemming.query_stems(w)}
    found: set[str] = set()
    for text in texts:
        for word in stemming.words(text or ""):
            f = fold(word)
            if f in wanted:
                found.add(f)
            else:
                for lang in stemming.LANGS:
                    if (s := stemming.stem(f, lang)) in stems:
                        found.add(stems[s])
    return tuple(w for ws in near.values() for w in ws if w in found)
