"""A raw JSON-RPC client over stdio: one line per message, nothing between the test and the wire.

Used to send what the SDK's client would refuse to (a lone surrogate, a request before
``initialize``) and to drive the reference server and Limbic with the same script.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

APP = str(Path(__file__).resolve().parents[2] / "app")
REFERENCE_PACKAGE = "@modelcontextprotocol/server-memory"
REFERENCE_CACHE = Path(os.environ.get("LIMBIC_TEST_CACHE", Path.home() / ".cache" / "limbic-test")) / "server-memory"


class RawServer:
    """A server process and its stdio, spoken to line by line."""

    def __init__(self, command: list[str], env: dict[str, str] | None = None, cwd: str | None = None) -> None:
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, **(env or {})}, cwd=cwd,
        )
        self.lines: queue.Queue[dict | None] = queue.Queue()
        self.raw: dict[Any, bytes] = {}  # the bytes of the last answer to each request id, as the server wrote them
        self.stderr: list[str] = []
        self.next_id = 1000
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            try:
                message = json.loads(line)
                if isinstance(message, dict) and isinstance(message.get("id"), (int, str)):
                    self.raw[message["id"]] = line
                self.lines.put(message)
            except ValueError:
                self.lines.put({"unparsed": line.decode("utf-8", "replace")})
        self.lines.put(None)

    def _read_err(self) -> None:
        for line in self.proc.stderr:
            self.stderr.append(line.decode("utf-8", "replace"))

    def send_line(self, line: str) -> None:
        self.proc.stdin.write(line.encode("utf-8") + b"\n")
        self.proc.stdin.flush()

    def send(self, message: dict) -> None:
        self.send_line(json.dumps(message))

    def wait_for(self, request_id: Any, timeout: float = 60.0) -> dict:
        """The response with this id (notifications meanwhile are skipped); AssertionError after ``timeout``."""
        while True:
            try:
                message = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no answer to request {request_id!r} within {timeout} s") from None
            if message is None:
                raise AssertionError(f"the server exited before answering {request_id!r}: {''.join(self.stderr)[-2000:]}")
            if message.get("id") == request_id and ("result" in message or "error" in message):
                return message

    def request(self, method: str, params: dict | None = None, timeout: float = 60.0) -> dict:
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.wait_for(self.next_id, timeout)

    def initialize(self, version: str = "2025-06-18") -> dict:
        answer = self.request("initialize", {"protocolVersion": version, "capabilities": {},
                                             "clientInfo": {"name": "limbic-raw-test", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def call(self, tool: str, arguments: dict, timeout: float = 120.0) -> dict:
        """The result of tools/call (or {"error": ...} for a protocol error)."""
        answer = self.request("tools/call", {"name": tool, "arguments": arguments}, timeout)
        return answer.get("result", {"error": answer.get("error")})

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self) -> RawServer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def limbic_command(db: Path, model: bool = False) -> tuple[list[str], dict[str, str]]:
    """``python -m limbic mcp --db DB`` with this tree on the path."""
    args = [sys.executable, "-m", "limbic", "mcp", "--db", str(db)] + ([] if model else ["--no-model"])
    return args, {"PYTHONPATH": APP}


def npm_package(package: str, folder: str, entry: str) -> Path | None:
    """``entry`` of an npm package installed once into a cache folder; None when node or npm is missing."""
    if not shutil.which("node") or not shutil.which("npm"):
        return None
    cache = REFERENCE_CACHE.parent / folder
    path = cache / "node_modules" / entry
    if not path.exists():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run([shutil.which("npm"), "install", "--prefix", str(cache), "--no-audit", "--no-fund", package],
                       check=True, capture_output=True, timeout=600)
    return path


def reference_command(memory_file: Path) -> tuple[list[str], dict[str, str]] | None:
    """The reference server, installed from npm into a cache folder once; None when node or npm is missing."""
    entry = npm_package(REFERENCE_PACKAGE, REFERENCE_CACHE.name, "@modelcontextprotocol/server-memory/dist/index.js")
    if entry is None:
        return None
    return [shutil.which("node"), str(entry)], {"MEMORY_FILE_PATH": str(memory_file)}
