"""The write-ahead log (``graph.db-wal``) deleted by another program while a writer has the graph open.

SQLite keeps writing into the deleted log through its open descriptor, so without a check every
write after the deletion was acknowledged and then lost with the process. A writer must notice
before it acknowledges, refuse with a sentence, and copy what its connection still holds into
the graph file; ``limbic check`` must not call a file that lost its tables sound.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import apsw
import pytest

from limbic.engine.errors import DatabaseError
from limbic.engine.graph.graph import Graph
from limbic.engine.store import journal_watch
from limbic.engine.store.db import Database
from limbic.service.integrity import check_file
from tests.mcp.raw import APP, RawServer, limbic_command

LOST = "write-ahead log was removed by another program"
# Windows refuses to delete or replace a file while SQLite holds it open, so the loss these tests stage
# cannot happen there.
deletes_an_open_log = pytest.mark.posix_only(
    reason="deletes or replaces the write-ahead log while SQLite holds it open, which Windows refuses")


def _observations(path: Path) -> dict[str, list[str]]:
    db = Database(path, readonly=True)
    try:
        found: dict[str, list[str]] = {}
        for name, content in db.execute(
            "SELECT e.name, o.content FROM observations o JOIN entities e ON e.id = o.entity_id ORDER BY o.id"
        ):
            found.setdefault(name, []).append(content)
        return found
    finally:
        db.close()


@deletes_an_open_log
def test_no_write_acknowledged_by_limbic_mcp_is_lost_when_its_wal_is_deleted(tmp_path):
    db = tmp_path / "graph.db"
    command, env = limbic_command(db)
    server = RawServer(command, env)
    try:
        server.initialize()
        made = server.call("create_entities", {"entities": [
            {"name": "Ada", "entityType": "person", "observations": ["before the log went"]}]})
        assert not made.get("isError"), made
        wal = Path(str(db) + "-wal")
        assert wal.exists()
        wal.unlink()  # a sync tool or a cleaner, while the server runs
        acknowledged, refused = [], []
        for i in range(20):
            result = server.call("add_observations", {"observations": [{"entityName": "Ada", "contents": [f"note {i}"]}]})
            text = result["content"][0]["text"]
            (refused if result.get("isError") else acknowledged).append((f"note {i}", text))
    finally:
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait()
        server.close()
    # Nothing was acknowledged that the file lacks, and every refusal says why, in one sentence.
    kept = _observations(db)
    assert "before the log went" in kept.get("Ada", [])
    for note, _ in acknowledged:
        assert note in kept["Ada"], f"{note} was acknowledged but is not in the file"
    for note, _ in refused:
        assert note not in kept.get("Ada", []), f"{note} was refused but saved"
    assert refused, "no write was refused although its log was gone"
    for _, text in refused:
        assert LOST in text and "Traceback" not in text, text
    # The copy left a sound graph, not a loss to report.
    assert check_file(db, use_model=False).report.consistent


@deletes_an_open_log
def test_an_idle_limbic_mcp_copies_the_deleted_wal_into_the_file_before_any_write(tmp_path):
    db = tmp_path / "graph.db"
    command, env = limbic_command(db)
    server = RawServer(command, env)
    try:
        server.initialize()
        made = server.call("create_entities", {"entities": [
            {"name": "Ada", "entityType": "person", "observations": ["acknowledged before the log went"]}]})
        assert not made.get("isError"), made
        Path(str(db) + "-wal").unlink()
        # No write follows: the server's once-a-second look at the file notices the log is gone.
        deadline = time.monotonic() + 60
        while not any(LOST in line for line in server.stderr) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait()
        server.close()
    assert _observations(db) == {"Ada": ["acknowledged before the log went"]}


@deletes_an_open_log
def test_a_write_after_the_wal_is_deleted_is_refused_and_what_came_before_is_copied_into_the_file(tmp_path):
    path = tmp_path / "graph.db"
    graph = Graph(Database(path))
    graph.create_entity("Ada", "person", ["kept"])
    Path(str(path) + "-wal").unlink()
    with pytest.raises(DatabaseError, match=LOST):
        graph.add_observations("Ada", ["after"])
    # Refused from then on, before anything is written: the next log would be lost as well.
    with pytest.raises(DatabaseError, match=LOST):
        graph.create_entity("Bob", "person")
    # The graph file alone (no log: the process is gone) already holds what came before.
    copy = tmp_path / "copy.db"
    copy.write_bytes(path.read_bytes())
    assert _observations(copy) == {"Ada": ["kept"]}
    graph.db.close()


@deletes_an_open_log
def test_a_reader_of_the_latest_state_does_not_stop_the_copy(tmp_path):
    path = tmp_path / "graph.db"
    graph = Graph(Database(path))
    graph.create_entity("Ada", "person", ["kept"])
    reader = apsw.Connection(str(path), flags=apsw.SQLITE_OPEN_READONLY)
    reader.execute("BEGIN")
    assert reader.execute("SELECT count(*) FROM entities").fetchall() == [(1,)]  # holds the log open
    graph.db.conn.setbusytimeout(20)  # the log cannot be emptied while the reader is there: do not wait long
    Path(str(path) + "-wal").unlink()
    with pytest.raises(DatabaseError, match="everything saved before it was copied"):
        graph.add_observations("Ada", ["after"])
    copy = tmp_path / "copy.db"
    copy.write_bytes(path.read_bytes())
    assert _observations(copy) == {"Ada": ["kept"]}
    reader.execute("COMMIT")
    reader.close()
    graph.db.close()


@deletes_an_open_log
def test_looking_for_other_programs_writes_copies_a_deleted_wal_at_once(tmp_path):
    path = tmp_path / "graph.db"
    graph = Graph(Database(path))
    graph.create_entity("Ada", "person", ["kept"])
    Path(str(path) + "-wal").unlink()
    graph.db.data_version()  # how the app (every half second) and limbic mcp (every second) look for outside writes
    copy = tmp_path / "copy.db"
    copy.write_bytes(path.read_bytes())
    assert _observations(copy) == {"Ada": ["kept"]}
    with pytest.raises(DatabaseError, match=LOST):
        graph.add_observations("Ada", ["after"])
    graph.db.close()


@deletes_an_open_log
def test_a_replaced_wal_is_noticed_too(tmp_path):
    path = tmp_path / "graph.db"
    graph = Graph(Database(path))
    graph.create_entity("Ada", "person", ["kept"])
    wal = Path(str(path) + "-wal")
    other = tmp_path / "other"
    other.write_bytes(b"")
    os.replace(other, wal)  # a sync tool putting its own copy in place
    with pytest.raises(DatabaseError, match=LOST):
        graph.add_observations("Ada", ["after"])
    graph.db.close()


@deletes_an_open_log
def test_a_commit_made_as_the_wal_went_is_acknowledged_only_once_it_is_in_the_file(tmp_path, monkeypatch):
    path = tmp_path / "graph.db"
    graph = Graph(Database(path))
    graph.create_entity("Ada", "person", ["kept"])
    # The log goes between the last look before the commit and the commit itself.
    monkeypatch.setattr(Database, "_look", lambda self: None)
    with graph.db.transaction():
        graph.db.execute("UPDATE entities SET entity_type = 'mathematician' WHERE name = 'Ada'")
        Path(str(path) + "-wal").unlink()
    copy = tmp_path / "copy.db"
    copy.write_bytes(path.read_bytes())
    db = Database(copy, readonly=True)
    assert db.scalar("SELECT entity_type FROM entities WHERE name = 'Ada'") == "mathematician"
    db.close()
    with pytest.raises(DatabaseError, match=LOST):
        graph.add_observations("Ada", ["after"])
    graph.db.close()


@deletes_an_open_log
def test_a_write_into_a_deleted_graph_file_is_refused(tmp_path):
    path = tmp_path / "graph.db"
    graph = Graph(Database(path))
    graph.create_entity("Ada", "person", ["kept"])
    path.unlink()
    with pytest.raises(DatabaseError, match="was deleted or replaced by another program"):
        graph.add_observations("Ada", ["after"])
    graph.db.close()


def test_a_graph_kept_with_the_rollback_journal_still_takes_writes(tmp_path, monkeypatch):
    configure = Database._configure

    def without_log(self) -> None:  # as on a file system where SQLite cannot share memory between programs
        configure(self)
        self.conn.execute("PRAGMA journal_mode = DELETE")

    monkeypatch.setattr(Database, "_configure", without_log)
    graph = Graph(Database(tmp_path / "graph.db"))
    graph.create_entity("Ada", "person", ["kept"])
    graph.add_observations("Ada", ["and this"])
    assert graph.get_entity("Ada").observation_texts == ["kept", "and this"]
    graph.db.close()


def test_a_file_that_cannot_be_looked_at_for_a_moment_is_not_taken_for_deleted(tmp_path, monkeypatch):
    graph = Graph(Database(tmp_path / "graph.db"))
    graph.create_entity("Ada", "person", ["kept"])

    class Unreachable:  # a folder made unreadable, a network share's hiccup
        @staticmethod
        def stat(path):
            raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(journal_watch, "os", Unreachable)
    graph.add_observations("Ada", ["and this"])
    monkeypatch.undo()
    graph.add_observations("Ada", ["and that"])  # and the watch goes on once the file can be seen
    assert graph.get_entity("Ada").observation_texts == ["kept", "and this", "and that"]
    graph.db.close()


def test_a_relative_path_is_watched_where_it_was_opened(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    graph = Graph(Database("graph.db"))
    graph.create_entity("Ada", "person", ["kept"])
    monkeypatch.chdir(tmp_path.parent)  # the file is where it was; only the working folder moved
    graph.add_observations("Ada", ["and this"])
    graph.db.close()


_LOSE_THE_LOG = r"""
import os, signal, sys
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
path = sys.argv[1]
graph = Graph(Database(path))
graph.create_entity("Ada", "person", ["lost"])
os.unlink(path + "-wal")
os.kill(os.getpid(), signal.SIGKILL)  # the log's frames die with the process: nothing copied them
"""


@deletes_an_open_log
def test_check_does_not_call_a_file_that_lost_its_tables_sound(tmp_path):
    path = tmp_path / "graph.db"
    subprocess.run([sys.executable, "-c", _LOSE_THE_LOG, str(path)], env={**os.environ, "PYTHONPATH": APP}, check=False)
    assert path.exists() and not Path(str(path) + "-wal").exists()
    run = check_file(path, use_model=False)
    lines = run.notes + run.report.lines()
    assert "No problems found." not in lines
    assert not run.report.consistent
    assert any("write-ahead log" in line for line in lines), lines
    # Still said on a second look: the first check's open must not make the loss look like a new graph.
    again = check_file(path, use_model=False)
    assert "No problems found." not in again.notes + again.report.lines()
    assert not again.report.consistent
    # A repair accepts the file as it is; then the loss is not named again.
    repaired = check_file(path, repair_it=True, use_model=False)
    assert repaired.repaired.before.lost and repaired.report.consistent
    assert check_file(path, use_model=False).report.lines() == ["No problems found."]


_HOLD_THE_LOG = r"""
import sys, time
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
graph = Graph(Database(sys.argv[1]))
graph.create_entity("Ada", "person", ["held"])
if sys.argv[2] == "in the file":  # then the opener can read the schema, and only the latest pages are held
    graph.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    graph.add_observations("Ada", ["held in the log"])
