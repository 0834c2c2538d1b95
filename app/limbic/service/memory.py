"""The reference MCP memory server's nine operations, plus Limbic's hybrid ``search``, over a Graph.

Each function takes the tool's arguments as plain JSON values, validates all of them before
writing anything, makes every write of one call in one transaction, and returns the result in
the reference server's shape (``memory.jsonl`` names: ``name``, ``entityType``, ``observations``;
``from``, ``to``, ``relationType``). Bad input raises ``ValidationError`` with one sentence; a
missing entity where the reference fails raises ``NotFoundError`` with the reference's words.

Where Limbic differs from the reference, on purpose:
- names and types are trimmed, and an observation already on an entity is not stored twice;
- an empty name, type or observation, control characters and oversized values are refused;
- ``read_graph`` and ``search_nodes`` return at most one page (``READ_PAGE_*``) and say so in
  ``note`` when they cut; ``read_graph`` takes ``offset``/``limit`` to read the rest.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from limbic.engine.errors import NotFoundError, ValidationError
from limbic.engine.graph import (
    MAX_NAME_CHARS,
    MAX_TYPE_CHARS,
    Graph,
    clean_name,
    clean_observation,
)
from limbic.engine.scoring import ScoringParams

# Documented limits (README, "Use it with an AI assistant"). Names, types and observation
# length are the engine's own (MAX_NAME_CHARS, MAX_TYPE_CHARS, MAX_OBSERVATION_CHARS).
MAX_ITEMS_PER_CALL = 1_000  # entities, relations, observation groups, names or deletions in one call
MAX_OBSERVATIONS_PER_CALL = 10_000  # observation texts in one call, over all its items
MAX_CALL_CHARS = 4_000_000  # characters of text in one call, over all its items
MAX_QUERY_CHARS = 2_048  # a search_nodes or search query (the reference's SEARCH_QUERY_MAX_LENGTH)
MAX_SEARCH_LIMIT = 100  # results of one `search`
DEFAULT_SEARCH_LIMIT = 10
READ_PAGE_ENTITIES = 200  # read_graph's default page, and search_nodes' cap
MAX_READ_PAGE_ENTITIES = 1_000  # the largest page read_graph returns when asked
READ_PAGE_CHARS = 100_000  # a page also stops before its JSON passes this many characters (~25k tokens)
RESOURCE_PAGE_ENTITIES = 10_000  # memory://knowledge-graph: the graph whole up to this size
RESOURCE_PAGE_CHARS = 20_000_000

__all__ = [
    "create_entities", "create_relations", "add_observations", "delete_entities", "delete_observations",
    "delete_relations", "read_graph", "search_nodes", "open_nodes", "search", "graph_resource",
]


# -- validation of the tools' arguments ------------------------------------------------------


class _Budget:
    """Counts what one call carries, refusing it past the per-call limits."""

    def __init__(self) -> None:
        self.observations = 0
        self.chars = 0

    def text(self, value: str) -> None:
        self.chars += len(value)
        if self.chars > MAX_CALL_CHARS:
            raise ValidationError(
                f"One call can carry at most {MAX_CALL_CHARS:,} characters of text; split it into smaller calls."
            )

    def observation(self, value: str) -> None:
        self.observations += 1
        if self.observations > MAX_OBSERVATIONS_PER_CALL:
            raise ValidationError(
                f"One call can carry at most {MAX_OBSERVATIONS_PER_CALL:,} observations; split it into smaller calls."
            )
        self.text(value)


def _items(value: Any, field: str, what: str) -> list:
    if not isinstance(value, list):
        raise ValidationError(f"“{field}” must be a list of {what}.")
    if len(value) > MAX_ITEMS_PER_CALL:
        raise ValidationError(
            f"“{field}” can hold at most {MAX_ITEMS_PER_CALL:,} items in one call; split it into smaller calls."
        )
    return value


def _record(item: Any, field: str, index: int, keys: Sequence[str]) -> dict:
    if not isinstance(item, dict):
        raise ValidationError(f"Item {index + 1} of “{field}” must be an object with {', '.join(keys)}.")
    for key in keys:
        if key not in item:
            raise ValidationError(f"Item {index + 1} of “{field}” has no “{key}”.")
    return item


def _text(value: Any, field: str, index: int, key: str, budget: _Budget) -> str:
    if not isinstance(value, str):
        raise ValidationError(f"“{key}” in item {index + 1} of “{field}” must be text.")
    budget.text(value)
    return value


def _texts(value: Any, field: str, index: int, key: str, budget: _Budget) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValidationError(f"“{key}” in item {index + 1} of “{field}” must be a list of texts.")
    for v in value:
        budget.observation(v)
    return value


def _name(value: str, what: str = "name", limit: int = MAX_NAME_CHARS) -> str:
    return clean_name(value, what, limit)


def _entity_json(name: str, entity_type: str, observations: list[str]) -> dict:
    return {"name": name, "entityType": entity_type, "observations": observations}


def _relation_json(source: str, target: str, relation_type: str) -> dict:
    return {"from": source, "to": target, "relationType": relation_type}


# -- writes ---------------------------------------------------------------------------------


def create_entities(graph: Graph, entities: Any) -> list[dict]:
    """Create the entities whose names are new (existing names and repeats are skipped); returns those created."""
    budget = _Budget()
    wanted: list[tuple[str, str, list[str]]] = []
    for i, item in enumerate(_items(entities, "entities", "entities")):
        _record(item, "entities", i, ("name", "entityType", "observations"))
        name = _name(_text(item["name"], "entities", i, "name", budget))
        etype = _name(_text(item["entityType"], "entities", i, "entityType", budget), "type", MAX_TYPE_CHARS)
        obs = [clean_observation(o) for o in _texts(item["observations"], "entities", i, "observations", budget)]
        wanted.append((name, etype, obs))
    created: list[dict] = []
    with graph.write():
        seen: set[str] = set()
        for name, etype, obs in wanted:
            if name in seen or graph.entity_id(name) is not None:
                continue
            seen.add(name)
            graph.upsert_entity(name, etype, obs)
            created.append(_entity_json(name, etype, list(dict.fromkeys(obs))))
    return created


def _relations_arg(relations: Any, budget: _Budget) -> list[tuple[str, str, str]]:
    out = []
    for i, item in enumerate(_items(relations, "relations", "relations")):
        _record(item, "relations", i, ("from", "to", "relationType"))
        source = _text(item["from"], "relations", i, "from", budget)
        target = _text(item["to"], "relations", i, "to", budget)
        rtype = _text(item["relationType"], "relations", i, "relationType", budget)
        out.append((source.strip(), target.strip(), rtype.strip()))
    return out


def create_relations(graph: Graph, relations: Any) -> list[dict]:
    """Create relations; fails (writing nothing) if an endpoint is missing; skips existing ones and repeats."""
    wanted = _relations_arg(relations, _Budget())
    for _, _, rtype in wanted:
        _name(rtype, "relation type", MAX_TYPE_CHARS)
    created: list[dict] = []
    with graph.write():
        for source, target, _ in wanted:
            for name in (source, target):
                if graph.entity_id(name) is None:
                    raise NotFoundError(f"Entity with name {name} not found")
        for source, target, rtype in wanted:
            if graph.add_relation(source, target, rtype):
                created.append(_relation_json(source, target, rtype))
    return created


def add_observations(graph: Graph, observations: Any) -> list[dict]:
    """Append observations to existing entities; returns, per item, the ones that were new."""
    budget = _Budget()
    wanted: list[tuple[str, list[str]]] = []
    for i, item in enumerate(_items(observations, "observations", "{entityName, contents} objects")):
        _record(item, "observations", i, ("entityName", "contents"))
        name = _text(item["entityName"], "observations", i, "entityName", budget)
        contents = [clean_observation(c) for c in _texts(item["contents"], "observations", i, "contents", budget)]
        wanted.append((name, contents))
    results: list[dict] = []
    with graph.write():
        for name, contents in wanted:
            entity_id = graph.entity_id(name)
            if entity_id is None:
                raise NotFoundError(f"Entity with name {name} not found")
            existing = set(graph.get_entity(entity_id).observation_texts)
            new = [c for c in dict.fromkeys(contents) if c not in existing]
            graph.add_observations(entity_id, new)
            results.append({"entityName": name, "addedObservations": new})
    return results


def delete_entities(graph: Graph, entity_names: Any) -> str:
    """Delete entities with their observations and relations; returns the reference's message."""
    budget = _Budget()
    names = [_text(n, "entityNames", i, "entityNames", budget) for i, n in enumerate(_items(entity_names, "entityNames", "names"))]
    deleted: list[str] = []
    not_found: list[str] = []
    with graph.write():
        present = {n for n in names if graph.entity_id(n) is not None}
        for n in names:
            (deleted if n in present else not_found).append(n)
        for n in dict.fromkeys(deleted):
            graph.delete_entity(n)
    if not not_found:
        return "Entities deleted successfully"
    return f"Deleted {len(deleted)} of {len(names)} entities. Not found: {', '.join(not_found)}"


