"""Whether a query is made of words at all, judged against the graph's own words.

The model ranks every entity against any text, "qwertyuiop" included, and the best of those
guesses scores like a real hit (the best-score floor cannot tell them apart). What does tell them
apart is the letters: words of any language people write follow that language's letter pairs, and
the graph's own vocabulary says which pairs those are. A word whose letter pairs are, on average,
less likely than halfway between the graph's own words and random letters is not a word; neither
is a fragment of one or two letters ("zz", "xq"). A query with no word left is answered by full text
alone: it finds the entities holding it, and nothing else.

A small graph has too few words to know its languages' letter pairs (five notes: "music" and
"bread" scored as random letters). Below ``PRIOR_WORDS`` words, the embedding model's own
vocabulary (the commonest whole words of its tokenizer, the languages it reads) fills in, so a
real word is judged against words, not against the few a tiny graph happens to hold.
"""

from __future__ import annotations

import functools
import logging
import math
import mmap
import random
import re
import unicodedata
import weakref
from collections import Counter
from dataclasses import dataclass

import apsw

from limbic.engine.errors import ModelError
from limbic.engine.search import lexicon
from limbic.engine.store.db import Database
from limbic.engine.text.stemming import RAW_COLUMNS

logger = logging.getLogger(__name__)

# Shorter words are fragments: too few letters to be judged, and too few to mean something alone.
MIN_WORD_CHARS = 3
# The graph's words the letter statistics are made from, at most (an even spread of a larger vocabulary).
MAX_WORDS = 60_000
# A vocabulary smaller than this is topped up to it with the model's commonest whole words.
PRIOR_WORDS = 20_000
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_RANDOM_WORDS = 400
_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _fold(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@dataclass
class LetterModel:
    """Letter-pair statistics of a vocabulary, and the score that separates its words from random letters."""

    pairs: Counter
    before: Counter
    alphabet: int
    threshold: float = 0.0

    def score(self, word: str) -> float:
        """Mean log-probability of the word's letter pairs (with its start and end), under the vocabulary's statistics."""
        s = "^" + _fold(word) + "$"
        total = 0.0
        for a, b in zip(s, s[1:]):
            total += math.log((self.pairs[a, b] + 0.5) / (self.before[a] + 0.5 * self.alphabet))
        return total / (len(s) - 1)


def build_model(words: list[str]) -> LetterModel:
    """The letter model of these words, its threshold halfway between their mean score and random letters'."""
    pairs: Counter = Counter()
    before: Counter = Counter()
    for w in words:
        s = "^" + w + "$"
        for a, b in zip(s, s[1:]):
            pairs[a, b] += 1
            before[a] += 1
    model = LetterModel(pairs, before, len({c for ab in pairs for c in ab}) + 1)
    if not words:
        model.threshold = math.inf  # no words to compare with: nothing can be judged a word
        return model
    rng = random.Random(20)  # the same random letters every time: the threshold depends only on the graph
    noise = ["".join(rng.choice(_LETTERS) for _ in range(rng.randint(4, 12))) for _ in range(_RANDOM_WORDS)]
    sample = words if len(words) <= 2_000 else rng.sample(words, 2_000)
    real = sum(model.score(w) for w in sample) / len(sample)
    random_mean = sum(model.score(w) for w in noise) / len(noise)
    model.threshold = (real + random_mean) / 2
    return model


def _vocabulary(db: Database) -> list[str]:
    """The words of the full-text index (letters only), an even spread of at most MAX_WORDS, in the index's order."""
    lex = lexicon.lexicon(db)
    if lex is None:
        raise apsw.SQLError("no full-text vocabulary")
    terms = sorted(lex.docs)
    stride = max(1, math.ceil(len(terms) / MAX_WORDS))
    return [term for n, term in enumerate(terms) if n % stride == 0 and term.isalpha() and len(term) >= MIN_WORD_CHARS]


# A whole word in a unigram tokenizer's vocabulary: ["▁word", score], commonest first.
_UNIGRAM_WORD = re.compile(rb'\["\xe2\x96\x81([^"\\]+)",\s*-?[0-9.eE+-]+\]')


@functools.lru_cache(maxsize=1)
def prior_words() -> tuple[str, ...]:
    """The bundled model's commonest whole words (letters only, folded), at most PRIOR_WORDS; empty if unreadable."""
    from limbic.engine.vectors.embeddings import default_spec  # the model is read only when a query is judged

    out: list[str] = []
    try:
        with open(default_spec().tokenizer_path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
            # Scanned in place, not parsed: the whole file as JSON took a second and 100 MB, and the
            # words needed come first.
            for match in _UNIGRAM_WORD.finditer(data):
                word = _fold(match.group(1).decode("utf-8", "replace"))
                if len(word) >= MIN_WORD_CHARS and word.isalpha() and word.isascii():
                    out.append(word)
                    if len(out) >= PRIOR_WORDS:
                        break
    except (OSError, ValueError, ModelError) as exc:  # no model built: the graph's words alone judge
        logger.info("the model's vocabulary is unavailable to judge words: %s", exc)
        return ()
    return tuple(out)


def letter_model(db: Database, rows: int) -> LetterModel | None:
    """The graph's letter model, made again when its vocabulary was read again or its size (``rows``) moved
    by more than 1 %; None if unreadable."""
    lex = lexicon.lexicon(db)
    readings = lex.readings if lex is not None else 0
    cached = _cache.get(db)
    if cached is not None and cached[0] == readings and abs(cached[1] - rows) <= rows // 100:
        return cached[2]
    try:
        words = _vocabulary(db)
        if len(words) < PRIOR_WORDS:
            words += prior_words()[: PRIOR_WORDS - len(words)]
        model = build_model(words)
    except apsw.Error as exc:
        logger.info("the full-text vocabulary is unavailable: %s", exc)
        return None
    _cache[db] = (readings, rows, model)
    return model


def is_word(term: str, model: LetterModel | None) -> bool:
    """True unless the term is a fragment or its letters are nearer to random than to the graph's words.

    Numbers and terms with digits are identifiers, not words to judge by their letters.
    """
    if not term.isalpha():
        return True
    if len(term) < MIN_WORD_CHARS:
        return False
    return model is None or model.score(term) >= model.threshold


def readable(db: Database, terms: list[str], rows: int) -> bool:
    """True when at least one of the query's terms is a word (see ``is_word``)."""
    if any(not t.isalpha() for t in terms):
        return True
    if all(len(t) < MIN_WORD_CHARS for t in terms):
        return False
    model = letter_model(db, rows)
    return any(is_word(t, model) for t in terms)


def literal_holders(db: Database, terms: list[str], unfinished: bool, k: int) -> set[int]:
    """Entities holding every one of these terms as written (the last one as a prefix when ``unfinished``).

    For a query of no words ("qqq xq") the letters themselves are all there is: a hit must hold
    all of them, not one ("xq" alone is the start of "Xq13.3").
    """
    if not terms:
        return set()
    parts = [f'"{t}"' for t in terms]
    if unfinished:
        parts[-1] = f'("{terms[-1]}" OR "{terms[-1]}"*)'
    expr = f"{RAW_COLUMNS} : ({' AND '.join(parts)})"
    try:
        return {r[0] for r in db.execute("SELECT rowid FROM entity_fts WHERE entity_fts MATCH ? LIMIT ?", (expr, k))}
    except apsw.SQLError as exc:  # never expected: the expression is built from quoted tokens
        logger.warning("full-text query %r failed: %s", expr, exc)
        return set()
