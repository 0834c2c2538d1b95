"""Damaged, foreign, newer and read-only files: one sentence, and the file is never modified."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import apsw
import pytest

from limbic.cli import main
from limbic.engine.check import check_graph
from limbic.engine.store.db import SCHEMA_VERSION, Database
from limbic.engine.errors import DatabaseError
from limbic.engine.graph.graph import Graph
from limbic.engine.session import open_graph

ROOT = Path(__file__).resolve().parents[2]


def make_graph(path: Path, n: int = 300) -> Path:
    """A real Limbic file, closed cleanly (no write-ahead log left beside it)."""
    g = Graph(Database(path))
    with g.write():
        for i in range(n):
            g.upsert_entity(f"Entity {i}", "Note", [f"observation {i} " + "lorem ipsum " * 20])
    g.db.close()
    return path


def snapshot(folder: Path) -> dict[str, str]:
    """Every file in the folder and a digest of its bytes."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def assert_untouched(before: dict[str, str], folder: Path) -> None:
    """Same bytes in every file; the only new files may be SQLite's shared-memory index and an empty log."""
    after = snapshot(folder)
    assert {k: after.get(k) for k in before} == before
    for extra in set(after) - set(before):
        assert extra.endswith("-shm") or (extra.endswith("-wal") and (folder / extra).stat().st_size == 0), extra


def assert_one_sentence(message: str, path: Path) -> None:
    assert "\n" not in message and message.endswith(".") and str(path) in message
    assert "Traceback" not in message and "database is locked" not in message


