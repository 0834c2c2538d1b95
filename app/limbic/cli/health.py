"""`limbic health` and `limbic merge`: the memory health report and a reviewed merge, on the command line."""

from __future__ import annotations

import argparse
import json
import sys

from limbic.cli.common import number, open_for, whole_number
from limbic.service import health
from limbic.service.health.merge import MergePlan, merge, plan_merge

MAX_FINDINGS = 100_000  # findings listed per kind at most
MAX_DAYS = 36_500  # a hundred years: any longer idle time is no different


def register(sub, common: argparse.ArgumentParser) -> None:
    """Add `health` and `merge` to the CLI's parser."""
    p = sub.add_parser("health", parents=[common],
                       help="duplicate candidates, repeated observations, orphans, stale and oversized entities")
    p.add_argument("--kind", action="append", choices=list(health.KINDS),
                   help="only this check (repeatable; default: all)")
    p.add_argument("--json", action="store_true",
                   help='a JSON list of {"kind", "entities", "score", "reasons"}')
    p.add_argument("--limit", type=whole_number("--limit", 1, MAX_FINDINGS), default=50,
                   help=f"at most this many findings per kind, 1 to {MAX_FINDINGS:,} (default 50)")
    p.add_argument("--stale-days", type=number("--stale-days", 1, MAX_DAYS), default=health.STALE_DAYS,
                   help=f"idle this many days counts as stale, 1 to {MAX_DAYS:,} (default {health.STALE_DAYS:g})")
    p.set_defaults(func=cmd_health)

    p = sub.add_parser("merge", parents=[common], help="merge entity A into entity B (B keeps its name); undoable in the app")
    p.add_argument("source", help="the entity that goes (A)")
    p.add_argument("target", help="the entity that stays (B)")
    p.add_argument("--dry-run", action="store_true", help="show what the merged entity would hold, change nothing")
    p.add_argument("--type", dest="entity_type", help="the merged entity's type when the two differ (default: B's)")
    p.add_argument("--status", help="the merged entity's status when the two differ (default: B's)")
    p.add_argument("--json", action="store_true", help="the preview (or the result) as JSON")
    p.set_defaults(func=cmd_merge)


def cmd_health(args: argparse.Namespace) -> int:
    """Print the health report (read-only)."""
    kinds = health.check_kinds(args.kind)
    opened = open_for(args, load_model=False, existing=True)
    try:
        report = health.scan(opened.graph, kinds, stale_days=args.stale_days, limit=args.limit)
    finally:
        opened.close()
    if args.json:
        print(json.dumps([f.to_json() for f in report.all()], ensure_ascii=False, indent=2))
        return 0
    for kind in kinds:
        found = report.findings.get(kind, [])
        print(f"{health.KIND_TITLES[kind]}: {len(found)}")
        for f in found:
            print(f"  {f.score:.2f}  " + "  ⇄  ".join(f.entities))
            for reason in f.reasons:
                print(f"        {reason}")
    print(f"[{report.entities} entities checked in {report.seconds:.1f} s]", file=sys.stderr)
    return 0


def _print_plan(plan: MergePlan) -> None:
    r = plan.result()
    print(f"Merging “{plan.source.entity.name}” into “{plan.name}” would leave:")
    print(f"  {r['name']} ({r['entityType']}, {r['status']})")
    for c in plan.conflicts:
        chosen = r["entityType"] if c.field == "type" else r["status"]
        print(f"  ! the {c.field}s differ: “{c.target}” (B) and “{c.source}” (A); kept: “{chosen}” "
              f"(choose with --{c.field})")
    print(f"  observations ({len(r['observations'])}):")
    for o in r["observations"]:
        print(f"    {'+' if o in plan.added else ' '} {o}")
    for o, same in plan.dropped:
        print(f"    - {o}   (repeats “{same}”)")
    print(f"  relations ({len(plan.relations)}):")
    for rel in plan.relations:
        arrow = f"{rel.relation_type} → {rel.other_name}" if rel.outgoing else f"{rel.other_name} → {rel.relation_type}"
        print(f"    {'+' if rel.moved else ' '} {arrow}")
    for why in plan.dropped_relations:
        print(f"    - {why}")


def cmd_merge(args: argparse.Namespace) -> int:
    """Preview a merge (--dry-run) or do it."""
    opened = open_for(args, load_model=not args.dry_run, write=not args.dry_run, existing=True)
    try:
        graph = opened.graph
        if args.dry_run:
            plan = plan_merge(graph, args.source, args.target, args.entity_type, args.status)
            if args.json:
                print(json.dumps(plan.to_json(), ensure_ascii=False, indent=2))
            else:
                _print_plan(plan)
            return 0
        with graph.db.activity.using("merge"):
            step = merge(graph, args.source, args.target, args.entity_type, args.status)
        after = step.target_after.entity
        if args.json:
            print(json.dumps({"merged": step.source.name, "into": after.name, "observations": after.observation_texts},
                             ensure_ascii=False, indent=2))
        else:
            print(f"Merged “{step.source.name}” into “{after.name}” ({len(after.observation_texts)} observations).")
    finally:
        opened.close()
    return 0
