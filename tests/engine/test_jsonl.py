"""Import and export of the reference memory JSONL: idempotent, round trip, all-or-nothing on bad lines."""

from __future__ import annotations

import io
import json

import pytest

from limbic.engine.store.db import Database
from limbic.engine.errors import ImportFileError
from limbic.engine.graph.graph import Graph
from limbic.engine.formats.jsonl import export_file, export_to, import_file

LINES = [
    {"type": "entity", "name": "Limbic", "entityType": "Project", "observations": ["Desktop app", "Hybrid search"]},
    {"type": "entity", "name": "SQLite", "entityType": "Tool", "observations": ["Embedded database"]},
    {"type": "entity", "name": "Ana Pérez", "entityType": "Person", "observations": ["Diseñó el índice"]},
    {"type": "relation", "from": "Limbic", "to": "SQLite", "relationType": "uses"},
    {"type": "relation", "from": "Ana Pérez", "to": "Limbic", "relationType": "works_on"},
]


def write_jsonl(path, rows, newline="\n", bom=False):
    text = newline.join(json.dumps(r, ensure_ascii=False) for r in rows) + newline
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return path


def dump(graph) -> str:
    out = io.StringIO()
    export_to(graph, out)
    return out.getvalue()


def test_import_then_reimport_changes_nothing(graph, tmp_path):
    path = write_jsonl(tmp_path / "m.jsonl", LINES)
    summary = import_file(graph, path)
    assert (summary.entities_created, summary.relations_added, summary.observations_added) == (3, 2, 4)
    assert graph.pending_embeddings() == 0 and graph.counts()["vectors"] == 3
    before = (dump(graph), graph.db.execute("SELECT id, updated_at FROM entities").fetchall())
    again = import_file(graph, path)
    assert (again.entities_created, again.relations_added, again.observations_added) == (0, 0, 0)
    assert (dump(graph), graph.db.execute("SELECT id, updated_at FROM entities").fetchall()) == before


def test_round_trip_through_a_new_file(graph, tmp_path, embedder):
    import_file(graph, write_jsonl(tmp_path / "m.jsonl", LINES))
    first = tmp_path / "export1.jsonl"
    export_file(graph, first)
    fresh = Graph(Database(tmp_path / "fresh.db"), embedder)
    import_file(fresh, first)
    second = tmp_path / "export2.jsonl"
    export_file(fresh, second)
    assert first.read_text(encoding="utf-8") == second.read_text(encoding="utf-8")
    reference = {"type", "name", "entityType", "observations", "from", "to", "relationType"}
    lines = [json.loads(line) for line in first.read_text(encoding="utf-8").splitlines()]
    # Limbic's extra keys (status, dates) ride along; without them each line is the reference's.
    assert [{k: v for k, v in line.items() if k in reference} for line in lines] == LINES
    assert all(line["status"] == "active" for line in lines if line["type"] == "entity")
    fresh.db.close()


def test_bom_and_crlf_are_accepted(text_graph, tmp_path):
    import_file(text_graph, write_jsonl(tmp_path / "w.jsonl", LINES, newline="\r\n", bom=True))
    assert text_graph.counts()["entities"] == 3


@pytest.mark.parametrize(
    "bad, reason",
    [
        ('{"type": "entity", "name": "X"', "not valid JSON"),
        ('["a list"]', "JSON object"),
        ('{"type": "thing"}', "unknown"),
        ('{"type": "entity"}', '"name" field is missing'),
        ('{"type": "entity", "name": 5}', "must be text"),
        ('{"type": "entity", "name": "X", "observations": "one"}', "list"),
        ('{"type": "entity", "name": "X", "observations": [7]}', "must be text"),
        ('{"type": "relation", "from": "A", "to": "B"}', "relationType"),
    ],
)
def test_malformed_line_stops_with_file_and_line_and_changes_nothing(graph, tmp_path, bad, reason):
    import_file(graph, write_jsonl(tmp_path / "ok.jsonl", LINES[:2]))
    before = dump(graph)
    path = tmp_path / "bad.jsonl"
    good = "\n".join(json.dumps(r) for r in LINES[2:])
    path.write_text(good + "\n" + bad + "\n", encoding="utf-8")
    with pytest.raises(ImportFileError) as info:
        import_file(graph, path)
    assert info.value.line == 4 and reason in str(info.value) and "bad.jsonl" in str(info.value)
    assert dump(graph) == before


def test_non_utf8_bytes_name_the_line(text_graph, tmp_path):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"type": "entity", "name": "A"}\n{"type": "entity", "name": "caf\xe9"}\n')
    with pytest.raises(ImportFileError, match="line 2: the line is not valid UTF-8"):
        import_file(text_graph, path)
    assert text_graph.counts()["entities"] == 0


def test_relations_to_missing_entities_are_skipped_and_reported(text_graph, tmp_path):
    rows = LINES[:2] + [{"type": "relation", "from": "Limbic", "to": "Nobody", "relationType": "uses"}]
    summary = import_file(text_graph, write_jsonl(tmp_path / "m.jsonl", rows))
    assert summary.skipped_relations == [3] and "line 3" in summary.describe()
    assert text_graph.counts()["relations"] == 0


def test_duplicate_names_merge(text_graph, tmp_path):
    rows = [
        {"type": "entity", "name": "A", "entityType": "T", "observations": ["one"]},
        {"type": "entity", "name": "A", "entityType": "T", "observations": ["two", "one"]},
    ]
    import_file(text_graph, write_jsonl(tmp_path / "d.jsonl", rows))
    assert text_graph.get_entity("A").observation_texts == ["one", "two"]


def test_cancelled_import_changes_nothing(graph, tmp_path):
    from limbic.engine.errors import Cancelled

    rows = [{"type": "entity", "name": f"E{i}", "observations": [f"text {i}"]} for i in range(50)]
    with pytest.raises(Cancelled):
        import_file(graph, write_jsonl(tmp_path / "c.jsonl", rows), cancelled=lambda: True)
    assert graph.counts()["entities"] == 0


def test_progress_reaches_the_end(graph, tmp_path):
    seen = []
    import_file(graph, write_jsonl(tmp_path / "m.jsonl", LINES), progress=lambda s, d, t: seen.append((s, d, t)))
    assert ("graph", 5, 5) in seen and seen[-1][0] == "embed" and seen[-1][1] == seen[-1][2] == 3
