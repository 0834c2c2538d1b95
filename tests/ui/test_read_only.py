"""A read-only file whose entities still wait for vectors: the window searches it without trying to embed."""

from __future__ import annotations

import os

from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from tests.ui.conftest import make_window, search


def test_a_read_only_file_with_pending_vectors_is_searched_not_embedded(qtbot, tmp_path, embedder, monkeypatch):
    path = tmp_path / "g.db"
    g = Graph(Database(path), embedder)
    g.upsert_entity("Embedded one", "Note", ["about vector databases"])
    with g.write(embed=False):
        g.upsert_entity("Waiting one", "Note", ["about vector databases too"])
    g.db.close()
    real_access = os.access
    monkeypatch.setattr("limbic.engine.store.db.os.access", lambda p, mode: False if mode == os.W_OK else real_access(p, mode))
    errors: list[str] = []
    window = make_window(qtbot, path, wait_model=False)
    window.error_shown.connect(errors.append)
    qtbot.waitUntil(lambda: bool(window.model_name), timeout=60_000)
    names = {r.name for r in search(qtbot, window, "vector databases")}
    assert names == {"Embedded one", "Waiting one"}
    qtbot.wait(300)
    assert errors == [] and "read-only" in (window.catalog.readonly_note or "")
