"""Start `python -m limbic mcp --db FILE` and talk to it with the MCP SDK's own stdio client."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path

import anyio
import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters

APP = str(Path(__file__).resolve().parents[2] / "app")
URI = "memory://knowledge-graph"


def server_params(db: Path, model: bool = True, **env: str) -> StdioServerParameters:
    """The command an MCP client would run, with this test's private data folder."""
    extra = {"PYTHONPATH": APP, "LIMBIC_HOME": os.environ["LIMBIC_HOME"], **env}
    args = ["-m", "limbic", "mcp", "--db", str(db)] + ([] if model else ["--no-model"])
    return StdioServerParameters(command=sys.executable, args=args, env=extra)


class Notes:
    """Resource-updated notifications the client received, for waiting on them."""

    def __init__(self) -> None:
        self.updated = 0
        self.errors: list[BaseException] = []

    async def handler(self, message) -> None:
        if isinstance(message, Exception):
            self.errors.append(message)
        elif isinstance(message, types.ResourceUpdatedNotification) and message.params.uri == URI:
            self.updated += 1

    async def wait_beyond(self, count: int, timeout: float = 10.0) -> float:
        """Seconds until more than ``count`` notifications have arrived (fails after ``timeout``)."""
        start = anyio.current_time()
        with anyio.fail_after(timeout):
            while self.updated <= count:
                await anyio.sleep(0.02)
        return anyio.current_time() - start


@contextlib.asynccontextmanager
async def connect(db: Path, model: bool = True, mode: str = "legacy", notes: Notes | None = None, **env: str):
    client = Client(server_params(db, model, **env), mode=mode, message_handler=notes.handler if notes else None,
                    read_timeout_seconds=60)
    async with client:
        yield client


async def call(client: Client, tool: str, **arguments):
    """(is_error, text, structured) of one tool call."""
    result = await client.call_tool(tool, arguments)
    text = result.content[0].text if result.content else ""
    return result.is_error, text, result.structured_content


async def ok(client: Client, tool: str, **arguments):
    """The structured result of a call that must succeed."""
    is_error, text, structured = await call(client, tool, **arguments)
    assert not is_error, text
    if structured is not None and "message" not in structured:
        # The text is the same result as JSON: the whole object, or the list under its one key.
        parsed = json.loads(text)
        assert parsed == structured or {next(iter(structured)): parsed} == structured
    return structured