def delete_observations(graph: Graph, deletions: Any) -> str:
    """Delete the given observation texts from entities; returns the reference's message."""
    budget = _Budget()
    wanted: list[tuple[str, list[str]]] = []
    for i, item in enumerate(_items(deletions, "deletions", "{entityName, observations} objects")):
        _record(item, "deletions", i, ("entityName", "observations"))
        name = _text(item["entityName"], "deletions", i, "entityName", budget)
        wanted.append((name, _texts(item["observations"], "deletions", i, "observations", budget)))
    requested = sum(len(obs) for _, obs in wanted)
    deleted = 0
    missing: list[str] = []
    with graph.write():
        for name, obs in wanted:
            entity_id = graph.entity_id(name)
            if entity_id is None:
                missing.append(name)
                continue
            drop = {o.strip() for o in obs}
            for ob in graph.get_entity(entity_id).observations:
                if ob.content in drop:
                    graph.delete_observation(ob.id)
                    deleted += 1
    if deleted == requested:
        return "Observations deleted successfully"
    message = f"Deleted {deleted} of {requested} observations."
    if missing:
        message += f" Entities not found: {', '.join(missing)}"
    return message


def delete_relations(graph: Graph, relations: Any) -> str:
    """Delete the given relations; those that match nothing are counted, not errors."""
    wanted = _relations_arg(relations, _Budget())
    deleted = 0
    with graph.write():
        for source, target, rtype in dict.fromkeys(wanted):
            if graph.entity_id(source) is None or graph.entity_id(target) is None:
                continue
            if graph.remove_relation(source, target, rtype):
                deleted += 1
    if deleted == len(wanted):
        return "Relations deleted successfully"
    return f"Deleted {deleted} of {len(wanted)} relations. The rest matched nothing."


