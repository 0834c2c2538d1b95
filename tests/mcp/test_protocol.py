"""`limbic mcp` on the wire, through a raw JSON-RPC client: every request gets an answer with a sentence
(a lone surrogate, a request before initialize), resource templates, writes refused once the graph
file is deleted or replaced, and the model left unloaded until a meaning search needs it."""

from __future__ import annotations

import os
import time

import pytest

from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from limbic.mcp import server  # noqa: F401  (registers every tool module, as the running server does)
from limbic.mcp.tools import TOOLS
from tests.mcp.raw import RawServer, limbic_command

SURROGATE = "\\ud800"  # as it comes on the wire: valid JSON, not Unicode text


def server(db, model=False):
    command, env = limbic_command(db, model)
    return RawServer(command, {**env, "LIMBIC_HOME": os.environ["LIMBIC_HOME"]})


def test_a_request_before_initialize_gets_a_sentence_and_templates_are_empty(tmp_path):
    with server(tmp_path / "g.db") as s:
        early = s.request("tools/list")
        assert early["error"]["code"] == -32600 and "initialize" in early["error"]["message"]
        assert s.request("ping")["result"] == {}
        s.initialize()
        assert s.request("resources/templates/list")["result"] == {"resourceTemplates": []}
        assert len(s.request("tools/list")["result"]["tools"]) == len(TOOLS)


def test_a_lone_surrogate_in_any_argument_gets_an_answer(tmp_path):
    with server(tmp_path / "g.db") as s:
        s.initialize()
        assert not s.call("create_entities", {"entities": [{"name": "Ada", "entityType": "P", "observations": []}]}).get("isError")
        for spec in TOOLS:
            for key in spec.input_schema["properties"]:
                s.next_id += 1
                line = ('{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":{"%s":"x%s"}}}'
                        % (s.next_id, spec.name, key, SURROGATE))
                s.send_line(line)
                answer = s.wait_for(s.next_id, timeout=30)
                assert answer["error"]["code"] == -32602, (spec.name, key, answer)
                assert f"arguments.{key} holds a lone surrogate" in answer["error"]["message"]
        # Deep inside a list, and in a notification (no answer due), and plain broken JSON.
        s.send_line('{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"open_nodes",'
                    '"arguments":{"names":["ok","\\udfff"]}}}')
        assert "names[1]" in s.wait_for("deep")["error"]["message"]
        s.send_line('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"%s"}}' % SURROGATE)
        s.send_line('{"jsonrpc": "2.0", "id": 5, "method": ')
        assert s.wait_for(None)["error"]["code"] == -32700
        opened = s.call("open_nodes", {"names": ["Ada"]})
        assert opened["structuredContent"]["entities"][0]["name"] == "Ada"  # still serving


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_writes_are_refused_once_the_graph_file_is_deleted_or_replaced(tmp_path, how):
    db_path = tmp_path / "g.db"
    with server(db_path) as s:
        s.initialize()
        ada = {"name": "Ada", "entityType": "Person", "observations": ["first"]}
        assert not s.call("create_entities", {"entities": [ada]}).get("isError")
        if how == "deleted":
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(f"{db_path}{suffix}"):
                    os.unlink(f"{db_path}{suffix}")
        else:
            other = tmp_path / "other.db"
            g = Graph(Database(other))
            g.upsert_entity("Zed", "Person", ["in the new file"])
            g.db.close()
            for suffix in ("-wal", "-shm"):  # a whole file put in place, without the old one's journal
                if os.path.exists(f"{db_path}{suffix}"):
                    os.unlink(f"{db_path}{suffix}")
            os.replace(other, db_path)
        for i in range(3):
            refused = s.call("add_observations", {"observations": [{"entityName": "Ada", "contents": [f"note {i}"]}]})
            assert refused["isError"] is True
            text = refused["content"][0]["text"]
            assert f"was {how}" in text and "writes are refused" in text
        read = s.call("open_nodes", {"names": ["Ada"]})  # reads go on, from the file still open
        assert read["structuredContent"]["entities"][0]["observations"] == ["first"]
    if how == "replaced":
        g = Graph(Database(db_path))
        try:
            assert [e.name for e in g.iter_entities()] == ["Zed"]  # the new file was left alone
        finally:
            g.db.close()


def test_the_model_loads_only_for_a_meaning_search_and_new_writes_are_found(tmp_path):
    with server(tmp_path / "g.db", model=True) as s:
        s.initialize()
        s.call("create_entities", {"entities": [
            {"name": "SQLite", "entityType": "Tool", "observations": ["Embedded database engine"]},
        ]})
        s.call("read_graph", {})
        s.call("search_nodes", {"query": "engine"})
        s.call("open_nodes", {"names": ["SQLite"]})
        assert not any("meaning search: the model is loaded" in line for line in s.stderr)
        first = s.call("search", {"query": "which database"})["structuredContent"]
        assert first["mode"] == "hybrid" and first["results"][0]["name"] == "SQLite"
        assert any("meaning search: the model is loaded" in line for line in s.stderr)
        s.call("create_entities", {"entities": [
            {"name": "Quokka", "entityType": "Animal", "observations": ["A small marsupial from Rottnest Island"]},
        ]})
        # By its words at once (the full-text row is written with the entity) ...
        words = s.call("search", {"query": "Rottnest"})["structuredContent"]["results"]
        assert "Quokka" in [r["name"] for r in words]
        # ... and by meaning once the background embedder gave it a vector (seconds; waited for, not timed).
        deadline = time.monotonic() + 120
        while True:
            results = s.call("search", {"query": "Australian pouched mammal", "limit": 3})["structuredContent"]["results"]
            hit = next((r for r in results if r["name"] == "Quokka"), None)
            if hit is not None and hit["distance"] is not None:
                break
            assert time.monotonic() < deadline, "the new entity never got a vector"
            time.sleep(0.5)