def truncated(tmp: Path) -> Path:
    data = make_graph(tmp / "src.db").read_bytes()
    (tmp / "src.db").unlink()
    (tmp / "victim.db").write_bytes(data[: len(data) // 2])
    return tmp / "victim.db"


def cut_mid_page(tmp: Path) -> Path:
    data = make_graph(tmp / "src.db").read_bytes()
    (tmp / "src.db").unlink()
    (tmp / "victim.db").write_bytes(data[: len(data) - 1000])
    return tmp / "victim.db"


def random_binary(tmp: Path) -> Path:
    (tmp / "victim.db").write_bytes(random.Random(0).randbytes(64_000))
    return tmp / "victim.db"


def fake_header(tmp: Path) -> Path:
    (tmp / "victim.db").write_bytes(b"SQLite format 3\x00" + random.Random(1).randbytes(10_000))
    return tmp / "victim.db"


def newer_schema(tmp: Path) -> Path:
    path = make_graph(tmp / "victim.db", n=3)
    conn = apsw.Connection(str(path))
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    conn.close()
    return path


def foreign_sqlite(tmp: Path) -> Path:
    conn = apsw.Connection(str(tmp / "victim.db"))
    conn.execute("CREATE TABLE moz_places(id INTEGER PRIMARY KEY, url TEXT); INSERT INTO moz_places(url) VALUES ('x')")
    conn.close()
    return tmp / "victim.db"


def foreign_with_version(tmp: Path) -> Path:
    conn = apsw.Connection(str(tmp / "victim.db"))
    conn.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT); PRAGMA user_version = 1")
    conn.close()
    return tmp / "victim.db"


def a_folder(tmp: Path) -> Path:
    (tmp / "victim.db").mkdir()
    return tmp / "victim.db"


CASES = {
    "truncated in half": (truncated, "damaged"),
    "cut inside a page": (cut_mid_page, "damaged"),
    "random bytes": (random_binary, "not a Limbic database"),
    "SQLite header then garbage": (fake_header, "damaged"),
    "newer schema": (newer_schema, "newer version of Limbic"),
    "another program's SQLite file": (foreign_sqlite, "another program"),
    "another program's file with a version": (foreign_with_version, "another program"),
    "a folder": (a_folder, "folder"),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_bad_file_is_refused_in_one_sentence_and_left_untouched(tmp_path, case):
    make, expected = CASES[case]
    path = make(tmp_path)
    before = snapshot(tmp_path)
    for opener in (lambda: Database(path), lambda: open_graph(path, load_model=False), lambda: Database(path, readonly=True)):
        with pytest.raises(DatabaseError) as err:
            opener()
        assert expected in str(err.value)
        assert_one_sentence(str(err.value), path)
    assert_untouched(before, tmp_path)


@pytest.mark.parametrize("case", ["truncated in half", "random bytes", "newer schema", "another program's SQLite file"])
def test_cli_says_what_is_wrong_in_one_line(tmp_path, case, capsys):
    path = CASES[case][0](tmp_path)
    before = snapshot(tmp_path)
    for argv in (["info", "--db", str(path)], ["check", "--db", str(path), "--no-model"], ["backup", "--db", str(path)]):
        assert main(argv) == 1
        err = capsys.readouterr().err.strip()
        assert err.startswith("limbic: ") and len(err.splitlines()) == 1
        assert_one_sentence(err.removeprefix("limbic: "), path)
    assert_untouched(before, tmp_path)


def test_damaged_page_inside_the_file_is_reported_by_check_without_change(tmp_path, capsys):
    path = make_graph(tmp_path / "g.db", n=600)
    data = bytearray(path.read_bytes())
    page = 4096
    for offset in range(len(data) // 2, len(data) // 2 + 3 * page, 97):  # scribble over three pages
        data[offset] = (data[offset] + 101) % 256
    path.write_bytes(bytes(data))
    before = snapshot(tmp_path)
    try:
        db = Database(path)
    except DatabaseError:
        return  # refused at open: also untouched, checked by the test above
    report = check_graph(db)
    db.close()
    assert not report.file_ok and not report.consistent
    assert_untouched(before, tmp_path)
    assert main(["check", "--db", str(path), "--no-model"]) in (1, 2)
    out = capsys.readouterr()
    assert "damaged" in (out.out + out.err)


def test_empty_file_becomes_a_new_graph(tmp_path):
    path = tmp_path / "empty.db"
    path.touch()
    g = Graph(Database(path))
    g.upsert_entity("A")
    assert g.counts()["entities"] == 1
    g.db.close()


# -- read-only files and folders ----------------------------------------------------------------

PROBE = r"""
import json, os, sys
from limbic.cli import main
from limbic.engine.errors import LimbicError
from limbic.engine.session import open_graph
# Everything is imported before dropping privileges: the interpreter's own files may be private.
import locale, gettext, sqlite_vec, limbic.engine.check, limbic.engine.store.backup, limbic.engine.formats.jsonl, limbic.engine.session
from limbic.cli import build_parser
build_parser().parse_args(["export"])
if hasattr(os, "geteuid") and os.geteuid() == 0:  # root ignores permissions: look at the file as an ordinary user would
    os.setgid(65534); os.setuid(65534)
path = sys.argv[1]
out = {}
opened = open_graph(path, load_model=False)
out["readonly"] = opened.graph.db.readonly
out["note"] = opened.graph.db.readonly_note
out["entities"] = opened.graph.counts()["entities"]
try:
    opened.graph.upsert_entity("New one")
except LimbicError as exc:
    out["write"] = str(exc)
opened.close()
out["import_rc"] = main(["import", "--db", path, sys.argv[2]])
out["export_rc"] = main(["export", "--db", path, "-o", sys.argv[3]])
out["exported"] = sum(1 for line in open(sys.argv[3], encoding="utf-8") if '"limbic-export"' not in line)  # not the marker
print("RESULT " + json.dumps(out))
"""


def _run_probe(db: Path, jsonl: Path) -> tuple[dict, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "app"), LIMBIC_HOME=str(db.parent.parent / "home"), LIMBIC_MODEL_DIR=os.devnull)
    proc = subprocess.run([sys.executable, "-c", PROBE, str(db), str(jsonl), str(db.parent.parent / "home" / "out.jsonl")], capture_output=True, text=True, env=env, timeout=120)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, proc.stderr
    return json.loads(lines[0][7:]), proc.stderr


@pytest.fixture
def shared_tmp():
    """A folder an unprivileged user can reach (pytest's own is private to its user)."""
    folder = Path(tempfile.mkdtemp(prefix="limbic-ro-"))
    folder.chmod(0o755)
    (folder / "home").mkdir(mode=0o777)
    (folder / "home").chmod(0o777)
    yield folder
    for p in [folder, *folder.rglob("*")]:
        if p.is_dir():
            p.chmod(0o755)
    shutil.rmtree(folder)


@pytest.mark.parametrize("what", ["file", pytest.param("folder", marks=pytest.mark.posix_only(
    reason="Windows lets anyone create files in a folder whose read-only attribute is set"))])
def test_read_only_file_or_folder_opens_for_reading_and_is_never_modified(shared_tmp, what):
    folder = shared_tmp / "graphs"
    folder.mkdir()
    folder.chmod(0o777)  # writable: only the file is read-only in the first case
    db = make_graph(folder / "g.db", n=20)
    jsonl = shared_tmp / "in.jsonl"
    jsonl.write_text('{"type":"entity","name":"From file","entityType":"T","observations":["x"]}\n', encoding="utf-8")
    jsonl.chmod(0o644)
    db.chmod(0o444 if what == "file" else 0o644)
    if what == "folder":
        folder.chmod(0o555)
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    result, stderr = _run_probe(db, jsonl)
    assert result["readonly"] is True and result["entities"] == 20
    assert "read-only" in result["note"] and str(db) in result["note"]
    assert "no change can be saved" in result["write"]
    assert result["import_rc"] == 1 and result["export_rc"] == 0 and result["exported"] == 20
    assert "read-only" in stderr and "Traceback" not in stderr
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
