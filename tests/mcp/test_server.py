"""`limbic mcp` end to end through the SDK's stdio client: every tool, its errors, the graph resource
and its update notifications (after this server's writes and after another connection's)."""

from __future__ import annotations

import os
import re
import warnings
from pathlib import Path

import anyio
import pytest
from mcp.shared.exceptions import MCPError

from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from tests.mcp.conftest import URI, Notes, call, connect, ok

REFERENCE_TOOLS = {
    "create_entities": ["entities"],
    "create_relations": ["relations"],
    "add_observations": ["observations"],
    "delete_entities": ["entityNames"],
    "delete_observations": ["deletions"],
    "delete_relations": ["relations"],
    "read_graph": [],
    "search_nodes": ["query"],
    "open_nodes": ["names"],
}


HISTORY_TOOLS = {"end_relation", "set_entity_status", "add_reflection", "search_reflections", "graph_changes"}
HEALTH_TOOLS = {"find_duplicate_observations", "consolidation_report", "find_split_candidates", "analyze_entity_split"}


def ent(name, etype="Thing", obs=()):
    return {"name": name, "entityType": etype, "observations": list(obs)}


def rel(a, b, t):
    return {"from": a, "to": b, "relationType": t}


def counts(db_path):
    db = Database(db_path)
    try:
        return Graph(db).counts()
    finally:
        db.close()


def test_every_tool_with_the_model(tmp_path):
    db_path = tmp_path / "g.db"

    async def scenario():
        async with connect(db_path) as c:
            assert c.server_info.name == "limbic"
            tools = {t.name: t for t in (await c.list_tools()).tools}
            assert set(tools) == set(REFERENCE_TOOLS) | {"search"} | HISTORY_TOOLS | HEALTH_TOOLS
            for name, required in REFERENCE_TOOLS.items():
                assert tools[name].input_schema["required"] == required
            assert tools["create_entities"].input_schema["properties"]["entities"]["items"]["required"] == [
                "name", "entityType", "observations"]
            assert tools["delete_entities"].annotations.destructive_hint is True
            assert tools["read_graph"].annotations.read_only_hint is True

            made = await ok(c, "create_entities", entities=[
                ent("Limbic", "Project", ["A desktop app for a personal knowledge graph"]),
                ent("SQLite", "Tool", ["Embedded database engine", "Stores the graph in one file"]),
                ent("Ticket LMB-1042", "Task", ["Fix the crash on import"]),
            ])
            assert [e["name"] for e in made["entities"]] == ["Limbic", "SQLite", "Ticket LMB-1042"]
            again = await ok(c, "create_entities", entities=[ent("SQLite", "Other"), ent("Qt", "Tool")])
            assert again == {"entities": [ent("Qt", "Tool")]}

            rels = await ok(c, "create_relations", relations=[rel("Limbic", "SQLite", "uses"), rel("Limbic", "Qt", "uses")])
            assert len(rels["relations"]) == 2
            assert await ok(c, "create_relations", relations=[rel("Limbic", "SQLite", "uses")]) == {"relations": []}
            is_error, text, _ = await call(c, "create_relations", relations=[rel("Limbic", "Nowhere", "uses")])
            assert is_error and text == "Item 1 of “relations”: Entity with name Nowhere not found. Nothing was written."

            added = await ok(c, "add_observations", observations=[
                {"entityName": "Qt", "contents": ["Cross-platform UI toolkit", "Cross-platform UI toolkit"]}])
            assert added == {"results": [{"entityName": "Qt", "addedObservations": ["Cross-platform UI toolkit"]}]}

            found = await ok(c, "search", query="which database keeps the graph file", limit=2)
            assert found["mode"] == "hybrid" and found["results"][0]["name"] == "SQLite"
            top = found["results"][0]
            assert set(top) == {"name", "entityType", "observations", "limbic_score", "scoring", "distance", "rrf_score"}
            assert set(top["scoring"]) == {"importance", "temporal_factor", "cooc_boost"}
            assert 0 <= top["distance"] <= 2
            exact = await ok(c, "search", query="LMB-1042")
            assert exact["results"][0]["name"] == "Ticket LMB-1042"

            nodes = await ok(c, "search_nodes", query="EMBEDDED")
            assert [e["name"] for e in nodes["entities"]] == ["SQLite"]
            assert nodes["relations"] == [rel("Limbic", "SQLite", "uses")]
            opened = await ok(c, "open_nodes", names=["Qt", "Ghost"])
            assert opened == {"entities": [ent("Qt", "Tool", ["Cross-platform UI toolkit"])],
                              "relations": [rel("Limbic", "Qt", "uses")]}

            msg = await ok(c, "delete_observations", deletions=[{"entityName": "Qt", "observations": ["Cross-platform UI toolkit"]}])
            assert msg == {"success": True, "message": "Observations deleted successfully"}
            msg = await ok(c, "delete_relations", relations=[rel("Limbic", "Qt", "uses"), rel("Qt", "Limbic", "uses")])
            assert msg["message"] == "Deleted 1 of 2 relations. The rest matched nothing."
            msg = await ok(c, "delete_entities", entityNames=["SQLite", "Ghost"])
            assert msg["message"] == "Deleted 1 of 2 entities. Not found: Ghost"

            graph = await ok(c, "read_graph")
            assert [e["name"] for e in graph["entities"]] == ["Limbic", "Ticket LMB-1042", "Qt"]
            assert graph["relations"] == []  # SQLite's relation went with it

    anyio.run(scenario)
    # The searches were accesses (README: a search by an assistant counts), written by the server.
    db = Database(db_path)
    try:
        accessed = dict(db.execute(
            "SELECT e.name, a.access_count FROM entity_access a JOIN entities e ON e.id = a.entity_id"))
        origins = {r[0] for r in db.execute("SELECT origin FROM change_log")}
    finally:
        db.close()
    assert accessed.get("Ticket LMB-1042", 0) >= 1 and accessed.get("Limbic", 0) >= 1
    assert origins == {"assistant"}  # the app says "… added by an assistant"


