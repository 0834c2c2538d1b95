"""`limbic import PATH` recognises each kind of input; `limbic export --format` writes each format."""

from __future__ import annotations

from pathlib import Path

import pytest

from limbic.cli import main

VAULT = Path(__file__).resolve().parents[1] / "fixtures" / "vault_obsidian_tasks"


@pytest.fixture(autouse=True)
def no_model(monkeypatch):
    monkeypatch.setenv("LIMBIC_MODEL_DIR", "/nonexistent-model-folder")  # full text is enough here


def test_vault_to_markdown_csv_jsonl_and_back(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    assert main(["--db", db, "import", str(VAULT)]) == 0
    assert "(folder of Markdown notes): 10 entities read (10 new)" in capsys.readouterr().out
    for fmt, target in (("markdown", "md"), ("csv", "csv"), ("jsonl", "g.jsonl")):
        assert main(["--db", db, "export", "--format", fmt, "-o", str(tmp_path / target)]) == 0
    for target, kind in (("md", "folder of Markdown notes"), ("csv", "CSV files"), ("g.jsonl", "memory JSONL file"), ("g.db", "memory engine database")):
        other = str(tmp_path / f"from-{target}.db")
        assert main(["--db", other, "import", str(tmp_path / target)]) == 0
        out = capsys.readouterr().out
        assert f"({kind}): 10 entities read (10 new)" in out and "28 relations" in out, out


def test_user_errors_are_one_sentence(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    assert main(["--db", db, "import", str(tmp_path / "missing")]) == 1
    assert capsys.readouterr().err.strip().endswith("missing does not exist.")
    (tmp_path / "one.jsonl").write_text('{"type": "entity", "name": "A", "entityType": "T", "observations": []}\n')
    assert main(["--db", db, "import", str(tmp_path / "one.jsonl")]) == 0  # export needs a graph to read
    capsys.readouterr()
    assert main(["--db", db, "export", "--format", "csv"]) == 1
    assert "name it with -o FOLDER" in capsys.readouterr().err
    (tmp_path / "x.db").write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    assert main(["--db", db, "import", str(tmp_path / "x.db")]) == 1
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("limbic: ") and "x.db" in err and "Traceback" not in err
