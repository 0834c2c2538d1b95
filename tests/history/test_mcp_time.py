"""MCP through time: as_of and valid_at on the reads, valid time on the writes, graph_changes; and a
client that sends none of them calls exactly the tool it called before."""

from __future__ import annotations

import json
import os

import pytest

from limbic.engine.errors import ValidationError
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.mcp import server  # noqa: F401 - registers every tool module, as the running server does
from limbic.mcp.tools import TOOLS_BY_NAME, arguments_for, unknown_argument
from limbic.service import memory
from tests.mcp.raw import RawServer, limbic_command


def call(g: Graph, tool: str, **arguments):
    spec = TOOLS_BY_NAME[tool]
    assert unknown_argument(spec, arguments) is None
    return spec.function()(g, *arguments_for(spec, arguments))


@pytest.fixture
def g(tmp_path, clock):
    graph = Graph(Database(tmp_path / "g.db"))
    clock.advance(60)
    call(graph, "create_entities", entities=[{"name": "Ann", "entityType": "Person", "observations": ["in Oslo"]},
                                             {"name": "Acme", "entityType": "Company", "observations": []}])
    clock.advance(86_400)
    call(graph, "create_relations", relations=[{"from": "Ann", "to": "Acme", "relationType": "works_at",
                                                "valid_from": "2019-01-01"}])
    call(graph, "add_observations", observations=[{"entityName": "Ann", "contents": ["in Lisbon"],
                                                   "supersedes": "in Oslo", "valid_from": "2024-05-01"}])
    clock.advance(86_400)
    yield graph
    graph.db.close()


def test_reads_without_the_new_arguments_are_todays_reads(g):
    assert call(g, "read_graph") == memory.read_graph(g)
    assert call(g, "open_nodes", names=["Ann"]) == memory.open_nodes(g, ["Ann"])
    assert call(g, "open_nodes", names=["Ann"], include_superseded=True) == memory.open_nodes(g, ["Ann"], None, True)


def test_read_graph_and_open_nodes_as_of_a_date(g):
    then = call(g, "read_graph", as_of="2025-01-01 12:00:00")
    assert then["entities"][0]["observations"] == ["in Oslo"] and then["relations"] == []
    now = call(g, "open_nodes", names=["Ann"], as_of="2025-01-02 12:00:00")
    assert now["entities"][0]["observations"] == ["in Lisbon"]
    with pytest.raises(ValidationError, match="in the future"):
        call(g, "read_graph", as_of="2031-01-01")


def test_valid_at_asks_the_other_clock(g):
    held = call(g, "read_graph", valid_at="2020-06-01")
    assert held["entities"][0]["observations"] == ["in Oslo"]  # superseded later, but it held then
    assert [r["relationType"] for r in held["relations"]] == ["works_at"]
    before = call(g, "read_graph", valid_at="2018-06-01")
    assert before["relations"] == []


def test_end_relation_takes_the_date_it_ended(g):
    call(g, "end_relation", relations=[{"from": "Ann", "to": "Acme", "relationType": "works_at"}], ended="2023-03-31")
    assert g.db.scalar("SELECT valid_until FROM relations") == "2023-03-31"
    assert call(g, "read_graph", valid_at="2023-04-01")["relations"] == []
    assert len(call(g, "read_graph", valid_at="2023-03-31")["relations"]) == 1


def test_a_bad_valid_date_writes_nothing(g):
    before = memory.read_graph(g)
    with pytest.raises(ValidationError, match="valid_from must be a date"):
        call(g, "add_observations", observations=[{"entityName": "Acme", "contents": ["big"], "valid_from": "soon"}])
    assert memory.read_graph(g) == before


def test_graph_changes_says_what_changed_since_a_date(g):
    changes = call(g, "graph_changes", since="2025-01-01 12:00:00")["changes"]
    ann = next(c for c in changes if c["entity"] == "Ann")
    assert {(d["kind"], d["change"]) for d in ann["details"]} >= {("relation", "added"), ("observation", "ended"),
                                                                   ("observation", "added")}
    assert call(g, "graph_changes", since="2025-01-03 09:00:00")["changes"] == []


def test_over_the_wire_a_reference_call_and_an_as_of_call(tmp_path):
    command, env = limbic_command(tmp_path / "g.db", False)
    with RawServer(command, {**env, "LIMBIC_HOME": os.environ["LIMBIC_HOME"]}) as s:
        s.initialize()
        tools = {t["name"]: t for t in s.request("tools/list")["result"]["tools"]}
        assert {"as_of", "valid_at"} <= set(tools["read_graph"]["inputSchema"]["properties"])
        assert "graph_changes" in tools
        s.call("create_entities", {"entities": [{"name": "Ada", "entityType": "P", "observations": ["x"]}]})
        plain = s.call("read_graph", {})
        assert json.loads(plain["content"][0]["text"])["entities"][0]["name"] == "Ada"
        future = s.call("read_graph", {"as_of": "2999-01-01"})
        assert future.get("isError") and "in the future" in future["content"][0]["text"]
