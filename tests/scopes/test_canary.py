"""The canary: a private entity and one outside the assistant's read scope carry unique strings, and no read tool
the server lists, nor the resource, called with arguments generated from each tool's own input schema, ever
returns a byte of them to that assistant: not in a result, a search snippet, a relation's end, history, a
duplicate pair or an error text. Tools added later are called too: the list is the server's, not this file's."""

from __future__ import annotations

import string
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from limbic.mcp.tools import TOOLS
from limbic.service import scope
from tests.scopes.host import Host, seeded

PRIVATE = "Cnryzeta Clinic"
OUTSIDE = "Cnryomega Vault"
# Every string only the hidden entities hold: none may reach the assistant unless it sent it itself.
SECRETS = (PRIVATE, OUTSIDE, "Cnryzeta", "Cnryomega", "pvtcnryobs", "pvtcnryalias", "pvtcnryreflection", "ooscnryobs",
           "ooscnryalias", "pvtcnryrelated", "pvtcnrylater")
VISIBLE = ("Ada", "Zeta Clinic", "Omega Vault", "Bob")
READ_SCOPE = ("Person", "Place", "Decision")


def _seed(graph):
    graph.upsert_entity("Ada", "Person", ["plays chess with a kestrel", "visits the clinic on Mondays"])
    graph.upsert_entity("Bob", "Person", ["plays chess with a kestrel", "keeps a vault"])
    graph.upsert_entity("Zeta Clinic", "Place", ["a clinic in town", "blood tests on Monday"])
    graph.upsert_entity("Omega Vault", "Place", ["a vault in town"])
    graph.upsert_entity(PRIVATE, "Place", ["pvtcnryobs blood tests on Monday", "a clinic in town",
                                           "a clinic in town!", "pvtcnryobs kestrel"])
    graph.upsert_entity(OUTSIDE, "Secretive", ["ooscnryobs a vault in town", "keeps a vault"])
    graph.add_alias(PRIVATE, "pvtcnryalias")
    graph.add_alias(OUTSIDE, "ooscnryalias")
    graph.add_relation("Ada", PRIVATE, "visits", context="pvtcnryrelated")
    graph.add_relation(PRIVATE, "Bob", "treats")
    graph.add_relation("Bob", OUTSIDE, "owns")
    graph.add_relation("Ada", "Bob", "knows")
    graph.add_reflection("pvtcnryreflection about the clinic", author="me", entity=PRIVATE)
    graph.set_private(PRIVATE, True)


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    h = Host(seeded(tmp_path_factory.mktemp("canary") / "g.db", _seed), client="work")
    time.sleep(1.1)
    h.run(lambda g: g.add_observations(PRIVATE, ["pvtcnrylater"]))  # history after the start
    h.run(scope.set_access, "work", READ_SCOPE, "all")
    yield h
    h.close()


def _text(strategy_max: int | None = None):
    words = [*SECRETS, *VISIBLE, "clinic", "kestrel", "vault", "chess", "Monday", "blood tests", "town",
             "2020-01-01", "2026-01-01", "last week", "1", "visits", "treats", "owns", "knows", "Person", "Place",
             "Secretive", "entity", "global", "me"]
    out = st.one_of(st.sampled_from(words), st.text(string.ascii_letters + " -", max_size=12),
                    st.lists(st.sampled_from(words), min_size=1, max_size=3).map(" ".join))
    return out.map(lambda s: s[:strategy_max]) if strategy_max else out


