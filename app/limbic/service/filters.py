"""Filters over the graph's entities: type, relation type, status, updated and created dates, words.

A ``SearchFilter`` narrows a search (``filtered_search``) or the browser's list (``browse``) in the
query itself: the search looks deeper when a filter is on, keeps only the candidates the filter's
SQL matches and then cuts to the limit, so a filter never just hides rows of a short list.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, fields, replace
from datetime import date, datetime, timedelta

from limbic.engine.graph import signals
from limbic.engine.errors import ValidationError
from limbic.engine.graph.graph import Graph
from limbic.engine.graph.graph_history import STATUSES  # noqa: F401 - the UI offers these
from limbic.engine.search.scoring import ScoringParams
from limbic.engine.search.search import MAX_LIMIT, SearchResponse, search
from limbic.engine.text import moments_ago
from limbic.engine.text.time_expressions import find_time
from limbic.service import catching_up
from limbic.service import organise

logger = logging.getLogger(__name__)

FILTER_DEPTH = 10  # a filtered search looks this many times deeper than it shows
MIN_DEPTH = 200
BROWSE_VIEWS = ("all", "pinned", "recent")
RECENT_LIMIT = 50


@dataclass(frozen=True)
class SearchFilter:
    """What a list is narrowed to; empty fields narrow nothing. Dates are ``YYYY-MM-DD`` or what a person
    says of a time ("last week", "en marzo", ``resolve``), both ends included."""

    entity_type: str = ""
    relation_type: str = ""  # the entity has an active relation of this type, either way
    status: str = ""
    updated_from: str = ""
    updated_to: str = ""
    created_from: str = ""
    created_to: str = ""
    text: str = ""  # every word in the name or an observation (the browser's text filter)

    def is_empty(self) -> bool:
        """True when the filter narrows nothing."""
        return not any(getattr(self, f.name) for f in fields(self))

    def narrows_search(self) -> bool:
        """True when it needs more than the search's own type and status filters."""
        return any((self.relation_type, self.updated_from, self.updated_to, self.created_from, self.created_to,
                    self.text))

    def describe(self) -> str:
        """A short phrase for the status bar: "type Person, status active, updated from 2026-01-01"."""
        parts = []
        for label, value in (("type", self.entity_type), ("relation", self.relation_type), ("status", self.status),
                             ("words", self.text)):
            if value:
                parts.append(f"{label} {value}")
        for label, start, end in (("updated", self.updated_from, self.updated_to),
                                  ("created", self.created_from, self.created_to)):
            if start and end:
                parts.append(f"{label} {start} to {end}")
            elif start or end:
                parts.append(f"{label} {'from ' + start if start else 'until ' + end}")
        return ", ".join(parts)


def day_bound(value: str, side: str, what: str = "", now: datetime | None = None) -> str:
    """A range's end as ``YYYY-MM-DD`` ("" when open): a date, or a time expression's first day (``side``
    "from") or last day ("to"), read relative to ``now``; anything else is refused with a sentence."""
    value = value.strip()
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        pass
    now = now or datetime.now().astimezone()
    back = moments_ago.ago(value)
    if back is not None:  # "10 minutes ago", "hace una hora": the day that moment fell on
        return (now - back).date().isoformat()
    found = find_time(value, now)
    # The whole text must be the time: "report last week" is words, not a date.
    if found is None or found.rest.strip(" ,.;:¿?¡!"):
        raise ValidationError(f"The {what} date “{value}” is not a date like 2026-04-30 or a time like "
                              "“last week”, “en marzo” or “10 minutes ago”.")
    day = found.start if side == "from" else (found.end - timedelta(days=1) if found.end is not None else None)
    return day.isoformat() if day is not None else ""


def resolve(flt: SearchFilter, now: datetime | None = None) -> SearchFilter:
    """The filter with every date written as ``YYYY-MM-DD``: "last week" as updated-from becomes its Monday,
    as updated-until its Sunday (relative to ``now``, the time of asking)."""
    changes = {}
    for name in ("updated_from", "updated_to", "created_from", "created_to"):
        value = getattr(flt, name)
        if value:
            what, side = name.split("_")
            changes[name] = day_bound(value, side, f"{what}-{'from' if side == 'from' else 'until'}", now)
    return replace(flt, **changes) if changes else flt


def check(flt: SearchFilter) -> None:
    """Refuse a filter that cannot mean anything, with a sentence (unknown status, a range that ends first)."""
    flt = resolve(flt)
    if flt.status and flt.status not in STATUSES:
        raise ValidationError(f"A status filter is one of {', '.join(STATUSES)}, not “{flt.status}”.")
    for what, start, end in (("updated", flt.updated_from, flt.updated_to), ("created", flt.created_from, flt.created_to)):
        first = date.fromisoformat(start) if start else None  # resolved above: dates, or "" for an open side
        last = date.fromisoformat(end) if end else None
        if first and last and first > last:
            raise ValidationError(f"The {what} range ends ({end}) before it starts ({start}).")


