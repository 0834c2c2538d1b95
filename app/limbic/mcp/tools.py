"""The tools `limbic mcp` offers: the reference memory server's nine, with its names, input schemas,
titles, descriptions and annotations, plus ``search``; and how each result goes on the wire."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from limbic.engine.errors import ValidationError
from limbic.service import memory


def _string(description: str | None = None, **extra: Any) -> dict:
    out: dict[str, Any] = {"type": "string", **extra}
    if description:
        out["description"] = description
    return out


def _array(items: dict, description: str | None = None) -> dict:
    out: dict[str, Any] = {"type": "array", "items": items}
    if description:
        out["description"] = description
    return out


def _object(properties: dict, required: list[str] | None = None) -> dict:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
    }


ENTITY = _object({
    "name": _string("The name of the entity"),
    "entityType": _string("The type of the entity"),
    "observations": _array(_string(), "An array of observation contents associated with the entity"),
})
RELATION = _object({
    "from": _string("The name of the entity where the relation starts"),
    "to": _string("The name of the entity where the relation ends"),
    "relationType": _string("The type of the relation"),
})
GRAPH = _object({"entities": _array(ENTITY), "relations": _array(RELATION)})
# read_graph and search_nodes add these when they cut a page (README: read_graph's paging).
PAGED_GRAPH = _object(
    {
        "entities": _array(ENTITY),
        "relations": _array(RELATION),
        "total_entities": {"type": "integer"},
        "next_offset": {"type": "integer"},
        "note": _string(),
    },
    required=["entities", "relations"],
)
MESSAGE = _object({"success": {"type": "boolean"}, "message": _string()})


@dataclass(frozen=True)
class ToolSpec:
    name: str
    title: str
    description: str
    input_schema: dict
    output_schema: dict
    read_only: bool
    destructive: bool
    idempotent: bool
    result_key: str | None = None  # structured result {key: value}; None: the value is the object itself
    message: bool = False  # the result is a message: text as it is, {success, message} as structure


TOOLS: list[ToolSpec] = [
    ToolSpec(
        "create_entities", "Create Entities", "Create multiple new entities in the knowledge graph",
        _object({"entities": _array(ENTITY)}), _object({"entities": _array(ENTITY)}),
        False, False, False, result_key="entities",
    ),
    ToolSpec(
        "create_relations", "Create Relations",
        "Create multiple new relations between entities in the knowledge graph. Relations should be in active voice",
        _object({"relations": _array(RELATION)}), _object({"relations": _array(RELATION)}),
        False, False, False, result_key="relations",
    ),
    ToolSpec(
        "add_observations", "Add Observations", "Add new observations to existing entities in the knowledge graph",
        _object({"observations": _array(_object({
            "entityName": _string("The name of the entity to add the observations to"),
            "contents": _array(_string(), "An array of observation contents to add"),
        }))}),
        _object({"results": _array(_object({"entityName": _string(), "addedObservations": _array(_string())}))}),
        False, False, False, result_key="results",
    ),
    ToolSpec(
        "delete_entities", "Delete Entities",
        "Delete multiple entities and their associated relations from the knowledge graph",
        _object({"entityNames": _array(_string(), "An array of entity names to delete")}), MESSAGE,
        False, True, True, message=True,
    ),
    ToolSpec(
        "delete_observations", "Delete Observations", "Delete specific observations from entities in the knowledge graph",
        _object({"deletions": _array(_object({
            "entityName": _string("The name of the entity containing the observations"),
            "observations": _array(_string(), "An array of observations to delete"),
        }))}),
        MESSAGE, False, True, True, message=True,
    ),
    ToolSpec(
        "delete_relations", "Delete Relations", "Delete multiple relations from the knowledge graph",
        _object({"relations": _array(RELATION, "An array of relations to delete")}), MESSAGE,
        False, True, True, message=True,
    ),
    ToolSpec(
        "read_graph", "Read Graph",
        "Read the entire knowledge graph. A large graph comes in pages of at most "
        f"{memory.READ_PAGE_ENTITIES} entities (and the relations that start at them); a cut page says so in "
        "`note` and gives `next_offset` to pass as `offset` for the next one.",
        _object({
            "offset": {"type": "integer", "minimum": 0, "description": "Skip this many entities (default 0)"},
            "limit": {
                "type": "integer", "minimum": 1, "maximum": memory.MAX_READ_PAGE_ENTITIES,
                "description": f"At most this many entities (default {memory.READ_PAGE_ENTITIES})",
            },
        }, required=[]),
        PAGED_GRAPH, True, False, True,
    ),
    ToolSpec(
        "search_nodes", "Search Nodes", "Search for nodes in the knowledge graph based on a query",
        _object({"query": _string(
            "The search query to match against entity names, types, and observation content",
            maxLength=memory.MAX_QUERY_CHARS,
        )}),
        PAGED_GRAPH, True, False, True,
    ),
    ToolSpec(
        "open_nodes", "Open Nodes", "Open specific nodes in the knowledge graph by their names",
        _object({"names": _array(_string(), "An array of entity names to retrieve")}), GRAPH,
        True, False, True,
    ),
    ToolSpec(
        "search", "Search (hybrid)",
        "Find the entities that best match a query by meaning and by exact words (hybrid search), "
        "ranked by relevance and by how the graph is used. Returns the best `limit` entities with "
        "their scores; better than search_nodes for questions and fuzzy recall.",
        _object({
            "query": _string("What to look for, in words", maxLength=memory.MAX_QUERY_CHARS),
            "limit": {
                "type": "integer", "minimum": 1, "maximum": memory.MAX_SEARCH_LIMIT,
                "description": f"How many results (default {memory.DEFAULT_SEARCH_LIMIT})",
            },
        }, required=["query"]),
        _object(
            {
                "mode": {"type": "string", "enum": ["hybrid", "semantic", "fts"]},
                "results": _array({"type": "object"}),
                "note": _string(),
            },
            required=["mode", "results"],
        ),
        True, False, False,  # not idempotent: a search records access signals
    ),
]
TOOLS_BY_NAME = {t.name: t for t in TOOLS}


def arguments_for(spec: ToolSpec, arguments: dict) -> list:
    """The service function's arguments, in order, from a call's arguments (missing ones are None).

    Arguments the tool does not know are ignored, as the reference server's schemas strip them.
    """
    for key in spec.input_schema["required"]:
        if key not in arguments:
            raise ValidationError(f"{spec.name} needs the argument “{key}”.")
    return [arguments.get(key) for key in spec.input_schema["properties"]]


def wire_result(spec: ToolSpec, value: Any) -> tuple[str, dict]:
    """(text content, structured content) of a tool's result, as the reference sends them."""
    if spec.message:
        return value, {"success": True, "message": value}
    text = json.dumps(value, ensure_ascii=False, indent=2)
    return text, ({spec.result_key: value} if spec.result_key else dict(value))
