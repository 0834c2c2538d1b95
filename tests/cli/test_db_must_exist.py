"""A command that changes an existing graph refuses a --db with no graph, instead of making an empty one;
`limbic mcp` refuses a folder that does not exist and says when it creates a new graph."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from limbic.cli import main


@pytest.mark.parametrize("command", [
    ["revert", "1"], ["revert", "s1", "--dry-run"], ["merge", "A", "B"], ["activity", "--pause", "beta"],
    ["activity", "--resume", "beta"], ["activity", "--assistants-write", "off"], ["activity", "--keep", "30"],
    ["activity", "--mark-reviewed", "all"], ["activity"], ["backup"], ["restore", "some.bak"], ["embed"],
])
@pytest.mark.parametrize("where", ["typo.db", "missing/folder/typo.db"])
def test_a_command_that_changes_a_graph_refuses_a_path_with_no_graph(tmp_path, capsys, monkeypatch, command, where):
    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    assert main(["--db", where, *command]) == 1
    err = capsys.readouterr().err
    assert err.startswith("limbic: There is no graph at ") and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # no file, no folder


@pytest.mark.parametrize("command", [["revert", "1"], ["import", "x.jsonl"], ["info"], ["mcp"], ["backup", "--list"]])
def test_an_empty_db_is_refused_not_read_as_the_default_graph(tmp_path, capsys, monkeypatch, command):
    monkeypatch.setenv("LIMBIC_DB", str(tmp_path / "default.db"))
    assert main(["--db", "", *command]) == 1
    assert capsys.readouterr().err == (
        "limbic: --db is empty: name the graph file, or leave --db out to use the default graph.\n")
    assert not (tmp_path / "default.db").exists()


def test_an_import_into_a_new_file_creates_it_and_says_so(tmp_path, capsys):
    src = tmp_path / "m.jsonl"
    src.write_text(json.dumps({"type": "entity", "name": "Ada", "entityType": "Person", "observations": []}) + "\n")
    db = tmp_path / "new.db"
    assert main(["--db", str(db), "import", str(src)]) == 0
    assert f"There was no graph at {db}: this import created it." in capsys.readouterr().err
    assert db.is_file()
    assert main(["--db", str(db), "import", str(src)]) == 0
    assert "There was no graph" not in capsys.readouterr().err


def _mcp(tmp_path, db: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = dict(os.environ, LIMBIC_HOME=str(tmp_path / "home"))
    env.pop("LIMBIC_DB", None)
    return subprocess.run([sys.executable, "-m", "limbic", "mcp", "--no-model", "--db", db], cwd=tmp_path, env=env,
                          input=stdin, capture_output=True, text=True, timeout=120)


def test_mcp_refuses_a_graph_in_a_folder_that_does_not_exist(tmp_path):
    done = _mcp(tmp_path, "missing-folder/x.db")
    assert done.returncode == 1 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.startswith("limbic: The folder missing-folder does not exist, so there is no graph at")
    assert not (tmp_path / "missing-folder").exists()


def test_mcp_says_on_standard_error_that_it_creates_a_new_graph(tmp_path):
    done = _mcp(tmp_path, "fresh.db")  # the client closes at once: the server ends
    assert done.returncode == 0, done.stderr
    assert "there was no graph at fresh.db: a new, empty graph is created there" in done.stderr
    again = _mcp(tmp_path, "fresh.db")
    assert again.returncode == 0 and "no graph at" not in again.stderr


def test_a_refused_import_into_a_new_file_leaves_no_empty_graph(tmp_path, capsys):
    work = tmp_path / "work"
    work.mkdir()
    bad = work / "bad.jsonl"
    bad.write_text('{"type": "entity", "name": "Ada"}\n{not json\n', encoding="utf-8")
    db = work / "new.db"
    assert main(["--db", str(db), "import", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "line 2" in err and "There was no graph" not in err
    assert sorted(p.name for p in work.iterdir()) == ["bad.jsonl"]  # no graph, no journal
    existing = work / "g.db"
    good = work / "good.jsonl"
    good.write_text('{"type": "entity", "name": "Ada", "entityType": "Person", "observations": []}\n', encoding="utf-8")
    assert main(["--db", str(existing), "import", str(good)]) == 0
    assert main(["--db", str(existing), "import", str(bad)]) == 1  # a graph that was there stays, whole
    assert existing.is_file()
