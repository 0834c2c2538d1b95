"""limbic search --since/--until read dates and what a person says of a time ("last week", "en marzo")."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from limbic.cli import main
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database


def _graph(tmp_path) -> str:
    db = str(tmp_path / "g.db")
    graph = Graph(Database(db), None)
    graph.upsert_entity("Old deploy", "Note", ["deployment of the billing service"])
    graph.upsert_entity("New deploy", "Note", ["deployment of the billing service, again"])
    long_ago = (datetime.now(timezone.utc) - timedelta(days=400)).strftime("%Y-%m-%d %H:%M:%S")
    with graph.write():
        graph.db.execute("UPDATE entities SET created_at = ?, updated_at = ? WHERE name = 'Old deploy'",
                         (long_ago, long_ago))
    graph.db.close()
    return db


def _names(capsys) -> list[str]:
    return [r["name"] for r in json.loads(capsys.readouterr().out)["results"]]


def test_since_and_until_take_time_expressions(tmp_path, capsys):
    db = _graph(tmp_path)
    assert main(["--db", db, "search", "deployment", "--json", "--no-record"]) == 0
    assert sorted(_names(capsys)) == ["New deploy", "Old deploy"]
    assert main(["--db", db, "search", "deployment", "--json", "--no-record", "--since", "last week"]) == 0
    assert _names(capsys) == ["New deploy"]
    assert main(["--db", db, "search", "deployment", "--json", "--no-record", "--until", "hace dos meses"]) == 0
    assert _names(capsys) == ["Old deploy"]


def test_a_since_that_is_no_time_is_one_sentence(tmp_path, capsys):
    db = _graph(tmp_path)
    assert main(["--db", db, "search", "deployment", "--since", "soonish"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "“soonish” is not a date" in err and "Traceback" not in err


def test_a_question_naming_a_time_says_which_hits_happened_then(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    graph = Graph(Database(db), None)
    graph.upsert_entity("Standup of 16 June 2023", "Meeting", ["we chose the new deployment tool"])
    graph.upsert_entity("Standup of 2 August 2023", "Meeting", ["we chose the new deployment tool again"])
    graph.db.close()
    assert main(["--db", db, "search", "which deployment tool did we choose in June 2023?", "--no-record"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(" 1. Standup of 16 June 2023") and lines[0].endswith("June 2023 ✓")
    assert any(line.endswith("June 2023 ✗") for line in lines)
    assert main(["--db", db, "search", "deployment tool", "--no-record"]) == 0
    assert "✓" not in capsys.readouterr().out
