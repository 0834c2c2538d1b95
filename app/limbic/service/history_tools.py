"""What the MCP tools ask of the graph through time: reads "as of" a date or "valid at" one, what changed
since a date, and valid time on the writes. A call that names neither date is exactly today's call."""

from __future__ import annotations

from typing import Any

from limbic.engine.errors import ValidationError
from limbic.engine.graph.graph import Graph
from limbic.engine.history import valid as _valid
from limbic.engine.store.values import clean_valid
from limbic.service import memory, memory_history, memory_search
from limbic.service.history import changes_between, graph_as_of

MAX_CHANGES = 500  # entities in one graph_changes answer; more says so


def _date(value: Any, key: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(f"“{key}” must be a date: YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (UTC).")
    return value


def read_graph(graph: Graph, offset: Any = None, limit: Any = None, as_of: Any = None, valid_at: Any = None) -> dict:
    """read_graph, of the graph as it was at ``as_of`` and/or narrowed to what held at ``valid_at``."""
    as_of, valid_at = _date(as_of, "as_of"), _date(valid_at, "valid_at")
    if as_of is None and valid_at is None:
        return memory.read_graph(graph, offset, limit)
    with graph_as_of(graph, as_of, valid_at) as past:
        return memory.read_graph(past, offset, limit)


def open_nodes(graph: Graph, names: Any, kinds: Any = None, include_superseded: Any = None, as_of: Any = None,
               valid_at: Any = None) -> dict:
    """open_nodes, of the graph as it was at ``as_of`` and/or narrowed to what held at ``valid_at``."""
    as_of, valid_at = _date(as_of, "as_of"), _date(valid_at, "valid_at")
    if as_of is None and valid_at is None:
        return memory.open_nodes(graph, names, kinds, include_superseded)
    with graph_as_of(graph, as_of, valid_at) as past:
        return memory.open_nodes(past, names, kinds, include_superseded)


def search(graph: Graph, query: Any, limit: Any = None, since: Any = None, until: Any = None, as_of: Any = None,
           valid_at: Any = None, **options: Any) -> dict:
    """search, of the graph as it was at ``as_of`` and/or what held at ``valid_at`` (no access is recorded then)."""
    as_of, valid_at = _date(as_of, "as_of"), _date(valid_at, "valid_at")
    if as_of is None and valid_at is None:
        return memory_search.search(graph, query, limit, since, until, **options)
    from limbic.engine.history.past_vectors import borrow_vectors

    options["record"] = False  # reading the past is not a use of today's entities
    with graph_as_of(graph, as_of, valid_at, searched=True) as past:
        if graph.embedder is not None:
            borrow_vectors(graph.db, past, graph.embedder)
        return memory_search.search(past, query, limit, since, until, **options)


def graph_changes(graph: Graph, since: Any, until: Any = None) -> dict:
    """What was added, changed, ended and deleted, per entity, since a date (until now or ``until``)."""
    since = _date(since, "since")
    if since is None:
        raise ValidationError("graph_changes needs the argument “since”.")
    changes = changes_between(graph, since, _date(until, "until"))
    out: dict[str, Any] = {"changes": changes[:MAX_CHANGES]}
    if len(changes) > MAX_CHANGES:
        out["note"] = f"{len(changes):,} entities changed; the first {MAX_CHANGES} by name are here: ask a shorter period."
    return out


def _validity(item: dict) -> tuple[str | None, str | None] | None:
    if "valid_from" not in item and "valid_until" not in item:
        return None
    return _valid.checked_bounds(item.get("valid_from"), item.get("valid_until"))


def _split(items: Any) -> tuple[Any, list]:
    """The items without their valid time (what the reference tool takes), and each one's valid time."""
    if not isinstance(items, list):
        return items, []
    plain, bounds = [], []
    for item in items:
        if isinstance(item, dict):
            bounds.append(_validity(item))
            item = {k: v for k, v in item.items() if k not in ("valid_from", "valid_until")}
        else:
            bounds.append(None)
        plain.append(item)
    return plain, bounds


def add_observations(graph: Graph, observations: Any) -> list[dict]:
    """add_observations; an item's ``valid_from``/``valid_until`` say when its new contents held in the world."""
    plain, bounds = _split(observations)
    with graph.write(embed=False):  # as the tools it wraps: the server embeds in the background
        results = memory.add_observations(graph, plain)
        for item, result, bound in zip(plain, results, bounds):
            if bound is None:
                continue
            entity_id = graph.resolve(item["entityName"])
            for content in result.get("addedObservations", ()):
                obs = graph.db.scalar("SELECT id FROM observations WHERE entity_id = ? AND content = ? "
                                      "AND superseded_at IS NULL ORDER BY id DESC LIMIT 1", (entity_id, content))
                if obs is not None:
                    _valid.set_observation_validity(graph, obs, *bound)
    return results


def create_relations(graph: Graph, relations: Any) -> list[dict]:
    """create_relations; an item's ``valid_from``/``valid_until`` say when the relation held in the world."""
    plain, bounds = _split(relations)
    with graph.write(embed=False):
        results = memory.create_relations(graph, plain)
        for item, bound in zip(plain, bounds):
            if bound is not None:
                _valid.set_relation_validity(graph, item["from"], item["to"], item["relationType"], *bound)
    return results


def end_relation(graph: Graph, relation_id: Any = None, relations: Any = None, ended: Any = None) -> dict:
    """end_relation; ``ended`` is the date the relation stopped holding in the world (its valid_until)."""
    until = clean_valid(ended, "ended") if ended is not None else None
    with graph.write(embed=False):
        result = memory_history.end_relation(graph, relation_id, relations)
        if until is not None:
            for rel in result["ended"]:
                graph.db.execute("UPDATE relations SET valid_until = ? WHERE id = ?", (until, rel["id"]))
    return result
