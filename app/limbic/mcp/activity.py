"""What `limbic mcp` records for the activity log: who calls (clientInfo, one session per connection),
which tool, what each client was given to read; and the refusal of writes a person has stopped."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from limbic.engine.errors import LimbicError
from limbic.service import activity, memory_reads
from limbic.service.types import ORIGIN_ASSISTANT, Graph

logger = logging.getLogger(__name__)

# Tools whose results are entities the assistant reads (read_graph is noted as one read of everything).
READ_TOOLS = ("search", "search_nodes", "open_nodes", "read_graph")
READ_ONLY_REFUSAL = ("Nothing was changed: this Limbic server was started with --read-only, so assistants "
                     "can search and read but not write.")


@dataclass(frozen=True)
class Client:
    """An MCP connection: its identity for one session, and the clientInfo it sent (in ``initialize``, or
    with each request on 2026-07-28 connections)."""

    key: int
    name: str
    version: str


def begin_call(graph: Graph, read_only_tool: bool, client: Client | None, server_read_only: bool) -> None:
    """On the graph's thread, before a tool runs: act as the client's session; refuse a write it may not make."""
    if client is not None:
        activity.act_as(graph, client.key, ORIGIN_ASSISTANT, client.name, client.version)
    if read_only_tool:
        return
    if server_read_only:
        raise LimbicError(READ_ONLY_REFUSAL)
    refusal = activity.write_refusal(graph, client.name if client else "")
    if refusal:
        raise LimbicError(refusal)


def note_reads(graph: Graph, tool: str, value: Any) -> None:
    """After a read tool: which entities the client was given."""
    if tool not in READ_TOOLS:
        return
    if tool == "read_graph":
        activity.record_reads(graph, tool, [None])
        return
    rows = value.get("entities") or value.get("results") or [] if isinstance(value, dict) else []
    names = [r["name"] for r in rows if isinstance(r, dict) and isinstance(r.get("name"), str)]
    activity.record_reads(graph, tool, memory_reads.ids_of_names(graph, names))  # stored names: one query per 400
