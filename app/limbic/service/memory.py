"""The reference MCP memory server's nine operations, plus Limbic's hybrid ``search``, over a Graph.

Each function takes the tool's arguments as plain JSON values and returns the result in the
reference server's shape (``memory.jsonl`` names: ``name``, ``entityType``, ``observations``;
``from``, ``to``, ``relationType``). Writes follow the batch rule (``memory_args.BATCH_RULE``):
all or nothing, every problem listed with its item number. Names match exactly (as NFC), as the
reference matches them: "ALICE" is not "Alice".

Where Limbic differs from the reference, on purpose:
- names and types are trimmed, and an observation already on an entity is not stored twice;
- an empty name, type or observation, control characters and oversized values are refused;
- a new name that differs from an existing one only in case is refused with a sentence naming the
  existing entity (Limbic keeps one entity per name whatever its case);
- ``read_graph`` and ``search_nodes`` return everything up to a safety cap far above real graphs
  (``READ_CAP_*``), and say so in ``note`` if they ever cut; ``read_graph`` pages on request;
- ``search`` cuts long observations (``SEARCH_*_CHARS``) and flags the results it cut.

Writes leave embedding to whoever holds the model (``limbic mcp``'s background embedder, or the
app's backlog): they return once committed, and full-text search finds them at once.
"""

from __future__ import annotations

from typing import Any

from limbic.engine.errors import ValidationError
from limbic.engine.graph import bulk
from limbic.engine.graph.graph import MAX_TYPE_CHARS, Graph, clean_name, clean_observation, name_key, shown
from limbic.engine.graph.graph_history import clean_status
from limbic.engine.store import visibility
from limbic.service import memory_args as A
from limbic.service import memory_reads as R
from limbic.service.memory_history import open_nodes_detailed, supersede_item
from limbic.service.memory_search import (  # noqa: F401  (the tool and its limits, beside the other eight)
    DEFAULT_SEARCH_LIMIT,
    MAX_SEARCH_LIMIT,
    SEARCH_OBSERVATION_CHARS,
    SEARCH_RESPONSE_CHARS,
    SEARCH_RESULT_CHARS,
    search,
)
from limbic.service.memory_args import (  # noqa: F401  (the documented limits live beside the checks)
    MAX_CALL_CHARS,
    MAX_ITEMS_PER_CALL,
    MAX_OBSERVATIONS_PER_CALL,
    MAX_QUERY_CHARS,
)

READ_CAP_ENTITIES = 100_000  # read_graph / search_nodes: a safety cap, far above real graphs
READ_CAP_CHARS = 50_000_000  # ... and a cap on the JSON of one answer (about 50 MB)
RESOURCE_PAGE_ENTITIES = READ_CAP_ENTITIES  # memory://knowledge-graph: the graph whole up to the same cap
RESOURCE_PAGE_CHARS = READ_CAP_CHARS
KIND_CHARS = 64

__all__ = [
    "create_entities", "create_relations", "add_observations", "delete_entities", "delete_observations",
    "delete_relations", "read_graph", "search_nodes", "open_nodes", "search", "graph_resource",
]


_entity_json = R.entity_json
_relation_json = R.relation_json


# -- writes ---------------------------------------------------------------------------------


def create_entities(graph: Graph, entities: Any) -> list[dict]:
    """Create the entities whose names are new; an exact existing name or a repeat is skipped (as the reference).

    A name differing only in case from an existing entity (or from an earlier item) is a problem:
    Limbic keeps one entity per name whatever its case, so it is refused naming the existing one.
    """
    budget, problems = A.Budget(), A.Problems("entities")
    listed = A.items(entities, "entities", "entities")
    # The usual call (plain text, nothing to trim, refuse or normalize) is checked whole, in a few passes.
    wanted: list[tuple[int, str, str, list[str], str | None]] | None = A.plain_entities(listed)
    if wanted is None:
        wanted = []
        for i, item in enumerate(listed):
            fields = problems.check(i, _entity_item, item, budget)
            if fields is not None:
                wanted.append((i, *fields))
    created: list[dict] = []
    with graph.write(embed=False):
        seen: dict[str, str] = {}  # name_key -> the name an earlier item uses
        todo = []
        found = bulk.holders(graph.db, [name for _, name, _, _, _ in wanted])  # every look-up, for all names at once
        for i, name, etype, obs, status in wanted:
            key = name_key(name)
            held = found[name]
            # The exact name, then an exact alias, a name in another case, an alias in another case.
            owner_id = near = None
            if held.exact is None:
                owner_id, near = held.exact_alias, held.near
                if owner_id is None and near is None:
                    owner_id = held.near_alias
            if owner_id is not None:
                owner = graph.db.scalar("SELECT name FROM entities WHERE id = ?", (owner_id,))
                problems.add(i, f"“{shown(name)}” is an alias of the entity “{shown(owner)}”, so it cannot name another "
                                "entity: use that name (add_observations adds to it)")
                continue
            if held.exact is not None or seen.get(key) == name:
                continue  # the reference skips an existing name, and Limbic a repeat
            other = seen.get(key)
            if other is None and near is not None:
                other = graph.db.scalar("SELECT name FROM entities WHERE id = ?", (near,))
            if other is not None:
                problems.add(i, f"“{shown(name)}” differs only in case from the entity “{shown(other)}”, and names that "
                                "differ only in case are one name in Limbic: use that name (add_observations adds to it)")
                continue
            seen[key] = name
            todo.append((name, etype, obs, status))
        problems.raise_if_any()
        ids = bulk.create_new_entities(graph, [(name, etype, obs) for name, etype, obs, _ in todo], checked=True)
        for entity_id, (name, etype, obs, status) in zip(ids, todo):
            if status and status != "active":
                graph.set_status(entity_id, status)
            created.append(_entity_json(name, etype, list(dict.fromkeys(obs))))
    return created


