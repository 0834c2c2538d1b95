"""limbic sync and limbic conflicts: one graph on several devices through a folder the person syncs."""

from __future__ import annotations

import argparse
import json
import sys

from limbic.cli.common import TerminalProgress, open_for, whole_number


def _print_result(result) -> None:
    if result.new_code:
        print("This graph's sync folder is sealed: only your own devices can read it or add to it.\n"
              f"Recovery code: {result.new_code}\n"
              "Keep it (print it, or store it in a password manager): another device joins with\n"
              "  limbic sync --folder DIR --code CODE\n"
              "and limbic sync --show-code shows it again on a device that syncs. Losing it loses no data.")
    if result.device_note:
        print(f"limbic: {result.device_note}", file=sys.stderr)
    print(f"Sent {result.sent} change{'s' if result.sent != 1 else ''}, received {result.received}, "
          f"{result.conflicts} new conflict{'s' if result.conflicts != 1 else ''}.")
    for line in result.waiting:
        print(f"  waiting: {line}")
    for line in result.confirm_needed:
        print(f"limbic: {line}", file=sys.stderr)
    if result.skipped:
        print(f"  {len(result.skipped)} file{'s' if len(result.skipped) != 1 else ''} in the folder skipped "
              "(see limbic sync --status).")


def _code(args: argparse.Namespace) -> str | None:
    """The recovery code given with --code, or read from --code-file (its first line)."""
    if args.code_file:
        try:
            with open(args.code_file, encoding="utf-8") as fh:
                return fh.readline(200).strip() or None
        except OSError as exc:
            raise SystemExit(f"limbic: the code file {args.code_file} cannot be read: {exc.strerror}.") from None
    return args.code


def cmd_sync(args: argparse.Namespace) -> int:
    """limbic sync [--folder DIR] [--yes] | --status [--json]: exchange once with the sync folder."""
    from limbic.service import sync

    if args.name:
        sync.set_device_name(args.name)
    code = _code(args)
    opened = open_for(args, load_model=False, write=not (args.status or args.show_code))
    try:
        graph = opened.graph
        if args.show_code:
            shown = sync.show_code(graph)
            if shown is None:
                print("limbic: this machine keeps no recovery code for this graph's sync folder (it syncs in the clear, "
                      "or was paired by its key only).", file=sys.stderr)
                return 1
            print(shown)
            return 0
        if args.status:
            st = sync.status(graph, args.folder)
            if args.json:
                print(json.dumps(st.to_json(), indent=2, ensure_ascii=False))
                return 0
            print(f"This device: {st.device.name} ({st.device.id})")
            print(f"Folder: {st.folder or 'none yet (limbic sync --folder DIR)'}")
            print(f"Published: {st.published} segment{'s' if st.published != 1 else ''}; "
                  f"{st.unpublished} change{'s' if st.unpublished != 1 else ''} not published yet")
            for d in st.devices:
                print(f"  {d.name or d.id} ({d.id}): {d.segments} segments, applied up to {d.applied}, "
                      f"newest written {d.last_segment_at or 'unknown'}")
            print(f"Pending: {st.pending} segment{'s' if st.pending != 1 else ''}; open conflicts: {st.conflicts}")
            for path, why in st.skipped:
                print(f"  skipped {path}: {why}")
            return 0
        if args.new_code:
            result = sync.seal_anew(graph, args.folder)
            print("This graph's sync folder is sealed anew under a new recovery code: the old code opens nothing "
                  "written from now on.\n"
                  f"Recovery code: {result.new_code}\n"
                  "Keep it (print it, or store it in a password manager). Each of your other devices asks for it at\n"
                  "its next sync: limbic sync --code CODE, or File → Sync…. Everything the folder held stays readable\n"
                  "with it.")
            return 0
        bar = TerminalProgress()
        job = sync.SyncJob(lambda done, total: bar("sync", done, total))
        try:
            # --folder chooses the folder: its graph folder may be made again (started anew from here).
            result = sync.exchange(graph, args.folder, confirm=args.yes, job=job, create=True if args.folder else None,
                                   code=code)
        finally:
            bar.finish()
        _print_result(result)
        return 2 if result.confirm_needed else 0
    finally:
        opened.close()


def cmd_conflicts(args: argparse.Namespace) -> int:
    """limbic conflicts [--json] | resolve ID --keep mine|theirs|both."""
    from limbic.service import sync

    opened = open_for(args, load_model=False, write=args.action == "resolve", existing=True)
    try:
        if args.action == "resolve":
            c = sync.resolve_conflict(opened.graph, args.id, args.keep)
            print(f"Conflict {c.id} resolved: kept {args.keep}; the other devices follow at their next sync.")
            return 0
        found = sync.list_conflicts(opened.graph, resolved=args.all)
        if args.json:
            print(json.dumps([c.to_json() for c in found], indent=2, ensure_ascii=False))
            return 0
        if not found:
            print("No sync conflicts.")
        for c in found:
            done = f" [resolved: {c.resolved}]" if c.resolved else ""
            print(f"{c.id}: {c.sentence()} — {c.their_device_name or c.their_device}, {c.at[:16]}{done}")
        return 0
    finally:
        opened.close()


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this module's commands to the parser (`common` carries --db)."""
    p = sub.add_parser("sync", parents=[common], help="exchange changes with your other devices through a synced folder")
    p.add_argument("--folder", help="the synced folder (the first time: joins this graph to it and remembers it)")
    p.add_argument("--status", action="store_true", help="this device, the devices seen, what waits, skipped files")
    p.add_argument("--json", action="store_true", help="with --status: print it as JSON")
    p.add_argument("--yes", action="store_true", help="apply changes that delete a large share of the graph")
    p.add_argument("--name", help="this device's name as the other devices show it")
    p.add_argument("--code", help="the sealed folder's recovery code, to join it from this device")
    p.add_argument("--code-file", help="read the recovery code from this file (its first line)")
    p.add_argument("--show-code", action="store_true", help="show the sealed folder's recovery code again")
    p.add_argument("--new-code", action="store_true",
                   help="seal the folder anew under a new recovery code (after the old one leaked); the others pair again")
    p.set_defaults(func=cmd_sync)

    p = sub.add_parser("conflicts", parents=[common], help="what sync kept when two devices changed the same thing")
    p.add_argument("--json", action="store_true", help="print them as JSON")
    p.add_argument("--all", action="store_true", help="resolved ones too")
    p.set_defaults(func=cmd_conflicts, action="list")
    csub = p.add_subparsers(dest="action")
    r = csub.add_parser("resolve", parents=[common], help="keep mine, theirs or both")
    r.add_argument("id", type=whole_number("ID", 1, 10**12), help="the conflict's number, as `limbic conflicts` lists it")
    r.add_argument("--keep", required=True, choices=("mine", "theirs", "both"))
    r.set_defaults(func=cmd_conflicts, action="resolve")
