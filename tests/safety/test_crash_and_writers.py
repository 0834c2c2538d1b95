"""Kills at random moments during an import, a burst of edits and a re-embedding; two writers on one file.

A smaller run of ``tests/safety/harness.py``; the full counts are run with
``python -m tests.safety.harness`` (see docs/safety.md).
"""

from __future__ import annotations

import pytest

from limbic.engine.check import check_graph
from limbic.engine.store.db import Database
from tests.safety import harness

pytestmark = pytest.mark.slow


def test_kills_during_import_edits_and_reembedding_lose_nothing(tmp_path, embedder):
    db_path = tmp_path / "crash.db"
    imported = harness.crash_import(db_path, tmp_path, kills=3, seed=11, embedder=embedder, size=60, log=lambda *_: None)
    assert imported["kills"] == 3 and imported["completed"] >= 1
    edits = harness.crash_edits(db_path, tmp_path, kills=3, seed=12, embedder=embedder, log=lambda *_: None)
    assert edits["kills"] == 3 and edits["writes_acknowledged"] > 0
    reembedded = harness.crash_reembed(db_path, tmp_path, kills=3, seed=13, embedder=embedder, log=lambda *_: None)
    assert reembedded["kills"] == 3
    # What was cut short resumes: afterwards every entity has its vector again.
    db = Database(db_path)
    from limbic.engine.graph.graph import Graph

    g = Graph(db, embedder)
    g.embed_pending()
    report = check_graph(db, embedder)
    assert report.consistent and report.pending == 0 and report.vectors == report.entities > 150
    db.close()


def test_two_writers_lose_no_write_and_the_reader_notices(tmp_path):
    figures = harness.two_writers(tmp_path / "stress.db", tmp_path, writes=200, with_model=False)
    assert figures["writes_checked"] == 400
    assert figures["changes_noticed_by_a_third_connection"] >= 1


def test_two_writers_with_the_model(tmp_path):
    figures = harness.two_writers(tmp_path / "stress.db", tmp_path, writes=40, with_model=True)
    assert figures["writes_checked"] == 80
