"""`limbic eval`: a BEIR collection imported into a graph of its own (cached per corpus and model), then scored."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from limbic import config
from limbic.engine.vectors.embeddings import resolve_spec
from limbic.engine.evaluation import METHODS, cache_path, evaluate, import_collection, load_collection
from limbic.engine.search.scoring import ScoringParams
from limbic.engine.session import open_graph

__all__ = ["METHODS", "Evaluation", "evaluate_collection"]

Progress = Callable[[str, int, int], None]


@dataclass
class Evaluation:
    documents: int
    queries: int
    results: dict  # method → {"ndcg@10": …, "recall@100": …}
    model_error: str | None


def _cached_graph(corpus: Path, model_dir: Path | None) -> Path:
    # Embedding a collection takes minutes: keep it per corpus and model for the next run.
    try:
        identity = resolve_spec(model_dir).identity()
    except Exception:  # no usable model: a full-text-only graph is cached as such
        identity = None
    path = cache_path(config.cache_dir() / "eval", corpus, identity)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def evaluate_collection(corpus: Path, queries: Path, qrels: Path, *, keep: Path | None = None, cache: bool = True,
                        model_dir: Path | None = None, progress: Progress | None = None,
                        on_model_error: Callable[[str], None] | None = None,
                        on_imported: Callable[[], None] | None = None) -> Evaluation:
    """nDCG@10 and Recall@100 of every ranking method on the collection; ``keep`` names the graph to reuse."""
    coll = load_collection(corpus, queries, qrels)
    with tempfile.TemporaryDirectory() as tmp:
        db_path = keep if keep else (_cached_graph(corpus, model_dir) if cache else Path(tmp) / "eval.db")
        opened = open_graph(db_path, model_dir)
        try:
            if opened.model_error and on_model_error:
                on_model_error(opened.model_error)
            import_collection(opened.graph, coll, progress=progress)
            if on_imported:
                on_imported()
            params = ScoringParams.from_overrides(config.load_settings().scoring)
            results = evaluate(opened.graph, coll, params,
                               progress=(lambda d, t: progress("query", d, t)) if progress else None)
        finally:
            opened.close()
    return Evaluation(len(coll.docs), len(coll.queries), results, opened.model_error)
