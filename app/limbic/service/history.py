"""The graph as it was: a past moment's graph, one entity then, and what changed between two dates."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import IO

from limbic.engine.errors import NotFoundError
from limbic.engine.formats.jsonl import iter_export_lines
from limbic.engine.graph.graph import Graph
from limbic.engine.history import asof, diff as _diff, moments
from limbic.engine.store import values


def moment(graph: Graph, text: str) -> str:
    """``text`` read as a moment this graph's history can answer for (one sentence if it cannot)."""
    return moments.checked_moment(graph.db, text)


def history_start(graph: Graph) -> str | None:
    """The earliest moment the graph's recorded history reaches (None: the file keeps none)."""
    return moments.history_start(graph.db)


@contextlib.contextmanager
def graph_as_of(graph: Graph, when: str) -> Iterator[Graph]:
    """The graph as it was at ``when`` (a date as a person writes it), in memory, for the block's duration."""
    past = asof.graph_at(graph.db, moment(graph, when))
    try:
        yield past
    finally:
        past.db.close()


def export_as_of(graph: Graph, when: str, out: IO[str]) -> int:
    """Write the graph of ``when`` as JSONL, exactly as an export made then would have; the number of lines."""
    n = 0
    with graph_as_of(graph, when) as past:
        for line in iter_export_lines(past):
            out.write(line + "\n")
            n += 1
    return n


def entity_page(graph: Graph, name: str, when: str | None = None) -> dict:
    """One entity as it is (or was at ``when``): type, status, observations, superseded ones, relations and their periods."""
    if when is None:
        return _page(graph, graph, name)
    at = moment(graph, when)
    with graph_as_of(graph, when) as past:
        try:
            page = _page(past, graph, name)
        except NotFoundError:
            raise NotFoundError(f"There was no entity named '{values.shown(name)}' on {when}.") from None
    for rel in page["relations"]:  # the periods as far as that moment knew them
        rel["periods"] = [{"from": p["from"], "until": p["until"] if p["until"] and p["until"] <= at else None}
                          for p in rel["periods"] if p["from"] <= at]
    return page


def _page(source: Graph, live: Graph, name: str) -> dict:
    entity_id = source.resolve(name)
    ent = source.get_entity(entity_id)
    relations = []
    outgoing, incoming = source.relations_of(entity_id, ended=True)
    for rel in outgoing + incoming:
        periods = _diff.relation_periods(live.db, rel.id) if live.db.has_table("history") else []
        relations.append({"from": rel.from_name, "to": rel.to_name, "relationType": rel.relation_type,
                          "active": rel.active, "endedAt": rel.ended_at,
                          "periods": [{"from": a, "until": b} for a, b in periods]})
    return {
        "name": ent.name, "entityType": ent.entity_type, "status": ent.status, "createdAt": ent.created_at,
        "observations": [{"content": o.content, "createdAt": o.created_at} for o in ent.observations if o.current],
        "superseded": [{"content": o.content, "supersededAt": o.superseded_at} for o in ent.superseded],
        "relations": relations,
    }


def search_as_of(graph: Graph, query: str, when: str, limit: int = 10, params=None, status: str = ""):
    """Search the graph of ``when``: its texts then; today's vectors for the entities whose text is unchanged.

    Returns (the response, how many entities were found by their words only because their text changed).
    """
    from limbic.engine.history.past_vectors import borrow_vectors
    from limbic.service.filters import SearchFilter, filtered_search

    with graph_as_of(graph, when) as past:
        left = int(past.db.scalar("SELECT count(*) FROM entities"))
        if graph.embedder is not None:
            _, left = borrow_vectors(graph.db, past, graph.embedder)
        response = filtered_search(past, query, SearchFilter(status=status), limit, params=params, record=False)
    return response, left


def changes_between(graph: Graph, since: str, until: str | None = None) -> list[dict]:
    """What was added, changed, ended and deleted, per entity, between two dates (``until``: now)."""
    start = moment(graph, since)
    end = moment(graph, until) if until is not None else values.now_utc()
    if end < start:
        start, end = end, start
    return [c.to_json() for c in _diff.diff(graph.db, start, end)]
