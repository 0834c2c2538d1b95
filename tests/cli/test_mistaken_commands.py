"""Mistaken commands: a typo in --db, an export over an unrelated file, a restore of another graph."""

from __future__ import annotations

import json

import pytest

from limbic.cli import main
from limbic.service.opening import NoGraphError, open_existing_graph

ROWS = [
    {"type": "entity", "name": "Harbor API", "entityType": "Project", "observations": ["Serves the harbour timetable"]},
    {"type": "entity", "name": "Ada", "entityType": "Person", "observations": ["Maintains the Harbor API"]},
    {"type": "relation", "from": "Ada", "to": "Harbor API", "relationType": "maintains"},
]


@pytest.fixture
def graph_file(tmp_path, capsys):
    src = tmp_path / "memory.jsonl"
    src.write_text("\n".join(json.dumps(r) for r in ROWS) + "\n", encoding="utf-8")
    db = tmp_path / "g.db"
    assert main(["--db", str(db), "import", str(src)]) == 0
    capsys.readouterr()
    return db


@pytest.mark.parametrize("command", [
    ["export"], ["export", "-o", "out.jsonl"], ["export", "--format", "csv", "-o", "csv"], ["search", "harbor"],
    ["info"], ["check", "--no-model"], ["backup"],
])
@pytest.mark.parametrize("where", ["typo.db", "missing/folder/typo.db"])
def test_a_command_that_only_reads_refuses_a_path_with_no_graph(tmp_path, capsys, monkeypatch, command, where):
    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    assert main(["--db", where, *command]) == 1
    err = capsys.readouterr().err
    assert err.startswith("limbic: There is no graph at ") and "nothing was created" in err
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # no file, no folder


def test_an_empty_file_is_not_a_graph_for_a_command_that_reads(tmp_path, capsys):
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    assert main(["--db", str(empty), "info"]) == 1
    assert "is an empty file, not a graph yet" in capsys.readouterr().err
    assert empty.stat().st_size == 0


def test_open_existing_graph_refuses_and_opens(tmp_path, graph_file):
    with pytest.raises(NoGraphError, match="There is no graph at"):
        open_existing_graph(tmp_path / "nope.db", load_model=False)
    assert not (tmp_path / "nope.db").exists()
    opened = open_existing_graph(graph_file, load_model=False)
    try:
        assert opened.graph.counts()["entities"] == 2
    finally:
        opened.close()


def test_a_command_that_writes_still_creates_the_graph(tmp_path, capsys):
    src = tmp_path / "m.jsonl"
    src.write_text(json.dumps(ROWS[0]) + "\n", encoding="utf-8")
    assert main(["--db", str(tmp_path / "new" / "g.db"), "import", str(src)]) == 0
    assert (tmp_path / "new" / "g.db").is_file()


