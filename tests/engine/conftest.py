"""Fixtures the engine's tests share."""

from __future__ import annotations

import shutil

import pytest

from limbic import config
from limbic.engine.formats.jsonl import import_file


@pytest.fixture(scope="session")
def sample_template(tmp_path_factory, embedder):
    """The bundled sample graph (50 entities), imported and embedded once for the run."""
    from limbic.engine.graph.graph import Graph
    from limbic.engine.store.db import Database

    path = tmp_path_factory.mktemp("sample") / "sample.db"
    g = Graph(Database(path), embedder)
    import_file(g, config.resources_dir() / "sample_graph.jsonl")
    g.embed_pending()
    g.db.close()
    return path


@pytest.fixture
def sample(sample_template, tmp_path, embedder):
    """A copy of the embedded sample graph, open."""
    from limbic.engine.graph.graph import Graph
    from limbic.engine.store.db import Database

    path = tmp_path / "sample.db"
    shutil.copyfile(sample_template, path)
    g = Graph(Database(path), embedder)
    yield g
    g.db.close()
