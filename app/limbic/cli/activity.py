"""limbic activity and limbic revert: who changed what (sessions, calls, changes), and taking changes back."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime

from limbic.cli.common import open_for, whole_number
from limbic.engine.errors import ValidationError
from limbic.service import activity

MAX_SESSIONS = 100_000  # sessions listed at most


def _since(text: str | None) -> str | None:
    if not text:
        return None
    try:
        parsed = datetime.fromisoformat(text.strip().replace("T", " "))
    except ValueError:
        raise ValidationError(f"“{text}” is not a date; use YYYY-MM-DD or YYYY-MM-DD HH:MM.") from None
    return parsed.strftime("%Y-%m-%d %H:%M:%S")


def _session_json(s) -> dict:
    return {
        "id": f"s{s.id}", "session": s.id, "origin": s.origin, "client": s.client or None,
        "client_version": s.client_version or None, "started": s.started,
        "changes": [
            {
                "id": c.id, "tool": c.tool, "time": c.at, "summary": c.summary, "reviewed": c.reviewed_at is not None,
                "reverted_by": c.reverted_by, "reverts": c.reverts,
                "items": [{"kind": i.kind, "op": i.op, "summary": i.summary, "before": i.before, "after": i.after}
                          for i in c.items],
            }
            for c in s.changes
        ],
    }


def cmd_activity(args: argparse.Namespace) -> int:
    """limbic activity: the log of sessions and changes; also pause/resume, the global switch, review, retention."""
    # An empty value is a value too: `--pause ''` is refused with a sentence, not silently ignored.
    writes = any(v is not None for v in (args.pause, args.resume, args.assistants_write, args.keep,
                                         args.mark_reviewed))
    opened = open_for(args, load_model=False, write=writes, existing=True)
    try:
        graph = opened.graph
        with graph.db.activity.using("activity"):
            if args.pause is not None:
                activity.set_paused(graph, args.pause, True)
                print(f"Writing by “{args.pause}” is paused; its reads still work.")
            if args.resume is not None:
                activity.set_paused(graph, args.resume, False)
                print(f"“{args.resume}” may write again.")
            if args.assistants_write is not None:
                activity.set_assistants_may_write(graph, args.assistants_write == "on")
                print("Assistants may write." if args.assistants_write == "on" else "No assistant may write now.")
            if args.keep is not None:
                activity.set_keep_days(graph, args.keep)
                print(f"The activity log keeps changes for {args.keep} days (unreviewed assistant changes stay longer).")
            if args.mark_reviewed is not None:
                n = activity.mark_reviewed_ref(graph, args.mark_reviewed)
                print(f"{n} change{'s' if n != 1 else ''} marked reviewed.")
            if writes:
                return 0
            entity_id = graph.resolve(args.entity) if args.entity else None
            sessions = activity.sessions(graph, client=args.client, since=_since(args.since),
                                         unreviewed=args.unreviewed, entity_id=entity_id, limit=args.limit)
            if args.json:
                print(json.dumps([_session_json(s) for s in sessions], ensure_ascii=False, indent=2))
                return 0
            if not sessions:
                print("No changes match." if (args.client or args.since or args.unreviewed or args.entity)
                      else "The activity log is empty.")
            for s in sessions:
                version = f" {s.client_version}" if s.client_version else ""
                print(f"Session s{s.id} · {s.who}{version} ({s.origin}) · started {s.started[:16]}")
                for c in s.changes:
                    marks = ("" if c.reviewed_at else "  [unreviewed]") + (f"  [taken back by #{c.reverted_by}]"
                                                                          if c.reverted_by else "")
                    print(f"  #{c.id}  {c.at[11:16]}  {c.tool or '-'}: {c.summary}{marks}")
            kept = activity.kept_past_retention(graph)
            if kept:
                print(f"{kept} unreviewed assistant change{'s are' if kept != 1 else ' is'} older than the retention "
                      "and kept until reviewed.", file=sys.stderr)
            return 0
    finally:
        opened.close()


def cmd_revert(args: argparse.Namespace) -> int:
    """limbic revert ID: take back a change or a session, only where nobody changed the same things since."""
    opened = open_for(args, load_model=False, write=True, existing=True)
    try:
        graph = opened.graph
        choice = "skip" if args.keep_theirs else ("into_existing" if args.into_existing else None)
        plan = activity.plan_revert(graph, args.id)
        if args.dry_run:
            for line in activity.preview_lines(plan):  # the window's preview's words: a deleted entity with its pieces
                print(f"if taken back: {line}")
        if plan.already:
            print(f"Already taken back: {', '.join(f'#{i}' for i in plan.already)}.")
        if plan.conflicts and choice is None:
            for c in plan.conflicts:
                print(f"limbic: blocked: {c.sentence()}", file=sys.stderr)
            print("limbic: nothing was changed; --keep-theirs takes back the rest and leaves these as they are"
                  + ("; --into-existing brings a deleted entity back into the one holding its name"
                     if any(c.kind == "name_taken" for c in plan.conflicts) else "") + ".", file=sys.stderr)
            return 1
        if args.dry_run:
            if plan.empty:
                print("Nothing to take back: it is as it was already.")
            return 0
        done = activity.revert_changes(graph, args.id, choice)
        if done.empty:
            print("Nothing to take back: it is as it was already.")
            return 0
        for line in done.lines():  # only what was done: pieces left to another writer are not among them
            print(line)
        n = len(done.pieces)
        taken = {(p.kind, p.row_id) for p in done.pieces}
        left = sum(1 for c in done.conflicts if c.key not in taken)
        print(f"Took back {n} piece{'s' if n != 1 else ''}"
              + (f" and left {left} as another writer left {'it' if left == 1 else 'them'}" if left else "")
              + f"; this revert is change #{done.change_id} (`limbic revert {done.change_id}` makes it again).")
        return 0
    finally:
        opened.close()


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add `activity` and `revert` to the parser."""
    p = sub.add_parser("activity", parents=[common], help="what each assistant and program changed, by session")
    p.add_argument("--client", help="only this client (an assistant's name, as listed)")
    p.add_argument("--since", help="only changes since this date (YYYY-MM-DD[ HH:MM])")
    p.add_argument("--unreviewed", action="store_true", help="only changes not yet marked reviewed")
    p.add_argument("--entity", help="only changes that touched this entity")
    p.add_argument("--limit", type=whole_number("--limit", 1, MAX_SESSIONS), default=200,
                   help=f"at most this many sessions, 1 to {MAX_SESSIONS:,} (default 200)")
    p.add_argument("--json", action="store_true", help="a JSON list of sessions with their changes")
    p.add_argument("--mark-reviewed", metavar="ID", help="mark a change (123), a session (s12) or all reviewed")
    p.add_argument("--pause", metavar="CLIENT", help="refuse this assistant's writes (its reads still work)")
    p.add_argument("--resume", metavar="CLIENT", help="let a paused assistant write again")
    p.add_argument("--assistants-write", choices=("on", "off"), help="the switch for every assistant's writes")
    p.add_argument("--keep", type=whole_number("--keep", 1, activity.MAX_KEEP_DAYS), metavar="DAYS",
                   help=f"keep changes this many days, 1 to {activity.MAX_KEEP_DAYS:,} (default 180)")
    p.set_defaults(func=cmd_activity)

    p = sub.add_parser("revert", parents=[common], help="take back a change or a whole session (conditionally)")
    p.add_argument("id", help="a change id (123) or a session id (s12), as `limbic activity` lists them")
    p.add_argument("--dry-run", action="store_true", help="say what would be taken back and what blocks it")
    p.add_argument("--keep-theirs", action="store_true", help="on a conflict, leave others' work and take back the rest")
    p.add_argument("--into-existing", action="store_true",
                   help="bring a deleted entity back into the entity that holds its name now")
    p.set_defaults(func=cmd_revert)