def test_export_refuses_to_replace_a_file_that_is_not_an_earlier_export(tmp_path, graph_file, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes, written by hand\n", encoding="utf-8")
    assert main(["--db", str(graph_file), "export", "-o", str(notes)]) == 1
    err = capsys.readouterr().err
    assert "is not an earlier memory JSONL export" in err and "--force" in err
    assert notes.read_text(encoding="utf-8") == "my notes, written by hand\n"
    assert main(["--db", str(graph_file), "export", "-o", str(notes), "--force"]) == 0
    assert json.loads(notes.read_text(encoding="utf-8").splitlines()[0])["type"] == "entity"


def test_export_replaces_an_earlier_export_and_an_empty_file(tmp_path, graph_file, capsys):
    out = tmp_path / "out.jsonl"
    out.write_bytes(b"")
    assert main(["--db", str(graph_file), "export", "-o", str(out)]) == 0
    first = out.read_text(encoding="utf-8")
    assert main(["--db", str(graph_file), "export", "-o", str(out)]) == 0  # an earlier export: replaced
    assert out.read_text(encoding="utf-8") == first


def _other_graph(tmp_path, capsys):
    src = tmp_path / "other.jsonl"
    src.write_text(json.dumps({"type": "entity", "name": "Unrelated", "entityType": "Thing",
                               "observations": ["from another graph"]}) + "\n", encoding="utf-8")
    other = tmp_path / "other.db"
    assert main(["--db", str(other), "import", str(src)]) == 0
    capsys.readouterr()
    return other


def _names(db):
    from limbic.engine.store.db import Database

    d = Database(db, readonly=True)
    try:
        return sorted(r[0] for r in d.execute("SELECT name FROM entities"))
    finally:
        d.close()


def test_a_mistaken_restore_of_another_graph_is_refused_then_undoable(tmp_path, graph_file, capsys):
    from limbic.engine.store.backup import list_backups

    other = _other_graph(tmp_path, capsys)
    assert main(["--db", str(graph_file), "restore", str(other)]) == 1
    err = capsys.readouterr().err
    assert "holds another graph than" in err and "--force" in err and "nothing was restored" in err
    assert _names(graph_file) == ["Ada", "Harbor API"]
    assert not [b for b in list_backups(graph_file) if b.reason == "before-restore"]

    assert main(["--db", str(graph_file), "restore", str(other), "--force"]) == 0
    capsys.readouterr()
    assert _names(graph_file) == ["Unrelated"]
    for _ in range(3):
        assert main(["--db", str(graph_file), "backup", "--keep", "1"]) == 0
    out = capsys.readouterr().out
    assert "Deleted the older backup" in out
    (point,) = [b for b in list_backups(graph_file) if b.reason == "before-restore"]  # pruning kept it
    assert main(["--db", str(graph_file), "backup", "--list"]) == 0
    listed = capsys.readouterr().out
    assert "besides them the newest 3 taken before a restore" in listed.splitlines()[0]
    line = next(x for x in listed.splitlines() if str(point.path) in x)
    assert "the graph as it was before a restore" in line and "kept: the graph as it was before a restore" in line

    # Undoing the mistake needs no --force: the file kept its own graph id through the forced restore.
    assert main(["--db", str(graph_file), "restore", str(point.path)]) == 0
    assert _names(graph_file) == ["Ada", "Harbor API"]


def test_files_from_before_graph_ids_are_told_apart_by_their_names(tmp_path, graph_file, capsys):
    from limbic.engine.store.db import Database

    other = _other_graph(tmp_path, capsys)
    for path in (graph_file, other):
        d = Database(path)
        d.execute("DELETE FROM meta WHERE key = 'graph_id'")
        d.close()
    assert main(["--db", str(graph_file), "restore", str(other)]) == 1
    assert "holds another graph" in capsys.readouterr().err
    assert main(["--db", str(graph_file), "backup"]) == 0  # an old backup of the same graph restores as before
    from limbic.engine.store.backup import list_backups

    (made,) = list_backups(graph_file)
    assert main(["--db", str(graph_file), "restore", str(made.path)]) == 0


def test_an_import_says_which_older_backups_its_backup_pruned(tmp_path, graph_file, capsys):
    from limbic.engine.store.backup import KEEP_BACKUPS, list_backups

    for _ in range(KEEP_BACKUPS):
        assert main(["--db", str(graph_file), "backup"]) == 0
    oldest = list_backups(graph_file)[0]
    src = tmp_path / "more.jsonl"
    src.write_text(json.dumps({"type": "entity", "name": "New", "entityType": "T", "observations": []}) + "\n")
    capsys.readouterr()
    assert main(["--db", str(graph_file), "import", str(src)]) == 0
    out = capsys.readouterr().out
    assert f"1 older backup deleted to keep the newest {KEEP_BACKUPS} ({oldest.path.name} (taken on request))" in out


@pytest.mark.parametrize("command", [["import", "memory.jsonl"], ["export"], ["info"], ["check", "--no-model"]])
@pytest.mark.parametrize("kind", ["pipe", "device"])
@pytest.mark.posix_only(reason="named pipes (os.mkfifo) and /dev/null are POSIX file-system objects")
def test_a_named_pipe_or_a_device_as_the_graph_is_refused_at_once(tmp_path, capsys, monkeypatch, command, kind):
    # Opening a named pipe waits for a writer forever: `limbic import … --db pipe` used to hang, and SQLite
    # on /dev/null said only "a disk or file-system error". The path is judged by os.stat, never opened.
    import os
    import subprocess
    import sys

    monkeypatch.chdir(tmp_path)
    (tmp_path / "memory.jsonl").write_text(json.dumps(ROWS[0]) + "\n", encoding="utf-8")
    if kind == "pipe":
        os.mkfifo(tmp_path / "graph")
        where, what = "graph", "a named pipe"
    else:
        where, what = "/dev/null", "a device"
    env = dict(os.environ, LIMBIC_HOME=str(tmp_path / "home"))
    done = subprocess.run([sys.executable, "-m", "limbic", "--db", where, *command], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert f"is {what}, not a graph file" in done.stderr


@pytest.mark.parametrize("keep", ["0", "-3"])
def test_backup_keep_below_one_is_refused_and_takes_nothing(tmp_path, graph_file, capsys, keep):
    backups = tmp_path / ".g.db.backups"
    before = sorted(p.name for p in backups.glob("*.bak")) if backups.is_dir() else []
    assert main(["--db", str(graph_file), "backup", "--keep", keep]) == 1
    assert "--keep must be a whole number from 1 to" in capsys.readouterr().err
    after = sorted(p.name for p in backups.glob("*.bak")) if backups.is_dir() else []
    assert after == before
