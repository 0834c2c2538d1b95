"""The seed engine's history tools over a Graph: superseding observations, ending relations, entity
status, reflections, and open_nodes with its history (kinds, superseded observations, ended relations).

They keep what a delete would lose: an assistant should supersede an observation that changed and
end a relation that no longer holds rather than delete them. Writes follow the batch rule of
``memory_args`` and leave embedding to whoever holds the model, as the other memory writes do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from limbic.engine.errors import NotFoundError, ValidationError
from limbic.engine.graph.graph import Graph, Observation, shown
from limbic.engine.store.values import clean_reflection
from limbic.engine.graph.graph_history import REFLECTION_TARGETS, STATUSES, clean_status
from limbic.service import memory_args as A

MAX_REFLECTION_RESULTS = 100

__all__ = ["REFLECTION_TARGETS", "STATUSES", "end_relation", "set_entity_status", "add_reflection", "search_reflections", "open_nodes_detailed"]


def supersede_item(graph: Graph, entity_id: int, contents: list[str], supersedes: Any) -> Observation:
    """The current observation of ``entity_id`` that ``supersedes`` names (its id or exact text)."""
    if len(contents) != 1:
        raise ValidationError("with “supersedes”, “contents” must hold exactly one observation (the one that replaces it)")
    current = [o for o in graph.get_entity(entity_id).observations if o.current]
    if isinstance(supersedes, bool) or not isinstance(supersedes, (int, str)):
        raise ValidationError("“supersedes” must be an observation id or the exact text of a current observation")
    found = [o for o in current if (o.id == supersedes if isinstance(supersedes, int) else o.content == supersedes.strip())]
    if not found:
        raise ValidationError(f"the entity has no current observation {shown(supersedes)!s} to supersede"
                              if isinstance(supersedes, int) else
                              f"the entity has no current observation “{shown(supersedes)}” to supersede")
    return found[0]


def _relation_ids(graph: Graph, relation_id: Any, relations: Any, problems: A.Problems) -> list[int]:
    if relation_id is None and relations is None:
        raise ValidationError("end_relation needs “relation_id” or “relations”.")
    wanted: list[int] = []
    if relation_id is not None:
        if isinstance(relation_id, bool) or not isinstance(relation_id, int):
            raise ValidationError("“relation_id” must be a whole number.")
        if graph.db.scalar("SELECT 1 FROM relations WHERE id = ?", (relation_id,)) is None:
            raise NotFoundError(f"Relation with id={relation_id} not found.")
        wanted.append(relation_id)
    budget = A.Budget()
    for i, item in enumerate(A.items(relations, "relations", "relations") if relations is not None else []):
        fields = problems.check(i, _relation_fields, item, budget)
        if fields is None:
            continue
        a, b = A.exact_id(graph, fields[0]), A.exact_id(graph, fields[1])
        for name, found in ((fields[0], a), (fields[1], b)):
            if found is None:
                problems.add(i, A.not_found(graph, name), missing=True)
        if a is None or b is None:
            continue
        rid = graph.db.scalar(
            "SELECT id FROM relations WHERE from_entity = ? AND to_entity = ? AND relation_type = ?", (a, b, fields[2].strip()))
        if rid is None:
            problems.add(i, f"there is no relation {shown(fields[0])} —{shown(fields[2])}→ {shown(fields[1])}", missing=True)
        else:
            wanted.append(rid)
    return wanted


def _relation_fields(item: Any, budget: A.Budget) -> tuple[str, str, str]:
    A.record(item, ("from", "to", "relationType"))
    return (A.text(item["from"], "from", budget), A.text(item["to"], "to", budget),
            A.text(item["relationType"], "relationType", budget))


def end_relation(graph: Graph, relation_id: Any = None, relations: Any = None) -> dict:
    """End relations without deleting them (kept as history, no longer followed); returns what was ended."""
    problems = A.Problems("relations")
    ended: list[dict] = []
    already: list[dict] = []
    with graph.write(embed=False):
        ids = _relation_ids(graph, relation_id, relations, problems)
        problems.raise_if_any()
        for rid in dict.fromkeys(ids):
            row = graph.db.one(
                "SELECT a.name, b.name, r.relation_type, r.active, r.from_entity, r.to_entity FROM relations r "
                "JOIN entities a ON a.id = r.from_entity JOIN entities b ON b.id = r.to_entity WHERE r.id = ?", (rid,))
            out = {"id": rid, "from": row[0], "to": row[1], "relationType": row[2]}
            if row[3] and graph.end_relation(row[4], row[5], row[2]):
                ended.append(out)
            else:
                already.append(out)
    result: dict[str, Any] = {"ended": ended}
    if already:
        result["alreadyEnded"] = already
    return result


def set_entity_status(graph: Graph, entities: Any) -> list[dict]:
    """Set the status of existing entities (active, paused, done, archived; the seed's Spanish names too)."""
    budget, problems = A.Budget(), A.Problems("entities")
    wanted = []
    for i, item in enumerate(A.items(entities, "entities", "{name, status} objects")):
        fields = problems.check(i, _status_item, item, budget)
        if fields is not None:
            wanted.append((i, *fields))
    out: list[dict] = []
    with graph.write(embed=False):
        plans = []
        for i, name, status in wanted:
            entity_id = A.exact_id(graph, name)
            if entity_id is None:
                problems.add(i, A.not_found(graph, name), missing=True)
            else:
                plans.append((entity_id, name, status))
        problems.raise_if_any()
        for entity_id, name, status in plans:
            if graph.db.scalar("SELECT status FROM entities WHERE id = ?", (entity_id,)) != status:
                graph.set_status(entity_id, status)
            out.append({"name": A.alias_of(graph, name) or name, "status": status})  # an alias: the real name
    return out


def _status_item(item: Any, budget: A.Budget) -> tuple[str, str]:
    A.record(item, ("name", "status"))
    return A.text(item["name"], "name", budget), clean_status(A.text(item["status"], "status", budget))


def add_reflection(
    graph: Graph, target_type: Any, target_id: Any = None, author: Any = None, content: Any = None, mood: Any = None,
    entity_name: Any = None, relation: Any = None,
) -> dict:
    """Add a reflection about an entity, a relation, a session or the whole graph; returns it."""
    if target_type not in REFLECTION_TARGETS:
        raise ValidationError(f"“target_type” must be one of {', '.join(REFLECTION_TARGETS)}.")
    if not isinstance(content, str) or not content.strip():
        raise ValidationError("A reflection needs its text in “content”.")
    content = clean_reflection(content)
    if mood is not None and not isinstance(mood, str):
        raise ValidationError("“mood” must be text.")
    if target_id is not None and (isinstance(target_id, bool) or not isinstance(target_id, int)):
        raise ValidationError("“target_id” must be a whole number.")
    kwargs: dict[str, Any] = {"author": author or "", "mood": (mood or "").strip() or None}
    with graph.write(embed=False):
        if target_type == "entity":
            kwargs["entity"] = _entity_target(graph, target_id, entity_name)
        elif target_type == "relation":
            kwargs["relation"] = _relation_target(graph, target_id, relation)
        else:
            kwargs["target_type"] = target_type
            kwargs["target_ref"] = target_id if target_type == "session" else None
        new_id = graph.add_reflection(content, **kwargs)
    if new_id is None:
        return {"reflection": None, "note": "The same reflection is already there; nothing was added."}
    found = [r for r in graph.all_reflections() if r.id == new_id]
    return {"reflection": _reflection_json(found[0])}


def _entity_target(graph: Graph, target_id: Any, entity_name: Any) -> int:
    if isinstance(entity_name, str):
        found = A.exact_id(graph, entity_name)
        if found is None:
            raise NotFoundError(A.not_found(graph, entity_name) + ".")
        return found
    if target_id is None:
        raise ValidationError("A reflection about an entity needs “entityName” (or its id in “target_id”).")
    return graph.resolve(target_id)


def _relation_target(graph: Graph, target_id: Any, relation: Any) -> tuple:
    if isinstance(relation, dict):
        problems = A.Problems("relation")
        ids = _relation_ids(graph, None, [relation], problems)
        problems.raise_if_any()
        target_id = ids[0]
    if target_id is None:
        raise ValidationError("A reflection about a relation needs “relation” ({from, to, relationType}) or “target_id”.")
    row = graph.db.one("SELECT from_entity, to_entity, relation_type FROM relations WHERE id = ?", (target_id,))
    if row is None:
        raise NotFoundError(f"Relation with id={target_id} not found.")
    return tuple(row)


def _reflection_json(r) -> dict:
    return {"id": r.id, "target_type": r.target_type, "about": r.about or None, "author": r.author,
            "content": r.content, "mood": r.mood, "created_at": r.created_at}


def search_reflections(
    graph: Graph, query: Any, author: Any = None, mood: Any = None, target_type: Any = None, limit: Any = None,
) -> dict:
    """Reflections holding every word of the query (any case), newest first, with optional filters."""
    words = [w for w in A.query_arg(query).lower().split() if w]
    limit = A.int_arg(limit, "limit", 10, 1, MAX_REFLECTION_RESULTS)
    found = []
    for r in reversed(graph.all_reflections()):
        text = r.content.lower()
        if not all(w in text for w in words):
            continue
        if (author is not None and r.author != author) or (mood is not None and r.mood != mood):
            continue
        if target_type is not None and r.target_type != target_type:
            continue
        found.append(_reflection_json(r))
        if len(found) >= limit:
            break
    return {"results": found}


def open_nodes_detailed(graph: Graph, ids: Sequence[int], kinds: Any, include_superseded: Any) -> dict:
    """Entities with status, observation ids, kinds and history, reflections; relations with id, context and end."""
    if kinds is not None and (not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds)):
        raise ValidationError("“kinds” must be a list of observation kinds.")
    if include_superseded is not None and not isinstance(include_superseded, bool):
        raise ValidationError("“include_superseded” must be true or false.")
    wanted_kinds = set(kinds) if kinds else None
    found = graph.entities_by_ids(ids)
    entities = []
    for entity_id in ids:
        e = found.get(entity_id)
        if e is None:
            continue
        obs = [o for o in e.observations if (include_superseded or o.current)
               and (wanted_kinds is None or o.kind in wanted_kinds)]
        entities.append({
            "name": e.name, "entityType": e.entity_type, "status": e.status,
            "observations": [o.content for o in obs],
            "observationDetails": [
                {"id": o.id, "content": o.content, "kind": o.kind, "created_at": o.created_at,
                 "superseded_at": o.superseded_at, "superseded_by": o.superseded_by}
                for o in obs
            ],
            "reflections": [_reflection_json(r) for r in graph.reflections_of(entity_id)],
        })
    relations: dict[int, dict] = {}
    for entity_id in ids:
        if entity_id not in found:
            continue
        outgoing, incoming = graph.relations_of(entity_id, ended=True)
        for r in outgoing + incoming:
            relations[r.id] = {"id": r.id, "from": r.from_name, "to": r.to_name, "relationType": r.relation_type,
                               "context": r.context, "active": r.active, "ended_at": r.ended_at}
    return {"entities": entities, "relations": [relations[k] for k in sorted(relations)]}
