"""The seed engine's history tools, with its names and parameters: end_relation, add_reflection,
search_reflections, and set_entity_status (the seed set status through create_entities, which
takes ``status`` here too). Superseding an observation is add_observations' ``supersedes``."""

from __future__ import annotations

from limbic.mcp.tools import NAME_RULE, RELATION, ToolSpec, array, obj, register, string
from limbic.service import memory_history
from limbic.service.memory_args import BATCH_RULE
from limbic.service.memory_history import REFLECTION_TARGETS, STATUSES

REFLECTION = obj({}, required=[], closed=False)
INTEGER = {"type": "integer"}

register(
    ToolSpec(
        "end_relation", "End Relation",
        "End relations that no longer hold without deleting them: they are kept as history (with the date they "
        "ended) and no longer followed. Prefer this to delete_relations. Give `relation_id` (as open_nodes with "
        f"`include_superseded` shows it) or `relations` by their ends and type. {NAME_RULE} {BATCH_RULE}",
        obj({
            "relation_id": {"type": "integer", "description": "The id of the relation to end"},
            "relations": array(RELATION, "Relations to end, by their ends and type"),
        }, required=[]),
        obj({"ended": array(obj({}, required=[], closed=False)), "alreadyEnded": array(obj({}, required=[], closed=False))},
            required=["ended"]),
        False, False, True, fn=memory_history.end_relation,
    ),
    ToolSpec(
        "set_entity_status", "Set Entity Status",
        f"Set the status of existing entities: one of {', '.join(STATUSES)} (archived ones rank lower in search). "
        f"Prefer done or archived to deleting what is over. {NAME_RULE} {BATCH_RULE}",
        obj({"entities": array(obj({
            "name": string("The name of the entity"),
            "status": string(f"One of {', '.join(STATUSES)}"),
        }))}),
        obj({"entities": array(obj({"name": string(), "status": string()}))}),
        False, False, True, result_key="entities", fn=memory_history.set_entity_status,
    ),
    ToolSpec(
        "add_reflection", "Add Reflection",
        "Add a reflection: prose that gives context and meaning to a memory, about an entity (`entityName` or its id "
        "in `target_id`), a relation (`relation` or its id), a session (`target_id` numbers it) or the whole graph "
        "(`global`). A reflection about an entity is found by search with it.",
        obj({
            "target_type": string("What it is about", enum=list(REFLECTION_TARGETS)),
            "target_id": {"type": "integer", "description": "Optional: the id of the entity, relation or session"},
            "author": string("Optional: who wrote it"),
            "content": string("The reflection text (free prose)"),
            "mood": string("Optional: a mood (e.g. curiosity, doubt, insight)"),
            "entityName": string("Optional: the entity it is about, by name"),
            "relation": RELATION,
        }, required=["target_type", "content"]),
        obj({"reflection": {"type": ["object", "null"]}, "note": string()}, required=["reflection"]),
        False, False, False, fn=memory_history.add_reflection,
    ),
    ToolSpec(
        "search_reflections", "Search Reflections",
        "Find reflections holding every word of the query (any case), newest first; optional filters by author, "
        "mood and target type.",
        obj({
            "query": string("Words to look for"),
            "author": string("Optional: only this author's"),
            "mood": string("Optional: only this mood"),
            "target_type": string("Optional: only about this", enum=list(REFLECTION_TARGETS)),
            "limit": {"type": "integer", "minimum": 1, "maximum": memory_history.MAX_REFLECTION_RESULTS,
                      "description": "How many results (default 10)"},
        }, required=["query"]),
        obj({"results": array(REFLECTION)}),
        True, False, True, fn=memory_history.search_reflections,
    ),
)
