"""CSV: nothing a spreadsheet would run is exported as it is, Limbic's own round trip stays exact,
and broken quoting is refused with its line, nothing written."""

from __future__ import annotations

import csv

import pytest

from limbic.cli import main
from limbic.engine.store.db import Database
from limbic.engine.graph.graph import MAX_OBSERVATION_CHARS, Graph
from limbic.service.importers import ImportInputError, import_path
from limbic.service.importers.csv_io import export_csv
from limbic.service.importers.csv_safety import neutralise, restore
from tests.service.graph_state import graph_state

FORMULAS = ['=HYPERLINK("http://x","y")', "=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rCR",
            "'=already quoted", "''+twice", "'", "''", "plain", "- a list item", "=", "'@"]


def _cells(path):
    with open(path, encoding="utf-8-sig", newline="") as fh:
        return [c for row in csv.reader(fh) for c in row]


def test_formula_cells_are_neutralised_and_read_back_exactly(text_graph, tmp_path):
    g = text_graph
    g.upsert_entity("=1+2", "+Type", FORMULAS)
    g.upsert_entity("@Mention", "Person", ["-negative"])
    g.add_relation("=1+2", "@Mention", "-rel")
    out = tmp_path / "csv"
    export_csv(g, out)
    for cell in _cells(out / "entities.csv") + _cells(out / "relations.csv"):
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
    other = Graph(Database(tmp_path / "other.db"))
    import_path(other, out / "entities.csv")
    assert graph_state(other, dates=False) == graph_state(g, dates=False)


def test_a_file_of_another_tool_is_read_as_it_is(text_graph, tmp_path):
    (tmp_path / "people.csv").write_text("name,type,observation\nAna,Person,'=kept as written\n", "utf-8")
    import_path(text_graph, tmp_path / "people.csv")
    assert text_graph.get_entity("Ana").observation_texts == ["'=kept as written"]


@pytest.mark.parametrize("cell", FORMULAS + ["'''-x", "", "a'=b"])
def test_neutralise_and_restore_are_inverse(cell):
    assert restore(neutralise(cell)) == cell


@pytest.mark.parametrize("content, line", [
    (b'name,type\n"unterminated,T\n', 2),
    (b'name,type\nAna,Person\n"multi\nline",T\n"open,T\nBo,Person\n', 5),
    (b'\xef\xbb\xbfname,type\r\nAna,Person\r\n"open,T\r\n', 3),
])
def test_broken_quoting_is_refused_with_its_line_and_nothing_is_written(text_graph, tmp_path, content, line):
    text_graph.upsert_entity("Kept", None, ["x"])
    before = graph_state(text_graph)
    (tmp_path / "entities.csv").write_bytes(content)
    with pytest.raises(ImportInputError) as info:
        import_path(text_graph, tmp_path / "entities.csv")
    assert f"line {line}: a quoted cell opened on this line is never closed; nothing was imported." in str(info.value)
    assert graph_state(text_graph) == before


def test_cli_refuses_broken_csv_in_one_sentence(tmp_path, capsys):
    (tmp_path / "e.csv").write_bytes(b'name,type\n"unterminated,T\n')
    db = tmp_path / "g.db"
    assert main(["--db", str(db), "import", str(tmp_path / "e.csv")]) == 1
    err = capsys.readouterr().err
    assert "line 2: a quoted cell opened on this line is never closed" in err and "entities read" not in err


def test_text_after_a_closing_quote_and_the_largest_observation(text_graph, tmp_path):
    (tmp_path / "entities.csv").write_bytes(b'name,type\n"a"b,T\n')
    with pytest.raises(ImportInputError, match="line 2: a quoted cell is followed by other text"):
        import_path(text_graph, tmp_path / "entities.csv")
    big = "=" + "x" * (MAX_OBSERVATION_CHARS - 1)  # longer than Python's default cell limit, and a formula
    text_graph.upsert_entity("Big", "T", [big, "embedded\nnew line,\r\nand CRLF"])
    export_csv(text_graph, tmp_path / "out")
    other = Graph(Database(tmp_path / "other.db"))
    import_path(other, tmp_path / "out")
    assert other.get_entity("Big").observation_texts == [big, "embedded\nnew line,\r\nand CRLF"]


@pytest.mark.parametrize("name, content, looks", [
    ("garbage.db", b"\x13\x37garbage\x00\xff" * 40, "binary data of an unknown kind"),
    ("photo.db", b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "a PNG image"),
    ("notes.sqlite", b"just some words\n", "a text file"),
    ("empty.db", b"", "an empty file"),
    ("archive.bin", b"PK\x03\x04" + b"\x00" * 64, "a ZIP archive"),
    ("memory.db", b'{"type": "entity"}\n', "a text file of JSON (memory JSONL perhaps: import it with --kind jsonl)"),
])
def test_a_file_that_is_not_a_database_says_what_it_looks_like(tmp_path, capsys, name, content, looks):
    (tmp_path / name).write_bytes(content)
    db = tmp_path / "g.db"
    assert main(["--db", str(db), "import", str(tmp_path / name)]) == 1
    err = capsys.readouterr().err
    assert "is neither a Limbic graph nor a memory engine database: it is not an SQLite file" in err
    assert f"(it looks like {looks}" in err
    assert "not valid JSON" not in err
