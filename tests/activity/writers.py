"""A real second writer for activity tests: `python -m limbic mcp` as a named MCP client sees it."""

from __future__ import annotations

import contextlib
from pathlib import Path

import mcp_types as types
from mcp import Client

from tests.mcp.conftest import APP, call, ok, server_params

__all__ = ["APP", "assistant", "call", "ok"]


@contextlib.asynccontextmanager
async def assistant(db: Path, name: str, *extra_args: str, version: str = "1.0"):
    """An MCP client called ``name`` connected to its own `limbic mcp --no-model` process on ``db``."""
    params = server_params(db, model=False)
    params.args.extend(extra_args)
    client = Client(params, mode="legacy", client_info=types.Implementation(name=name, version=version),
                    read_timeout_seconds=60)
    async with client:
        yield client
