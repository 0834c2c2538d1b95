"""Three devices as real programs: on each graph a long-running `limbic mcp` spoken to in raw JSON-RPC over
stdio, as an assistant does, beside the CLI's `limbic merge`, `limbic alias` and `limbic sync`, all in one
seeded random order on three graphs and one folder. After every program stops and a full exchange, the three
graphs hold the same rows (every synced column, by global id) and export the same memory."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from tests.sync.replicas import synced_rows

pytestmark = pytest.mark.slow

APP = str(Path(__file__).resolve().parents[2] / "app")
NAMES = ["Ada", "Bob", "Cy", "Dee"]
TEXTS = ["likes tea", "plays chess", "moved to Turin", "reads Lovelace"]


class RawServer:
    """`limbic mcp --db FILE`: newline-delimited JSON-RPC on its stdin and stdout, nothing in between."""

    def __init__(self, db: Path, env: dict) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "limbic", "mcp", "--db", str(db), "--no-model"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, env=env, bufsize=1)
        self.next_id = 0
        reply = self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                            "clientInfo": {"name": "raw-test", "version": "1"}})
        assert "serverInfo" in reply["result"]
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict) -> None:
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict) -> dict:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:  # notifications (resource updates) may come first
            line = self.proc.stdout.readline()
            assert line, "the server closed its output"
            message = json.loads(line)
            if message.get("id") == self.next_id:
                return message

    def call(self, tool: str, **arguments) -> dict:
        reply = self.request("tools/call", {"name": tool, "arguments": arguments})
        assert "result" in reply, reply
        return reply["result"]

    def stop(self) -> None:
        self.proc.stdin.close()  # the server publishes a write still waiting for its quiet spell, then ends
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _cli(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "limbic", *args], env=env, capture_output=True, text=True, timeout=120)


def _mcp_write(server: RawServer, rng: random.Random, device: str) -> None:
    name, other, text = rng.choice(NAMES), rng.choice(NAMES), rng.choice(TEXTS)
    kind = rng.choice(["create", "observe", "observe", "valid", "supersede", "forget", "relate", "end", "status",
                       "reflect", "delete"])
    if kind == "create":
        server.call("create_entities", entities=[{"name": name, "entityType": "Person",
                                                   "observations": [f"{text} ({device})"]}])
    elif kind == "observe":
        server.call("add_observations", observations=[{"entityName": name, "contents": [f"{text} ({device})"]}])
    elif kind == "valid":
        server.call("add_observations", observations=[{"entityName": name, "contents": [f"{text} since 2024"],
                                                        "valid_from": "2024-01-08"}])
    elif kind == "supersede":
        server.call("add_observations", observations=[{"entityName": name, "contents": [f"{text}, now ({device})"],
                                                        "supersedes": f"{text} ({device})"}])
    elif kind == "forget":
        server.call("delete_observations", deletions=[{"entityName": name, "observations": [f"{text} ({device})"]}])
    elif kind == "relate":
        server.call("create_relations", relations=[{"from": name, "to": other, "relationType": "knows"}])
    elif kind == "end":
        server.call("end_relation", relations=[{"from": name, "to": other, "relationType": "knows"}])
    elif kind == "status":
        server.call("set_entity_status", entities=[{"name": name, "status": rng.choice(["active", "paused", "done"])}])
    elif kind == "reflect":
        server.call("add_reflection", target_type="entity", entityName=name, content=f"{text} matters", author=device)
    else:
        server.call("delete_entities", entityNames=[name])


def _export(env: dict, db: Path, out: Path) -> list[dict]:
    result = _cli(env, "export", "-o", str(out), "--db", str(db))
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in out.read_text("utf-8").splitlines() if line.strip()]
    for line in lines:
        line.pop("id", None)  # local row ids differ between devices; everything else must not
        if isinstance(line.get("observations"), list):  # in local row order: sorted, each with its date and kind
            parallel = [k for k in ("observationDates", "observationKinds") if isinstance(line.get(k), list)]
            rows = sorted(zip(map(str, line["observations"]), *(line[k] for k in parallel)))
            line["observations"] = [r[0] for r in rows]
            for i, k in enumerate(parallel, 1):
                line[k] = [r[i] for r in rows]
    return sorted(lines, key=lambda d: json.dumps(d, sort_keys=True))


@pytest.mark.parametrize("seed", [7, 11])
def test_three_mcp_servers_and_the_cli_on_three_graphs_end_equal(tmp_path, seed):
    rng = random.Random(seed)
    folder = tmp_path / "Sync"
    folder.mkdir()
    env = {**os.environ, "PYTHONPATH": APP, "LIMBIC_SYNC_DEBOUNCE": "0.3"}
    graphs = {name: tmp_path / f"{name}.db" for name in ("laptop", "desktop", "tablet")}
    for name, db in graphs.items():
        assert _cli(env, "sync", "--db", str(db), "--folder", str(folder), "--name", name).returncode == 0
    servers = {name: RawServer(db, env) for name, db in graphs.items()}
    try:
        for _ in range(50):
            device = rng.choice(list(graphs))
            roll = rng.random()
            if roll < 0.75:
                _mcp_write(servers[device], rng, device)
            elif roll < 0.85:
                source, target = rng.sample(NAMES, 2)
                _cli(env, "merge", source, target, "--db", str(graphs[device]))
            elif roll < 0.92:
                _cli(env, "alias", "add", rng.choice(NAMES), f"{rng.choice(NAMES)}-{device}", "--db", str(graphs[device]))
            else:
                _cli(env, "sync", "--db", str(graphs[device]), "--yes")
            time.sleep(rng.random() * 0.3)  # the servers' own exchanges run meanwhile
    finally:
        for server in servers.values():
            server.stop()
    for _ in range(3):
        for db in graphs.values():
            result = _cli(env, "sync", "--db", str(db), "--yes")
            assert result.returncode in (0, 2), result.stderr
    rows = {}
    for name, db in graphs.items():
        g = Graph(Database(db))
        try:
            rows[name] = synced_rows(g)
        finally:
            g.db.close()
    assert rows["laptop"] == rows["desktop"] == rows["tablet"]
    assert rows["laptop"]["entities"], "the run wrote nothing"
    exports = {name: _export(env, db, tmp_path / f"{name}.jsonl") for name, db in graphs.items()}
    assert exports["laptop"] == exports["desktop"] == exports["tablet"]
