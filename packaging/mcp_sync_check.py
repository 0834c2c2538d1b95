"""Check that an installed `limbic mcp` syncs: two servers on two graphs joined to one folder see each other's writes.

The exchange runs in a process the server starts from its own executable, so this is what shows that a
bundle (where that executable is `limbic`, not Python) syncs at all. Standard library only:

    python packaging/mcp_sync_check.py --exe /usr/bin/limbic
    python packaging/mcp_sync_check.py -- python -m limbic

Exits 0 when each server reads what the other wrote, 1 with one sentence otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ANSWER_SECONDS = 60.0  # one answer
ARRIVE_SECONDS = 120.0  # a write reaching the other server (it reads the folder every 30 s, and after its writes)


class Failed(Exception):
    pass


class Server:
    """`limbic mcp --db FILE --no-model` spoken to over stdio, its standard error kept for the report."""

    def __init__(self, command: list[str], db: Path, env: dict[str, str]) -> None:
        self.db = db
        self.proc = subprocess.Popen([*command, "mcp", "--db", str(db), "--no-model"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
                                     env=env)
        self.lines: queue.Queue = queue.Queue()
        self.errors: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.errors.extend(self.proc.stderr), daemon=True).start()
        self.next_id = 0
        init = self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                           "clientInfo": {"name": "limbic-sync-check", "version": "1"}})
        if "serverInfo" not in init:
            raise Failed(f"{db.name}: initialize answered {init}")
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _send(self, message: dict) -> None:
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict) -> dict:
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            try:
                line = self.lines.get(timeout=ANSWER_SECONDS)
            except queue.Empty:
                raise Failed(f"{self.db.name}: no answer to {method} within {ANSWER_SECONDS:.0f} s") from None
            if line is None:
                raise Failed(f"{self.db.name}: the server closed its output: {self.log()}")
            message = json.loads(line)
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise Failed(f"{self.db.name}: {method} failed: {message['error']}")
                return message["result"]

    def tool(self, name: str, arguments: dict) -> dict:
        result = self.request("tools/call", {"name": name, "arguments": arguments})
        if result.get("isError"):
            raise Failed(f"{self.db.name}: {name} failed: {result['content'][0]['text']}")
        return result.get("structuredContent") or {}

    def names(self, *names: str) -> set[str]:
        return {e["name"] for e in self.tool("open_nodes", {"names": list(names)}).get("entities", [])}

    def log(self) -> str:
        return "".join(self.errors)[-600:].strip()

    def close(self) -> None:
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise Failed(f"{self.db.name}: the server did not exit when its input closed") from None


def _until_seen(server: Server, other: Server, name: str) -> float:
    start = time.monotonic()
    while server.names(name) != {name}:
        if time.monotonic() - start > ARRIVE_SECONDS:
            raise Failed(f"{name}, written through {other.db.name}, did not reach {server.db.name} within "
                         f"{ARRIVE_SECONDS:.0f} s; its log: {server.log() or '(empty)'}; the writer's log: "
                         f"{other.log() or '(empty)'}")
        time.sleep(0.5)
    return time.monotonic() - start


def run(command: list[str]) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "home").mkdir()
        folder = root / "Sync"
        folder.mkdir()
        env = {**os.environ, "LIMBIC_HOME": str(root / "home"), "LIMBIC_SYNC_DEBOUNCE": "0.3"}
        env.pop("LIMBIC_DB", None)
        a, b = root / "laptop.db", root / "desktop.db"
        for db in (a, b):  # each graph joined to the folder, as a person does once with `limbic sync --folder`
            done = subprocess.run([*command, "sync", "--db", str(db), "--folder", str(folder)], capture_output=True,
                                  text=True, encoding="utf-8", env=env, timeout=300)
            if done.returncode != 0:
                raise Failed(f"limbic sync --folder for {db.name} failed: {done.stderr.strip()[-400:]}")
        servers: list[Server] = []
        try:
            servers.append(Server(command, a, env))
            servers.append(Server(command, b, env))
            sa, sb = servers
            sa.tool("create_entities", {"entities": [{"name": "Ada", "entityType": "Person", "observations": ["likes tea"]}]})
            there = _until_seen(sb, sa, "Ada")
            sb.tool("create_entities", {"entities": [{"name": "Bob", "entityType": "Person", "observations": []}]})
            back = _until_seen(sa, sb, "Bob")
            for server in servers:
                if "WARNING limbic.mcp.sync" in server.log():
                    raise Failed(f"{server.db.name}'s exchange reported a failure: {server.log()}")
        finally:
            for server in servers:
                server.close()
        return {"there": there, "back": back}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exe", help="the limbic executable (default: the command after --)")
    parser.add_argument("command", nargs="*", help="the limbic command, e.g. -- python -m limbic")
    args = parser.parse_args(argv)
    command = [args.exe] if args.exe else args.command
    if not command:
        parser.error("give --exe or a command after --")
    try:
        took = run(command)
    except (Failed, OSError, subprocess.SubprocessError) as exc:
        print(f"mcp-sync-check: {exc}", file=sys.stderr)
        return 1
    print(f"mcp-sync-check: ok: a write reached the other graph's server in {took['there']:.1f} s, "
          f"the answer came back in {took['back']:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
