"""limbic search, embed and info: asking the graph, and what it holds."""

from __future__ import annotations

import argparse
import json
import sys

from limbic import config
from limbic.cli.common import embed_pending, open_for, whole_number
from limbic.engine.errors import LimbicError
from limbic.service.types import MAX_LIMIT


def cmd_embed(args: argparse.Namespace) -> int:
    """limbic embed: embed the entities that wait for a vector."""
    opened = open_for(args, write=True, existing=True)
    try:
        if opened.graph.embedder is None:
            raise LimbicError("Nothing can be embedded without a model.")
        pending = opened.graph.pending_embeddings()
        embed_pending(opened.graph)
        print(f"Embedded {pending} entities; {opened.graph.pending_embeddings()} wait." if pending
              else "Every entity is embedded.")
    finally:
        opened.close()
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    """limbic search QUERY: the hybrid search, printed or as JSON."""
    from limbic.service.filters import SearchFilter, day_bound, filtered_search
    from limbic.service.types import ScoringParams

    # Since: changed on or after that day; until: already there by that day. Both read dates or what a
    # person says ("last week", "en marzo"); a time that is none is refused before the graph is opened.
    since = day_bound(args.since, "from", "--since") if getattr(args, "since", None) else ""
    until = day_bound(args.until, "to", "--until") if getattr(args, "until", None) else ""
    opened = open_for(args, existing=True)
    try:
        # Answer with what is embedded now; the backlog is embedded on demand (``limbic embed``).
        waiting = opened.graph.pending_embeddings() if opened.graph.embedder else 0
        if waiting:
            # A note, not an error: it never starts with "limbic:", which marks the one sentence of a failure.
            print(f"Note: {waiting} entities wait for embedding and are found by their words only "
                  "(run `limbic embed`).", file=sys.stderr)
        params = ScoringParams.from_overrides(config.load_settings().scoring)
        flt = SearchFilter(status=getattr(args, "status", None) or "", updated_from=since, created_to=until)
        if getattr(args, "as_of", None) or getattr(args, "valid_at", None):
            response = _search_as_of(opened.graph, args, params)
        else:
            response = filtered_search(opened.graph, args.query, flt, args.limit, params=params,
                                       record=not args.no_record)
        if args.json:
            print(json.dumps(response.to_json(), ensure_ascii=False, indent=2))
            return 0
        if response.no_match:
            print(response.no_match_sentence)
        elif not response.results:
            print(f"No results ({response.mode}).")
        for i, r in enumerate(response.results, start=1):
            dist = "—" if r.distance is None else f"{r.distance:.3f}"
            note = response.time_note(r)
            print(f"{i:>2}. {r.name} ({r.entity_type})  score {r.limbic_score:.3f}  distance {dist}  via {r.branch}"
                  + (f"  {note}" if note else ""))
            if r.observations:
                print(f"    {r.observations[0][:110]}")
        print(f"[{response.mode}]", file=sys.stderr)
    finally:
        opened.close()
    return 0


def _history_start(graph) -> str:
    from limbic.service.history import history_start

    start = history_start(graph)
    return f"{start} UTC (export --as-of, show, diff)" if start else "— (upgrade the file to keep its history)"


def _search_as_of(graph, args: argparse.Namespace, params):
    from limbic.service.history import search_as_of

    if args.since or args.until:
        raise LimbicError("--as-of and --valid-at search one date; they do not combine with --since or --until.")
    response, by_words = search_as_of(graph, args.query, args.as_of, args.limit, params, args.status or "",
                                      args.valid_at)
    if by_words:
        print(f"Note: {by_words} entities read differently then and are found by their words only.", file=sys.stderr)
    return response


def cmd_info(args: argparse.Namespace) -> int:
    """limbic info: the file, its counts, model and schema."""
    from limbic.service.types import SCHEMA_VERSION

    opened = open_for(args, existing=True)
    try:
        g = opened.graph
        counts = g.counts()
        model = g.embedder.spec.name if g.embedder else f"none ({opened.model_error})"
        lines = [
            ("file", str(g.db.path)),
            ("schema", f"{g.db.user_version()} (this Limbic reads up to {SCHEMA_VERSION})"),
            ("entities", counts["entities"]),
            ("observations", counts["observations"]),
            ("relations", counts["relations"]),
            ("vectors", counts["vectors"]),
            ("waiting for embedding", g.pending_embeddings() if g.embedder else "—"),
            ("model", model),
            ("dimension", g.embedder.dim if g.embedder else g.db.get_meta("model_dim") or "—"),
            ("stored vectors' model", g.db.get_meta("model_name") or "—"),
            ("history since", _history_start(g)),
        ]
        for key, value in lines:
            print(f"{key:>22}: {value}")
    finally:
        opened.close()
    return 0


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this module's commands to the parser (`common` carries --db)."""
    p = sub.add_parser("search", parents=[common], help="hybrid search")
    p.add_argument("query")
    p.add_argument("--limit", type=whole_number("--limit", 1, MAX_LIMIT), default=10,
                   help=f"at most this many results, 1 to {MAX_LIMIT:,} (default 10)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--no-record", action="store_true", help="do not record access signals")
    p.add_argument("--status", choices=["active", "paused", "done", "archived"], help="only entities with this status")
    p.add_argument("--since", help="only entities changed on or after this day: 2026-03-01, \"last week\", \"en marzo\"")
    p.add_argument("--until", help="only entities created by the end of this day or time: 2026-03-31, \"yesterday\"")
    p.add_argument("--as-of", help="search the graph as it was on this date (YYYY-MM-DD) or time, in UTC")
    p.add_argument("--valid-at", help="only what held in the world on this date or time, as the graph knows now")
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("embed", parents=[common], help="embed the entities that wait for a vector")
    p.set_defaults(func=cmd_embed)

    p = sub.add_parser("info", parents=[common], help="file, counts, model, schema version")
    p.set_defaults(func=cmd_info)
