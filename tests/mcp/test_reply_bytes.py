"""The bytes `limbic mcp` writes for the whole-graph replies, pinned on a fixed graph: read_graph, broad
and narrow search_nodes, open_nodes, the resource, and the create and relate replies that built it.
Making these replies faster must not change one byte of them (clients compare the text with the
reference's); a change that means to must say so here with the new digest.

The graph holds what stresses an encoder: quotes, backslashes, new lines, tabs, non-ASCII text and
emoji, U+2028, long observations, a trailing space (trimmed: docs/mcp.md says why), aliases.
"""

from __future__ import annotations

import hashlib
import io
import json
import threading

from limbic.mcp.server import GraphHost, MemoryServer
from limbic.mcp.wire import Wire, parse_line

TEXTS = ["plain words", 'say "hi"', "back\\slash", "line\none", "tab\there", "café Émile ÆØÅ", "emoji 🗼🙂",
         "sep\u2028arator", "x" * 3000, "likes tea ", "日本語のテキスト", "ends with a backslash \\"]

NAMES = ["plain", 'say "hi"', "back\\\\slash", "café", "🗼", "日本", "x"]


class Capture(io.RawIOBase):
    """The server's standard output: every line it writes, waited for by count."""

    def __init__(self) -> None:
        self.lines: list[bytes] = []
        self.buffer = b""
        self.arrived = threading.Condition()

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        with self.arrived:
            self.buffer += bytes(data)
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                self.lines.append(line + b"\n")
            self.arrived.notify_all()
        return len(data)

    def wait(self, count: int) -> list[bytes]:
        with self.arrived:
            assert self.arrived.wait_for(lambda: len(self.lines) >= count, timeout=120), self.lines[-3:]
            return self.lines[:count]


def entity(i: int) -> dict:
    observations = [f"{TEXTS[(i * k) % len(TEXTS)]} {i} {k}" for k in range(1 + i % 4)]
    if i % 5 == 0:
        observations.append(TEXTS[i % len(TEXTS)])
    return {"name": f"Entity {i:04d} {NAMES[i % len(NAMES)]}", "entityType": ["Person", "Project", "Lieu", "Thing"][i % 4],
            "observations": observations}


def session_bytes(db) -> list[bytes]:
    """Every reply line of a fixed session on an empty graph file."""
    host = GraphHost(db, None, load_model=False)
    out = Capture()
    server = MemoryServer(host, Wire(io.BytesIO(), out))
    host.start()
    sent = 0

    def send(method: str, params: dict) -> None:
        nonlocal sent
        sent += 1
        line = json.dumps({"jsonrpc": "2.0", "id": sent, "method": method, "params": params}).encode()
        server.session.receive(parse_line(line))
        out.wait(sent)  # one at a time, so the replies come in order

    try:
        send("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "pin", "version": "1"}})
        entities = [entity(i) for i in range(600)]
        for start in range(0, 600, 200):
            send("tools/call", {"name": "create_entities", "arguments": {"entities": entities[start : start + 200]}})
        relations = [{"from": entities[i]["name"], "to": entities[(i * 7 + 3) % 600]["name"], "relationType": f"links {i % 3}"}
                     for i in range(0, 600, 2)]
        send("tools/call", {"name": "create_relations", "arguments": {"relations": relations}})
        host.submit(lambda: host.graph().add_alias(host.graph().entity_id(entities[1]["name"]), "Zed the alias")).result()
        for arguments in ({}, {"offset": 590, "limit": 20}):
            send("tools/call", {"name": "read_graph", "arguments": arguments})
        for query in ("e", "ENTITY 00", "é", "🗼", "\\", "zed", "nothing like this", "\u2028", "likes tea "):
            send("tools/call", {"name": "search_nodes", "arguments": {"query": query}})
        send("tools/call", {"name": "open_nodes", "arguments": {"names": [entities[i]["name"] for i in (5, 1, 77, 599)]}})
        send("resources/read", {"uri": "memory://knowledge-graph"})
        return out.wait(sent)
    finally:
        host.close()


def test_the_whole_graph_replies_keep_their_bytes(tmp_path):
    lines = session_bytes(tmp_path / "g.db")
    replies = [json.loads(line) for line in lines]
    assert all("result" in r and not r["result"].get("isError") for r in replies), [r for r in replies if "error" in r][:1]
    graph = replies[5]["result"]
    assert len(graph["structuredContent"]["entities"]) == 600 and len(graph["structuredContent"]["relations"]) == 300
    assert graph["content"][0]["text"] == json.dumps(graph["structuredContent"], ensure_ascii=False, indent=2)
    observations = [o for e in graph["structuredContent"]["entities"] for o in e["observations"]]
    assert "likes tea" in observations and "likes tea " not in observations  # trimmed, as docs/mcp.md says
    digests = [hashlib.sha256(line).hexdigest()[:16] for line in lines[1:]]  # after initialize, which names the version
    assert digests == PINNED, digests


PINNED = ['82aad4e36919a67d', '1476b8df246bd586', 'f30d11a63db8a3e0', '9906885f10cec091', '508211234df3e937',
          'ac5fac9225039031', '63c2dc54e2acf507', 'e888cd2ac28d6c3c', '63466cab1a123e35', 'bfceabfc857fdecd',
          'ff5e9d19547ed9f6', '9d4698bb4769da6f', '8a0b0dfb2b3a11a6', '39551c76e32681c2', '7e9b2288c7939e2b',
          '068437838d06dd4c', 'e7737eba80df3d9f']
