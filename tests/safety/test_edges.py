"""Data safety at the edges: exports that cannot destroy, tables that repair, messages that are true."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import unicodedata
from pathlib import Path

import apsw
import pytest

from limbic import config
from limbic.cli import main
from limbic.engine.store import backup as backup_module
from limbic.engine.formats import jsonl
from limbic.engine.store import tables
from limbic.engine.store.backup import backup_database, list_backups, restore
from limbic.engine.check import check_graph, repair
from limbic.engine.store.db import Database
from limbic.engine.vectors.entity_text import MAX_CANDIDATES, EntitySource, build_text
from limbic.engine.errors import DatabaseError, LimbicError, ValidationError
from limbic.engine.graph.graph import Graph
from limbic.engine.search.search import search
from limbic.engine.session import open_graph
from tests.safety.harness import hold_write_lock

ROOT = Path(__file__).resolve().parents[2]
GRAPH_TABLES = ("entities", "observations", "relations")


def make(path: Path, n: int = 20) -> Graph:
    g = Graph(Database(path))
    with g.write():
        for i in range(n):
            g.upsert_entity(f"Entity {i}", "Note", [f"observation {i} about graphs"])
        for i in range(1, n):
            g.add_relation(f"Entity {i}", f"Entity {i - 1}", "follows")
    return g


def rows(db: Database) -> dict[str, list]:
    return {t: db.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in GRAPH_TABLES}


def one_sentence(text: str) -> bool:
    text = text.strip()
    return bool(text) and "\n" not in text and "Traceback" not in text


def run_cli(args: list[str], env_extra: dict | None = None, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "app"), **(env_extra or {}))
    return subprocess.run([sys.executable, "-m", "limbic", *args], stdout=stdout, stderr=subprocess.PIPE, text=True, env=env, timeout=180)


# -- export never destroys ------------------------------------------------------------------------


@pytest.mark.posix_only(reason="a named pipe (os.mkfifo) stands for the devices an export must refuse")
def test_export_refuses_the_graph_its_journal_its_backups_and_devices(tmp_path, capsys):
    g = make(tmp_path / "g.db")
    backup = backup_database(g.db)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    before = rows(g.db)
    backup_bytes = backup.read_bytes()
    for target in (g.db.path, tmp_path / "g.db-wal", tmp_path / "g.db-shm", backup, fifo):
        with pytest.raises(LimbicError) as err:
            jsonl.export_file(g, target)
        assert one_sentence(str(err.value))
    assert rows(g.db) == before and backup.read_bytes() == backup_bytes
    assert not fifo.is_file() and Path(tmp_path / "g.db").read_bytes()[:16] == b"SQLite format 3\x00"
    g.db.close()
    assert main(["--db", str(tmp_path / "g.db"), "export", "-o", str(tmp_path / "g.db")]) == 1
    assert "is the open graph" in capsys.readouterr().err
    g2 = Graph(Database(tmp_path / "g.db"))
    assert g2.counts()["entities"] == 20
    g2.db.close()


def test_export_to_a_missing_folder_or_a_folder_is_one_sentence_and_leaves_no_part(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    make(tmp_path / "g.db").db.close()
    (tmp_path / "existing").mkdir()
    for target in (tmp_path / "nofolder" / "x.jsonl", tmp_path / "existing"):
        assert main(["--db", db, "export", "-o", str(target)]) == 1
        assert one_sentence(capsys.readouterr().err)
    leftovers = [p for p in tmp_path.rglob("*") if ".part" in p.name]
    assert leftovers == [] and list((tmp_path / "existing").iterdir()) == []


def test_a_failed_export_keeps_the_old_file_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    g = make(tmp_path / "g.db")
    out = tmp_path / "out.jsonl"
    out.write_text("the previous export\n", encoding="utf-8")

    def full(graph, fh):
        fh.write("half a line")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(jsonl, "export_to", full)
    with pytest.raises(LimbicError, match="disk is full") as err:
        jsonl.export_file(g, out)
    assert one_sentence(str(err.value))
    assert out.read_text(encoding="utf-8") == "the previous export\n"
    assert sorted(p.name for p in tmp_path.iterdir() if "out" in p.name) == ["out.jsonl"]
    monkeypatch.undo()
    assert jsonl.export_file(g, out) == 20 + 19 and (out.stat().st_mode & 0o777) != 0o600
    g.db.close()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["export"], ["search", "graphs", "--json", "--no-record"]])
def test_standard_output_on_a_full_device_is_one_sentence(tmp_path, args):
    make(tmp_path / "g.db", n=200).db.close()
    with open("/dev/full", "w") as full:
        proc = run_cli(["--db", str(tmp_path / "g.db"), *args], {"LIMBIC_HOME": str(tmp_path / "home")}, stdout=full)
    assert proc.returncode == 1
    errors = [line for line in proc.stderr.splitlines() if line.startswith("limbic:") or "Error" in line]
    assert errors == ["limbic: the output could not be written (the disk is full)."], proc.stderr
    assert "Traceback" not in proc.stderr


def test_an_absurd_limit_is_one_sentence(tmp_path, capsys):
    make(tmp_path / "g.db").db.close()
    assert main(["--db", str(tmp_path / "g.db"), "search", "graphs", "--limit", "99999999999999999999"]) == 1
    err = capsys.readouterr().err
    assert one_sentence(err) and "--limit" in err


# -- backups and restore --------------------------------------------------------------------------


def test_restoring_the_oldest_of_ten_backups_keeps_it(tmp_path):
    g = make(tmp_path / "g.db", n=3)
    taken = [backup_database(g.db) for _ in range(10)]
    g.upsert_entity("After the backups")
    restore(g.db, taken[0])
    assert taken[0].exists()
    kept = list_backups(g.db.path)  # ten by the count, and the state the restore replaced besides them
    assert len(kept) == 11 and [b.reason for b in kept].count("before-restore") == 1
    assert g.entity_id("After the backups") is None
    g.db.close()


def test_restore_waits_for_another_writer_like_other_writes(tmp_path):
    g = make(tmp_path / "g.db", n=3)
    saved = backup_database(g.db)
    g.upsert_entity("Later")
    g.db.conn.setbusytimeout(20)  # the engine's own waiting must do the work
    started = threading.Event()
    holder = threading.Thread(target=hold_write_lock, args=(g.db.path, 1.0, started))
    holder.start()
    started.wait()
    restore(g.db, saved)
    holder.join()
    assert g.entity_id("Later") is None and g.counts()["entities"] == 3
    g.db.close()


def test_restore_from_a_file_with_another_page_size(tmp_path):
    src = make(tmp_path / "big-pages.db", n=5)
    wide = tmp_path / "wide.bak"
    src.db.execute("PRAGMA page_size = 8192")
    src.db.execute("VACUUM INTO ?", (str(wide),))
    src.db.close()
    assert apsw.Connection(str(wide)).execute("PRAGMA page_size").fetchall()[0][0] == 8192
    g = make(tmp_path / "g.db", n=2)
    assert g.db.scalar("PRAGMA page_size") == 4096
    restore(g.db, wide)
    assert g.counts()["entities"] == 5 and check_graph(g.db).consistent
    assert wide.exists() and not [p for p in config.backup_dir(g.db.path).iterdir() if ".part" in p.name]
    g.db.close()


def test_a_backup_on_a_full_disk_names_the_cause(tmp_path, monkeypatch):
    g = make(tmp_path / "g.db", n=3)

    def full(source, dest):
        Path(dest).write_bytes(b"partial")
        raise apsw.FullError("not an error")

    monkeypatch.setattr(backup_module, "_copy", full)
    with pytest.raises(DatabaseError) as err:
        backup_database(g.db)
    message = str(err.value)
    assert "disk is full" in message and "not an error" not in message and one_sentence(message)
    assert not [p for p in config.backup_dir(g.db.path).iterdir() if ".part" in p.name]
    g.db.close()


def test_what_a_killed_backup_left_is_cleaned_at_the_next_start(tmp_path):
    make(tmp_path / "g.db", n=3).db.close()
    folder = config.backup_dir(tmp_path / "g.db")
    folder.mkdir(exist_ok=True)
    old = [folder / "20260101T000000000000-manual.bak.part", folder / "20260101T000000000000-manual.bak.part-journal"]
    fresh = folder / "20990101T000000000000-manual.bak.part"
    for p in [*old, fresh]:
        p.write_bytes(b"half a copy")
    for p in old:
        os.utime(p, (time.time() - 600, time.time() - 600))
    Database(tmp_path / "g.db").close()
    assert not any(p.exists() for p in old)
    assert fresh.exists()  # perhaps another program's backup, still being written


def test_a_graph_opened_through_a_symlink_keeps_its_backups_beside_the_real_file(tmp_path):
    real = tmp_path / "data" / "g.db"
    real.parent.mkdir()
    make(real, n=2).db.close()
    link = tmp_path / "link.db"
    link.symlink_to(real)
    db = Database(link)
    assert db.path == real
    backup_database(db)
    db.close()
    assert len(list_backups(real)) == 1 and not (tmp_path / ".link.db.backups").exists()
    assert list_backups(link) == list_backups(real)  # `limbic backup --list --db link.db` shows them too


# -- derived and signal tables ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    """The graph ``make`` writes, written once for the tests that damage a copy of it table by table."""
    path = tmp_path_factory.mktemp("made") / "g.db"
    make(path).db.close()
    return path


@pytest.mark.parametrize("table", [t.name for t in tables.TABLES])
@pytest.mark.parametrize("damage", ["missing", "malformed"])
def test_every_lost_or_malformed_table_is_found_and_repaired_without_touching_the_graph(made, tmp_path, table, damage, capsys):
    path = tmp_path / "g.db"
    shutil.copyfile(made, path)
    g = Graph(Database(path))
    from limbic.engine.graph import signals

    signals.record_access(g.db, [1, 2])
    before = rows(g.db)
    g.db.close()
    conn = apsw.Connection(str(path))
    conn.execute(f"DROP TABLE {table}" if damage == "missing" else f"DROP TABLE {table}; CREATE TABLE {table}(x)")
    conn.close()

    assert main(["check", "--no-model", "--db", str(path)]) == 2
    out = capsys.readouterr().out
    assert f"The {table} table is {damage}" in out and "damaged" not in out.splitlines()[0]

    db = Database(path)
    report = check_graph(db)
    assert report.file_ok and report.tables == {table: damage}
    db.close()

    assert main(["check", "--repair", "--no-model", "--db", str(path)]) == 0
    capsys.readouterr()
    db = Database(path)
    assert rows(db) == before and check_graph(db).consistent
    db.close()


@pytest.mark.parametrize("table", [t.name for t in tables.TABLES])
def test_search_works_with_a_lost_or_malformed_table(made, tmp_path, table, capsys):
    path = tmp_path / "g.db"
    shutil.copyfile(made, path)
    conn = apsw.Connection(str(path))
    conn.execute(f"DROP TABLE {table}; CREATE TABLE {table}(x)")
    conn.close()
    assert main(["search", "observation 3", "--db", str(path)]) == 0
    out = capsys.readouterr()
    assert "Entity 3" in out.out and "Traceback" not in out.err
    conn = apsw.Connection(str(path))
    conn.execute(f"DROP TABLE {table}")
    conn.close()
    assert main(["search", "observation 3", "--db", str(path)]) == 0
    assert "Entity 3" in capsys.readouterr().out


@pytest.mark.parametrize("version", [2, 1, -1])
def test_an_empty_sqlite_file_with_an_odd_version_is_one_sentence_and_untouched(tmp_path, version, capsys):
    path = tmp_path / "odd.db"
    conn = apsw.Connection(str(path))
    conn.execute(f"PRAGMA user_version = {version}")
    conn.close()
    data = path.read_bytes()
    with pytest.raises(DatabaseError) as err:
        Database(path)
    assert one_sentence(str(err.value))
    for args in (["search", "x"], ["check"], ["info"]):
        assert main([*args, "--db", str(path)]) == 1
        assert one_sentence(capsys.readouterr().err)
    assert path.read_bytes() == data


# -- true messages -------------------------------------------------------------------------------


def test_a_disk_filling_after_the_graph_part_of_an_import_says_what_was_saved(tmp_path, embedder, monkeypatch):
    g = Graph(Database(tmp_path / "g.db"), embedder)
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps({"type": "entity", "name": f"N{i}", "observations": ["x"]}) + "\n" for i in range(30)))
    calls = {"n": 0}
    real = Graph.embed_pending

    def embed_then_fill(self, progress=None, cancelled=None):
        calls["n"] += 1
        from limbic.engine.vectors import index

        index.embed_pending(self.db, self.embedder, batch_size=8, cancelled=lambda: index.pending_count(self.db) <= 14)

    def fails(self, progress=None, cancelled=None, only=None):
        try:
            embed_then_fill(self)
        except LimbicError:
            pass
        raise DatabaseError(f"The disk holding {self.db.path} is full; nothing was changed.")

    monkeypatch.setattr(Graph, "embed_pending", fails)
    with pytest.raises(LimbicError) as err:
        jsonl.import_file(g, src)
    message = str(err.value)
    monkeypatch.setattr(Graph, "embed_pending", real)
    vectors, pending = g.counts()["vectors"], g.pending_embeddings()
    assert g.counts()["entities"] == 30 and 0 < vectors < 30
    assert "nothing was changed" not in message and "was saved" in message and "disk" in message
    assert f"{vectors} vectors" in message and f"{pending} entities wait" in message
    g.db.close()


def test_import_summary_does_not_count_another_programs_writes(tmp_path, monkeypatch):
    path = tmp_path / "g.db"
    g = make(path, n=2)
    other = apsw.Connection(str(path))
    other.setbusytimeout(0)
    real_counts = Graph.counts
    state = {"first": True}

    def counts_with_a_neighbour(self):
        counted = real_counts(self)
        if state["first"]:
            state["first"] = False
            try:  # another program writes just after the import counted (it cannot while the import holds the lock)
                other.execute("INSERT INTO entities(name, entity_type, created_at, updated_at) VALUES ('Elsewhere', 'T', 'x', 'x')")
            except apsw.BusyError:
                pass
        return counted

    monkeypatch.setattr(Graph, "counts", counts_with_a_neighbour)
    summary = jsonl.import_records(g, [jsonl.EntityRecord(1, "From file", None, ["x"])], [])
    other.close()
    assert summary.entities_created == 1 and summary.entities_in_file == 1
    g.db.close()


def test_the_model_off_warning_and_the_read_only_note_are_said_once(tmp_path, monkeypatch, capsys):
    path = tmp_path / "g.db"
    make(path).db.close()
    proc = run_cli(["search", "graphs", "--db", str(path)], {"LIMBIC_MODEL_DIR": str(tmp_path / "no-model"), "LIMBIC_HOME": str(tmp_path / "h")})
    assert proc.returncode == 0 and proc.stderr.count("semantic search is off") == 1, proc.stderr
    real_access = os.access
    monkeypatch.setattr("limbic.engine.store.db.os.access", lambda p, mode: False if mode == os.W_OK else real_access(p, mode))
    src = tmp_path / "in.jsonl"
    src.write_text('{"type":"entity","name":"X","observations":["y"]}\n', encoding="utf-8")
    for args in (["import", str(src)], ["check", "--repair", "--no-model"], ["search", "graphs"]):
        main([*args, "--db", str(path)])
        assert capsys.readouterr().err.count("read-only") == 1, args


def test_a_read_only_file_with_entities_waiting_for_vectors_is_searchable(tmp_path, embedder, monkeypatch, capsys):
    path = tmp_path / "g.db"
    g = Graph(Database(path), embedder)
    g.upsert_entity("Embedded one", "Note", ["about vector databases"])
    with g.write(embed=False):
        g.upsert_entity("Waiting one", "Note", ["about vector databases too"])
    assert g.pending_embeddings() == 1
    g.db.close()
    real_access = os.access
    monkeypatch.setattr("limbic.engine.store.db.os.access", lambda p, mode: False if mode == os.W_OK else real_access(p, mode))
    opened = open_graph(path, readonly=True)
    response = search(opened.graph, "vector databases", record=False)
    assert {r.name for r in response.results} == {"Embedded one", "Waiting one"} and response.mode == "hybrid"
    opened.close()
    assert main(["search", "vector databases", "--db", str(path)]) == 0
    out = capsys.readouterr()
    assert "Waiting one" in out.out and "Embedded one" in out.out and "Traceback" not in out.err


# -- input that looks the same is the same ---------------------------------------------------------


def test_names_are_nfc_and_case_variants_merge_with_a_clear_message(text_graph, tmp_path):
    nfc, nfd = unicodedata.normalize("NFC", "Café"), unicodedata.normalize("NFD", "Café")
    assert nfc != nfd
    a = text_graph.upsert_entity(nfc, "Place", ["one"])
    assert text_graph.upsert_entity(nfd, "Place", ["two"]) == a
    assert text_graph.entity_id("CAFÉ") == a and text_graph.entity_id(unicodedata.normalize("NFD", "CAFÉ")) == a
    with pytest.raises(ValidationError, match="only in case"):
        text_graph.create_entity("café")
    src = tmp_path / "cases.jsonl"
    records = [
        {"type": "entity", "name": "Case", "entityType": "T", "observations": ["from Case"]},
        {"type": "entity", "name": "case", "entityType": "T", "observations": ["from case"]},
        {"type": "entity", "name": "CASE", "entityType": "T", "observations": ["from CASE"]},
        {"type": "entity", "name": "Ärger", "observations": ["upper"]},
        {"type": "entity", "name": "äRGER", "observations": ["lower"]},
        {"type": "relation", "from": "case", "to": "äRGER", "relationType": "causes"},
    ]
    src.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n", encoding="utf-8")
    summary = jsonl.import_file(text_graph, src)
    assert summary.entities_created == 2
    assert text_graph.get_entity("Case").observation_texts == ["from Case", "from case", "from CASE"]
    assert text_graph.get_entity("Ärger").observation_texts == ["upper", "lower"]
    assert [(r.from_name, r.to_name) for r in text_graph.relations_of("Case")[0]] == [("Case", "Ärger")]
    text = summary.describe()
    assert "3 names differ from another only in case" in text and "line 2" in text


@pytest.mark.parametrize("brk", ["\u2028", "\u2029", "\x85"])
def test_unicode_line_breaks_are_refused_in_names(text_graph, brk):
    with pytest.raises(ValidationError, match="line break"):
        text_graph.upsert_entity(f"two{brk}lines")
    with pytest.raises(ValidationError):
        text_graph.upsert_entity("ok", f"ty{brk}pe")
    text_graph.upsert_entity("ok", observations=[f"observations keep{brk}line breaks"])


# -- big inputs ----------------------------------------------------------------------------------


def test_embedding_one_huge_entity_weighs_a_bounded_number_of_observations():
    seen = []

    def count(texts):
        seen.append(len(texts))
        return [max(1, len(t) // 4) for t in texts]

    n = 30_000
    src = EntitySource(1, "Huge", "Log", tuple(f"observation {i} word{i}" for i in range(n)), ())
    text = build_text(src, count, 480)
    assert max(seen) <= MAX_CANDIDATES + 2
    assert text.startswith("Huge (Log) | observation 0 word0 | observation 1 word1")
    assert text.endswith(f"observation {n - 1} word{n - 1}")


def test_the_engine_caps_an_absurd_limit(text_graph):
    text_graph.upsert_entity("Only one", "Note", ["graphs"])
    assert [r.name for r in search(text_graph, "graphs", limit=10**20, record=False).results] == ["Only one"]


def test_a_backup_copy_still_held_by_its_writer_is_left_alone(tmp_path):
    make(tmp_path / "g.db", n=3).db.close()
    folder = config.backup_dir(tmp_path / "g.db")
    folder.mkdir(exist_ok=True)
    part = folder / "20260101T000000000000-manual.bak.part"
    writer = apsw.Connection(str(part))  # what a backup in progress holds
    writer.execute("CREATE TABLE t(x); BEGIN EXCLUSIVE; INSERT INTO t VALUES (1)")
    os.utime(part, (time.time() - 600, time.time() - 600))
    Database(tmp_path / "g.db").close()
    assert part.exists()
    writer.execute("COMMIT")
    writer.close()
    os.utime(part, (time.time() - 600, time.time() - 600))
    Database(tmp_path / "g.db").close()
    assert not part.exists()