def _entity_item(item: Any, budget: A.Budget) -> tuple[str, str, list[str], str | None]:
    A.record(item, ("name", "entityType", "observations"))
    name = clean_name(A.text(item["name"], "name", budget))
    etype = clean_name(A.text(item["entityType"], "entityType", budget), "type", MAX_TYPE_CHARS)
    obs = [clean_observation(o) for o in A.texts(item["observations"], "observations", budget)]
    status = clean_status(item["status"]) if item.get("status") is not None else None
    return name, etype, obs, status


def _relation_item(item: Any, budget: A.Budget) -> tuple[str, str, str]:
    A.record(item, ("from", "to", "relationType"))
    source = A.text(item["from"], "from", budget)
    target = A.text(item["to"], "to", budget)
    rtype = A.text(item["relationType"], "relationType", budget)
    return source, target, rtype


def _context(item: dict, budget: A.Budget) -> str | None:
    value = item.get("context")
    if value is None:
        return None
    value = A.text(value, "context", budget).strip()
    return clean_observation(value) if value else None


def create_relations(graph: Graph, relations: Any) -> list[dict]:
    """Create relations between existing entities (exact names); an existing one or a repeat is skipped.

    An item may carry ``context`` (why the relation holds), as the seed engine's relations do.
    """
    budget, problems = A.Budget(), A.Problems("relations")
    wanted = []
    for i, item in enumerate(A.items(relations, "relations", "relations")):
        fields = problems.check(i, _relation_item, item, budget)
        if fields is None:
            continue
        rtype = problems.check(i, clean_name, fields[2], "relation type", MAX_TYPE_CHARS)
        context = problems.check(i, _context, item, budget)
        if rtype is not None:
            wanted.append((i, fields[0], fields[1], rtype, context))
    created: list[dict] = []
    with graph.write(embed=False):
        ends = []
        for i, source, target, rtype, context in wanted:
            a, b = A.exact_id(graph, source), A.exact_id(graph, target)
            for name, found in ((source, a), (target, b)):
                if found is None:
                    problems.add(i, A.not_found(graph, name), missing=True)
            ends.append((a, b, source, target, rtype, context))
        problems.raise_if_any()
        for a, b, source, target, rtype, context in ends:
            if graph.add_relation(a, b, rtype, context):
                out = _relation_json(unicode_name(graph, a, source), unicode_name(graph, b, target), rtype)
                if context:
                    out["context"] = context
                created.append(out)
    return created


def unicode_name(graph: Graph, entity_id: int, given: str) -> str:
    """The name as given when it is the stored one (the reference echoes its input), else the stored one."""
    stored = graph.db.scalar("SELECT name FROM entities WHERE id = ?", (entity_id,))
    return given if given == stored else stored