def _like(word: str) -> str:
    return "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def where_sql(flt: SearchFilter) -> tuple[str, list]:
    """The filter as SQL conditions over ``entities e`` ("" for none) and their parameters."""
    check(flt)
    flt = resolve(flt)
    conditions: list[str] = []
    params: list = []
    if flt.entity_type:
        conditions.append("e.entity_type = ?")
        params.append(flt.entity_type)
    if flt.status:
        conditions.append("e.status = ?")
        params.append(flt.status)
    if flt.relation_type:
        conditions.append("EXISTS (SELECT 1 FROM relations r WHERE r.active = 1 AND r.relation_type = ? "
                          "AND (r.from_entity = e.id OR r.to_entity = e.id))")
        params.append(flt.relation_type)
    for column, start, end in (("updated_at", flt.updated_from, flt.updated_to),
                               ("created_at", flt.created_from, flt.created_to)):
        if start:
            conditions.append(f"e.{column} >= ?")  # stored as "YYYY-MM-DD HH:MM:SS" UTC: text order is time order
            params.append(start)
        if end:
            conditions.append(f"e.{column} < date(?, '+1 day')")
            params.append(end)
    for word in flt.text.split():
        conditions.append("(e.name LIKE ? ESCAPE '\\' OR EXISTS (SELECT 1 FROM observations o "
                          "WHERE o.entity_id = e.id AND o.content LIKE ? ESCAPE '\\'))")
        params += [_like(word), _like(word)]
    return " AND ".join(conditions), params


def matching_ids(graph: Graph, flt: SearchFilter, ids: list[int]) -> set[int]:
    """Which of ``ids`` the filter keeps."""
    if not ids:
        return set()
    where, params = where_sql(flt)
    marks = ",".join("?" * len(ids))
    sql = f"SELECT e.id FROM entities e WHERE e.id IN ({marks})" + (f" AND {where}" if where else "")
    return {row[0] for row in graph.db.execute(sql, [*ids, *params])}


def filtered_search(graph: Graph, query: str, flt: SearchFilter | None = None, limit: int = 10,
                    params: ScoringParams | None = None, branches: str = "both", record: bool = False) -> SearchResponse:
    """The engine's search narrowed by ``flt``; ``record`` counts the results shown as used."""
    flt = flt or SearchFilter()
    check(flt)
    branches = catching_up.branches_for(graph, branches)  # words alone while most entities wait for a vector
    entity_type, status = flt.entity_type or None, flt.status or None
    if not flt.narrows_search():
        return search(graph, query, limit, record=record, params=params, entity_type=entity_type, status=status,
                      branches=branches)
    depth = min(MAX_LIMIT, max(limit * FILTER_DEPTH, MIN_DEPTH))
    response = search(graph, query, depth, record=False, params=params, entity_type=entity_type, status=status,
                      branches=branches)
    keep = matching_ids(graph, flt, [r.entity_id for r in response.results])
    response.results = [r for r in response.results if r.entity_id in keep][:limit]
    if not response.results and query.strip():
        response.no_match = True
    if record and response.results:
        signals.record_access(graph.db, [r.entity_id for r in response.results])
    return response


@dataclass
class BrowserCounts:
    """The browser's left column: every type with its count, and how many are pinned and recently opened."""

    types: list[tuple[str, int]]
    pinned: int
    recent: int


def browser_counts(graph: Graph) -> BrowserCounts:
    """Counts for the browser's sections (read-only)."""
    recent = graph.db.one("SELECT count(*) FROM (SELECT 1 FROM entity_access WHERE last_access IS NOT NULL LIMIT ?)",
                          (RECENT_LIMIT,))
    return BrowserCounts(organise.type_counts(graph), len(organise.pinned_ids(graph)), recent[0] if recent else 0)


def browse(graph: Graph, flt: SearchFilter | None = None, sort: str = "name", view: str = "all",
           limit: int = 5000) -> list[organise.Item]:
    """The browser's list: all, pinned or recently opened entities, narrowed by ``flt``, sorted.

    "recent" lists the last opened first whatever ``sort`` says (that is what recent means).
    """
    flt = flt or SearchFilter()
    if view not in BROWSE_VIEWS:
        raise ValidationError(f"The browser shows {', '.join(BROWSE_VIEWS)}, not “{view}”.")
    if sort not in organise.SORTS:
        raise ValidationError(f"Entities can be sorted by {', '.join(organise.SORTS)}.")
    where, params = where_sql(flt)
    conditions = [where] if where else []
    order = {"name": "e.name COLLATE NOCASE", "date": "e.updated_at DESC, e.id DESC",
             "importance": "coalesce(a.access_count, 0) DESC, 6 DESC, e.name COLLATE NOCASE"}[sort]
    if view == "pinned":
        if not graph.db.has_table("pins"):
            return []
        conditions.append("e.id IN (SELECT entity_id FROM pins)")
    elif view == "recent":
        conditions.append("a.last_access IS NOT NULL")
        order, limit = "a.last_access DESC, e.id DESC", min(limit, RECENT_LIMIT)
    clause = ("WHERE " + " AND ".join(conditions)) if conditions else ""
    return organise.items(graph, clause, order, tuple(params), limit)