def test_bad_input_gets_one_sentence_and_changes_nothing(tmp_path):
    db_path = tmp_path / "g.db"
    cases = [
        ("create_entities", {"entities": "Ada"}, "“entities” must be a list of objects, not text"),
        ("create_entities", {"entities": [{"name": "Ada", "entityType": "Person"}]}, "has no “observations”"),
        ("create_entities", {"entities": [ent("x" * 600)]}, "at most 512 characters"),
        ("create_entities", {"entities": [ent(f"E{i}") for i in range(1001)]}, "at most 1,000 items"),
        ("create_entities", {"entities": [ent("Ok"), ent("Bad\x07")]}, "control character"),
        ("create_entities", {}, "needs the argument “entities”"),
        ("add_observations", {"observations": [{"entityName": "Ada", "contents": ["x"]}, {"entityName": "Nope", "contents": ["y"]}]},
         "Entity with name Nope not found"),
        ("add_observations", {"observations": [{"entityName": "Ada", "contents": ["o" * 200_001]}]}, "at most 200,000 characters"),
        ("search_nodes", {"query": "q" * 3000}, "at most 2,048 characters"),
        ("search", {"query": "x", "limit": "ten"}, "must be a whole number"),
        ("read_graph", {"offset": -3}, "between 0 and"),
    ]

    async def scenario():
        async with connect(db_path, model=False) as c:
            await ok(c, "create_entities", entities=[ent("Ada", "Person", ["first"])])
            before = await ok(c, "read_graph")
            for tool, arguments, sentence in cases:
                is_error, text, _ = await call(c, tool, **arguments)
                assert is_error, tool
                assert sentence in text, (tool, text)
                assert "Traceback" not in text and "\n" not in text
            # The schemas say additionalProperties: false, so a key they do not name is the tool's error, named.
            is_error, text, _ = await call(c, "open_nodes", names=["Ada"], verbose=True)
            assert is_error and "open_nodes has no argument “verbose”" in text
            is_error, text, _ = await call(c, "create_entities", entities=[ent("Eve", "Person", []) | {"extra": 1}])
            assert is_error and "(entities[0].extra;" in text
            with pytest.raises(MCPError, match="^Tool no_such_tool not found$"):  # the reference's protocol error
                await c.call_tool("no_such_tool", {})
            assert await ok(c, "read_graph") == before

    anyio.run(scenario)
    assert counts(db_path)["entities"] == 1


