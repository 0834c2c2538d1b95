"""limbic alias: give an entity another name, take one off, or list them."""

from __future__ import annotations

import argparse

from limbic.cli.common import open_for
from limbic.engine.errors import LimbicError


def cmd_alias(args: argparse.Namespace) -> int:
    """limbic alias add|remove|list NAME [ALIAS...]: the other names an entity goes by."""
    from limbic.service import aliases

    if args.action != "list" and not args.aliases:
        raise LimbicError(f"Name at least one alias to {args.action} (limbic alias {args.action} NAME ALIAS...).")
    opened = open_for(args, load_model=False, write=args.action != "list", existing=True)
    try:
        graph = opened.graph
        entity = graph.get_entity(args.name)  # a name or one of its aliases
        if args.action == "list":
            names = graph.aliases_of(entity.id)
            print(f"{entity.name}: " + (", ".join(names) if names else "no aliases"))
            return 0
        change = aliases.add_alias if args.action == "add" else aliases.remove_alias
        with graph.db.activity.using(f"alias {args.action}"), graph.write():  # all of them or, if one is refused, none
            done = [(alias.strip(), change(graph, entity.id, alias)) for alias in args.aliases]
    finally:
        opened.close()
    for alias, changed in done:
        if args.action == "add":
            print(f"“{entity.name}” {'is now also' if changed else 'was already'} known as “{alias}”.")
        else:
            print(f"“{entity.name}” {'is no longer' if changed else 'was not'} known as “{alias}”.")
    return 0


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this module's commands to the parser (`common` carries --db)."""
    p = sub.add_parser("alias", parents=[common], help="an entity's other names: add, remove or list them")
    p.add_argument("action", choices=("add", "remove", "list"))
    p.add_argument("name", help="the entity (its name or one of its aliases)")
    p.add_argument("aliases", nargs="*", help="the aliases to add or remove")
    p.set_defaults(func=cmd_alias)
