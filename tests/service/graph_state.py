"""A whole graph as plain, id-free data, to compare graphs field by field across imports and exports."""

from __future__ import annotations


def graph_state(graph, dates: bool = True, usage: bool = True) -> dict:
    """Entities, observations (with kind and history), relations, reflections and usage, keyed by names."""
    db = graph.db
    name = dict(db.execute("SELECT id, name FROM entities"))
    obs_text = dict(db.execute("SELECT id, content FROM observations"))
    d = (lambda v: v) if dates else (lambda v: None)
    state: dict = {"entities": {}, "relations": set(), "reflections": set()}
    for eid, n, etype, status, created, updated in db.execute(
        "SELECT id, name, entity_type, status, created_at, updated_at FROM entities"
    ):
        state["entities"][n] = {"type": etype, "status": status, "created": d(created), "observations": []}
    for eid, content, kind, created, sup_by, sup_at in db.execute(
        "SELECT entity_id, content, kind, created_at, superseded_by, superseded_at FROM observations ORDER BY id"
    ):
        state["entities"][name[eid]]["observations"].append(
            (content, kind, d(created), obs_text.get(sup_by), d(sup_at), sup_at is not None)
        )
    rel_key = {}
    for rid, a, b, rtype, context, active, created, ended in db.execute(
        "SELECT id, from_entity, to_entity, relation_type, context, active, created_at, ended_at FROM relations"
    ):
        rel_key[rid] = (name[a], name[b], rtype)
        state["relations"].add((name[a], name[b], rtype, context, bool(active), d(created), d(ended)))
    for target, eid, rid, ref, author, content, mood, created in db.execute(
        "SELECT target_type, entity_id, relation_id, target_ref, author, content, mood, created_at FROM reflections"
    ):
        state["reflections"].add((target, name.get(eid), rel_key.get(rid), ref, author, content, mood, d(created)))
    if usage:
        state["access"] = {name[e]: (c, last) for e, c, last in db.execute("SELECT * FROM entity_access")}
        state["days"] = {(name[e], day, c) for e, day, c in db.execute("SELECT * FROM entity_access_log")}
        state["cooc"] = {
            (name[a], name[b], c, last) for a, b, c, last in db.execute("SELECT * FROM co_occurrences")
        }
    return state
