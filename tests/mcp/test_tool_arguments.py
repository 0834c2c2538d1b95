"""A tool call with a key its schema does not name, or a value of the wrong type, is answered as the
tool's error (``isError``, a sentence naming the key and the keys the tool takes) and does nothing;
an unknown tool stays a protocol error (-32602). Checked on every tool's schema in the process, and
through real clients: the MCP SDK's Python client and the MCP Inspector's command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import MCPError

from limbic.mcp.arguments import _keeps_to, problems, sentence
from limbic.mcp.tools import TOOLS
from tests.mcp.conftest import APP, call, connect, ok
from tests.mcp.raw import RawServer, limbic_command, npm_package

INSPECTOR = "@modelcontextprotocol/inspector@^2.12"
WRONG = {"string": 7, "integer": "ten", "number": "half", "boolean": "yes", "array": "one", "object": ["a"]}


def schema_paths(schema: dict, path: str = ""):
    """(path, schema) of every named value a tool's arguments can hold, items of lists as [0]."""
    for key, sub in schema.get("properties", {}).items():
        where = f"{path}.{key}" if path else key
        yield where, sub
        if sub.get("type") == "object":
            yield from schema_paths(sub, where)
        elif sub.get("type") == "array" and isinstance(sub.get("items"), dict):
            if sub["items"].get("type") == "object":
                yield from schema_paths(sub["items"], f"{where}[0]")
            else:
                yield f"{where}[0]", sub["items"]


def placed(path: str, value):
    """Arguments holding ``value`` at ``path`` (``entities[0].name``), nothing else."""
    parts = path.replace("[0]", ".[0]").split(".")
    for part in reversed(parts):
        value = [value] if part == "[0]" else {part: value}
    return value


def test_every_key_of_every_tool_answers_a_wrong_type_and_an_unknown_neighbour_by_name():
    checked = 0
    for spec in TOOLS:
        assert sentence(spec.name, spec.input_schema, {}) is None, spec.name
        for path, sub in schema_paths(spec.input_schema):
            kinds = sub.get("type") if isinstance(sub.get("type"), list) else [sub.get("type")]
            for wrong in WRONG.values():
                if _fits_any(wrong, kinds):
                    continue
                said = sentence(spec.name, spec.input_schema, placed(path, wrong))
                assert said is not None and f"“{path}”" in said and "nothing was done" in said, (spec.name, path, said)
                assert said.startswith(spec.name), said
                assert ", ".join(spec.input_schema["properties"]) in said, said
                checked += 1
            parent = path.rsplit(".", 1)[0] if "." in path else ""
            if sub.get("type") != "object":
                extra = placed(f"{parent}.zz_extra" if parent else "zz_extra", 1)
                said = sentence(spec.name, spec.input_schema, extra)
                assert said is not None and "“zz_extra”" in said, (spec.name, path, said)
    assert checked > 100


def _fits_any(value, kinds) -> bool:
    return any({"string": isinstance(value, str), "integer": isinstance(value, int) and not isinstance(value, bool),
                "number": isinstance(value, (int, float)) and not isinstance(value, bool),
                "boolean": isinstance(value, bool), "array": isinstance(value, list),
                "object": isinstance(value, dict), "null": value is None}.get(k, False) for k in kinds)


def test_an_optional_value_sent_as_null_is_absent_and_arguments_that_are_not_an_object_are_named():
    read_graph = next(t for t in TOOLS if t.name == "read_graph")
    assert sentence("read_graph", read_graph.input_schema, {"offset": None, "limit": None}) is None
    said = sentence("read_graph", read_graph.input_schema, ["offset"])
    assert said.startswith("The arguments of read_graph must be an object of named values, not a list")
    create = next(t for t in TOOLS if t.name == "create_entities")
    said = sentence("create_entities", create.input_schema, {"entities": [{"name": "A", "entityType": None, "observations": []}]})
    assert "“entities[0].entityType” must be text, not null" in said  # a required value is not optional


