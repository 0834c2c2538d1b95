"""limbic health and limbic merge: the report as text and JSON, a dry run that changes nothing, a merge."""

from __future__ import annotations

import json

import pytest

from limbic.cli import main

ROWS = [
    {"type": "entity", "name": "Ana Ruiz", "entityType": "Person", "observations": ["Design lead", "Likes tea"]},
    {"type": "entity", "name": "ana ruíz", "entityType": "Person", "observations": ["design lead.", "Runs on Sundays"]},
    {"type": "entity", "name": "Harbor", "entityType": "Organization", "observations": ["The company"]},
    {"type": "entity", "name": "Loose end", "entityType": "Note", "observations": ["Something to look up"]},
    {"type": "relation", "from": "ana ruíz", "to": "Harbor", "relationType": "works_at"},
]


@pytest.fixture
def db(tmp_path, capsys):
    path = tmp_path / "memory.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in ROWS) + "\n", encoding="utf-8")
    db = str(tmp_path / "g.db")
    assert main(["--db", db, "import", str(path)]) == 0
    capsys.readouterr()
    return db


def test_health_json_is_a_list_of_findings(db, capsys):
    assert main(["--db", db, "health", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert isinstance(out, list) and out
    assert all({"kind", "entities", "score", "reasons"} <= set(f) for f in out)
    assert all(isinstance(r, str) and r.endswith(".") for f in out for r in f["reasons"])
    dup = [f for f in out if f["kind"] == "duplicates"]
    assert sorted(dup[0]["entities"]) == ["Ana Ruiz", "ana ruíz"]
    assert "Loose end" in [f["entities"][0] for f in out if f["kind"] == "orphans"]


def test_health_one_kind_as_text(db, capsys):
    assert main(["--db", db, "health", "--kind", "orphans"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Orphans: ") and "Loose end" in out and "Possible duplicates" not in out


def test_health_unknown_kind_and_missing_graph(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["--db", str(tmp_path / "x.db"), "health", "--kind", "dupes"])
    assert main(["--db", str(tmp_path / "none.db"), "health"]) == 1
    assert "limbic: " in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()


def test_merge_dry_run_then_merge(db, capsys):
    assert main(["--db", db, "merge", "ana ruíz", "Ana Ruiz", "--dry-run", "--json"]) == 0
    preview = json.loads(capsys.readouterr().out)
    assert preview["result"]["observations"] == ["Design lead", "Likes tea", "Runs on Sundays"]
    assert preview["result"]["outgoing"] == [["works_at", "Harbor"]]
    assert main(["--db", db, "health", "--kind", "duplicates", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)  # the dry run changed nothing
    assert main(["--db", db, "merge", "ana ruíz", "Ana Ruiz"]) == 0
    assert "Merged “ana ruíz” into “Ana Ruiz”" in capsys.readouterr().out
    assert main(["--db", db, "export"]) == 0
    exported = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    ana = [e for e in exported if e.get("name") == "Ana Ruiz"][0]
    assert ana["observations"] == preview["result"]["observations"]
    assert not [e for e in exported if e.get("name") == "ana ruíz"]
    assert main(["--db", db, "merge", "Nobody", "Ana Ruiz"]) == 1