def add_observations(graph: Graph, observations: Any) -> list[dict]:
    """Append observations to existing entities (exact names); returns, per item, the ones that were new.

    An item may carry ``kind`` (the seed's observation kinds) and ``supersedes``: the id or the
    exact text of a current observation its one new content replaces (kept as history).
    """
    budget, problems = A.Budget(), A.Problems("observations")
    wanted = []
    for i, item in enumerate(A.items(observations, "observations", "{entityName, contents} objects")):
        fields = problems.check(i, _observation_item, item, budget)
        if fields is not None:
            wanted.append((i, *fields))
    results: list[dict] = []
    with graph.write(embed=False):
        plans = []
        for i, name, contents, kind, supersedes in wanted:
            entity_id = A.exact_id(graph, name)
            if entity_id is None:
                problems.add(i, A.not_found(graph, name), missing=True)
                continue
            old = problems.check(i, supersede_item, graph, entity_id, contents, supersedes) if supersedes is not None else None
            plans.append((A.alias_of(graph, name) or name, entity_id, contents, kind, old))  # an alias: the real name
        problems.raise_if_any()
        for name, entity_id, contents, kind, old in plans:
            if old is not None:
                held = contents[0] != old.content and contents[0] in graph.get_entity(entity_id).observation_texts
                graph.supersede_observation(old.id, contents[0], kind)
                results.append({"entityName": name, "addedObservations": [] if held else contents[:1],
                                "supersededObservation": old.content})
                continue
            existing = set(graph.get_entity(entity_id).observation_texts)
            new = [c for c in dict.fromkeys(contents) if c not in existing]
            if len(graph.add_observations(entity_id, new, kind or "note")) != len(new):
                # The reply lists only what is stored: what the graph now holds that it did not before.
                now = set(graph.get_entity(entity_id).observation_texts)
                new = [c for c in new if c in now]
            results.append({"entityName": name, "addedObservations": new})
    return results


def _observation_item(item: Any, budget: A.Budget) -> tuple[str, list[str], str | None, Any]:
    A.record(item, ("entityName", "contents"))
    name = A.text(item["entityName"], "entityName", budget)
    contents = [clean_observation(c) for c in A.texts(item["contents"], "contents", budget)]
    kind = item.get("kind")
    if kind is not None:
        kind = clean_name(A.text(kind, "kind", budget), "observation kind", KIND_CHARS)
    return name, contents, kind, item.get("supersedes")


def delete_entities(graph: Graph, entity_names: Any) -> str:
    """Delete entities (exact names) with their observations and relations; returns the reference's message."""
    budget = A.Budget()
    names = []
    for i, n in enumerate(A.items(entity_names, "entityNames", "names")):
        if not isinstance(n, str):
            raise ValidationError(f"Item {i + 1} of “entityNames” must be text.")
        budget.text(n)
        names.append(n)
    deleted: list[str] = []
    not_found: list[str] = []
    with graph.write(embed=False):
        for n in names:
            if (owner := A.alias_of(graph, n)) is not None:
                raise ValidationError(f"“{shown(n)}” is an alias of “{shown(owner)}”, and delete_entities takes an entity's "
                                      f"own name, so nothing was deleted (to delete it, name “{shown(owner)}”).")
        ids = {n: A.exact_id(graph, n) for n in names}
        for n in names:
            (deleted if ids[n] is not None else not_found).append(n)
        for n in dict.fromkeys(deleted):
            graph.delete_entity(ids[n])
    if not not_found:
        return "Entities deleted successfully"
    missing = ", ".join(A.not_found(graph, n).removeprefix("Entity with name ").replace(" not found", "", 1) for n in not_found)
    return f"Deleted {len(deleted)} of {len(names)} entities. Not found: {missing}"


def delete_observations(graph: Graph, deletions: Any) -> str:
    """Delete the given current observation texts from entities (exact names); returns the reference's message."""
    budget, problems = A.Budget(), A.Problems("deletions")
    wanted: list[tuple[str, list[str]]] = []
    for i, item in enumerate(A.items(deletions, "deletions", "{entityName, observations} objects")):
        fields = problems.check(i, _deletion_item, item, budget)
        if fields is not None:
            wanted.append(fields)
    problems.raise_if_any()
    requested = sum(len(obs) for _, obs in wanted)
    deleted = 0
    missing: list[str] = []
    with graph.write(embed=False):
        for name, obs in wanted:
            entity_id = A.exact_id(graph, name)
            if entity_id is None:
                missing.append(shown(name))
                continue
            drop = {o.strip() for o in obs}
            for ob in graph.get_entity(entity_id).observations:
                if ob.current and ob.content in drop:
                    graph.delete_observation(ob.id)
                    deleted += 1
    if deleted == requested:
        return "Observations deleted successfully"
    message = f"Deleted {deleted} of {requested} observations."
    if missing:
        message += f" Entities not found: {', '.join(missing)}"
    return message


def _deletion_item(item: Any, budget: A.Budget) -> tuple[str, list[str]]:
    A.record(item, ("entityName", "observations"))
    return A.text(item["entityName"], "entityName", budget), A.texts(item["observations"], "observations", budget)


def delete_relations(graph: Graph, relations: Any) -> str:
    """Delete the given relations (exact names and type); those that match nothing are counted, not errors."""
    budget, problems = A.Budget(), A.Problems("relations")
    wanted = []
    for i, item in enumerate(A.items(relations, "relations", "relations")):
        fields = problems.check(i, _relation_item, item, budget)
        if fields is not None:
            wanted.append(fields)
    problems.raise_if_any()
    deleted = 0
    with graph.write(embed=False):
        for source, target, rtype in dict.fromkeys(wanted):
            a, b = A.exact_id(graph, source), A.exact_id(graph, target)
            if a is not None and b is not None and not A.unstorable(rtype) and graph.remove_relation(a, b, rtype):
                deleted += 1
    if deleted == len(wanted):
        return "Relations deleted successfully"
    return f"Deleted {deleted} of {len(wanted)} relations. The rest matched nothing."


