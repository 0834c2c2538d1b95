"""limbic mcp and the desktop app: the two long-running front ends the command starts."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from limbic import config, storage_places
from limbic.cli.common import db_path
from limbic.engine.errors import LimbicError


def cmd_mcp(args: argparse.Namespace) -> int:
    """limbic mcp: serve the graph over MCP on stdio."""
    # Only protocol messages may reach standard output: the server keeps a private copy of it and
    # points descriptor 1 at standard error, where everything Limbic logs goes too (MCP clients keep it).
    from limbic.mcp.server import serve

    logging.getLogger("limbic").setLevel(logging.INFO)
    path = db_path(args)
    refused = storage_places.redirected_graph(path)  # a Microsoft Store client would keep the writes to itself
    if refused:
        raise LimbicError(refused)
    _check_served_path(path, chosen=bool(args.db or os.environ.get("LIMBIC_DB")))
    warning = storage_places.place_warning(path)
    if warning:
        logging.getLogger("limbic.mcp").warning("%s", warning)  # standard error: the MCP client's log
    return serve(path, config.model_dir_override(), load_model=not args.no_model, read_only=args.read_only)


def _check_served_path(path: Path, chosen: bool) -> None:
    """An assistant's writes must not go into a graph nobody will open: a mistyped folder is refused, and
    a new graph file is announced on standard error (the MCP client's log shows it)."""
    if path.exists():
        return
    folder = path.parent if str(path.parent) else Path(".")
    if chosen and not folder.is_dir():
        raise LimbicError(f"The folder {folder} does not exist, so there is no graph at {path}; nothing was served "
                          "(check the path in the assistant's settings, or create the graph first with the app "
                          "or `limbic import`).")
    print(f"Note: there was no graph at {path}: a new, empty graph is created there for the assistant.",
          file=sys.stderr)


def cmd_gui(args: argparse.Namespace) -> int:
    """limbic with no command: the desktop app."""
    from limbic.ui.shell.app import run

    note = config.new_graph_note(db_path(args)) if args.db else ""
    if note:
        print(f"limbic: {note}", file=sys.stderr)  # the window says it too

    return run(db_path(args) if args.db else None, smoke=args.smoke)


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this module's commands to the parser (`common` carries --db)."""
    p = sub.add_parser("mcp", parents=[common], help="serve the graph to an AI assistant (MCP over stdio)")
    p.add_argument("--no-model", action="store_true", help="do not load the model: search uses full text only")
    p.add_argument("--read-only", action="store_true", help="assistants may search and read, not write")
    p.set_defaults(func=cmd_mcp)
