"""Jump to an entity by name or alias: typo-tolerant matching over every name, recently opened first.

This is the quick switcher's look-up (the window's Ctrl+O / Ctrl+P), a read over the reader's
connection: names are matched with rapidfuzz after folding case and accents, so "marta quintro"
finds "Marta Quintero" and "harbr api" finds "Harbor API".
"""

from __future__ import annotations

import logging
import unicodedata
from dataclasses import dataclass

from rapidfuzz import fuzz, process, utils

from limbic.engine.graph.graph import Graph
from limbic.engine.search.highlight import match_spans, matched_terms  # noqa: F401  (the results list marks the words a query matched)

logger = logging.getLogger(__name__)

SWITCHER_LIMIT = 30
MIN_SCORE = 55.0  # below this a name shares too little with what was typed to be worth showing
RELATIVE_GAP = 30.0  # a name this far below the best match is noise next to it
RECENT_COUNT = 50  # how many recently opened entities get a head start
RECENT_BONUS = 8.0  # the most recently opened one's head start (points out of 100), fading with rank


@dataclass
class NameMatch:
    """One entity the switcher lists."""

    entity_id: int
    name: str
    entity_type: str
    score: float  # rapidfuzz's 0-100, plus the prefix and recency bonuses
    recent: bool = False  # among the recently opened
    alias: str | None = None  # the alias that matched (better than its name): shown as why it is listed


def fold(text: str) -> str:
    """Lower case without accents or punctuation: what two spellings of a name have in common."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return utils.default_process(plain)


def _recent_ranks(graph: Graph) -> dict[int, int]:
    rows = graph.db.execute(
        "SELECT entity_id FROM entity_access WHERE last_access IS NOT NULL "
        "ORDER BY last_access DESC, entity_id DESC LIMIT ?", (RECENT_COUNT,))
    return {row[0]: rank for rank, row in enumerate(rows)}


def _bonus(rank: int | None) -> float:
    return 0.0 if rank is None else RECENT_BONUS * (1.0 - rank / RECENT_COUNT)


def find_entities(graph: Graph, text: str, limit: int = SWITCHER_LIMIT) -> list[NameMatch]:
    """Entities whose name is close to ``text``, best first; an empty ``text`` lists the recently opened."""
    recent = _recent_ranks(graph)
    rows = list(graph.db.execute("SELECT id, name, entity_type FROM entities"))
    query = fold(text)
    if not query:
        by_id = {r[0]: r for r in rows}
        ordered = sorted((i for i in recent if i in by_id), key=recent.__getitem__)
        if len(ordered) < limit:  # a graph never opened yet: its names in order, after the recent ones
            rest = sorted((r for r in rows if r[0] not in recent), key=lambda r: r[1].casefold())
            ordered += [r[0] for r in rest[: limit - len(ordered)]]
        return [NameMatch(i, by_id[i][1], by_id[i][2], 100.0, i in recent) for i in ordered[:limit]]
    # Aliases are matched like names, each standing for its entity ("NYC" finds New York City).
    by_id = {r[0]: r for r in rows}
    texts = [(r[0], r[1], None) for r in rows] + [(i, a, a) for i, a in _aliases(graph) if i in by_id]
    folded = [fold(t[1]) for t in texts]
    # WRatio weighs whole-name, partial and word-order matches; the prefix and substring bonus puts a
    # name that contains what was typed above one that merely resembles it.
    hits = process.extract(query, folded, scorer=fuzz.WRatio, processor=None, score_cutoff=MIN_SCORE,
                           limit=max(limit * 4, 100))
    best_of: dict[int, NameMatch] = {}
    for _name, score, index in hits:
        entity_id, _text, alias = texts[index]
        _, name, entity_type = by_id[entity_id]
        name_folded = folded[index]
        if name_folded.startswith(query):
            score += 6.0
        elif query in name_folded:
            score += 3.0
        rank = recent.get(entity_id)
        match = NameMatch(entity_id, name, entity_type, score + _bonus(rank), rank is not None, alias)
        if entity_id not in best_of or match.score > best_of[entity_id].score:
            best_of[entity_id] = match
    matches = sorted(best_of.values(), key=lambda m: (-m.score, m.name.casefold()))
    best = matches[0].score if matches else 0.0
    return [m for m in matches if m.score >= best - RELATIVE_GAP][:limit]


def _aliases(graph: Graph) -> list[tuple[int, str]]:
    if not graph.db.has_table("entity_aliases"):
        return []  # a read-only file older than aliases
    return [(r[0], r[1]) for r in graph.db.execute("SELECT entity_id, alias FROM entity_aliases")]
