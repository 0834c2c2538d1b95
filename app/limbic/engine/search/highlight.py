"""Where a result's text matches the query, compared the way full-text search compares words.

FTS5's unicode61 tokenizer ignores case and accents, so "medico" finds "Médico": the
highlighting must see the same match. Terms and text are folded (case and accents), matched,
and the spans mapped back to the original text.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from limbic.engine.text.stopwords import fold, is_stopword

_WORD = r"[^\W_]"


def _fold_with_map(text: str) -> tuple[str, list[int]]:
    """The folded text and, for each of its characters, the index of the original one."""
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        if ch.isascii():
            f = ch.lower()
        else:
            f = "".join(c for c in unicodedata.normalize("NFKD", ch.casefold()) if not unicodedata.combining(c))
        out.append(f)
        where.extend([i] * len(f))
    return "".join(out), where


@lru_cache(maxsize=64)
def _pattern(terms: tuple[str, ...]) -> re.Pattern[str] | None:
    """Whole words for every informative term; the last one also as a prefix (it may be half typed)."""
    folded = [fold(t) for t in terms if t]
    useful = [t for t in dict.fromkeys(folded) if t and not is_stopword(t)]
    if not useful:
        return None
    last = folded[-1] if folded and folded[-1] in useful else None
    words = [re.escape(t) + rf"(?!{_WORD})" for t in useful if t != last]
    if last:
        words.append(re.escape(last) + rf"{_WORD}*")
    words.sort(key=len, reverse=True)
    return re.compile(rf"(?<!{_WORD})(" + "|".join(words) + ")")


def match_spans(text: str, terms: list[str]) -> list[tuple[int, int]]:
    """(start, end) of each place in ``text`` where a query term matches, in order."""
    pattern = _pattern(tuple(terms))
    if pattern is None or not text:
        return []
    folded, where = _fold_with_map(text)
    spans = []
    for m in pattern.finditer(folded):
        if m.end() > m.start():
            spans.append((where[m.start()], where[m.end() - 1] + 1))
    return spans


def matched_terms(text: str, terms: list[str]) -> set[str]:
    """The distinct folded words of ``text`` that a query term matched."""
    return {fold(text[a:b]) for a, b in match_spans(text, terms)}
