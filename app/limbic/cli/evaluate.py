"""limbic eval: nDCG@10 and Recall@100 of the search on a BEIR collection."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from limbic import config
from limbic.cli.common import TerminalProgress


def cmd_eval(args: argparse.Namespace) -> int:
    """limbic eval: nDCG@10 and Recall@100 on a BEIR collection."""
    import tempfile

    from limbic.engine.embeddings import resolve_spec
    from limbic.engine.evaluation import METHODS, cache_path, evaluate, import_collection, load_collection
    from limbic.engine.scoring import ScoringParams
    from limbic.engine.session import open_graph

    coll = load_collection(Path(args.corpus), Path(args.queries), Path(args.qrels))
    with tempfile.TemporaryDirectory() as tmp:
        if args.keep:
            db_path = Path(args.keep)
        elif args.no_cache:
            db_path = Path(tmp) / "eval.db"
        else:
            # Embedding a collection takes minutes: keep it per corpus and model for the next run.
            try:
                identity = resolve_spec(config.model_dir_override()).identity()
            except Exception:  # no usable model: a full-text-only graph is cached as such
                identity = None
            db_path = cache_path(config.cache_dir() / "eval", Path(args.corpus), identity)
            db_path.parent.mkdir(parents=True, exist_ok=True)
        opened = open_graph(db_path, config.model_dir_override())
        try:
            if opened.model_error:
                print(f"limbic: semantic search is off: {opened.model_error}", file=sys.stderr)
            bar = TerminalProgress()
            import_collection(opened.graph, coll, progress=bar)
            bar.finish()
            params = ScoringParams.from_overrides(config.load_settings().scoring)
            results = evaluate(opened.graph, coll, params, progress=lambda d, t: bar("query", d, t))
            bar.finish()
        finally:
            opened.close()
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"{len(coll.docs)} documents, {len(coll.queries)} queries")
    print(f"{'method':<14}{'nDCG@10':>10}{'Recall@100':>12}")
    for method in METHODS:
        if method in results:
            m = results[method]
            print(f"{method:<14}{m['ndcg@10']:>10.4f}{m['recall@100']:>12.4f}")
    return 0


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this module's commands to the parser (`common` carries --db)."""
    p = sub.add_parser("eval", parents=[common], help="nDCG@10 and Recall@100 on a BEIR collection")
    p.add_argument("corpus")
    p.add_argument("queries")
    p.add_argument("qrels")
    p.add_argument("--json", action="store_true")
    p.add_argument("--keep", help="keep the imported collection in this file and reuse it next time")
    p.add_argument("--no-cache", action="store_true", help="import into a temporary file (by default the "
                   "imported collection is cached per corpus and model in the user cache folder)")
    p.set_defaults(func=cmd_eval)