def test_the_python_sdk_client_gets_a_tool_error_for_an_extra_key(tmp_path):
    db_path = tmp_path / "g.db"

    async def scenario():
        async with connect(db_path, model=False) as c:
            await ok(c, "create_entities", entities=[{"name": "Ada", "entityType": "Person", "observations": ["x"]}])
            before = await ok(c, "read_graph")
            tools = (await c.list_tools()).tools
            assert all(t.execution is not None and t.execution.task_support == "forbidden" for t in tools)
            is_error, text, _ = await call(c, "open_nodes", names=["Ada"], verbose=True)
            assert is_error and text == ("open_nodes has no argument “verbose”; nothing was done "
                                         "(open_nodes takes: names, kinds, include_superseded, as_of, valid_at).")
            is_error, text, _ = await call(c, "create_entities", entities=[
                {"name": "Eve", "entityType": "Person", "observations": [], "colour": "red"}])
            assert is_error and "item 1 of “entities” has no key “colour”" in text
            assert "it takes: name, entityType, observations, status" in text
            is_error, text, _ = await call(c, "read_graph", offset="10")
            assert is_error and "“offset” must be a whole number, not text" in text
            with pytest.raises(MCPError, match="^Tool no_such_tool not found$") as refused:
                await c.call_tool("no_such_tool", {})
            assert refused.value.error.code == -32602
            assert await ok(c, "read_graph") == before

    anyio.run(scenario)


def test_raw_arguments_that_are_not_an_object_get_a_tool_error(tmp_path):
    command, env = limbic_command(tmp_path / "g.db")
    with RawServer(command, {**env, "LIMBIC_HOME": os.environ["LIMBIC_HOME"]}) as s:
        s.initialize()
        answer = s.request("tools/call", {"name": "search_nodes", "arguments": ["x"]})
        assert answer["result"]["isError"] is True
        assert "must be an object of named values" in answer["result"]["content"][0]["text"]


def test_the_mcp_inspector_cli_gets_a_tool_error_for_an_extra_key(tmp_path):
    try:
        cli = npm_package(INSPECTOR, "inspector", "@modelcontextprotocol/inspector/clients/launcher/build/index.js")
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        pytest.skip(f"the MCP Inspector could not be installed from npm: {exc}")
    if cli is None:
        pytest.skip("node or npm is not installed, so the MCP Inspector cannot run")
    db = tmp_path / "g.db"

    def inspect(*args: str) -> subprocess.CompletedProcess:
        command = ["node", str(cli), "--cli", "-e", f"PYTHONPATH={APP}", "-e", f"LIMBIC_HOME={os.environ['LIMBIC_HOME']}",
                   sys.executable, "-m", "limbic", "mcp", "--db", str(db), "--no-model", "--method", "tools/call", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)

    created = inspect("--tool-name", "create_entities", "--tool-arg",
                      'entities=[{"name": "Ada", "entityType": "Person", "observations": ["x"]}]')
    assert created.returncode == 0, created.stderr
    assert json.loads(created.stdout)["structuredContent"]["entities"][0]["name"] == "Ada"
    refused = inspect("--tool-name", "open_nodes", "--tool-arg", 'names=["Ada"]', "--tool-arg", "verbose=true")
    answer = json.loads(refused.stdout)
    assert answer["isError"] is True, refused.stdout
    assert answer["content"][0]["text"].startswith("open_nodes has no argument “verbose”; nothing was done")
    assert "JSON-RPC" not in refused.stdout + refused.stderr and "-32602" not in refused.stdout + refused.stderr


_KEYS = st.sampled_from(["name", "entityType", "observations", "entities", "from", "to", "relationType", "names",
                         "contents", "entityName", "query", "limit", "offset", "status", "extra", "context", "kind"])
_JSON = st.recursive(st.none() | st.booleans() | st.integers(-2, 2) | st.floats(0, 1) | st.sampled_from(["", "Ada"]),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=4), max_leaves=12)


def _near_fit(schema: dict) -> st.SearchStrategy:
    """Values shaped like the schema's, each part now and then something else (a wrong type, an unknown key)."""
    kind = schema.get("type")
    if kind == "object" and "properties" in schema:
        fitting = st.fixed_dictionaries({}, optional={k: _near_fit(v) for k, v in schema["properties"].items()})
    elif kind == "array" and isinstance(schema.get("items"), dict):
        fitting = st.lists(_near_fit(schema["items"]), max_size=3)
    elif kind == "string":
        fitting = st.sampled_from(["", "Ada", "x y"])
    else:
        fitting = _JSON
    return st.one_of(fitting, fitting, fitting, _JSON, st.dictionaries(_KEYS, _JSON, max_size=2))


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_the_quick_check_accepts_exactly_the_arguments_the_full_check_finds_nothing_in(data):
    tool = data.draw(st.sampled_from(TOOLS), label="tool")
    arguments = data.draw(_near_fit(tool.input_schema), label="arguments")
    assert _keeps_to(tool.input_schema, arguments) == (problems(tool.input_schema, arguments, tool.name) == [])
