"""Check that an installed `limbic mcp` speaks MCP over stdio: initialize, tools/list, a write and a search.

A client of a few lines on the standard library only (it runs against the .deb's /usr/bin/limbic
as well as against `python -m limbic`), so a missing piece of the bundled SDK shows up here:

    python packaging/mcp_handshake.py --exe /usr/bin/limbic
    python packaging/mcp_handshake.py -- python -m limbic

Every line the server writes to standard output must be a JSON-RPC message. Exits 0 when all is
well, 1 with one sentence otherwise.
"""

from __future__ import annotations

import argparse
import json
import queue
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

REFERENCE_TOOLS = {
    "create_entities", "create_relations", "add_observations", "delete_entities", "delete_observations",
    "delete_relations", "read_graph", "search_nodes", "open_nodes",
}
TIMEOUT = 60.0  # seconds for one answer (the first may wait for the model to load)


class Failed(Exception):
    pass


def _reader(stream, lines: queue.Queue) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def run(command: list[str], expect_model: bool) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "handshake.db"
        proc = subprocess.Popen(
            [*command, "mcp", "--db", str(db)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
        )
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=_reader, args=(proc.stdout, lines), daemon=True).start()
        errors: list[str] = []
        threading.Thread(target=lambda: errors.extend(proc.stderr), daemon=True).start()

        def send(message: dict) -> None:
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()

        def answer(request_id: int) -> dict:
            while True:
                try:
                    line = lines.get(timeout=TIMEOUT)
                except queue.Empty:
                    raise Failed(f"no answer to request {request_id} within {TIMEOUT:.0f} s") from None
                if line is None:
                    raise Failed("the server closed its output: " + "".join(errors)[-400:].strip())
                try:
                    message = json.loads(line)
                except ValueError:
                    raise Failed(f"the server wrote something that is not JSON-RPC to stdout: {line[:120]!r}") from None
                if message.get("id") == request_id:
                    if "error" in message:
                        raise Failed(f"request {request_id} failed: {message['error']}")
                    return message["result"]

        def tool(request_id: int, name: str, arguments: dict) -> dict:
            send({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {"name": name, "arguments": arguments}})
            result = answer(request_id)
            if result.get("isError"):
                raise Failed(f"{name} failed: {result['content'][0]['text']}")
            return result["structuredContent"]

        try:
            send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "limbic-package-test", "version": "1"}}})
            init = answer(1)
            send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            send({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}})
            tools = {t["name"] for t in answer(2)["tools"]}
            if not REFERENCE_TOOLS | {"search"} <= tools:
                raise Failed(f"tools/list lacks {sorted(REFERENCE_TOOLS | {'search'} - tools)}")
            tool(3, "create_entities", {"entities": [
                {"name": "Limbic", "entityType": "Project", "observations": ["A desktop app for a knowledge graph"]}]})
            found = tool(4, "search", {"query": "knowledge graph app"})
            if not found["results"] or found["results"][0]["name"] != "Limbic":
                raise Failed(f"search did not find what was just written: {found}")
            if expect_model and found["mode"] != "hybrid":
                raise Failed(f"search ran in mode {found['mode']} ({found.get('note', '')}), not hybrid")
        finally:
            proc.stdin.close()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                raise Failed("the server did not exit when its input closed") from None
        return {"server": init["serverInfo"], "protocol": init["protocolVersion"], "tools": len(tools), "mode": found["mode"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exe", help="the limbic executable (default: the command after --)")
    parser.add_argument("--no-expect-model", action="store_true", help="accept full-text search (no model)")
    parser.add_argument("command", nargs="*", help="the limbic command, e.g. -- python -m limbic")
    args = parser.parse_args(argv)
    command = [args.exe] if args.exe else args.command
    if not command:
        parser.error("give --exe or a command after --")
    try:
        summary = run(command, expect_model=not args.no_expect_model)
    except (Failed, OSError) as exc:
        print(f"mcp-handshake: {exc}", file=sys.stderr)
        return 1
    print(f"mcp-handshake: ok: {summary['server']['name']} {summary['server'].get('version', '')}, protocol "
          f"{summary['protocol']}, {summary['tools']} tools, search mode {summary['mode']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
