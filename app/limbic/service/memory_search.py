"""Limbic's hybrid ``search`` as the MCP tool answers it: the seed's shape, with bounded text."""

from __future__ import annotations

import math
from typing import Any

from limbic.engine.errors import ValidationError
from limbic.engine.graph import signals
from limbic.engine.store import visibility
from limbic.engine.graph.graph import Graph
from limbic.engine.search.scoring import ScoringParams
from limbic.service import memory_args as A

MAX_SEARCH_LIMIT = 100  # results of one `search`
DEFAULT_SEARCH_LIMIT = 10
SEARCH_OBSERVATION_CHARS = 500  # `search`: one observation is cut past this many characters
SEARCH_RESULT_CHARS = 2_000  # ... one result's observations past this many in all
SEARCH_RESPONSE_CHARS = 20_000  # ... and one answer's observations past this many in all


def search(
    graph: Graph,
    query: Any,
    limit: Any = None,
    since: Any = None,
    until: Any = None,
    *,
    record: bool = True,
    params: ScoringParams | None = None,
    model_error: str | None = None,
) -> dict:
    """Limbic's hybrid search in the seed's shape (mode, results with limbic_score, scoring, distance, rrf_score).

    ``record`` counts the returned entities as accessed together (README: when a search counts
    as an access). Without a model the mode is ``fts`` and ``note`` says why. Long observations
    are cut (``SEARCH_*_CHARS``): a cut result has ``"truncated": true``, and open_nodes gives it whole.
    """
    from limbic.engine.search.search import search as hybrid_search

    text = A.query_arg(query)
    limit = A.int_arg(limit, "limit", DEFAULT_SEARCH_LIMIT, 1, MAX_SEARCH_LIMIT)
    if since is None and until is None:
        if visibility.narrowed(graph.db):
            response = _narrowed_search(graph, text, limit, record, params)
        else:
            response = hybrid_search(graph, text, limit, record=record, params=params)
    else:
        from limbic.service.filters import SearchFilter, day_bound, filtered_search

        # Since: changed on or after that day; until: already there by that day ("last week", "en marzo").
        flt = SearchFilter(updated_from=day_bound(_time_arg(since, "since"), "from", "since") if since is not None else "",
                           created_to=day_bound(_time_arg(until, "until"), "to", "until") if until is not None else "")
        response = filtered_search(graph, text, flt, limit, params=params, record=record)
    out = response.to_json()
    notes = []
    if response.mode == "fts":
        reason = model_error or "no embedding model is loaded"
        notes.append(f"Semantic search is off ({reason.rstrip('.')}); results come from full text only.")
    if _bound(out["results"]):
        notes.append("Long observations were cut (results marked “truncated”); open_nodes returns those entities whole.")
    if notes:
        out["note"] = " ".join(notes)
    return out


def _narrowed_search(graph: Graph, text: str, limit: int, record: bool, params: ScoringParams | None):
    """A search on a connection narrowed to what an assistant may read (engine/store/visibility.py).

    Hidden hits are dropped as the results are read (the entity is missing). It asks for more than
    ``limit`` by the part of the graph hidden, and half again, so the ``limit`` best it may see are
    nearly always among them; when fewer are left, it runs again four times deeper (not when it may
    see no entity at all: there is nothing deeper to find).
    """
    from limbic.engine.search.search import MAX_LIMIT
    from limbic.engine.search.search import search as hybrid_search

    share = visibility.hidden_share(graph.db)
    depth = min(MAX_LIMIT, math.ceil(limit * 1.5 / (1 - share))) if 0 < share < 1 else limit
    while True:
        dropped = _Dropped(graph)
        try:
            response = hybrid_search(graph, text, depth, record=False, params=params)
        finally:
            dropped.restore()
        if not dropped.count or len(response.results) >= limit or depth >= MAX_LIMIT or share >= 1:
            break
        depth = min(MAX_LIMIT, depth * 4)
    response.results = response.results[:limit]
    if record and response.results:
        signals.record_access(graph.db, [r.entity_id for r in response.results])
    return response


class _Dropped:
    """Counts the entities a search asked for and did not get (hidden from the connection) while it runs."""

    def __init__(self, graph: Graph) -> None:
        self.graph, self.count = graph, 0
        real = graph.entities_by_ids

        def counting(ids):
            found = real(ids)
            self.count += len(set(ids)) - len(found)
            return found

        graph.entities_by_ids = counting  # this graph object only, for this search

    def restore(self) -> None:
        del self.graph.entities_by_ids


def _time_arg(value: Any, name: str) -> str:
    """A ``since``/``until`` argument: a text, or a sentence saying what it must be."""
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(f"“{name}” is a date like 2026-04-30 or a time like “last week”.")
    return value


def _bound(results: list[dict]) -> bool:
    """Cut each result's observations to the per-result and per-answer budgets; True if any was cut."""
    left = SEARCH_RESPONSE_CHARS
    cut_any = False
    for item in results:
        room = min(SEARCH_RESULT_CHARS, left)
        kept: list[str] = []
        cut = False
        for ob in item["observations"]:
            if room <= 0:
                cut = True
                break
            piece = ob[: min(SEARCH_OBSERVATION_CHARS, room)]
            if len(piece) < len(ob):
                piece, cut = piece.rstrip() + "…", True
            kept.append(piece)
            room -= len(piece)
        left -= sum(len(k) for k in kept)
        item["observations"] = kept
        if cut:
            item["truncated"] = True
            cut_any = True
    return cut_any
