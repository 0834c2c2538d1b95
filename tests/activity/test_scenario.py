"""The activity log end to end: two assistants through real `limbic mcp` processes, the CLI to list and revert."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import anyio

from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from tests.activity.writers import APP, assistant, call, ok


def limbic(db, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": APP}
    return subprocess.run([sys.executable, "-m", "limbic", *args, "--db", str(db)], capture_output=True, text=True,
                          env=env, timeout=120)


def observations(db, name: str) -> list[str]:
    g = Graph(Database(db))
    try:
        return sorted(g.get_entity(name).observation_texts)
    finally:
        g.db.close()


def test_two_assistants_listed_one_change_reverted_and_the_session_blocked_by_the_other(tmp_path):
    db = tmp_path / "g.db"

    async def assistants():
        async with assistant(db, "alpha") as a:
            await ok(a, "create_entities", entities=[{"name": "X", "entityType": "Thing", "observations": ["base"]}])
            await ok(a, "add_observations", observations=[{"entityName": "X", "contents": ["a1"]}])
            async with assistant(db, "beta") as b:
                await ok(b, "add_observations", observations=[{"entityName": "X", "contents": ["b1"]}])
    anyio.run(assistants)

    listed = limbic(db, "activity", "--json")
    assert listed.returncode == 0, listed.stderr
    sessions = json.loads(listed.stdout)
    by_client = {s["client"]: s for s in sessions}
    assert set(by_client) == {"alpha", "beta"}
    assert all(s["origin"] == "assistant" and s["started"] for s in sessions)
    alpha = by_client["alpha"]
    assert [c["tool"] for c in alpha["changes"]] == ["create_entities", "add_observations"]
    assert all({"id", "tool", "time", "summary"} <= set(c) for c in alpha["changes"])
    a1 = alpha["changes"][1]
    assert "a1" in a1["summary"]

    dry = limbic(db, "revert", str(a1["id"]), "--dry-run")
    assert dry.returncode == 0 and "a1" in dry.stdout
    assert observations(db, "X") == ["a1", "b1", "base"]
    done = limbic(db, "revert", str(a1["id"]))
    assert done.returncode == 0, done.stderr
    assert observations(db, "X") == ["b1", "base"]

    blocked = limbic(db, "revert", alpha["id"])
    assert blocked.returncode == 1
    assert "b1" in blocked.stderr and "beta" in blocked.stderr
    assert observations(db, "X") == ["b1", "base"]  # nothing changed

    again = json.loads(limbic(db, "activity", "--json", "--client", "alpha").stdout)
    assert [s["client"] for s in again] == ["alpha"]
    assert again[0]["changes"][1]["reverted_by"] is not None


def test_a_paused_client_cannot_write_but_still_reads_and_another_can_write(tmp_path):
    db = tmp_path / "g.db"
    g = Graph(Database(db))
    g.create_entity("Known", "Thing", ["searchable fact"])
    g.db.close()
    assert limbic(db, "activity", "--pause", "alpha").returncode == 0

    async def scenario():
        async with assistant(db, "alpha") as a:
            is_error, text, _ = await call(a, "create_entities",
                                           entities=[{"name": "Y", "entityType": "Thing", "observations": ["no"]}])
            assert is_error and "paused" in text and "alpha" in text
            found = await ok(a, "search", query="searchable fact")
            assert [r["name"] for r in found["results"]] == ["Known"]
        async with assistant(db, "beta") as b:
            await ok(b, "create_entities", entities=[{"name": "Z", "entityType": "Thing", "observations": ["yes"]}])
    anyio.run(scenario)
    g = Graph(Database(db))
    try:
        assert g.entity_id("Y") is None and g.entity_id("Z") is not None
    finally:
        g.db.close()


def test_read_only_servers_and_the_global_switch_refuse_writes_with_a_sentence(tmp_path):
    db = tmp_path / "g.db"
    Graph(Database(db)).db.close()

    async def scenario():
        async with assistant(db, "alpha", "--read-only") as a:
            is_error, text, _ = await call(a, "create_entities",
                                           entities=[{"name": "Y", "entityType": "Thing", "observations": []}])
            assert is_error and "--read-only" in text
        assert limbic(db, "activity", "--assistants-write", "off").returncode == 0
        async with assistant(db, "beta") as b:
            is_error, text, _ = await call(b, "create_entities",
                                           entities=[{"name": "Y", "entityType": "Thing", "observations": []}])
            assert is_error and "may not write" in text
            await ok(b, "read_graph")
    anyio.run(scenario)
    g = Graph(Database(db))
    try:
        assert g.entity_id("Y") is None
    finally:
        g.db.close()


def test_what_an_assistant_read_is_logged_and_only_its_search_counts_as_the_persons_use(tmp_path):
    from limbic.engine.graph import activity_log

    db = tmp_path / "g.db"
    g = Graph(Database(db))
    g.create_entity("Opened", "Thing", ["read by name"])
    g.create_entity("Found", "Thing", ["a searchable fact"])
    g.db.close()

    async def scenario():
        async with assistant(db, "alpha") as a:
            await ok(a, "open_nodes", names=["Opened"])
            await ok(a, "search_nodes", query="Opened")
            await ok(a, "read_graph")
            await ok(a, "search", query="searchable fact")
    anyio.run(scenario)
    g = Graph(Database(db))
    try:
        opened, found = g.entity_id("Opened"), g.entity_id("Found")
        access = dict(g.db.execute("SELECT entity_id, access_count FROM entity_access").fetchall())
        assert access.get(opened, 0) == 0  # open_nodes, search_nodes and read_graph are not the person's use
        assert access.get(found, 0) == 1  # the assistant's search counts, as the seed's did
        (reads,) = activity_log.reads_of(g.db, opened)
        assert (reads.client, reads.count) == ("alpha", 3)  # open_nodes, search_nodes, read_graph
        tools = [t for t, _e, _at in activity_log.session_reads(
            g.db, int(g.db.scalar("SELECT id FROM activity_session WHERE client = 'alpha'")))]
        assert tools == ["open_nodes", "search_nodes", "read_graph", "search"]
    finally:
        g.db.close()
