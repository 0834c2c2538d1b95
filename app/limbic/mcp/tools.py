"""The tools `limbic mcp` offers, in one registry: the reference memory server's nine, with its names,
input schemas, titles, descriptions and annotations, plus ``search``; other modules (the history
tools, report tools) add theirs with ``register``. Also how each result goes on the wire."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from limbic.engine.errors import ValidationError
from limbic.mcp import wire_json
from limbic.service import memory
from limbic.service.memory_args import BATCH_RULE


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


def _object(properties: dict, required: list[str] | None = None, closed: bool = True) -> dict:
    out = {"type": "object", "properties": properties,
           "required": list(properties) if required is None else required}
    if closed:
        out["additionalProperties"] = False
    return out


string, array, obj = _string, _array, _object  # for the modules that register more tools
NAME_RULE = "Names match exactly (“Alice” is not “ALICE”)."

ENTITY = _object({
    "name": _string("The name of the entity"),
    "entityType": _string("The type of the entity"),
    "observations": _array(_string(), "An array of observation contents associated with the entity"),
})
ENTITY_IN = _object({
    **ENTITY["properties"],
    "status": _string("Optional: active (default), paused, done or archived"),
}, required=["name", "entityType", "observations"])
RELATION = _object({
    "from": _string("The name of the entity where the relation starts"),
    "to": _string("The name of the entity where the relation ends"),
    "relationType": _string("The type of the relation"),
})
RELATION_IN = _object({
    **RELATION["properties"],
    "context": _string("Optional: why the relation holds, in a sentence"),
}, required=["from", "to", "relationType"])
RELATION_OUT = _object({**RELATION["properties"], "context": _string()}, required=["from", "to", "relationType"])
GRAPH = _object({"entities": _array(ENTITY), "relations": _array(RELATION)})
# read_graph and search_nodes add these when they page or cut (docs/mcp.md: caps).
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
# open_nodes with kinds / include_superseded gives each entity its history.
DETAILED_GRAPH = _object(
    {"entities": _array({"type": "object"}), "relations": _array({"type": "object"})}, closed=False)
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
    fn: Callable[..., Any] | None = None  # the service function (graph, *arguments); None: memory.<name>
    needs_model: bool = False  # a meaning search: the server loads the model before the first call
    plain: bool = False  # the result holds no number with a fraction, so orjson writes it (wire_json, wire.encode)

    def function(self) -> Callable[..., Any]:
        """The service function that runs this tool."""
        return self.fn or getattr(memory, self.name)


TOOLS: list[ToolSpec] = []
TOOLS_BY_NAME: dict[str, ToolSpec] = {}


def register(*specs: ToolSpec) -> None:
    """Offer these tools too (in this order, after those registered before)."""
    for spec in specs:
        if spec.name in TOOLS_BY_NAME:
            raise ValueError(f"a tool named {spec.name} is already registered")
        TOOLS.append(spec)
        TOOLS_BY_NAME[spec.name] = spec


READ_CAP = (
    f"Safety cap: one answer holds at most {memory.READ_CAP_ENTITIES:,} entities or {memory.READ_CAP_CHARS:,} "
    "characters; a cut answer says so in `note` with `total_entities`."
)

register(
    ToolSpec(
        "create_entities", "Create Entities",
        "Create multiple new entities in the knowledge graph. An exact existing name is skipped; a name that differs "
        f"from an existing one only in case is refused, naming the existing entity. {BATCH_RULE}",
        _object({"entities": _array(ENTITY_IN)}), _object({"entities": _array(ENTITY)}),
        False, False, False, result_key="entities", plain=True,
    ),
    ToolSpec(
        "create_relations", "Create Relations",
        "Create multiple new relations between entities in the knowledge graph. Relations should be in active voice. "
        f"Both ends must exist. {NAME_RULE} {BATCH_RULE}",
        _object({"relations": _array(RELATION_IN)}), _object({"relations": _array(RELATION_OUT)}),
        False, False, False, result_key="relations", plain=True,
    ),
    ToolSpec(
        "add_observations", "Add Observations",
        "Add new observations to existing entities in the knowledge graph. When a fact changed, pass `supersedes` "
        "(the id or exact text of the old observation) with the one new content instead of deleting the old one: it "
        f"is kept as history. {NAME_RULE} {BATCH_RULE}",
        _object({"observations": _array(_object({
            "entityName": _string("The name of the entity to add the observations to"),
            "contents": _array(_string(), "An array of observation contents to add"),
            "kind": _string("Optional: the observations' kind (e.g. fact, decision, preference)"),
            "supersedes": {"type": ["integer", "string"],
                           "description": "Optional: the id or exact text of a current observation the one new content replaces"},
        }, required=["entityName", "contents"]))}),
        _object({"results": _array(_object({
            "entityName": _string(), "addedObservations": _array(_string()), "supersededObservation": _string(),
        }, required=["entityName", "addedObservations"]))}),
        False, False, False, result_key="results", plain=True,
    ),
    ToolSpec(
        "delete_entities", "Delete Entities",
        "Delete multiple entities and their associated relations from the knowledge graph. Deleting loses history: "
        f"prefer set_entity_status (done, archived) for what is over. {NAME_RULE}",
        _object({"entityNames": _array(_string(), "An array of entity names to delete")}), MESSAGE,
        False, True, True, message=True, plain=True,
    ),
    ToolSpec(
        "delete_observations", "Delete Observations",
        "Delete specific observations from entities in the knowledge graph. For a fact that changed, prefer "
        f"add_observations with `supersedes`, which keeps the old one as history. {NAME_RULE}",
        _object({"deletions": _array(_object({
            "entityName": _string("The name of the entity containing the observations"),
            "observations": _array(_string(), "An array of observations to delete"),
        }))}),
        MESSAGE, False, True, True, message=True, plain=True,
    ),
    ToolSpec(
        "delete_relations", "Delete Relations",
        "Delete multiple relations from the knowledge graph. For a relation that no longer holds, prefer "
        f"end_relation, which keeps it as history. {NAME_RULE}",
        _object({"relations": _array(RELATION, "An array of relations to delete")}), MESSAGE,
        False, True, True, message=True, plain=True,
    ),
    ToolSpec(
        "read_graph", "Read Graph",
        f"Read the entire knowledge graph. Optional paging: `offset` and `limit` (entities); a page holds the "
        f"relations that start at its entities and gives `next_offset`. {READ_CAP}",
        _object({
            "offset": {"type": "integer", "minimum": 0, "description": "Optional: skip this many entities"},
            "limit": {"type": "integer", "minimum": 1, "maximum": memory.READ_CAP_ENTITIES,
                      "description": "Optional: at most this many entities"},
        }, required=[]),
        PAGED_GRAPH, True, False, True, plain=True,
    ),
    ToolSpec(
        "search_nodes", "Search Nodes",
        f"Search for nodes in the knowledge graph based on a query. Returns every match. {READ_CAP}",
        _object({"query": _string(
            "The search query to match against entity names, types, and observation content",
            maxLength=memory.MAX_QUERY_CHARS,
        )}),
        PAGED_GRAPH, True, False, True, plain=True,
    ),
    ToolSpec(
        "open_nodes", "Open Nodes",
        "Open specific nodes in the knowledge graph by their names. With `kinds` or `include_superseded` each "
        f"entity also comes with its status, observation ids and history, reflections, and ended relations. {NAME_RULE}",
        _object({
            "names": _array(_string(), "An array of entity names to retrieve"),
            "kinds": _array(_string(), "Optional: only observations of these kinds"),
            "include_superseded": {"type": "boolean", "description": "Optional: include superseded observations"},
        }, required=["names"]),
        DETAILED_GRAPH, True, False, True, plain=True,
    ),
    ToolSpec(
        "search", "Search (hybrid)",
        "Find the entities that best match a query by meaning and by exact words (hybrid search), "
        "ranked by relevance and by how the graph is used. Returns the best `limit` entities with "
        "their scores; better than search_nodes for questions and fuzzy recall. Long observations are cut "
        f"(at {memory.SEARCH_OBSERVATION_CHARS} characters each, {memory.SEARCH_RESULT_CHARS:,} per result, "
        f"{memory.SEARCH_RESPONSE_CHARS:,} per answer; cut results say `truncated`): open_nodes returns them whole.",
        _object({
            "query": _string("What to look for, in words", maxLength=memory.MAX_QUERY_CHARS),
            "limit": {
                "type": "integer", "minimum": 1, "maximum": memory.MAX_SEARCH_LIMIT,
                "description": f"How many results (default {memory.DEFAULT_SEARCH_LIMIT})",
            },
            "since": _string("Optional: only entities changed on or after this day: 2026-03-01, "
                             "or a time as people say it (\"last week\", \"en marzo\")", maxLength=200),
            "until": _string("Optional: only entities created by the end of this day or time: 2026-03-31, "
                             "\"yesterday\", \"el mes pasado\"", maxLength=200),
        }, required=["query"]),
        _object(
            {
                "mode": {"type": "string", "enum": ["hybrid", "semantic", "fts"]},
                "results": _array({"type": "object"}),
                "no_good_match": {"type": "boolean"},
                "note": _string(),
            },
            required=["mode", "results"],
        ),
        True, False, False,  # not idempotent: a search records access signals
        needs_model=True,
    ),
)


def arguments_for(spec: ToolSpec, arguments: dict) -> list:
    """The service function's arguments, in order, from a call's arguments (missing ones are None).

    Arguments the tool does not know were refused before (``unknown_argument``).
    """
    for key in spec.input_schema["required"]:
        if key not in arguments:
            raise ValidationError(f"{spec.name} needs the argument “{key}”.")
    return [arguments.get(key) for key in spec.input_schema["properties"]]


def unknown_argument(spec: ToolSpec, arguments: dict) -> str | None:
    """Where the arguments hold a key their schema does not allow (``entities[0].extra``), or None.

    The schemas say ``additionalProperties: false``; a key they do not name is a mistake the
    client should hear of (a misspelt ``supersedes`` would otherwise add instead of replace).
    """
    todo: list[tuple[dict, Any, str]] = [(spec.input_schema, arguments, "")]
    while todo:  # a list, not recursion: arguments may nest as deep as the wire allows
        schema, value, path = todo.pop()
        if isinstance(value, dict) and schema.get("type") == "object":
            properties = schema.get("properties", {})
            for key, item in value.items():
                where = f"{path}.{key}" if path else key
                if key in properties:
                    todo.append((properties[key], item, where))
                elif schema.get("additionalProperties") is False:
                    return where
        elif isinstance(value, list) and isinstance(schema.get("items"), dict):
            todo.extend((schema["items"], item, f"{path}[{i}]") for i, item in reversed(list(enumerate(value))))
    return None


def wire_result(spec: ToolSpec, value: Any) -> tuple[str, dict]:
    """(text content, structured content) of a tool's result, as the reference sends them."""
    if spec.message:
        return value, {"success": True, "message": value}
    text = wire_json.dumps(value, spec.plain)  # as json.dumps(value, ensure_ascii=False, indent=2), faster
    return text, ({spec.result_key: value} if spec.result_key else dict(value))
