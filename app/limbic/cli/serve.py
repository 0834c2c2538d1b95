"""limbic mcp and the desktop app: the two long-running front ends the command starts."""

from __future__ import annotations

import argparse
import logging
import sys

from limbic import config
from limbic.cli.common import db_path


def cmd_mcp(args: argparse.Namespace) -> int:
    """limbic mcp: serve the graph over MCP on stdio."""
    # Only protocol messages may reach standard output: the server keeps a private copy of it and
    # points descriptor 1 at standard error, where everything Limbic logs goes too (MCP clients keep it).
    from limbic.mcp.server import serve

    logging.getLogger("limbic").setLevel(logging.INFO)
    return serve(db_path(args), config.model_dir_override(), load_model=not args.no_model, read_only=args.read_only)


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
