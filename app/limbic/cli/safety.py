"""limbic check, backup and restore: the file's health, and copies of it."""

from __future__ import annotations

import argparse
import json
import sys

from limbic import config
from limbic.cli.common import TerminalProgress, db_path, open_for, whole_number

MAX_KEEP_BACKUPS = 10_000  # each backup is a whole copy of the graph


def cmd_check(args: argparse.Namespace) -> int:
    """limbic check [--repair]: integrity, and graph, full text and vectors agreeing."""
    from limbic.service.integrity import check_file

    bar = TerminalProgress() if args.repair else None
    run = check_file(db_path(args), repair_it=args.repair, use_model=not args.no_model,
                     model_dir=config.model_dir_override(), progress=(lambda d, t: bar("embed", d, t)) if bar else None)
    if bar:
        bar.finish()
    for note in run.notes:
        print(f"limbic: {note}", file=sys.stderr)
    report, result = run.report, run.repaired
    if result is not None:
        before = result.before
        print(f"Before repair: {before.summary()}")
        for line in before.lines():
            print(f"  {line}")
        done = []
        if result.tables_recreated:
            done.append(f"{', '.join(result.tables_recreated)} recreated")
        if result.tables_set_aside:
            done.append(f"unreadable usage history kept as {', '.join(result.tables_set_aside)}")
        if result.fts_rebuilt:
            done.append("full-text index rebuilt")
        if result.reindexed:
            done.append("SQLite indexes rebuilt")
        if result.history_records:
            done.append(f"{result.history_records} recorded-history records closed or added")
        if result.vectors_dropped:
            done.append(f"{result.vectors_dropped} vectors dropped")
        if result.embedded:
            done.append(f"{result.embedded} entities embedded")
        print(f"Repaired: {', '.join(done) or 'nothing to do'}; the graph itself was not changed.")
    if args.json:
        print(json.dumps({**report.__dict__, "history": report.history.__dict__, "consistent": report.consistent,
                          "file_ok": report.file_ok}, indent=2))
    else:
        print(report.summary())
        for line in report.lines():
            print(f"  {line}")
        if not report.file_ok:
            print("  The file itself is damaged: restore a backup (`limbic backup --list`, `limbic restore`).")
        elif not report.consistent and not args.repair:
            print("  Run `limbic check --repair` to rebuild the full-text index and vectors from the graph.")
    return 0 if report.consistent else 2


def cmd_backup(args: argparse.Namespace) -> int:
    """limbic backup [--list]: take a backup now, or list them."""
    from limbic.service.backups import listing, take_backup

    if args.list:
        print("\n".join(listing(db_path(args))))
        return 0
    opened = open_for(args, load_model=False, existing=True)
    try:
        path, deleted = take_backup(opened.graph, args.keep)
        print(f"Backed up {opened.graph.db.path} to {path}")
        for line in deleted:
            print(f"Deleted the older backup {line}.")
    finally:
        opened.close()
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    """limbic restore BACKUP: replace the graph with a backup."""
    from limbic.service.backups import restore_backup

    opened = open_for(args, load_model=False, write=True, existing=True)
    try:
        before = restore_backup(opened.graph, args.backup, force=args.force)
        print(f"Restored {opened.graph.db.path} from {args.backup}; the state it replaced is kept in {before}")
    finally:
        opened.close()
    return 0


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this module's commands to the parser (`common` carries --db)."""
    p = sub.add_parser("check", parents=[common], help="integrity of the file, and graph, full-text and vectors agreeing")
    p.add_argument("--repair", action="store_true", help="rebuild the full-text index and vectors from the graph")
    p.add_argument("--no-model", action="store_true", help="do not load the model (vectors are not compared with it)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("backup", parents=[common], help="take a backup now (kept beside the file), or list them")
    p.add_argument("--list", action="store_true", help="list the backups instead of taking one")
    p.add_argument("--keep", type=whole_number("--keep", 1, MAX_KEEP_BACKUPS),
                   help=f"how many backups to keep, 1 to {MAX_KEEP_BACKUPS:,} (default 10)")
    p.set_defaults(func=cmd_backup)

    p = sub.add_parser("restore", parents=[common], help="replace the graph with a backup (the current state is backed up first)")
    p.add_argument("backup", help="a backup file, as `limbic backup --list` shows")
    p.add_argument("--force", action="store_true", help="restore a file that holds another graph")
    p.set_defaults(func=cmd_restore)
