"""The graph through time over MCP: ``as_of`` and ``valid_at`` on read_graph, open_nodes and search,
valid time on add_observations and create_relations, the date a relation ended on end_relation, and
graph_changes. The tools keep their names and every argument they had: a client that sends none of
the new ones calls exactly the tool it called before."""

from __future__ import annotations

import dataclasses

from limbic.mcp import tools_history  # noqa: F401 - end_relation is registered there first
from limbic.mcp.tools import TOOLS, TOOLS_BY_NAME, ToolSpec, array, obj, register, string
from limbic.service import history_tools

DATE = "a date (YYYY-MM-DD, the end of that day) or a date and time (YYYY-MM-DD HH:MM:SS), UTC"
AS_OF = string(f"Optional: answer from the graph as it was recorded at {DATE}", maxLength=40)
VALID_AT = string(f"Optional: only what held in the world at {DATE}, as the graph knows now", maxLength=40)
VALID_FROM = string("Optional: when this began to hold in the world: YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (UTC)",
                    maxLength=40)
VALID_UNTIL = string("Optional: when this stopped holding in the world (a date counts to its end)", maxLength=40)


def _extended(name: str, fn, extra: dict, item_extra: dict | None = None, list_key: str | None = None) -> None:
    """Give tool ``name`` more optional arguments (or its list items more optional keys), run by ``fn``."""
    spec = TOOLS_BY_NAME[name]
    schema = dict(spec.input_schema)
    properties = dict(schema["properties"])
    properties.update(extra)
    if item_extra and list_key:
        items = dict(properties[list_key]["items"])
        items["properties"] = {**items["properties"], **item_extra}
        properties[list_key] = {**properties[list_key], "items": items}
    schema["properties"] = properties
    new = dataclasses.replace(spec, input_schema=schema, fn=fn)
    TOOLS[TOOLS.index(spec)] = new
    TOOLS_BY_NAME[name] = new


_extended("read_graph", history_tools.read_graph, {"as_of": AS_OF, "valid_at": VALID_AT})
_extended("open_nodes", history_tools.open_nodes, {"as_of": AS_OF, "valid_at": VALID_AT})
_extended("search", history_tools.search, {"as_of": AS_OF, "valid_at": VALID_AT})
_extended("add_observations", history_tools.add_observations, {},
          {"valid_from": VALID_FROM, "valid_until": VALID_UNTIL}, "observations")
_extended("create_relations", history_tools.create_relations, {},
          {"valid_from": VALID_FROM, "valid_until": VALID_UNTIL}, "relations")
_extended("end_relation", history_tools.end_relation,
          {"ended": string("Optional: the date the relations stopped holding in the world (YYYY-MM-DD)", maxLength=40)})

CHANGE = obj({"entity": string(), "what": string(), "details": array(obj({}, required=[], closed=False))},
             required=["entity", "what", "details"])

register(
    ToolSpec(
        "graph_changes", "Graph Changes",
        "What changed in the graph since a date: per entity, whether it was added, changed or deleted, and each "
        "observation and relation added, changed, ended or deleted. Ask it when resuming work to learn what "
        "others wrote since you last looked.",
        obj({
            "since": string(f"From {DATE}", maxLength=40),
            "until": string(f"Optional: to {DATE} (default: now)", maxLength=40),
        }, required=["since"]),
        obj({"changes": array(CHANGE), "note": string()}, required=["changes"]),
        True, False, True, fn=history_tools.graph_changes,
    ),
)