print("READY", flush=True)
time.sleep(600)  # holds the graph open, writing nothing and never looking (an older program)
"""


@deletes_an_open_log
@pytest.mark.parametrize("schema", ["in the log", "in the file"])
def test_opening_a_graph_whose_log_another_program_still_holds_says_so(tmp_path, schema):
    path = tmp_path / "graph.db"
    holder = subprocess.Popen([sys.executable, "-c", _HOLD_THE_LOG, str(path), schema], stdout=subprocess.PIPE,
                              env={**os.environ, "PYTHONPATH": APP})
    try:
        assert holder.stdout.readline().strip() == b"READY"
        Path(str(path) + "-wal").unlink()
        with pytest.raises(DatabaseError, match="removed by another program while a program still has the graph open"):
            Database(path)
    finally:
        holder.kill()
        holder.wait()
    # The refused opening wrote nothing into the file: what reached it before is whole.
    conn = apsw.Connection(str(path), flags=apsw.SQLITE_OPEN_READONLY)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.close()
    if schema == "in the file":
        assert _observations(path) == {"Ada": ["held"]}


@pytest.mark.posix_only(reason="named pipes in the file system (os.mkfifo) are POSIX")
def test_a_named_pipe_beside_the_graph_is_not_read(tmp_path):
    path = tmp_path / "graph.db"
    Graph(Database(path)).db.close()
    os.mkfifo(str(path) + "-shm")  # reading it would wait for a writer forever
    try:
        assert journal_watch.lost_log(path) is None
    finally:
        os.unlink(str(path) + "-shm")
