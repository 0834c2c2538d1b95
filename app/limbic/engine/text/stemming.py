"""Word stems for the full-text index, in the language the text is written in (English or Spanish).

"backups" and "backup", "copias" and "copia" are one word to a reader; to FTS5's unicode61 they
are two. Each entity's full-text row therefore also holds its words' Snowball stems, and the text
branch searches the stems. Porter's English rules mangle Spanish ("seguridad" stays, but
"bolígrafos" and "bolígrafo" part), so the language is told cheaply from the text itself: which
language's common words it uses (stopwords.py). A text that uses neither (a name, a short label)
is taken as English; a query always searches both stems, since a few words say too little of
their language.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache

import snowballstemmer

from limbic.engine.text.stopwords import BY_LANGUAGE

# Bumped whenever the stems an index holds would change: a graph indexed otherwise is re-indexed once.
STEMMER_VERSION = "snowball-en-es-1"
LANGS = ("en", "es")
_STEMMERS = {"en": snowballstemmer.stemmer("english"), "es": snowballstemmer.stemmer("spanish")}
# As FTS5's unicode61 splits: every run of letters and digits is a word.
_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
# ASCII text split as _TOKEN splits it, faster: A-Z to lower case, what is neither a letter nor a digit to a space.
_ASCII_WORDS = str.maketrans({chr(c): chr(c).lower() if chr(c).isalnum() else " " for c in range(128)})
# Words common in one language and not the other: what tells them apart.
_EN_ONLY = BY_LANGUAGE["en"] - BY_LANGUAGE["es"]
_ES_ONLY = BY_LANGUAGE["es"] - BY_LANGUAGE["en"]
# FTS5 column filters: the text as written, and its stems (which the text branch searches).
RAW_COLUMNS = "{name entity_type obs_text}"
STEM_COLUMNS = "{stem_name stem_text}"
# Enough of a long text to tell its language; the rest is not read for that.
DETECT_WORDS = 400


@lru_cache(maxsize=200_000)
def _fold(word: str) -> str:
    if word.isascii():
        return word  # nothing to take off (most words): the one cost is this check
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@lru_cache(maxsize=200_000)
def stem(word: str, lang: str) -> str:
    """The Snowball stem of one lower-case word (digits and one-letter words are kept as they are)."""
    if len(word) < 3 or not word.isalpha():
        return word
    return _STEMMERS[lang].stemWord(word)


def words(text: str) -> list[str]:
    """The text's words as the full-text index splits them, lower case."""
    if text.isascii():  # NFKC leaves ASCII as it is: its letters and digits, lower case, are the words
        return text.translate(_ASCII_WORDS).split()
    return [w.lower() for w in _TOKEN.findall(unicodedata.normalize("NFKC", text))]


def language(tokens: Iterable[str]) -> str:
    """"es" for a text that uses more of Spanish's common words than of English's, else "en"."""
    en = es = 0
    for n, w in enumerate(tokens):
        if n >= DETECT_WORDS:
            break
        f = _fold(w)
        en += f in _EN_ONLY
        es += f in _ES_ONLY
    return "es" if es > en else "en"


def _language_of(tokens: list[str], ascii_only: bool) -> str:
    """``language(tokens)`` of a list, counted in C (an ASCII word needs no folding)."""
    head = tokens[:DETECT_WORDS]
    folded = head if ascii_only else list(map(_fold, head))
    return "es" if sum(map(_ES_ONLY.__contains__, folded)) > sum(map(_EN_ONLY.__contains__, folded)) else "en"


class _Stems(dict):
    """``stem(word, lang)`` of one language, as a dict read in C; emptied when it grows past the cache's size."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def __missing__(self, word: str) -> str:
        if len(self) >= STEM_CACHE:
            self.clear()
        out = self[word] = stem(word, self.lang)
        return out


STEM_CACHE = 200_000
_BY_LANG = {lang: _Stems(lang) for lang in LANGS}


def _column_words(parts: Sequence[str]) -> tuple[list[str], bool]:
    """``words`` of each part, in order, and whether all of them are ASCII (then split in one pass: a space
    joining two parts ends a word as the end of a text does)."""
    joined = " ".join(parts)
    if joined.isascii():
        return joined.translate(_ASCII_WORDS).split(), True
    return [w for part in parts for w in words(part)], False


def stem_columns(name: str, entity_type: str, observations: Sequence[str],
                 aliases: Sequence[str] = ()) -> tuple[str, str]:
    """What an entity's two stem columns hold: its names' (the name and its aliases) and its other text's
    words as stems of the language its text is written in (English when it does not say: a name alone)."""
    head, head_ascii = _column_words((name, *aliases))
    body, body_ascii = _column_words((entity_type, *observations))
    lang = _language_of(body + head if len(body) < DETECT_WORDS else body, head_ascii and body_ascii)
    stems = _BY_LANG[lang]
    return " ".join(map(stems.__getitem__, head)), " ".join(map(stems.__getitem__, body))


def query_stems(term: str) -> list[str]:
    """The stems one query word is searched as: its English and its Spanish stem (one when they agree).

    Both, since a few words say too little of their language; the stem of the other language
    only meets words that this language's stemmer would have cut the same way.
    """
    out: list[str] = []
    for lang in LANGS:
        s = stem(term, lang)
        if s not in out:
            out.append(s)
    return out
