"""Opening a graph file with its model: the one entry point the CLI and the app share."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from typing import TYPE_CHECKING

from limbic.engine.store.db import Database
from limbic.engine.errors import ModelError
from limbic.engine.graph.graph import Graph

if TYPE_CHECKING:
    from limbic.engine.vectors.embeddings import Embedder

logger = logging.getLogger(__name__)


@dataclass
class OpenGraph:
    graph: Graph
    model_error: str | None = None  # why semantic search is off, if it is

    def close(self) -> None:
        self.graph.db.close()


def try_load_model(model_dir: Path | None, low_memory: bool = False,
                   shared: bool = False) -> tuple[Embedder | None, str | None]:
    """The model, or None and the reason in one sentence; ``shared``: one copy per process
    (``load_shared_embedder``), for the app's windows."""
    # numpy and onnxruntime load here, not at start-up
    from limbic.engine.vectors.embeddings import load_embedder, load_shared_embedder

    try:
        return (load_shared_embedder if shared else load_embedder)(model_dir, low_memory), None
    except ModelError as exc:
        logger.info("semantic search is off: %s", exc)  # the front end shows it once
        return None, str(exc)


def attach_model(opened: OpenGraph, model_dir: Path | None, low_memory: bool = False) -> OpenGraph:
    """Load the model into a graph opened without one (same rules as ``open_graph``)."""
    embedder, error = try_load_model(model_dir, low_memory)
    if embedder is not None:
        if opened.graph.db.readonly:
            opened.graph.embedder = embedder
        else:
            opened.graph.attach_embedder(embedder)
    opened.model_error = error
    return opened


def open_graph(
    path: Path | str, model_dir: Path | None = None, load_model: bool = True, readonly: bool = False,
    origin: str | None = None,
) -> OpenGraph:
    """Open (or create) a graph; without a usable model it still opens for editing and full text.

    ``origin`` names the writer in the change log from the first write on (a change of model
    re-creates the vector table while the file opens).
    """
    db = Database(path, readonly=readonly)
    if origin:
        db.origin = origin
    try:
        graph = Graph(db)
        error = None
        if load_model:
            embedder, error = try_load_model(model_dir)
            if embedder is not None:
                if db.readonly:  # also a file that could only be opened read-only
                    graph.embedder = embedder
                else:
                    graph.attach_embedder(embedder)
        return OpenGraph(graph, error)
    except BaseException:
        db.close()
        raise
