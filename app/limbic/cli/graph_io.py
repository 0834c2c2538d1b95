"""limbic import and limbic export: the graph in from files and out to them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from limbic.cli.common import TerminalProgress, db_path, open_for
from limbic.engine.errors import LimbicError
from limbic.service.types import counted


def cmd_import(args: argparse.Namespace) -> int:
    """limbic import PATH: bring a file or folder into the graph."""
    from limbic.service.importers import KIND_NAMES, detect_kind, import_path

    target = db_path(args)
    kind = getattr(args, "kind", None) or detect_kind(Path(args.file))  # a bad path is refused before opening
    new = not target.exists() and target.parent.is_dir()  # a missing folder is said by open_for, before
    opened = open_for(args, write=True)
    done = False
    try:
        bar = TerminalProgress()
        summary = import_path(opened.graph, Path(args.file), progress=bar, kind=kind)
        bar.finish()
        done = True
        print(f"Imported {args.file} ({KIND_NAMES[kind]}): {summary.describe()}")
        if new:
            print(f"There was no graph at {target}: this import created it.", file=sys.stderr)
        for entry in getattr(summary, "skipped", []):  # each one with its reason (links are never followed)
            print(f"  skipped {entry}")
    finally:
        # A refused import into a new file leaves no empty graph behind to be mistaken for one.
        forget = new and not done and _holds_nothing(opened.graph)
        opened.close()
        if forget:
            for leftover in (target, target.with_name(target.name + "-wal"), target.with_name(target.name + "-shm")):
                leftover.unlink(missing_ok=True)
    return 0


def _holds_nothing(graph) -> bool:
    try:
        return not any(graph.counts().values())
    except Exception:  # noqa: BLE001 - a graph that cannot be counted is kept, and the import's own error said
        return False


def _export_folder(args: argparse.Namespace, graph) -> int:
    """``--format markdown|csv``: files into a folder (new, empty, or an earlier export of the same kind)."""
    from limbic.service.export_guard import OverwriteRefused

    if not args.output:
        raise LimbicError(f"--format {args.format} writes a folder of files: name it with -o FOLDER.")
    try:
        if args.format == "markdown":
            from limbic.service.importers.markdown_export import export_markdown

            n = export_markdown(graph, Path(args.output), force=args.force)
            print(f"Exported {n} notes to {args.output}", file=sys.stderr)
        else:
            from limbic.service.importers.csv_io import export_csv

            entities, relations = export_csv(graph, Path(args.output), force=args.force)
            print(f"Exported {counted(entities, 'entity row')} and {counted(relations, 'relation row')} to "
                  f"{args.output}", file=sys.stderr)
    except OverwriteRefused as exc:
        raise LimbicError(f"{str(exc).rstrip('.')}, or write into it anyway with --force.") from None
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """limbic export: the graph as memory JSONL (or a folder of Markdown or CSV)."""
    from limbic.service.files import export_jsonl, export_jsonl_to

    opened = open_for(args, load_model=False, existing=True)
    try:
        if getattr(args, "as_of", None) or getattr(args, "valid_at", None):
            if args.output or getattr(args, "format", "jsonl") != "jsonl":
                raise LimbicError("--as-of and --valid-at export JSONL to standard output; redirect it with > FILE.")
            from limbic.cli.history import export_as_of

            export_as_of(opened.graph, args.as_of, args.valid_at)
            return 0
        if getattr(args, "format", "jsonl") != "jsonl":
            return _export_folder(args, opened.graph)
        if args.output:
            n = export_jsonl(opened.graph, args.output, force=args.force)
            print(f"Exported {n} lines to {args.output}", file=sys.stderr)
        else:
            export_jsonl_to(opened.graph, sys.stdout)
    finally:
        opened.close()
    return 0


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this module's commands to the parser (`common` carries --db)."""
    p = sub.add_parser(
        "import", parents=[common],
        help="import a memory JSONL file, a memory engine database, a folder of Markdown notes or CSV files (idempotent)",
    )
    p.add_argument("file")
    p.add_argument("--kind", choices=["jsonl", "seed", "markdown", "csv"], help="what PATH is (default: recognised)")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("export", parents=[common], help="export the graph as memory JSONL, Markdown notes or CSV")
    p.add_argument("-o", "--output", help="write to this file (a folder for markdown and csv) instead of standard output")
    p.add_argument("--format", choices=["jsonl", "markdown", "csv"], default="jsonl", help="default: jsonl")
    p.add_argument("--force", action="store_true", help="replace a file (or write into a folder) that is not an earlier export of the same kind")
    p.add_argument("--as-of", help="the graph as it was on this date (YYYY-MM-DD, the end of that day) or time, in UTC")
    p.add_argument("--valid-at", help="only what held in the world on this date or time, as the graph knows now")
    p.set_defaults(func=cmd_export)
