"""A query read once: its words, the words the text branch searches, their stems and what its text says of itself.

Every step of a search (the text branch, the exact matches, the cross-language probe, the check
that the query holds a word) needs some of this; each used to split the text again. A ``Query`` is
made once at the top of a search and handed down, so every step sees the same reading.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING

from limbic.engine.search import readable as readable_words
from limbic.engine.text import stemming
from limbic.engine.text.stopwords import content_terms
from limbic.engine.text.time_expressions import TimeMatch, find_time

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

# unicode61 splits on everything that is not a letter, a number or private use: so do we.
_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
# The word a text ends inside, if it ends inside one.
_OPEN_WORD = re.compile(r"[^\W_]+\Z", re.UNICODE)
_UNSAFE = re.compile("[\x00\ud800-\udfff]")
# Terms kept for highlighting and exact matching.
MAX_QUERY_TOKENS = 64
# Terms the full-text branch ORs together: measured on long queries (README, "How search works").
MAX_FTS_TERMS = 64
MAX_QUERY_CHARS = 2_000
# How far back from its end a text is looked at for the word it ends inside.
OPEN_WORD_CHARS = 100
# A short query with digits or joined words ("LMB-1042", "Session 2026-03-28") is an identifier:
# entities holding it as an exact phrase rank above the rest.
_IDENTIFIER = re.compile(r"\d|[^\W_][-_:./#@][^\W_]", re.UNICODE)
MAX_IDENTIFIER_TOKENS = 6
# A question names its time in a few words; in a pasted passage a date is what it is about, not when to
# look. Measured on the tuning collections: the longest question naming a time has 25 words, the
# shortest ArguAna argument holding a date 73 (docs/search.md, "Questions that name a time").
MAX_TIME_QUERY_WORDS = 48


def clean_query(query: object) -> str:
    """Any text a user can type, made safe to encode: broken surrogates and NULs become spaces."""
    if not isinstance(query, str):
        return ""
    return _UNSAFE.sub(" ", query[: MAX_QUERY_CHARS * 5])


def split(text: str) -> list[str]:
    """The words of ``text`` (its first ``MAX_QUERY_CHARS``) as FTS5's unicode61 sees them, lower case, in order."""
    return [tok.lower() for tok in _TOKEN.findall(unicodedata.normalize("NFKC", text[:MAX_QUERY_CHARS]))]


def normalise_name(text: str) -> str:
    """A name as names compare: without case and extra spaces."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


@dataclass(frozen=True)
class Query:
    """What a search learns from reading its text, once (``Query.read``)."""

    text: str  # the text as typed, made safe (``clean_query``)
    words: tuple[str, ...]  # every word of its first MAX_QUERY_CHARS, in order, repeats kept
    terms: tuple[str, ...]  # its distinct words, at most MAX_QUERY_TOKENS: highlighting, exact matches
    content: tuple[str, ...]  # the terms the text branch searches (``fts_terms``)
    stems: tuple[tuple[str, ...], ...]  # each content term's stems, English then Spanish (one when they agree)
    open_word: str | None  # the word the text (its first MAX_QUERY_CHARS) ends inside, lower case, as typed
    ends_in_word: bool  # the whole text's last character is part of a word: that word may be unfinished
    identifier: bool  # a short query with digits or joined words: held as an exact phrase, it ranks first
    name_key: str  # the text as names compare (``normalise_name``)
    time: TimeMatch | None = None  # the time it names, read relative to the time of asking
    _readable: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def read(cls, query: object, now: datetime | None = None) -> Query:
        """Read a query's text once: everything the steps of a search need from it (``now``: the time of asking)."""
        text = clean_query(query)
        words = split(text)
        distinct = list(dict.fromkeys(words))
        terms = tuple(distinct[:MAX_QUERY_TOKENS])
        content = tuple(content_terms(distinct)[:MAX_FTS_TERMS])
        capped = text[:MAX_QUERY_CHARS]
        tail = _OPEN_WORD.search(capped[-OPEN_WORD_CHARS:])
        return cls(
            text=text,
            words=tuple(words),
            terms=terms,
            content=content,
            stems=tuple(tuple(stemming.query_stems(t)) for t in content),
            open_word=tail.group().lower() if tail else None,
            ends_in_word=bool(text) and _TOKEN.fullmatch(text[-1]) is not None,
            identifier=bool(_IDENTIFIER.search(text)) and 1 <= len(terms) <= MAX_IDENTIFIER_TOKENS,
            name_key=normalise_name(text),
            time=find_time(capped, now or datetime.now().astimezone()) if len(words) <= MAX_TIME_QUERY_WORDS else None,
        )

    @property
    def capped(self) -> str:
        """The text the model encodes: its first MAX_QUERY_CHARS, without the time it names.

        The model does not read dates (a vector for "16 June, 2023" is near every dated text): the
        time is matched against when things happened instead. A query that is nothing but a time
        keeps its words, or nothing would be left to encode.
        """
        if self.time is not None and _TOKEN.search(self.time.rest):
            return self.time.rest
        return self.text[:MAX_QUERY_CHARS]

    @cached_property
    def language(self) -> str:
        """The language its own common words tell ("en" or "es"), as the notes' language is told."""
        if len(self.text) <= MAX_QUERY_CHARS:
            return stemming.language(self.words)
        return stemming.language(stemming.words(self.text))  # the guess reads past the words kept

    def readable(self, db: Database, rows: int) -> bool:
        """True when one of the content terms is a word (``readable.readable``), judged once per graph."""
        key = (id(db), rows)
        if key not in self._readable:
            self._readable[key] = readable_words.readable(db, list(self.content), rows)
        return self._readable[key]


def as_query(query: str | Query, now: datetime | None = None) -> Query:
    """The query read (a text is read here, relative to ``now``; a query already read is kept)."""
    return query if isinstance(query, Query) else Query.read(query, now)


def query_terms(query: str | Query, cap: int = MAX_QUERY_TOKENS) -> list[str]:
    """The query's word tokens as FTS5's unicode61 would see them (deduplicated, capped)."""
    if isinstance(query, Query) and cap == MAX_QUERY_TOKENS:
        return list(query.terms)
    text = query.text if isinstance(query, Query) else query
    return list(dict.fromkeys(split(text)))[:cap]


def fts_terms(query: str | Query) -> list[str]:
    """The terms the full-text branch searches: words that carry information, in query order.

    Common words ("when", "the", "de", "und"...) are left out, or a note that only shares
    "when" with the query would rank as a text match; a query made of nothing else keeps them.
    """
    return list(as_query(query).content)
