"""Several programs opening one new, or one older, graph file at the same moment: each upgrade step runs
once, every program opens the file, and nothing written by any of them is lost."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import apsw
import pytest

from limbic.engine.store.db import SCHEMA_VERSION
from tests.old_files import write_v1_file

# Each process waits for the same moment, opens the file, writes one entity of its own and reports.
_WORKER = textwrap.dedent("""
    import sys, time
    from limbic.engine.graph.graph import Graph
    from limbic.engine.store.db import Database
    from limbic.service.memory import create_entities
    path, start, name = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    while time.time() < start:
        time.sleep(0.001)
    db = Database(path)
    create_entities(Graph(db), [{"name": name, "entityType": "Worker", "observations": [name + " was here"]}])
    db.close()
    print("ok")
""")


def _race(path, workers: int) -> list[subprocess.CompletedProcess]:
    import time

    start = time.time() + 3.0  # every process has imported Limbic by then
    procs = [subprocess.Popen([sys.executable, "-c", _WORKER, str(path), str(start), f"W{i}"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(workers)]
    out = []
    for proc in procs:
        stdout, stderr = proc.communicate(timeout=120)
        out.append(subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr))
    return out


def _names(path) -> set[str]:
    conn = apsw.Connection(str(path), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        assert conn.execute("PRAGMA user_version").fetchall()[0][0] == SCHEMA_VERSION
        return {r[0] for r in conn.execute("SELECT name FROM entities")}
    finally:
        conn.close()


@pytest.mark.parametrize("old", [False, True], ids=["new file", "schema-1 file"])
def test_programs_opening_one_file_at_once_all_succeed(tmp_path, old):
    path = tmp_path / "race.db"
    if old:
        write_v1_file(path, "Kept")
    results = _race(path, 4)
    for result in results:
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == "ok"
    assert _names(path) == {f"W{i}" for i in range(4)} | ({"Kept"} if old else set())
