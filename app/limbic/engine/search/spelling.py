"""Near spellings: a query word that no entity holds also matches the graph's words spelt like it.

"restik bakups" holds no word of the graph; "restic" and "backups" are one letter away. A query
word absent from the full-text index (as written and as each of its stems) is searched as the
words of the graph's vocabulary within ``max_distance`` edits of it (an edit: a letter added,
dropped, changed, or two neighbours swapped), the nearest ones first, and a hit through a near
spelling counts ``NEAR_WEIGHT`` of what the same word typed right would (``combine``). Words the
graph holds are never respelt, so a query whose words are all in the graph searches as before.

The vocabulary (the words as written in names, types and observations, letters only) is read
from the index once per graph and then kept current by the change log: the words of the entities
added or changed since are added (``Lexicon.refresh``). A word that left the graph may stay in
the list; every near spelling chosen is checked against the index itself, so it only costs a look.
"""

from __future__ import annotations

import logging
import unicodedata
import weakref
from collections import defaultdict
from dataclasses import dataclass, field

import apsw
from rapidfuzz import process
from rapidfuzz.distance import OSA

from limbic.engine.store import changes
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
_RAW = ("name", "entity_type", "obs_text")
_lexicons: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


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


@dataclass
class Lexicon:
    """The graph's words as written (letters only), by length, followed through the change log."""

    by_length: dict[int, set[str]] = field(default_factory=lambda: defaultdict(set))
    cursor: changes.Cursor = field(default_factory=changes.Cursor)
    version: tuple[int, int] | None = None

    def add(self, word: str) -> None:
        if len(word) >= MIN_CHARS - 2 and word.isalpha():
            self.by_length[len(word)].add(word)

    def load(self, db: Database) -> None:
        """Read every word of the index's text columns (once per graph, and after a change too large to follow)."""
        self.by_length = defaultdict(set)
        self.cursor = changes.start_cursor(db)
        db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.limbic_fts_spelling USING fts5vocab(main, entity_fts, 'col')")
        marks = ",".join("?" * len(_RAW))
        for (term,) in db.execute(f"SELECT DISTINCT term FROM temp.limbic_fts_spelling WHERE col IN ({marks})", _RAW):
            self.add(term)

    def refresh(self, db: Database) -> None:
        """Bring the list up to what the graph holds now: the words of entities written since the last look."""
        version = (db.data_version(), db.conn.total_changes())
        if version == self.version:
            return
        if self.version is None:
            self.load(db)
        else:
            cs = changes.read_since(db, self.cursor, skip_own=False)
            if cs.full:
                self.load(db)
            elif ids := sorted(cs.added | cs.changed):
                for start in range(0, len(ids), 500):
                    part = ids[start:start + 500]
                    for row in db.execute(
                        f"SELECT name, entity_type, obs_text FROM entity_fts WHERE rowid IN ({','.join('?' * len(part))})",
                        part,
                    ):
                        for text in row:
                            for w in stemming.words(text or ""):
                                self.add(fold(w))
        self.version = version

    def near(self, word: str, limit: int = MAX_NEAR) -> list[tuple[str, int]]:
        """The words within ``max_distance(word)`` edits of ``word``, nearest first: (word, edits)."""
        d = max_distance(word)
        if d == 0:
            return []
        head = word[:SAME_FIRST]
        pool = [w for n in range(len(word) - d, len(word) + d + 1) for w in self.by_length.get(n, ())
                if w.startswith(head) and not is_stopword(w)]
        hits = process.extract(word, pool, scorer=OSA.distance, score_cutoff=d, limit=None)
        hits.sort(key=lambda h: (h[1], h[0]))
        return [(w, int(dist)) for w, dist, _ in hits if w != word][: limit * 4]


def lexicon(db: Database) -> Lexicon:
    """This connection's lexicon, brought up to date."""
    lex = _lexicons.get(db)
    if lex is None:
        lex = _lexicons[db] = Lexicon()
    lex.refresh(db)
    return lex


def held(db: Database, terms: list[str]) -> dict[str, int]:
    """How many entities hold each of these index terms (any column); a term no entity holds is left out."""
    if not terms:
        return {}
    db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.limbic_fts_held USING fts5vocab(main, entity_fts, 'row')")
    wanted = sorted(set(terms))
    return dict(db.execute(
        f"SELECT term, doc FROM temp.limbic_fts_held WHERE term IN ({','.join('?' * len(wanted))})", wanted))


def _starts_a_word(db: Database, prefix: str) -> bool:
    """Whether some word of the index starts with ``prefix``."""
    db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.limbic_fts_held USING fts5vocab(main, entity_fts, 'row')")
    return db.one("SELECT 1 FROM temp.limbic_fts_held WHERE term >= ? AND term < ? LIMIT 1",
                  (prefix, prefix + "\U0010ffff")) is not None


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
    try:
        forms = {t: {fold(t), *stemming.query_stems(t)} for t in candidates}
        present = held(db, [f for fs in forms.values() for f in fs])
        absent = [t for t in candidates if not any(f in present for f in forms[t])
                  and not (t == unfinished and _starts_a_word(db, fold(t)))]
        if not absent:
            return {}
        lex = lexicon(db)
        options = {t: lex.near(fold(t)) for t in absent}
        counts = held(db, [w for hits in options.values() for w, _ in hits])
    except apsw.Error as exc:  # no vocabulary to read: the words are searched as typed
        logger.info("near spellings unavailable: %s", exc)
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for t, hits in options.items():
        real = sorted(((w, d) for w, d in hits if counts.get(w)), key=lambda h: (h[1], -counts[h[0]], h[0]))
        if real:
            out[t] = tuple(w for w, _ in real[:MAX_NEAR])
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
