"""Reading entities and relations for the memory tools' whole-graph replies (read_graph, search_nodes,
open_nodes and the graph resource), in the reference server's shape.

A few entities are read by id; many (more than one chunk of ids) by reading the tables through once
and keeping those asked for, which costs what the graph holds instead of one index probe per id.
Whether an answer reaches the safety cap on characters is known from the whole graph's size, read
in SQL, before any entity is measured: only a graph near the cap is measured entity by entity.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from limbic.engine.graph.graph import Graph
from limbic.engine.store import plain_reads, visibility

CHUNK = 400  # ids in one IN list
ENTITY_OVERHEAD = 60  # characters of an entity's JSON besides its texts, near enough for a cap
OBSERVATION_OVERHEAD = 4


def entity_json(name: str, entity_type: str, observations: list[str]) -> dict:
    return {"name": name, "entityType": entity_type, "observations": observations}


def relation_json(source: str, target: str, relation_type: str) -> dict:
    return {"from": source, "to": target, "relationType": relation_type}


def _current(graph: Graph) -> str:
    """The condition that keeps current observations (a file older than history has no other)."""
    return " WHERE superseded_at IS NULL" if graph.db.has_history() else ""


def hydrate(graph: Graph, ids: Sequence[int]) -> list[dict]:
    """The entities ``ids`` (in that order) with their current observations, oldest first."""
    if len(ids) <= CHUNK:
        found = plain_reads.entity_texts(graph.db, ids)
        return [entity_json(*found[i]) for i in ids if i in found]
    wanted = set(ids)
    entities: dict[int, dict] = {}
    observations: dict[int, list[str]] = {}
    for entity_id, name, entity_type in graph.db.execute("SELECT id, name, entity_type FROM entities ORDER BY id"):
        if entity_id in wanted:
            texts: list[str] = []
            observations[entity_id] = texts
            entities[entity_id] = entity_json(name, entity_type, texts)
    for entity_id, content in graph.db.execute(f"SELECT entity_id, content FROM observations{_current(graph)} ORDER BY id"):
        texts = observations.get(entity_id)
        if texts is not None:
            texts.append(content)
    return [entities[i] for i in ids if i in entities]


def whole_graph(graph: Graph) -> list[dict]:
    """Every entity in creation order with its current observations: the tables read through once."""
    entities: list[dict] = []
    observations: dict[int, list[str]] = {}
    for entity_id, name, entity_type in graph.db.execute("SELECT id, name, entity_type FROM entities ORDER BY id"):
        texts: list[str] = []
        observations[entity_id] = texts
        entities.append(entity_json(name, entity_type, texts))
    for entity_id, content in graph.db.execute(f"SELECT entity_id, content FROM observations{_current(graph)} ORDER BY id"):
        texts = observations.get(entity_id)
        if texts is not None:
            texts.append(content)
    return entities


def all_relations(graph: Graph) -> list[dict]:
    """Every active relation, oldest first (on an assistant's narrowed connection, read without the views: each
    relation's two ends looked up in a set, not four times in the TEMP table; engine/store/visibility.py)."""
    return [relation_json(a, b, rtype) for _, _, a, b, rtype in visibility.seen_rows(
        graph.db, "SELECT r.from_entity, r.to_entity, a.name, b.name, r.relation_type FROM main.relations r "
        "JOIN main.entities a ON a.id = r.from_entity JOIN main.entities b ON b.id = r.to_entity "
        "WHERE r.active = 1 ORDER BY r.id", ends=(0, 1))]


def relations_touching(graph: Graph, ids: Sequence[int], outgoing_only: bool = False) -> list[dict]:
    """Active relations with an end among ``ids`` (only the start with ``outgoing_only``), oldest first."""
    ids = list(ids)
    select = ("SELECT r.id, r.from_entity, r.to_entity, a.name, b.name, r.relation_type FROM relations r "
              "JOIN entities a ON a.id = r.from_entity JOIN entities b ON b.id = r.to_entity WHERE r.active = 1")
    if len(ids) > CHUNK:  # many: every active relation once, kept when an end is asked for
        wanted = set(ids)
        return [relation_json(a, b, rtype) for _, source, target, a, b, rtype in graph.db.execute(select + " ORDER BY r.id")
                if source in wanted or (not outgoing_only and target in wanted)]
    rows: dict[int, dict] = {}
    if ids:
        marks = ",".join("?" * len(ids))
        where = f"r.from_entity IN ({marks})" + ("" if outgoing_only else f" OR r.to_entity IN ({marks})")
        for rid, _, _, a, b, rtype in graph.db.execute(f"{select} AND ({where})", ids if outgoing_only else ids + ids):
            rows[rid] = relation_json(a, b, rtype)
    return [rows[k] for k in sorted(rows)]


def graph_chars(graph: Graph, summed=visibility.sum_over) -> int:
    """What the whole graph's entities count against the cap on characters (``entity_chars`` summed)."""
    entities = summed(graph.db, "entities", f"length(name) + length(entity_type) + {ENTITY_OVERHEAD}")
    texts = summed(graph.db, "observations", f"length(content) + {OBSERVATION_OVERHEAD}",
                   "superseded_at IS NULL" if graph.db.has_history() else "")
    return int(entities or 0) + int(texts or 0)


def within(graph: Graph, max_chars: int) -> bool:
    """Whether the whole graph counts at most ``max_chars`` (``graph_chars``). An assistant's narrowed connection
    sees a part of the file's tables, which are summed first (no hidden row looked up); only a file past the
    cap is summed as the connection sees it."""
    if graph_chars(graph, visibility.sum_bound) <= max_chars:
        return True
    return visibility.narrowed(graph.db) and graph_chars(graph) <= max_chars


def entity_chars(entity: dict) -> int:
    """Characters of an entity's JSON, near enough for a cap (quotes, keys and commas counted roughly)."""
    return (len(entity["name"]) + len(entity["entityType"]) + ENTITY_OVERHEAD
            + sum(len(o) + OBSERVATION_OVERHEAD for o in entity["observations"]))


def page(graph: Graph, ids: Sequence[int], max_chars: int) -> list[dict]:
    """Hydrate ``ids`` in order, stopping before the JSON passes ``max_chars`` (at least one entity)."""
    if len(ids) > CHUNK and within(graph, max_chars):  # the whole graph fits, so any part of it does
        return hydrate(graph, ids)
    out: list[dict] = []
    used = 0
    for start in range(0, len(ids), CHUNK):
        for ent in hydrate(graph, ids[start : start + CHUNK]):
            size = entity_chars(ent)
            if out and used + size > max_chars:
                return out
            out.append(ent)
            used += size
    return out


def _lowered(column: str) -> str:
    """``column`` in lower case as Python's str.lower has it: SQLite's lower() where the text is ASCII (the two
    agree there, in C), ``limbic_lower`` (Python's) where it is not."""
    return f"(CASE WHEN length({column}) = octet_length({column}) THEN lower({column}) ELSE limbic_lower({column}) END)"


def _holds(column: str) -> str:
    """SQL: ``column`` in lower case (as ``_lowered``) holds the needle ?1. An ASCII text is matched by LIKE
    against ?2 (the needle between wildcards, its own wildcards escaped): LIKE folds A-Z as lower() does and
    matches no other letter to an ASCII one, and it reads the text once, where lower() copied it first."""
    return (f"(CASE WHEN length({column}) = octet_length({column}) THEN {column} LIKE ?2 ESCAPE '\\' "
            f"ELSE instr(limbic_lower({column}), ?1) END)")


LIKE_BYTES = 40_000  # a longer pattern (past SQLite's limit on LIKE patterns) is matched with instr


def containing(graph: Graph, needle: str) -> list[int]:
    """Entities whose name, type, a current observation or an alias contains ``needle`` (already lower case).

    Each table is read through once (a union, not a look-up of every entity's observations): a word
    few entities hold costs one pass over the texts, and one that most hold no more.
    """
    graph.db.conn.createscalarfunction("limbic_lower", _lower, 1, deterministic=True)
    pattern = "%" + needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    if "\x00" in needle or len(pattern.encode("utf-8", "surrogatepass")) > LIKE_BYTES:
        holds, params = (lambda column: f"instr({_lowered(column)}, ?1)"), (needle,)
    else:
        holds, params = _holds, (needle, pattern)
    current = " AND o.superseded_at IS NULL" if graph.db.has_history() else ""
    aliases = (" UNION SELECT a.entity_id FROM entity_aliases a JOIN entities e ON e.id = a.entity_id "
               f"WHERE {holds('a.alias')}" if graph.db.has_table("entity_aliases") else "")  # a name too
    return [r[0] for r in graph.db.execute(
        f"SELECT id FROM entities WHERE {holds('name')} OR {holds('entity_type')} "
        f"UNION SELECT o.entity_id FROM observations o JOIN entities e ON e.id = o.entity_id "
        f"WHERE {holds('o.content')}{current}{aliases} ORDER BY 1",
        params,
    )]


def _lower(value: Any) -> Any:
    """Unicode lower case, as the reference's toLowerCase (SQLite's is ASCII only)."""
    return value.lower() if isinstance(value, str) else value


def ids_of_names(graph: Graph, names: Sequence[str]) -> list[int]:
    """The ids of entities by their stored names (as the replies above give them), in that order."""
    found: dict[str, int] = {}
    unique = list(dict.fromkeys(names))
    for start in range(0, len(unique), CHUNK):
        chunk = unique[start : start + CHUNK]
        found.update((name, i) for i, name in graph.db.execute(
            f"SELECT id, name FROM entities WHERE name IN ({','.join('?' * len(chunk))})", chunk))
    return [found[n] for n in names if n in found]
