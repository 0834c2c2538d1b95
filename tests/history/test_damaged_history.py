"""A damaged history table turns recording off, never writing: the graph's own change still lands."""

from __future__ import annotations

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database


def test_a_history_table_without_its_columns_does_not_stop_a_write(tmp_path):
    path = tmp_path / "g.db"
    db = Database(path)
    Graph(db).create_entity("Ann", "Person")
    db.execute("DROP TABLE history")
    db.execute("CREATE TABLE history (id INTEGER PRIMARY KEY, note TEXT)")
    db.close()
    db = Database(path)
    g = Graph(db)
    g.create_entity("Bob", "Person", ["new"])
    assert g.entity_id("Bob") is not None
    db.close()


def test_asking_a_damaged_history_about_a_date_gets_a_sentence(tmp_path, capsys):
    from limbic.cli import main

    path = tmp_path / "g.db"
    db = Database(path)
    Graph(db).create_entity("Ann", "Person")
    db.execute("DROP TABLE history")
    db.execute("CREATE TABLE history (id INTEGER PRIMARY KEY, note TEXT)")
    db.close()
    assert main(["--db", str(path), "export", "--as-of", "2020-01-01"]) == 1
    err = capsys.readouterr().err
    assert "keeps no readable history" in err and "Traceback" not in err
