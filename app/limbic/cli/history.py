"""limbic show and diff, and what `--as-of` asks of export and search: the graph as it was."""

from __future__ import annotations

import argparse
import json
import sys

from limbic.cli.common import open_for


def cmd_show(args: argparse.Namespace) -> int:
    """limbic show NAME: one entity as it is, or as it was at --as-of."""
    from limbic.service.history import entity_page

    opened = open_for(args, load_model=False, existing=True)
    try:
        page = entity_page(opened.graph, args.name, args.as_of, args.valid_at)
    finally:
        opened.close()
    if args.json:
        print(json.dumps(page, ensure_ascii=False, indent=2))
        return 0
    print(f"{page['name']} ({page['entityType']}, {page['status']}), since {page['createdAt']}")
    if page.get("aliases"):
        print(f"  also known as: {', '.join(page['aliases'])}")
    for o in page["observations"]:
        print(f"  - {o['content']}{_held(o)}")
    for o in page["superseded"]:
        print(f"  ~ {o['content']}  (superseded {o['supersededAt']})")
    for r in page["relations"]:
        periods = ", ".join(f"{p['from']} to {p['until'] or 'now'}" for p in r["periods"])
        state = "" if r["active"] else f"  (ended {r['endedAt'] or ''})".replace(" )", ")")
        print(f"  {r['from']} —{r['relationType']}→ {r['to']}{state}{_held(r)}" + (f"  [{periods}]" if periods else ""))
    return 0


def _held(item: dict) -> str:
    if "validFrom" not in item and "validUntil" not in item:
        return ""
    return f"  (held {item.get('validFrom') or '…'} to {item.get('validUntil') or '…'})"


def cmd_diff(args: argparse.Namespace) -> int:
    """limbic diff DATE1 [DATE2]: what was added, changed, ended and deleted between two dates, per entity."""
    from limbic.service.history import changes_between

    opened = open_for(args, load_model=False, existing=True)
    try:
        changes = changes_between(opened.graph, args.since, args.until)
    finally:
        opened.close()
    if args.json:
        print(json.dumps(changes, ensure_ascii=False, indent=2))
        return 0
    if not changes:
        print("Nothing changed between those dates.")
    for c in changes:
        print(f"{c['entity']}: {c['what']}")
        for d in c["details"]:
            text = d.get("text") or f"{d.get('from')} → {d.get('to')}"
            print(f"    {d['kind']} {d['change']}: {text}")
    return 0


def export_as_of(graph, when: str | None, valid_at: str | None = None) -> None:
    """The JSONL of ``when`` (and what held at ``valid_at``) on standard output (limbic export --as-of/--valid-at)."""
    from limbic.service.history import export_as_of as _export

    _export(graph, when, sys.stdout, valid_at)


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this module's commands to the parser (`common` carries --db)."""
    p = sub.add_parser("show", parents=[common], help="one entity: observations, relations and their periods")
    p.add_argument("name")
    p.add_argument("--as-of", help="as it was on this date (YYYY-MM-DD, the end of that day) or time, in UTC")
    p.add_argument("--valid-at", help="only what held in the world on this date or time, as the graph knows now")
    p.add_argument("--json", action="store_true", help="print it as JSON")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("diff", parents=[common], help="what was added, changed, ended and deleted between two dates")
    p.add_argument("since", help="the earlier date (YYYY-MM-DD or YYYY-MM-DD HH:MM:SS, UTC)")
    p.add_argument("until", nargs="?", help="the later date (default: now)")
    p.add_argument("--json", action="store_true", help="print it as JSON")
    p.set_defaults(func=cmd_diff)