# -- reads ----------------------------------------------------------------------------------


def _hydrate(graph: Graph, ids: Sequence[int]) -> list[dict]:
    found = graph.entities_by_ids(ids)
    return [_entity_json(found[i].name, found[i].entity_type, found[i].observation_texts) for i in ids if i in found]


def _relations_touching(graph: Graph, ids: Sequence[int], outgoing_only: bool = False) -> list[dict]:
    """Active relations with an end among ``ids`` (only the start with ``outgoing_only``), oldest first."""
    rows: dict[int, dict] = {}
    ids = list(ids)
    for start in range(0, len(ids), 400):
        chunk = ids[start : start + 400]
        marks = ",".join("?" * len(chunk))
        where = f"r.from_entity IN ({marks})" + ("" if outgoing_only else f" OR r.to_entity IN ({marks})")
        params = chunk if outgoing_only else chunk + chunk
        for rid, a, b, rtype in graph.db.execute(
            "SELECT r.id, a.name, b.name, r.relation_type FROM relations r "
            "JOIN entities a ON a.id = r.from_entity JOIN entities b ON b.id = r.to_entity "
            f"WHERE r.active = 1 AND ({where})",
            params,
        ):
            rows[rid] = _relation_json(a, b, rtype)
    return [rows[k] for k in sorted(rows)]


def _page(graph: Graph, ids: Sequence[int], max_chars: int) -> list[dict]:
    """Hydrate ``ids`` in order, stopping before the JSON passes ``max_chars`` (at least one entity)."""
    out: list[dict] = []
    used = 0
    for start in range(0, len(ids), 200):
        for ent in _hydrate(graph, ids[start : start + 200]):
            size = len(json.dumps(ent, ensure_ascii=False)) + 4
            if out and used + size > max_chars:
                return out
            out.append(ent)
            used += size
    return out


def _int_arg(value: Any, field: str, default: int, low: int, high: int) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError(f"“{field}” must be a whole number.")
    if not low <= value <= high:
        raise ValidationError(f"“{field}” must be between {low:,} and {high:,}.")
    return value