# -- reads ----------------------------------------------------------------------------------


_hydrate = R.hydrate
relations_touching = R.relations_touching
_page = R.page


def read_graph(
    graph: Graph, offset: Any = None, limit: Any = None, *, max_entities: int = READ_CAP_ENTITIES,
    max_chars: int = READ_CAP_CHARS,
) -> dict:
    """The whole graph in the reference's shape (entities in creation order), or one page when asked.

    Without ``offset``/``limit`` every entity and relation comes, up to the safety cap
    (``READ_CAP_*``). A page (or a cut answer) holds the relations that start at its entities, so
    pages together hold every relation once, and carries ``total_entities``, ``next_offset`` (when
    more follow) and a ``note``.
    """
    offset = A.int_arg(offset, "offset", 0, 0, 2**62)
    limit = A.int_arg(limit, "limit", max_entities, 1, max_entities)
    total = visibility.count(graph.db, "entities")  # as an assistant's narrowed connection sees them
    if offset == 0 and limit >= total and R.within(graph, max_chars):
        return {"entities": R.whole_graph(graph), "relations": R.all_relations(graph)}  # the tables read through once
    ids = [r[0] for r in graph.db.execute("SELECT id FROM entities ORDER BY id LIMIT ? OFFSET ?", (limit, offset))]
    entities = _page(graph, ids, max_chars)
    ids = ids[: len(entities)]
    if offset == 0 and len(entities) == total:
        return {"entities": entities, "relations": R.all_relations(graph)}
    result: dict[str, Any] = {"entities": entities, "relations": relations_touching(graph, ids, outgoing_only=True)}
    result["total_entities"] = total
    end = offset + len(entities)
    if end < total:
        result["next_offset"] = end
        first = f"entities {offset + 1:,}–{end:,}" if entities else "no entities"
        cut = "" if len(entities) == limit else (
            f" (an answer stops at {max_entities:,} entities or {max_chars:,} characters)"
        )
        result["note"] = (
            f"This answer holds {first} of {total:,} and the relations that start at them{cut}; "
            f"call read_graph with offset {end} for more."
        )
    else:
        result["note"] = f"This is the last page: entities {offset + 1:,}–{end:,} of {total:,}." if entities else (
            f"There are only {total:,} entities; nothing at offset {offset}."
        )
    return result


def graph_resource(graph: Graph) -> dict:
    """memory://knowledge-graph: the whole graph (cut, with a note, past ``RESOURCE_PAGE_*``)."""
    return read_graph(graph, max_entities=RESOURCE_PAGE_ENTITIES, max_chars=RESOURCE_PAGE_CHARS)


def search_nodes(graph: Graph, query: Any) -> dict:
    """The reference's search: every entity whose name, type, a current observation or an alias contains the query (any case).

    Relations with at least one end among the found entities come with them. Past the safety cap
    (``READ_CAP_*``) the answer is cut, with ``total_entities`` and a ``note`` saying so.
    """
    ids = R.containing(graph, A.query_arg(query).lower())
    entities = _page(graph, ids[:READ_CAP_ENTITIES], READ_CAP_CHARS)
    result: dict[str, Any] = {"entities": entities, "relations": relations_touching(graph, ids[: len(entities)])}
    if len(entities) < len(ids):
        result["total_entities"] = len(ids)
        result["note"] = (
            f"{len(ids):,} entities match; this answer holds the first {len(entities):,} (an answer stops at "
            f"{READ_CAP_ENTITIES:,} entities or {READ_CAP_CHARS:,} characters). Use a more specific query."
        )
    return result


def open_nodes(graph: Graph, names: Any, kinds: Any = None, include_superseded: Any = None) -> dict:
    """Entities by exact name (in the graph's order) and the relations with at least one end among them.

    With ``kinds`` or ``include_superseded`` (the seed's options) each entity comes with its
    history: see ``memory_history.open_nodes_detailed``.
    """
    budget = A.Budget()
    wanted = []
    for i, n in enumerate(A.items(names, "names", "names")):
        if not isinstance(n, str):
            raise ValidationError(f"Item {i + 1} of “names” must be text.")
        budget.text(n)
        wanted.append(n)
    ids = sorted({i for i in (A.exact_id(graph, n) for n in wanted) if i is not None})
    if kinds is not None or include_superseded is not None:
        return open_nodes_detailed(graph, ids, kinds, include_superseded)
    return {"entities": _hydrate(graph, ids), "relations": relations_touching(graph, ids)}
