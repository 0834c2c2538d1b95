"""The command line: launch the app, import, export, search, info, show, alias, diff, eval, check, backup, restore, mcp, activity, revert.

Each command lives in a module of this package with a ``register(sub, common)`` that adds its
sub-parser and sets ``func``; a new command is a new module and one entry in ``COMMANDS``.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import logging
import os
import sys

import apsw

from limbic import __version__
from limbic.cli import activity, aliases, assistants, evaluate, graph_io, health, history, query, safety, serve, sync
from limbic.engine.errors import LimbicError

logger = logging.getLogger(__name__)

# The command modules, in the order `limbic --help` lists their commands.
COMMANDS = (graph_io, query, history, aliases, safety, serve, activity, assistants, health, sync, evaluate)
# Hidden: `limbic mcp` runs its background exchange as this command of its own executable (a bundle has no
# `python -m`); limbic.mcp.sync.CHILD_COMMAND names it there.
SYNC_EXCHANGE = "_sync-exchange"


def build_parser() -> argparse.ArgumentParser:
    """The whole argument parser: global options, then each module's commands."""
    parser = argparse.ArgumentParser(prog="limbic", description="A personal knowledge graph with local hybrid search.")
    parser.add_argument("--version", action="version", version=f"limbic {__version__}")
    parser.add_argument("--db", help="the graph file (default: LIMBIC_DB or the user data folder)")
    parser.add_argument("--smoke", action="store_true", help="start offscreen on a sample graph, search, exit 0 if right")
    sub = parser.add_subparsers(dest="command")
    # --db is accepted before or after the command.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", default=argparse.SUPPRESS, help="the graph file")
    for module in COMMANDS:
        module.register(sub, common)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command (the desktop app without one); the exit code."""
    argv = sys.argv[1:] if argv is None else argv
    _writable_output()
    if argv[:1] == [SYNC_EXCHANGE]:  # the exchange process `limbic mcp` starts (not a command people type)
        from limbic.mcp.sync import child_main

        return child_main(argv[1:])
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except LimbicError as exc:  # a value out of its range (cli.common.whole_number): one sentence, exit 1
        print(f"limbic: {exc}", file=sys.stderr)
        return 1
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        if getattr(args, "func", None) is None:
            return serve.cmd_gui(args)
        code = args.func(args)
        _flush_stdout()
        return code
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            _silence_stdout()
            return 0
        if exc.filename is None:  # writing standard output failed (e.g. `> /dev/full`)
            _silence_stdout()
            why = "the disk is full" if exc.errno == errno.ENOSPC else (exc.strerror or str(exc)).lower()
            print(f"limbic: the output could not be written ({why}).", file=sys.stderr)
        else:
            print(f"limbic: {exc.filename}: {(exc.strerror or str(exc)).lower()}.", file=sys.stderr)
        return 1
    except LimbicError as exc:
        print(f"limbic: {exc}", file=sys.stderr)
        return 1
    except (apsw.CorruptError, apsw.NotADBError):
        print("limbic: the graph file is damaged; run `limbic check` and see docs/safety.md.", file=sys.stderr)
        return 1
    except (apsw.FullError, apsw.IOError) as exc:
        why = "the disk is full" if isinstance(exc, apsw.FullError) else "a disk or file-system error"
        print(f"limbic: the graph file cannot be written ({why}); nothing was changed.", file=sys.stderr)
        return 1
    except apsw.Error as exc:
        print(
            f"limbic: the graph file could not be used ({type(exc).__name__}); run `limbic check`, "
            "and see docs/safety.md.",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        print("limbic: interrupted.", file=sys.stderr)
        return 130


def _writable_output() -> None:
    """Standard output that can write any name: UTF-8 into a pipe or file whose code page cannot (Windows writes
    cp1252 there, and an arrow or a non-Latin name would stop the command), and on a console that cannot show a
    character, a ``?`` in its place; standard error never fails on one either."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
        if encoding in ("utf8", "utf8sig") or not hasattr(stream, "reconfigure"):
            continue
        try:
            console = stream.isatty()
            if stream is sys.stdout and not console:
                stream.reconfigure(encoding="utf-8", errors="strict")
            else:
                stream.reconfigure(errors="replace")
        except (OSError, ValueError):  # closed, or already written to in another encoding: left as it is
            continue


def _flush_stdout() -> None:
    """Push out what is buffered now, so a failure to write it is reported, not a traceback at exit."""
    with contextlib.suppress(AttributeError, ValueError):
        sys.stdout.flush()


def _silence_stdout() -> None:
    """After standard output failed, point it at nothing so that Python's exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, AttributeError, ValueError):
        pass
