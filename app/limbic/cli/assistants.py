"""limbic private, limbic assistants, limbic held: what each assistant may see and change, and what it sent that was held."""

from __future__ import annotations

import argparse
import json

from limbic.cli.common import open_for, whole_number


def cmd_private(args: argparse.Namespace) -> int:
    """limbic private [--off] NAME...: no assistant sees these entities (or, --off, they may again)."""
    from limbic.service import scope

    opened = open_for(args, load_model=False, write=True, existing=True)
    try:
        graph = opened.graph
        done = []
        with graph.write():  # all of them or, if one is missing, none
            for name in args.names:
                entity = graph.get_entity(name)  # a name or one of its aliases; a missing one is said
                done.append((entity.name, scope.set_private(graph, entity.id, not args.off)))
    finally:
        opened.close()
    for name, changed in done:
        if args.off:
            print(f"“{name}” {'is no longer' if changed else 'was not'} private: assistants may see it as their scope allows.")
        else:
            print(f"“{name}” {'is now' if changed else 'was already'} private: no assistant sees it or anything on it.")
    return 0


def _row(a) -> dict:
    from limbic.service import scope

    return {"client": a.client, "last_seen": a.last_seen or None, "first_seen": a.first_seen or None,
            "read": a.read if isinstance(a.read, str) else list(a.read),
            "write": a.write if isinstance(a.write, str) else list(a.write),
            "own_scope": a.own, "paused": a.paused, "read_words": scope.describe(a.read),
            "write_words": scope.describe(a.write)}


def cmd_assistants(args: argparse.Namespace) -> int:
    """limbic assistants [list|set CLIENT --read S --write S|default CHOICE]."""
    from limbic.service import scope

    action = args.action or "list"
    opened = open_for(args, load_model=False, write=action != "list", existing=True)
    try:
        graph = opened.graph
        if action == "set":
            if not args.client or (args.read is None and args.write is None):
                print("limbic: name the assistant and --read and/or --write (all, none, or types: Decision,Session).")
                return 1
            access = scope.set_access(graph, args.client, None if args.read is None else scope.parse(args.read),
                                      None if args.write is None else scope.parse(args.write))
            print(f"“{access.client}” may read {scope.describe(access.read)} and write {scope.describe(access.write)}.")
            return 0
        if action == "default":
            if args.client not in scope.DEFAULT_CHOICES:
                print(f"limbic: the default is one of {', '.join(scope.DEFAULT_CHOICES)}.")
                return 1
            scope.set_default(graph, args.client)
            print(f"An assistant not seen before: {scope.DEFAULT_LABELS[args.client]}.")
            return 0
        listed = scope.assistants(graph)
        default = scope.default_choice(graph)
    finally:
        opened.close()
    if args.json:
        print(json.dumps({"default": default, "assistants": [_row(a) for a in listed]}, ensure_ascii=False, indent=2))
        return 0
    print(f"Default for an assistant not seen before: {scope.DEFAULT_LABELS[default]}.")
    if not listed:
        print("No assistant has used this graph yet.")
    for a in listed:
        seen = f"last seen {a.last_seen} UTC" if a.last_seen else "not seen yet"
        extra = ("" if a.own else " (the default)") + (", paused" if a.paused else "")
        print(f"{a.client}: reads {scope.describe(a.read)}, writes {scope.describe(a.write)}{extra}; {seen}")
    return 0


def cmd_held(args: argparse.Namespace) -> int:
    """limbic held [list|accept ID [--private]|discard ID]: what assistants sent that looked like a credential."""
    from limbic.service import held

    action = args.action or "list"
    if action != "list" and args.id is None:
        print(f"limbic: name the held write to {action} (limbic held lists them).")
        return 1
    opened = open_for(args, load_model=False, write=action != "list", existing=True)
    try:
        graph = opened.graph
        if action == "accept":
            held.accept(graph, args.id, private=args.private)
            print(f"Held write {args.id} is stored now{', its entities private' if args.private else ''}.")
            return 0
        if action == "discard":
            held.discard(graph, args.id)
            print(f"Held write {args.id} is discarded: its text is gone.")
            return 0
        rows = held.held(graph, everything=args.all)
    finally:
        opened.close()
    if args.json:
        print(json.dumps([{"id": h.id, "at": h.at, "assistant": h.client, "tool": h.tool, "why": h.reasons,
                           "state": h.state, "arguments": h.arguments} for h in rows], ensure_ascii=False, indent=2))
        return 0
    if not rows:
        print("Nothing is held: no assistant sent what looks like a credential." if not args.all else "Nothing was held.")
    for h in rows:
        state = "" if h.state == held.HELD else f" ({h.state} {h.decided_at} UTC)"
        print(f"{h.id}: {h.at} UTC, {h.client or 'an assistant'} ({h.tool}): held: {'; '.join(h.reasons)}{state}")
    return 0


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this module's commands to the parser (`common` carries --db)."""
    p = sub.add_parser("private", parents=[common], help="keep entities from every assistant (--off: show them again)")
    p.add_argument("names", nargs="+", help="the entities (names or aliases)")
    p.add_argument("--off", action="store_true", help="no longer private")
    p.set_defaults(func=cmd_private)
    p = sub.add_parser("assistants", parents=[common],
                       help="the assistants seen and what each may read and write; set a scope or the default")
    p.add_argument("action", nargs="?", choices=("list", "set", "default"))
    p.add_argument("client", nargs="?", help="set: the assistant's client name; default: read-write, read-only or nothing")
    p.add_argument("--read", help="set: all, none, or entity types separated by commas")
    p.add_argument("--write", help="set: all, none, or entity types separated by commas")
    p.add_argument("--json", action="store_true", help="list as JSON")
    p.set_defaults(func=cmd_assistants)
    p = sub.add_parser("held", parents=[common],
                       help="writes of assistants held because they looked like a credential: list, accept or discard")
    p.add_argument("action", nargs="?", choices=("list", "accept", "discard"))
    p.add_argument("id", nargs="?", type=whole_number("the held write's number", 1, 2**62),
                   help="accept, discard: the held write's number")
    p.add_argument("--private", action="store_true", help="accept: mark every entity it writes private")
    p.add_argument("--all", action="store_true", help="list: those accepted or discarded too")
    p.add_argument("--json", action="store_true", help="list as JSON (with the held text: it is yours)")
    p.set_defaults(func=cmd_held)