def read_graph(
    graph: Graph, offset: Any = None, limit: Any = None, *, max_entities: int | None = None, max_chars: int = READ_PAGE_CHARS
) -> dict:
    """The graph in the reference's shape, one page at a time (entities in creation order).

    A page holds at most ``limit`` entities (default ``READ_PAGE_ENTITIES``) and stops before
    ``max_chars`` characters of JSON; its relations are those that start at its entities, so the
    pages together hold every relation once. A cut page carries ``total_entities``,
    ``next_offset`` and a ``note``.
    """
    top = max_entities or MAX_READ_PAGE_ENTITIES
    offset = _int_arg(offset, "offset", 0, 0, 2**62)
    limit = _int_arg(limit, "limit", min(READ_PAGE_ENTITIES, top), 1, top)
    total = int(graph.db.scalar("SELECT count(*) FROM entities"))
    ids = [r[0] for r in graph.db.execute("SELECT id FROM entities ORDER BY id LIMIT ? OFFSET ?", (limit, offset))]
    entities = _page(graph, ids, max_chars)
    ids = ids[: len(entities)]
    if offset == 0 and len(entities) == total:
        relations = [_relation_json(r.from_name, r.to_name, r.relation_type) for r in graph.all_relations()]
        return {"entities": entities, "relations": relations}
    result: dict[str, Any] = {"entities": entities, "relations": _relations_touching(graph, ids, outgoing_only=True)}
    result["total_entities"] = total
    end = offset + len(entities)
    if end < total:
        result["next_offset"] = end
        first = f"entities {offset + 1:,}–{end:,}" if entities else "no entities"
        result["note"] = (
            f"This page holds {first} of {total:,} (and the relations that start at them); "
            f"call read_graph with offset {end} for more, or use search or open_nodes to find specific entities."
        )
    else:
        result["note"] = f"This is the last page: entities {offset + 1:,}–{end:,} of {total:,}." if entities else (
            f"There are only {total:,} entities; nothing at offset {offset}."
        )
    return result


def graph_resource(graph: Graph) -> dict:
    """memory://knowledge-graph: the whole graph (cut, with a note, past ``RESOURCE_PAGE_*``)."""
    return read_graph(graph, None, RESOURCE_PAGE_ENTITIES, max_entities=RESOURCE_PAGE_ENTITIES, max_chars=RESOURCE_PAGE_CHARS)


def _query_arg(query: Any) -> str:
    if not isinstance(query, str):
        raise ValidationError("“query” must be text.")
    if len(query) > MAX_QUERY_CHARS:
        raise ValidationError(f"A query can be at most {MAX_QUERY_CHARS:,} characters long.")
    return query


def search_nodes(graph: Graph, query: Any) -> dict:
    """The reference's search: entities whose name, type or an observation contains the query (any case).

    Relations with at least one end among the found entities come with them. More than one page
    of matches is cut to the first (``READ_PAGE_ENTITIES`` / ``READ_PAGE_CHARS``) with a note.
    """
    needle = _query_arg(query).lower()
    _ensure_lower(graph)
    ids = [
        r[0]
        for r in graph.db.execute(
            "SELECT id FROM entities e WHERE instr(limbic_lower(e.name), ?1) OR instr(limbic_lower(e.entity_type), ?1) "
            "OR EXISTS (SELECT 1 FROM observations o WHERE o.entity_id = e.id AND instr(limbic_lower(o.content), ?1)) "
            "ORDER BY id",
            (needle,),
        )
    ]
    entities = _page(graph, ids[:READ_PAGE_ENTITIES], READ_PAGE_CHARS)
    result: dict[str, Any] = {"entities": entities, "relations": _relations_touching(graph, ids[: len(entities)])}
    if len(entities) < len(ids):
        result["note"] = (
            f"{len(ids):,} entities match; only the first {len(entities):,} are shown. "
            "Use a more specific query, or search for the best matches first."
        )
    return result


def _ensure_lower(graph: Graph) -> None:
    """Register ``limbic_lower``: Unicode lower case, as the reference's toLowerCase (SQLite's is ASCII only)."""
    graph.db.conn.createscalarfunction("limbic_lower", _lower, 1, deterministic=True)


def _lower(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


def open_nodes(graph: Graph, names: Any) -> dict:
    """Entities by name (in the graph's order) and the relations with at least one end among them."""
    budget = _Budget()
    wanted = [_text(n, "names", i, "names", budget) for i, n in enumerate(_items(names, "names", "names"))]
    ids = sorted({i for i in (graph.entity_id(n) for n in wanted) if i is not None})
    return {"entities": _hydrate(graph, ids), "relations": _relations_touching(graph, ids)}


def search(
    graph: Graph,
    query: Any,
    limit: Any = None,
    *,
    record: bool = True,
    params: ScoringParams | None = None,
    model_error: str | None = None,
) -> dict:
    """Limbic's hybrid search in the seed's shape (mode, results with limbic_score, scoring, distance, rrf_score).

    ``record`` counts the returned entities as accessed together (README: when a search counts
    as an access). Without a model the mode is ``fts`` and ``note`` says why.
    """
    from limbic.engine.search import search as hybrid_search

    text = _query_arg(query)
    limit = _int_arg(limit, "limit", DEFAULT_SEARCH_LIMIT, 1, MAX_SEARCH_LIMIT)
    response = hybrid_search(graph, text, limit, record=record, params=params)
    out = response.to_json()
    if response.mode == "fts":
        reason = model_error or "no embedding model is loaded"
        out["note"] = f"Semantic search is off ({reason.rstrip('.')}); results come from full text only."
    return out
