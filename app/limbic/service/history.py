"""The graph as it was: a past moment's graph, one entity then, and what changed between two dates."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import IO

from limbic.engine.errors import NotFoundError
from limbic.engine.formats.jsonl import iter_export_lines
from limbic.engine.graph.graph import Graph
from limbic.engine.history import asof, diff as _diff, moments, valid
from limbic.engine.store import values, visibility


def moment(graph: Graph, text: str) -> str:
    """``text`` read as a moment this graph's history can answer for (one sentence if it cannot)."""
    return moments.checked_moment(graph.db, text)


def history_start(graph: Graph) -> str | None:
    """The earliest moment the graph's recorded history reaches (None: the file keeps none)."""
    return moments.history_start(graph.db)


@contextlib.contextmanager
def graph_as_of(graph: Graph, when: str | None, valid_at: str | None = None,
                searched: bool = False) -> Iterator[Graph]:
    """The graph as it was recorded at ``when`` (None: now), narrowed to what held in the world at ``valid_at``.

    Both are dates as a person writes them; the graph is in memory, for the block's duration, with
    a full-text index only when it will be ``searched``.
    """
    at = moment(graph, when) if when else values.now_utc()
    if valid_at:
        valid.day_or_moment(valid_at)  # an unreadable date is refused before anything is built
    db = asof.rebuild(graph.db, at, text_index=searched)
    try:
        if valid_at:
            valid.keep_valid_at(db, valid_at)
        past = Graph(db)
        visibility.carry(graph.db, db)  # an assistant's narrowed view reads the past narrowed alike
    except BaseException:
        db.close()
        raise
    try:
        yield past
    finally:
        past.db.close()


def export_as_of(graph: Graph, when: str | None, out: IO[str], valid_at: str | None = None) -> int:
    """Write the graph of ``when`` as JSONL, exactly as an export made then would have; the number of lines."""
    n = 0
    with graph_as_of(graph, when, valid_at) as past:
        for line in iter_export_lines(past):
            out.write(line + "\n")
            n += 1
    return n


def entity_page(graph: Graph, name: str, when: str | None = None, valid_at: str | None = None) -> dict:
    """One entity as it is (or was at ``when``, or held at ``valid_at``): observations, relations and their periods."""
    if when is None and valid_at is None:
        return _page(graph, graph, name)
    at = moment(graph, when) if when else values.now_utc()
    with graph_as_of(graph, when, valid_at) as past:
        try:
            page = _page(past, graph, name)
        except NotFoundError:
            raise NotFoundError(f"There was no entity named '{values.shown(name)}' on {when or 'that date'}.") from None
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
                          "active": rel.active, "endedAt": rel.ended_at, **_validity(source, "relations", rel.id),
                          "periods": [{"from": a, "until": b} for a, b in periods]})
    return {
        "name": ent.name, "entityType": ent.entity_type, "status": ent.status, "createdAt": ent.created_at,
        "observations": [{"content": o.content, "createdAt": o.created_at, **_validity(source, "observations", o.id)}
                         for o in ent.observations if o.current],
        "superseded": [{"content": o.content, "supersededAt": o.superseded_at} for o in ent.superseded],
        "relations": relations,
        **({"aliases": names} if (names := source.aliases_of(entity_id)) else {}),  # only when it has some
    }


def _validity(graph: Graph, table: str, row_id: int) -> dict:
    if not graph.db.has_table("history"):
        return {}  # a read-only file of an older schema: no valid time
    row = graph.db.one(f"SELECT valid_from, valid_until FROM {table} WHERE id = ?", (row_id,))
    out = {}
    if row and row[0]:
        out["validFrom"] = row[0]
    if row and row[1]:
        out["validUntil"] = row[1]
    return out


def set_validity(graph: Graph, obs_id: int | None = None, relation: tuple | None = None, valid_from=None,
                 valid_until=None) -> None:
    """Say when an observation (by id) or a relation (from, to, type) held in the world."""
    if obs_id is not None:
        valid.set_observation_validity(graph, obs_id, valid_from, valid_until)
    elif relation is not None:
        valid.set_relation_validity(graph, *relation, valid_from, valid_until)


def search_as_of(graph: Graph, query: str, when: str | None, limit: int = 10, params=None, status: str = "",
                 valid_at: str | None = None):
    """Search the graph of ``when``: its texts then; today's vectors for the entities whose text is unchanged.

    Returns (the response, how many entities were found by their words only because their text changed).
    """
    from limbic.engine.history.past_vectors import borrow_vectors
    from limbic.service.filters import SearchFilter, filtered_search

    with graph_as_of(graph, when, valid_at, searched=True) as past:
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
    return [c.to_json() for c in _diff.diff(graph.db, start, end, hidden=set(visibility.hidden_ids(graph.db)))]
