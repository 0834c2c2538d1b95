"""The full-text branch: what it runs for a query (its MATCH expression, near spellings of words the graph
lacks) and running it."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import apsw

from limbic.engine.search import spelling
from limbic.engine.search.flat_terms import absent_stems, doc_frequencies, flat_terms
from limbic.engine.search.query import Query, as_query
from limbic.engine.text import stemming

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

logger = logging.getLogger(__name__)

# Column weights of bm25() (name, type, text, then their stems, which the branch searches): a hit in
# the name counts more than one in a long observation list.
BM25_WEIGHTS = (2.0, 1.0, 1.0, 2.0, 1.0)


def fts_match_expression(query: str | Query, leave_out: frozenset[str] = frozenset(), prefix: bool = True,
                         absent: frozenset[str] = frozenset(), near: tuple[str, ...] = ()) -> str | None:
    """A safe MATCH expression over the stem columns: every term's stems quoted, OR-ed, the last word also as a prefix.

    Operators, quotes and column filters in the user's text are ordinary characters:
    only word tokens reach FTS5, each inside double quotes. ``leave_out``: terms not to search
    (see ``flat_terms``); ``prefix=False``: the last word is taken as finished; ``absent``: stems
    no entity holds (``absent_stems``), which would match nothing; ``near``: near spellings of the
    query's words (``spelling``), searched as their stems too.
    """
    q = as_query(query)
    kept = [(t, stems) for t, stems in zip(q.content, q.stems) if t not in leave_out]
    if not kept:
        return None
    # Each word is searched as its stems ("copias" as copia or copi), in the columns that hold them.
    parts = [f'"{s}"' for _, stems in kept for s in stems if s not in absent]
    # A query still being typed ends inside a word: that word may be unfinished.
    last = kept[-1][0]
    if prefix and q.open_word == last:
        parts.append(f'"{last}"*')
    parts += [f'"{s}"' for w in near for s in stemming.query_stems(w) if f'"{s}"' not in parts]
    if not parts:
        return None
    return f"{stemming.STEM_COLUMNS} : ({' OR '.join(parts)})"


@dataclass
class TextPlan:
    """What the full-text branch will run: its MATCH expression (None: nothing to search), whether it
    was left to meaning (every term flat), and the near spellings of words the graph does not hold
    (``near``: query word → graph words; ``near_expr``: the expression with them added)."""

    expr: str | None
    flat: bool = False
    near: dict[str, tuple[str, ...]] = field(default_factory=dict)
    near_expr: str | None = None


def text_plan(db: Database, query: str | Query, rows: int, meaning: bool, near: bool = True) -> TextPlan:
    """What the text branch runs for this query on a graph of ``rows`` entities (``meaning``: a meaning
    branch runs too; ``near``: look for near spellings of the words the graph does not hold)."""
    q = as_query(query)
    terms = list(q.content)
    frequencies = doc_frequencies(db, terms, rows)
    flat = flat_terms(frequencies, rows)
    if flat and len(flat) == len(terms):
        if meaning:
            return TextPlan(None, flat=True)
        flat = frozenset()
    # On a large graph a last word the index holds is taken as finished: as a prefix ("tea"*) it
    # would also search every longer word (teacher, team...), tens of thousands of rows for a
    # word already found. An unfinished one ("appoi") is still completed.
    prefix = not frequencies or frequencies.get(terms[-1], 0) == 0 if terms else True
    stems = [s for t, ts in zip(q.content, q.stems) if t not in flat for s in ts]
    absent = absent_stems(db, stems, rows)
    expr = fts_match_expression(q, flat, prefix, absent)
    # A word being typed is not misspelt while some word of the graph starts with it ("backu").
    respell = near and len(q.words) <= spelling.MAX_QUERY_WORDS
    near_words = spelling.near_spellings(db, q.content, q.open_word if prefix else None) if respell else {}
    if not near_words:
        return TextPlan(expr)
    words = tuple(w for t in q.content if t in near_words for w in near_words[t])
    return TextPlan(expr, near=near_words, near_expr=fts_match_expression(q, flat, prefix, absent, words))


def run_fts(db: Database, expr: str | None, k: int) -> list[tuple[int, float]]:
    """(entity id, bm25) best first for a MATCH expression."""
    if expr is None:
        return []
    w = BM25_WEIGHTS
    sql = (
        f"SELECT rowid, bm25(entity_fts, {', '.join(map(str, w))}) AS s FROM entity_fts "
        "WHERE entity_fts MATCH ? ORDER BY s LIMIT ?"
    )
    try:
        return [(r[0], float(r[1])) for r in db.execute(sql, (expr, k))]
    except apsw.SQLError as exc:  # never expected: the expression is built from quoted tokens
        logger.warning("full-text query %r failed: %s", expr, exc)
        return []


def run_text(db: Database, plan: TextPlan, k: int) -> list[tuple[int, float]]:
    """The plan's hits, best first: the query as typed, and with near spellings weighed below it."""
    exact = run_fts(db, plan.expr, k)
    if plan.near_expr is None:
        return exact
    return spelling.combine(exact, run_fts(db, plan.near_expr, k), k)
