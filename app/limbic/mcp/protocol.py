"""Protocol-level answers the SDK leaves out: every request gets a reply with a sentence.

* A line the SDK cannot read as a JSON-RPC message (for instance text holding a lone surrogate,
  ``"\\ud800"``, which is valid JSON but not Unicode) is answered with -32602 when it carries a
  request id, and with -32700 (id null) when it is not JSON at all, instead of no reply at all.
* A request before ``initialize`` gets -32600 saying so (the SDK answers "Invalid request parameters").
"""

from __future__ import annotations

import json
import logging
from typing import Any

import anyio
import mcp_types as types
from mcp.shared._context_streams import create_context_streams
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage

logger = logging.getLogger(__name__)

# Requests a client may send before the handshake finished (the SDK's own exemptions, and discovery).
BEFORE_INITIALIZE = frozenset({"initialize", "ping", "server/discover"})


def _surrogate_path(value: Any, path: str = "") -> str | None:
    """Where in a parsed JSON value a lone surrogate sits (``arguments.names[0]``), or None."""
    if isinstance(value, str):
        return path or "the message" if any(0xD800 <= ord(c) <= 0xDFFF for c in value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            found = _surrogate_path(key, path) or _surrogate_path(item, f"{path}.{key}" if path else key)
            if found:
                return found
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = _surrogate_path(item, f"{path}[{i}]")
            if found:
                return found
    return None


def reply_to_unreadable(exc: Exception) -> types.JSONRPCError | None:
    """The error reply to a line the SDK could not read, or None when no reply is due (a notification)."""
    errors = getattr(exc, "errors", None)
    line = None
    if callable(errors):
        try:
            line = errors()[0].get("input")
        except Exception:
            line = None
    if not isinstance(line, str):
        return None
    try:
        message = json.loads(line)
    except ValueError:
        return types.JSONRPCError(jsonrpc="2.0", id=None, error=types.ErrorData(
            code=types.PARSE_ERROR, message="The message is not valid JSON."))
    if not isinstance(message, dict) or "method" not in message or "id" not in message:
        return None  # a notification or a response: JSON-RPC wants no reply
    request_id = message["id"]
    if not isinstance(request_id, (int, str)) or isinstance(request_id, bool) or _surrogate_path(request_id):
        request_id = None
    where = _surrogate_path(message.get("params"), "params")
    if where:
        text = (f"The request's {where} holds a lone surrogate (half of a UTF-16 pair, such as \\ud800), which is not "
                "valid Unicode text; send the text with its pair or without it.")
    else:
        text = "The request is not a valid MCP message (its fields or their types are wrong)."
    return types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=types.INVALID_PARAMS, message=text))


async def answer_unreadable(read_stream, write_stream, task_group) -> Any:
    """A read stream like ``read_stream`` that answers unreadable requests itself instead of passing them on."""
    sink, source = create_context_streams[SessionMessage | Exception](0)

    async def relay() -> None:
        async with sink:
            async for item in read_stream:
                if isinstance(item, Exception):
                    reply = reply_to_unreadable(item)
                    if reply is not None:
                        logger.info("answered an unreadable request: %s", reply.error.message)
                        try:
                            await write_stream.send(SessionMessage(reply))
                        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                            return
                        continue
                await sink.send(item)

    task_group.start_soon(relay)
    return source


async def initialize_first(ctx, call_next):
    """Server middleware: a request before ``initialize`` gets -32600 with a sentence."""
    connection = getattr(ctx.session, "_connection", None)
    accepted = getattr(connection, "initialize_accepted", True)
    if ctx.request_id is not None and not accepted and ctx.method not in BEFORE_INITIALIZE:
        raise MCPError(code=types.INVALID_REQUEST,
                       message=f"“{ctx.method}” came before “initialize”: the client must initialize the connection first.")
    return await call_next(ctx)
