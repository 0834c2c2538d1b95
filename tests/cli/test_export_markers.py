"""An export replaces only what Limbic exported before: it knows its own files by a marker, not by their shape."""

from __future__ import annotations

import json

import pytest

from limbic.cli import main
from limbic.engine.formats.jsonl import read_file_full

ROWS = [
    {"type": "entity", "name": "Harbor API", "entityType": "Project", "observations": ["Serves the timetable"]},
    {"type": "entity", "name": "Ada", "entityType": "Person", "observations": ["Maintains the Harbor API"]},
    {"type": "relation", "from": "Ada", "to": "Harbor API", "relationType": "maintains"},
]
# What the reference memory server writes: its own memory, which an export must never replace unasked.
REFERENCE = (
    '{"type":"entity","name":"Mira","entityType":"person","observations":["likes tea"]}\n'
    '{"type":"entity","name":"Tea","entityType":"drink","observations":[]}\n'
    '{"type":"relation","from":"Mira","to":"Tea","relationType":"likes"}\n'
)


@pytest.fixture
def graph_file(tmp_path, capsys):
    src = tmp_path / "memory.jsonl"
    src.write_text("\n".join(json.dumps(r) for r in ROWS) + "\n", encoding="utf-8")
    db = tmp_path / "g.db"
    assert main(["--db", str(db), "import", str(src)]) == 0
    capsys.readouterr()
    return db


def test_the_reference_servers_memory_file_is_not_replaced_without_force(tmp_path, graph_file, capsys):
    memory = tmp_path / "reference-memory.jsonl"
    memory.write_text(REFERENCE, encoding="utf-8")
    assert main(["--db", str(graph_file), "export", "-o", str(memory)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not an earlier memory JSONL export of Limbic" in err and "--force" in err
    assert memory.read_text(encoding="utf-8") == REFERENCE
    assert main(["--db", str(graph_file), "export", "-o", str(memory), "--force"]) == 0
    assert "Harbor API" in memory.read_text(encoding="utf-8")


def test_an_export_ends_with_its_marker_and_replaces_itself(tmp_path, graph_file, capsys):
    out = tmp_path / "out.jsonl"
    assert main(["--db", str(graph_file), "export", "-o", str(out)]) == 0
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert lines[-1]["type"] == "limbic-export" and lines[0]["type"] == "entity"
    assert "Exported 3 lines" in capsys.readouterr().err  # the marker is not a line of the graph
    assert main(["--db", str(graph_file), "export", "-o", str(out)]) == 0  # its own export: replaced
    # The marker is no entity or relation: Limbic's importer skips it without a word, as the reference reader does.
    entities, relations, reflections = read_file_full(out)
    assert [e.name for e in entities] == ["Harbor API", "Ada"] and len(relations) == 1 and not reflections
    other = tmp_path / "other.db"
    assert main(["--db", str(other), "import", str(out)]) == 0
    assert "2 entities read (2 new)" in capsys.readouterr().out


@pytest.mark.parametrize("fmt", ["csv", "markdown"])
def test_a_folder_export_refuses_a_folder_holding_other_files(tmp_path, graph_file, capsys, fmt):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "budget.xlsx").write_bytes(b"not Limbic's")
    assert main(["--db", str(graph_file), "export", "--format", fmt, "-o", str(folder)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not an earlier" in err and "--force" in err
    assert sorted(p.name for p in folder.iterdir()) == ["budget.xlsx"]
    assert main(["--db", str(graph_file), "export", "--format", fmt, "-o", str(folder), "--force"]) == 0
    assert (folder / "budget.xlsx").read_bytes() == b"not Limbic's"


def test_a_csv_export_replaces_its_own_earlier_export(tmp_path, graph_file, capsys):
    folder = tmp_path / "csv"
    assert main(["--db", str(graph_file), "export", "--format", "csv", "-o", str(folder)]) == 0
    first = (folder / "entities.csv").read_bytes()
    assert main(["--db", str(graph_file), "export", "--format", "csv", "-o", str(folder)]) == 0
    assert (folder / "entities.csv").read_bytes() == first
    assert sorted(p.name for p in folder.iterdir()) == [".limbic-export", "entities.csv", "relations.csv"]


def test_a_markdown_export_replaces_its_notes_and_removes_those_of_deleted_entities(tmp_path, graph_file, capsys):
    folder = tmp_path / "vault"
    assert main(["--db", str(graph_file), "export", "--format", "markdown", "-o", str(folder)]) == 0
    assert sorted(p.name for p in folder.glob("*.md")) == ["Ada.md", "Harbor API.md"]
    from limbic.engine.store.db import Database

    d = Database(graph_file)
    d.execute("DELETE FROM entities WHERE name = 'Ada'")
    d.close()
    (folder / "my own.txt").write_text("kept", encoding="utf-8")
    assert main(["--db", str(graph_file), "export", "--format", "markdown", "-o", str(folder)]) == 0
    assert sorted(p.name for p in folder.glob("*.md")) == ["Harbor API.md"]
    assert (folder / "my own.txt").read_text(encoding="utf-8") == "kept"
    # A csv export is not a Markdown export: the marker names its kind.
    assert main(["--db", str(graph_file), "export", "--format", "csv", "-o", str(folder)]) == 1
