"""`limbic mcp` in a bundle: its exchange process is a command of the bundle's own executable, windowless on Windows."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from limbic import cli
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.mcp import sync as mcp_sync
from limbic.mcp.sync import BackgroundSync
from limbic.service import sync as service_sync


def bundled_limbic(folder: Path) -> Path:
    """A stand-in for the bundle's `limbic` executable: it runs the `limbic` command and nothing else (no `-m`)."""
    code = "import sys; from limbic.cli import main; sys.exit(main())"
    if os.name == "nt":
        exe = folder / "limbic.cmd"
        exe.write_text(f'@"{sys.executable}" -c "{code}" %*\r\n', encoding="utf-8")
    else:
        exe = folder / "limbic"
        exe.write_text(f"#!{sys.executable}\n{code}\n", encoding="utf-8")
        exe.chmod(0o755)
    return exe


def _joined_with_one_unpublished(tmp_path: Path) -> Path:
    folder = tmp_path / "Sync"
    folder.mkdir()
    path = tmp_path / "a.db"
    g = Graph(Database(path))
    g.upsert_entity("Ada", "Person", [])
    g.db.close()
    service_sync.exchange(path, folder)
    g = Graph(Database(path))
    g.upsert_entity("Bob", "Person", [])
    g.db.close()
    return path


def test_the_stand_in_refuses_python_options_as_a_bundle_does(tmp_path):
    exe = bundled_limbic(tmp_path)
    done = subprocess.run([str(exe), "-m", "limbic.mcp.sync", str(tmp_path / "a.db")], capture_output=True, text=True)
    assert done.returncode == 2 and "usage" in done.stderr


def test_a_bundled_server_exchanges_through_its_own_executable(tmp_path, monkeypatch):
    path = _joined_with_one_unpublished(tmp_path)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(bundled_limbic(tmp_path)))
    background = BackgroundSync(path)
    assert background.run_once(), background.last_error
    assert background.last_error is None
    assert service_sync.status(path).unpublished == 0


def test_the_hidden_command_is_the_one_the_server_starts(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert mcp_sync.exchange_command(tmp_path / "a.db")[1] == cli.SYNC_EXCHANGE == mcp_sync.CHILD_COMMAND
    # A file that has no sync folder: the command answers in the report's form, never with a usage error.
    report = subprocess.run([sys.executable, "-m", "limbic", cli.SYNC_EXCHANGE, str(tmp_path / "nothing.db")],
                            capture_output=True, text=True, env={**os.environ})
    assert report.returncode == 0, report.stderr
    assert report.stdout.strip().startswith("{") and "error" in report.stdout


def test_the_hidden_command_is_not_listed_in_help():
    assert cli.SYNC_EXCHANGE not in cli.build_parser().format_help()


def test_on_windows_the_exchange_process_opens_no_console_window(tmp_path, monkeypatch):
    path = _joined_with_one_unpublished(tmp_path)
    started: list[tuple[list[str], dict]] = []

    def run(command, **options):
        started.append((command, options))
        return subprocess.CompletedProcess(command, 0, stdout='{"sent": 1, "received": 0, "conflicts": 0}\n',
                                           stderr="")

    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(mcp_sync.subprocess, "run", run)
    assert BackgroundSync(path).run_once()
    (command, options), = started
    assert options.get("creationflags", 0) & 0x08000000  # CREATE_NO_WINDOW


def test_a_server_that_writes_nothing_still_reads_the_folder_every_so_often(tmp_path):
    path = _joined_with_one_unpublished(tmp_path)
    background = BackgroundSync(path, every=0.3)
    background.start()
    try:
        deadline = time.monotonic() + 60
        while background.exchanges < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        background.stop()
    assert background.exchanges >= 3  # the one at start, then one every 0.3 s with no write in between
