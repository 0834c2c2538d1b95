"""Query terms too common to weigh anything in BM25 on a large graph, found from the index's vocabulary."""

from __future__ import annotations

import logging
import weakref
from typing import TYPE_CHECKING

import apsw

from limbic.engine.graph import signal_memory
from limbic.engine.search import lexicon

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

logger = logging.getLogger(__name__)

# A term held by more than half the entities has no weight in FTS5's BM25 (its IDF is floored at
# 1e-6), yet every row holding it is scored. Once such terms would have the branch score more than
# FLAT_ROWS rows they are left out of the query: the ranking of every entity matching one of the
# other terms is unchanged, and the scoring of tens of thousands of rows at zero is gone. A query
# made only of such terms has nothing for BM25 to rank by (the scores that remain differ by
# millionths, and standardising them would turn that noise into a vote): the meaning branch answers
# it alone, exact names still count, and without a model the text branch keeps every term. Below
# 2 x FLAT_ROWS entities nothing changes.
FLAT_ROWS = 20_000


def text_rows(db: Database) -> int:
    """How many entities the full-text index holds (0 if it cannot tell).

    Counted again only after a write other than this connection's recording of searches (the count
    is kept with the signals, ``signal_memory``; counting takes a millisecond at 100,000 entities).
    """
    memory = None if db.in_transaction else signal_memory.memory(db)
    if memory is not None:
        memory.refresh(db)
        if memory.rows is not None:
            return memory.rows
    try:
        rows = int(db.scalar("SELECT count(*) FROM entity_fts_docsize") or 0)
    except apsw.Error:
        return 0
    if memory is not None:
        memory.rows = rows
    return rows


def doc_frequencies(db: Database, terms: list[str], rows: int) -> dict[str, int]:
    """How many entities hold each term, on a graph of at least 2 x ``FLAT_ROWS`` (else empty).

    Read from the graph's vocabulary (``lexicon``), which is read once and follows the change log.
    """
    if rows < 2 * FLAT_ROWS or not terms:
        return {}
    lex = lexicon.lexicon(db)
    if lex is None:
        return {}
    return {t: lex.doc(t) for t in terms}


def flat_terms(frequencies: dict[str, int], rows: int) -> frozenset[str]:
    """The query terms with no BM25 weight worth their cost: each in more than half the ``rows``,
    together in more than ``FLAT_ROWS`` rows."""
    flat = [t for t, df in frequencies.items() if df * 2 > rows]
    if sum(frequencies[t] for t in flat) <= FLAT_ROWS:
        return frozenset()
    return frozenset(flat)


# A query word is searched as its English and its Spanish stem, in the stem columns. On a large
# graph in one language the other stem is often a word no entity holds as a stem (the Spanish
# stem of "early" is "early", which English text holds only as written, its stem being "earli"):
# such a stem matches no row, yet FTS5 walks its posting list to find that out, and BM25 counts it
# once more. Leaving it out changes no score. That a stem is absent holds only while the graph is
# unchanged (a new note may hold it); a stem found present stays searched.
STEM_COLUMN_NAMES = ("stem_name", "stem_text")
# A long session's distinct stems are forgotten past this many (each is looked up again once).
MAX_KNOWN_STEMS = 20_000
_absent_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def absent_stems(db: Database, stems: list[str], rows: int) -> frozenset[str]:
    """The stems no entity holds in the stem columns, on a graph of at least 2 x ``FLAT_ROWS`` (else none)."""
    if rows < 2 * FLAT_ROWS or not stems:
        return frozenset()
    try:
        version = (db.data_version(), db.conn.total_changes())
    except apsw.Error:
        return frozenset()
    cache = _absent_cache.get(db)
    if cache is None or len(cache[1]) > MAX_KNOWN_STEMS:
        cache = _absent_cache[db] = (version, {})
    elif cache[0] != version:
        cache = _absent_cache[db] = (version, {s: True for s, held in cache[1].items() if held})
    known: dict[str, bool] = cache[1]
    wanted = sorted({s for s in stems if s not in known})
    if wanted:
        try:
            db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.limbic_fts_columns USING fts5vocab(main, entity_fts, 'col')")
            held = {t for (t,) in db.execute(
                f"SELECT DISTINCT term FROM temp.limbic_fts_columns WHERE term IN ({','.join('?' * len(wanted))}) "
                f"AND col IN ({','.join('?' * len(STEM_COLUMN_NAMES))})", [*wanted, *STEM_COLUMN_NAMES])}
        except apsw.Error as exc:
            logger.info("the stem columns' vocabulary is unavailable: %s", exc)
            return frozenset()
        for s in wanted:
            known[s] = s in held
    return frozenset(s for s in stems if not known[s])