def test_resource_and_notifications_after_own_and_outside_writes(tmp_path):
    db_path = tmp_path / "g.db"
    notes = Notes()

    async def scenario():
        async with connect(db_path, model=False, notes=notes) as c:
            resources = (await c.list_resources()).resources
            assert [str(r.uri) for r in resources] == [URI]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # resources/subscribe is the handshake era's way
                await c.subscribe_resource(URI)
            await ok(c, "create_entities", entities=[ent("Ada", "Person", ["first"])])
            await notes.wait_beyond(0)
            text = (await c.read_resource(URI)).contents[0].text
            assert '"name": "Ada"' in text

            # Another program (a plain connection here) writes: the server notices within about a second.
            seen = notes.updated
            other = Graph(Database(db_path))
            try:
                other.upsert_entity("Bo", "Person", ["added elsewhere"])
            finally:
                other.db.close()
            waited = await notes.wait_beyond(seen, timeout=5)
            assert waited < 3.5
            graph = await ok(c, "open_nodes", names=["Bo"])
            assert graph["entities"] == [ent("Bo", "Person", ["added elsewhere"])]

            # A search records access signals but changes nothing a reader sees: no notification.
            seen = notes.updated
            await ok(c, "search", query="Ada")
            await anyio.sleep(1.6)
            assert notes.updated == seen
            assert not notes.errors

    anyio.run(scenario)


def test_listen_stream_and_full_text_fallback_on_the_2026_protocol(tmp_path):
    db_path = tmp_path / "g.db"

    async def scenario():
        async with connect(db_path, mode="auto", LIMBIC_MODEL_DIR=str(tmp_path / "no-model-here")) as c:
            assert c.protocol_version >= "2026"
            await ok(c, "create_entities", entities=[ent("SQLite", "Tool", ["Embedded database engine"])])
            found = await ok(c, "search", query="database")
            assert found["mode"] == "fts" and found["results"][0]["name"] == "SQLite"
            assert found["note"].startswith("Semantic search is off")
            async with c.listen(resource_subscriptions=[URI]) as sub:
                other = Graph(Database(db_path))
                try:
                    other.add_observations("SQLite", ["Written by another program"])
                finally:
                    other.db.close()
                with anyio.fail_after(5):
                    event = await sub.__anext__()
                assert event.uri == URI

    anyio.run(scenario)


def test_the_package_check_client_speaks_to_the_server():
    """packaging/mcp_handshake.py (run by `make package-test` on the installed .deb) against this tree."""
    import subprocess
    import sys

    from tests.mcp.conftest import APP

    script = Path(__file__).resolve().parents[2] / "packaging" / "mcp_handshake.py"
    done = subprocess.run(
        [sys.executable, str(script), "--", sys.executable, "-m", "limbic"],
        env={**os.environ, "PYTHONPATH": APP}, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert re.search(r"\d+ tools, search mode hybrid", done.stdout), done.stdout


def test_a_file_that_is_not_a_graph_gets_one_sentence_and_is_left_alone(tmp_path):
    db_path = tmp_path / "notes.db"
    content = b"plain text notes, not a database; " * 10
    db_path.write_bytes(content)

    async def scenario():
        async with connect(db_path, model=False) as c:
            is_error, text, _ = await call(c, "create_entities", entities=[ent("Ada")])
            assert is_error and text.endswith("is not a Limbic database (it is not an SQLite file) or is damaged.")
            with pytest.raises(MCPError, match="is not a Limbic database"):
                await c.read_resource(URI)

    anyio.run(scenario)
    assert db_path.read_bytes() == content