def from_schema(schema: dict, depth: int = 0):
    """Values the schema allows, biased towards the graph's own names (hidden ones included) and dates."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of(*(from_schema({**schema, "type": k}, depth) for k in kind))
    if kind == "string":
        return _text(schema.get("maxLength"))
    if kind == "integer":
        return st.integers(max(schema.get("minimum", 0), 0), min(schema.get("maximum", 30), 30))
    if kind == "number":
        return st.floats(schema.get("minimum", 0), schema.get("maximum", 100), allow_nan=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        return st.lists(from_schema(schema.get("items", {"type": "string"}), depth + 1), max_size=3)
    if kind == "object" and depth < 4:
        properties = schema.get("properties", {})
        required = set(schema.get("required", []))
        optional = sorted(set(properties) - required)
        return st.sets(st.sampled_from(optional) if optional else st.nothing(), max_size=len(optional)).flatmap(
            lambda chosen: st.fixed_dictionaries({k: from_schema(properties[k], depth + 1)
                                                  for k in sorted(required | set(chosen))}))
    return st.just("x")


def _sent(value) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _sent(v)]
    if isinstance(value, list):
        return [s for v in value for s in _sent(v)]
    return [value] if isinstance(value, str) else []


def _leaks(text: str, arguments: dict) -> list[str]:
    sent = " ".join(_sent(arguments)).casefold()
    return [s for s in SECRETS if s.casefold() in text.casefold() and s.casefold() not in sent]


READ_TOOLS = [t for t in TOOLS if t.read_only]


def test_the_read_tools_are_the_servers_own():
    assert {"read_graph", "search", "open_nodes", "graph_changes", "consolidation_report"} <= {t.name for t in READ_TOOLS}


@settings(max_examples=400, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_no_read_tool_returns_a_byte_of_what_the_assistant_may_not_see(host, data):
    spec = data.draw(st.sampled_from(READ_TOOLS), label="tool")
    arguments = data.draw(from_schema(spec.input_schema), label="arguments")
    _is_error, text = host.call(spec.name, **arguments)
    assert _leaks(text, arguments) == [], (spec.name, arguments, text[:2000])


def test_the_resource_and_every_tool_without_arguments_hold_nothing_hidden(host):
    assert _leaks(host.resource(), {}) == []
    for spec in READ_TOOLS:
        if not spec.input_schema.get("required"):
            _is_error, text = host.call(spec.name)
            assert _leaks(text, {}) == [], (spec.name, text[:2000])


def test_the_canary_is_alive(host):
    """The same calls for an assistant allowed everything do show the hidden strings (else the test proves nothing)."""
    host.run(scope.set_access, "work", "all", "all")
    host.run(lambda g: g.set_private(PRIVATE, False))
    try:
        everything = host.ok("read_graph") + host.ok("open_nodes", names=[PRIVATE, OUTSIDE])
        assert all(s in everything for s in ("pvtcnryobs", "ooscnryobs", "Cnryzeta", "Cnryomega"))
        assert "Cnryzeta" in host.ok("consolidation_report")
    finally:
        host.run(lambda g: g.set_private(PRIVATE, True))
        host.run(scope.set_access, "work", READ_SCOPE, "all")


WRITE_TOOLS = [t for t in TOOLS if not t.read_only]


def _hidden_rows(graph) -> tuple:
    ids = [r[0] for r in graph.db.execute("SELECT id FROM main.entities WHERE name IN (?, ?)", (PRIVATE, OUTSIDE))]
    marks = ",".join("?" * len(ids))
    return tuple(sorted(map(tuple, graph.db.execute(sql.format(marks=marks), ids * sql.count("{marks}")))) for sql in (
        "SELECT name, entity_type, status, private FROM main.entities WHERE id IN ({marks})",
        "SELECT entity_id, content, superseded_at FROM main.observations WHERE entity_id IN ({marks})",
        "SELECT from_entity, to_entity, relation_type, active, valid_until FROM main.relations "
        "WHERE from_entity IN ({marks}) OR to_entity IN ({marks})",
        "SELECT entity_id, alias FROM main.entity_aliases WHERE entity_id IN ({marks})",
        "SELECT entity_id, content FROM main.reflections WHERE entity_id IN ({marks})",
    ))


@pytest.fixture(scope="module")
def writable(tmp_path_factory):
    h = Host(seeded(tmp_path_factory.mktemp("canary-writes") / "g.db", _seed), client="work")
    h.run(scope.set_access, "work", READ_SCOPE, "all")
    yield h
    h.close()


@settings(max_examples=200, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_no_write_tool_changes_or_reveals_what_the_assistant_may_not_see(writable, data):
    spec = data.draw(st.sampled_from(WRITE_TOOLS), label="tool")
    arguments = data.draw(from_schema(spec.input_schema), label="arguments")
    before = writable.run(_hidden_rows)
    _is_error, text = writable.call(spec.name, **arguments)
    assert _leaks(text, arguments) == [], (spec.name, arguments, text[:2000])
    assert writable.run(_hidden_rows) == before, (spec.name, arguments, text[:500])
