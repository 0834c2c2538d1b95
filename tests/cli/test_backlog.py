"""The CLI never embeds the graph's whole backlog unasked: search answers with what is embedded."""

from __future__ import annotations

import json

from limbic.cli import main
from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph


def _backlog(db_path, n: int) -> None:
    """A graph whose entities were written without vectors (as by a program without the model)."""
    graph = Graph(Database(db_path))
    try:
        for i in range(n):
            graph.upsert_entity(f"Backlog note {i}", "Note", [f"waiting observation {i}"])
    finally:
        graph.db.close()


def _waiting(db_path) -> int:
    db = Database(db_path, readonly=True)
    try:
        return int(db.scalar("SELECT count(*) FROM entities") - db.scalar("SELECT count(*) FROM embedding_state"))
    finally:
        db.close()


def test_search_and_import_leave_the_backlog_to_limbic_embed(tmp_path, capsys):
    db = tmp_path / "g.db"
    _backlog(db, 5)
    assert main(["--db", str(db), "search", "Backlog note 3", "--no-record"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0].startswith(" 1. Backlog note 3")
    assert "5 entities wait for embedding" in captured.err and "limbic embed" in captured.err
    assert _waiting(db) == 5

    source = tmp_path / "one.jsonl"
    source.write_text(json.dumps({"type": "entity", "name": "Fresh", "entityType": "Note", "observations": ["new"]}) + "\n")
    assert main(["--db", str(db), "import", str(source)]) == 0
    capsys.readouterr()
    assert _waiting(db) == 5  # the imported entity got its vector; the backlog still waits

    assert main(["--db", str(db), "embed"]) == 0
    assert "Embedded 5 entities; 0 wait." in capsys.readouterr().out
    assert _waiting(db) == 0
    assert main(["--db", str(db), "search", "Backlog note 3", "--no-record"]) == 0
    assert "wait for embedding" not in capsys.readouterr().err


def test_a_db_in_a_missing_folder_says_a_new_graph_is_created(tmp_path, capsys):
    target = tmp_path / "nowhere" / "new.db"
    source = tmp_path / "one.jsonl"  # a command that writes creates the graph (one that only reads refuses)
    source.write_text('{"type": "entity", "name": "A", "entityType": "T", "observations": []}\n', encoding="utf-8")
    assert main(["--db", str(target), "import", str(source)]) == 0
    assert f"The folder {target.parent} does not exist: creating it with a new graph new.db in it." in capsys.readouterr().err
    assert target.exists()
