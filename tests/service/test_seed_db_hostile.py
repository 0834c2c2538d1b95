"""Another program's SQLite file is read only as tables of stored rows: a view (whose query may never end)
or a virtual table where a memory engine table belongs is refused in one sentence, and nothing is imported."""

from __future__ import annotations

import os
import subprocess
import sys

import apsw
import pytest

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service.importers import ImportInputError, import_path

TABLES = {
    "entities": "CREATE TABLE entities (id INTEGER PRIMARY KEY, name TEXT)",
    "observations": "CREATE TABLE observations (id INTEGER PRIMARY KEY, entity_id INTEGER, content TEXT)",
    "relations": "CREATE TABLE relations (from_entity INTEGER, to_entity INTEGER, relation_type TEXT)",
}
# A few kilobytes on disk; reading it as rows never ends and grows without bound.
ENDLESS = {
    "entities": "CREATE VIEW entities AS WITH RECURSIVE r(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM r) "
                "SELECT id, 'n' || id AS name FROM r",
    "observations": "CREATE VIEW observations AS WITH RECURSIVE r(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM r) "
                    "SELECT id, 1 AS entity_id, 'x' || id AS content FROM r",
}


def _file(path, replace: dict[str, str]) -> None:
    conn = apsw.Connection(str(path))
    for name, sql in TABLES.items():
        conn.execute(replace.get(name, sql))
    if "entities" not in replace:
        conn.execute("INSERT INTO entities VALUES (1, 'Ada')")
    conn.close()


@pytest.mark.parametrize("table", ["entities", "observations"])
def test_a_recursive_view_is_refused_at_once_by_limbic_import(tmp_path, table):
    hostile = tmp_path / "memory.db"
    _file(hostile, {table: ENDLESS[table]})
    assert hostile.stat().st_size < 16 * 1024
    env = dict(os.environ, LIMBIC_HOME=str(tmp_path / "home"))
    # The timeout only keeps a regression from hanging the suite; the refusal comes before any row is read.
    done = subprocess.run([sys.executable, "-m", "limbic", "--db", str(tmp_path / "g.db"), "import", str(hostile)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"its {table} is a view, not a table of stored rows; nothing was imported." in done.stderr
    assert done.stderr.count("\n") <= 2  # the new graph's note and the one sentence


def test_a_plain_view_or_a_virtual_table_is_refused_and_nothing_is_imported(tmp_path):
    view = tmp_path / "view.db"
    _file(view, {"relations": "CREATE VIEW relations AS SELECT 1 AS from_entity, 1 AS to_entity, 'x' AS relation_type"})
    virtual = tmp_path / "virtual.db"
    _file(virtual, {"observations": "CREATE VIRTUAL TABLE observations USING fts5(id, entity_id, content)"})
    graph = Graph(Database(tmp_path / "g.db"))
    try:
        with pytest.raises(ImportInputError, match="its relations is a view, not a table"):
            import_path(graph, view)
        with pytest.raises(ImportInputError, match="its observations is a virtual table, not a table"):
            import_path(graph, virtual)
        assert graph.counts()["entities"] == 0
    finally:
        graph.db.close()


def test_an_optional_table_as_a_view_is_refused_too(tmp_path):
    hostile = tmp_path / "usage.db"
    _file(hostile, {})
    conn = apsw.Connection(str(hostile))
    conn.execute("CREATE VIEW entity_access AS SELECT 1 AS entity_id, 5 AS access_count, '2025-01-01' AS last_access")
    conn.close()
    graph = Graph(Database(tmp_path / "g.db"))
    try:
        with pytest.raises(ImportInputError, match="its entity_access is a view"):
            import_path(graph, hostile)
    finally:
        graph.db.close()


def test_a_column_computed_on_every_read_is_refused(tmp_path):
    hostile = tmp_path / "computed.db"
    _file(hostile, {"entities": "CREATE TABLE entities (id INTEGER PRIMARY KEY, raw TEXT, "
                                "name TEXT GENERATED ALWAYS AS (printf('%.*c', 50000000, 'x')) VIRTUAL)"})
    graph = Graph(Database(tmp_path / "g.db"))
    try:
        with pytest.raises(ImportInputError, match=r"its entities\.name is computed when read, not stored"):
            import_path(graph, hostile)
    finally:
        graph.db.close()


def test_a_stored_value_larger_than_anything_limbic_takes_is_refused_not_read(tmp_path):
    big = tmp_path / "big.db"
    _file(big, {})
    conn = apsw.Connection(str(big))
    conn.execute("INSERT INTO observations VALUES (1, 1, ?)", ("x" * (20 * 1024 * 1024),))
    conn.close()
    graph = Graph(Database(tmp_path / "g.db"))
    try:
        with pytest.raises(ImportInputError, match="holds a value larger than 16 MB, far more than any text Limbic"):
            import_path(graph, big)
        assert graph.counts()["entities"] == 0
    finally:
        graph.db.close()
