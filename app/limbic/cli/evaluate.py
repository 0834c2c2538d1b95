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
    from limbic.service.evaluation import METHODS, evaluate_collection

    bar = TerminalProgress()
    run = evaluate_collection(
        Path(args.corpus), Path(args.queries), Path(args.qrels), keep=Path(args.keep) if args.keep else None,
        cache=not args.no_cache, model_dir=config.model_dir_override(), progress=bar,
        on_model_error=lambda e: print(f"limbic: semantic search is off: {e}", file=sys.stderr), on_imported=bar.finish)
    bar.finish()
    results = run.results
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"{run.documents} documents, {run.queries} queries")
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
