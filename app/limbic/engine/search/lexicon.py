"""The graph's vocabulary: every term of the full-text index and how many entities hold it.

Several steps of a search ask the vocabulary something: whether a word is common enough to leave
out (``flat_terms``), how rare a candidate's words are (``carry``), which query words the graph
lacks and what it holds that is spelt like them (``spelling``), what its words' letters look like
(``readable``). Asking the index each time walks a common term's whole list of rows (FTS5's
vocabulary table counts them as it reads), 10 to 20 ms a search on 100,000 entities. So the
vocabulary is read once per connection (about half a second on 100,000 entities, 119,000 terms)
and kept current through the change log (``changes.read_since``): the words of an entity added
are counted in, and the words an entity changed holds now are counted afresh (one look each, or
the whole vocabulary again past ``EXACT_TERMS``). What the log cannot say is which words an
entity changed or removed held before; those counts stay as they were until the vocabulary is read
again, once the entities changed or removed since the last reading pass ``DRIFT`` of the graph
and ``MIN_DRIFT`` entities (or the log says too much changed to follow). The uses above need "more than half", "none" and
logarithms of counts, which such a drift barely moves.
"""

from __future__ import annotations

import logging
import unicodedata
import weakref
from collections import defaultdict
from dataclasses import dataclass, field

import apsw

from limbic.engine.graph import signal_memory
from limbic.engine.store import changes
from limbic.engine.store.db import Database
from limbic.engine.text import stemming

logger = logging.getLogger(__name__)

# Read the whole vocabulary again once the entities changed or removed since it was read exceed
# this share of the graph (their former words' counts are not known to the log).
DRIFT = 0.05
MIN_DRIFT = 100  # ... and this many entities (a small graph is not read again at each edit)
# The words of the entities changed since the last look are counted one by one up to this many;
# more (an import, a sync) and the whole vocabulary is read again.
EXACT_TERMS = 2_000
_lexicons: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def fold(word: str) -> str:
    """A lower-case word as FTS5's unicode61 tokenizer stores it: accents off."""
    if word.isascii():
        return word
    return "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))


@dataclass
class Lexicon:
    """Every term of one graph's full-text index (names, types, texts and their stems) → entities holding it."""

    docs: dict[str, int] = field(default_factory=dict)
    readings: int = 0  # how often the whole vocabulary was read (what is derived from it is made again then)
    version: tuple[int, int] | None = None
    cursor: changes.Cursor = field(default_factory=changes.Cursor)
    drift: int = 0  # entities changed or removed since the last reading
    _by_length: dict[int, list[str]] | None = None

    def load(self, db: Database) -> None:
        """Read the whole vocabulary (once per connection, and after a drift too large)."""
        self.cursor = changes.start_cursor(db)
        db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.limbic_fts_lexicon USING fts5vocab(main, entity_fts, 'row')")
        self.docs = {term: int(doc) for term, doc in db.execute("SELECT term, doc FROM temp.limbic_fts_lexicon")}
        self.readings += 1
        self.drift = 0
        self._by_length = None

    def refresh(self, db: Database) -> None:
        """Bring the counts up to what the graph holds now (nothing to do when no one wrote since)."""
        version = (db.data_version(), db.conn.total_changes())
        if version == self.version:
            return
        if self.version is not None and signal_memory.memory(db).only_recorded_since(db, self.version):
            self.version = version  # only searches recorded since: no word changed
            return
        if self.version is None:
            self.load(db)
        else:
            cs = changes.read_since(db, self.cursor, skip_own=False)
            self.drift += len(cs.changed | cs.removed)
            if cs.full or (self.drift > MIN_DRIFT
                           and self.drift > DRIFT * int(db.scalar("SELECT count(*) FROM entity_fts_docsize") or 0)):
                self.load(db)
            else:
                for terms in self._terms_of(db, sorted(cs.added)):
                    for t in terms:  # an entity new to the graph: each of its words held once more
                        self._set(t, self.docs.get(t, 0) + 1)
                held = set().union(*self._terms_of(db, sorted(cs.changed - cs.added)))
                if len(held) > EXACT_TERMS:
                    self.load(db)
                else:  # an entity changed: its words as they are now, counted afresh
                    for t in held:
                        self._set(t, int(db.scalar("SELECT doc FROM temp.limbic_fts_lexicon WHERE term = ?", (t,)) or 0))
        self.version = version

    def _terms_of(self, db: Database, ids: list[int]) -> list[set[str]]:
        """Each of these entities' terms as its full-text row holds them now."""
        out = []
        for start in range(0, len(ids), 500):
            part = ids[start:start + 500]
            for row in db.execute(
                "SELECT name, entity_type, obs_text, stem_name, stem_text FROM entity_fts "
                f"WHERE rowid IN ({','.join('?' * len(part))})", part,
            ):
                out.append({fold(w) for text in row for w in stemming.words(text or "")})
        return out

    def _set(self, term: str, count: int) -> None:
        if term not in self.docs and self._by_length is not None and term.isalpha():
            self._by_length[len(term)].append(term)
        self.docs[term] = count

    def doc(self, term: str) -> int:
        """How many entities hold ``term`` (0: none)."""
        return self.docs.get(term, 0)

    def words_of_length(self, n: int) -> list[str]:
        """The terms of ``n`` letters (letters only), for the near spellings of a word."""
        if self._by_length is None:
            by_length: dict[int, list[str]] = defaultdict(list)
            for t in self.docs:
                if t.isalpha():
                    by_length[len(t)].append(t)
            self._by_length = by_length
        return self._by_length.get(n, [])


def lexicon(db: Database) -> Lexicon | None:
    """The vocabulary of this connection's graph, brought up to date; None when the index cannot be read."""
    lex = _lexicons.get(db)
    if lex is None:
        lex = _lexicons[db] = Lexicon()
    try:
        lex.refresh(db)
    except apsw.Error as exc:
        logger.info("the full-text vocabulary is unavailable: %s", exc)
        _lexicons.pop(db, None)
        return None
    return lex
