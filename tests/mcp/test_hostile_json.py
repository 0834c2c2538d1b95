"""Hostile JSON against a running `limbic mcp`: every line that asks for an answer gets exactly one,
and the server still answers a ping afterwards (depth, width, invalid UTF-8, encoded surrogates,
huge numbers, duplicate keys)."""

from __future__ import annotations

import itertools
import json
import os
import queue

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.mcp.raw import RawServer, limbic_command

_ids = itertools.count(1)

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=8), inner, max_size=6)),
    max_leaves=40,
)
METHODS = st.sampled_from(["ping", "tools/list", "tools/call", "resources/read", "resources/list", "no/such/method"])
TOOLS = st.sampled_from(["search_nodes", "open_nodes", "read_graph", "create_entities", "add_observations",
                         "delete_entities", "create_relations", "search"])


def _nest(depth: int, inner: str, array: bool) -> str:
    return ("[" * depth + inner + "]" * depth) if array else ('{"a":' * depth + inner + "}" * depth)


@st.composite
def hostile_line(draw) -> tuple[bytes, int, bool]:
    """One line that asks for an answer, its request id, and whether the answer must carry that id (a line
    refused unparsed whose id stands readable at its start), else it may carry null."""
    # Drawn, not counted: the line's length (and so the bounds of later draws) must not hang on how many
    # cases ran before, or Hypothesis cannot replay a case.
    request_id = draw(st.integers(1, 2**31 - 1))
    method = draw(METHODS)
    params = draw(VALUES)
    if method == "tools/call":
        params = {"name": draw(TOOLS), "arguments": draw(st.dictionaries(st.text(max_size=10), VALUES, max_size=4))}
    body = json.dumps(params, ensure_ascii=draw(st.booleans()))
    how = draw(st.sampled_from(["plain", "deep", "wide", "bad-utf8", "surrogate-bytes", "escaped-surrogate",
                                "huge-number", "duplicate-keys"]))
    if how == "deep":
        depth = draw(st.one_of(st.sampled_from([129, 999, 1_000, 5_000, 100_000]), st.integers(100, 120_000)))
        body = _nest(depth, body, draw(st.booleans()))
    elif how == "wide":
        body = "[" + ",".join([body] * draw(st.integers(1, 20_000))) + "]"
    elif how == "huge-number":
        body = '{"n":' + "9" * draw(st.integers(300, 20_000)) + draw(st.sampled_from(["", ".5", "e999999"])) + "}"
    elif how == "escaped-surrogate":
        body = '{"query":"x\\udc00"}'
    head = '{"jsonrpc":"2.0","id":%d,"method":%s,"params":' % (request_id, json.dumps(method))
    if how == "duplicate-keys":
        head = '{"jsonrpc":"2.0","method":"nothing","id":%d,"method":%s,"params":{},"params":' % (request_id, json.dumps(method))
    line = (head + body + "}").encode("utf-8", "surrogatepass")
    sure = how in ("deep", "surrogate-bytes")
    if how == "bad-utf8":
        cut = draw(st.integers(0, len(line)))
        sure = cut > len('{"jsonrpc":"2.0","id":%d' % request_id)  # the junk lands after the id and its comma
        junk = draw(st.binary(min_size=1, max_size=8)).replace(b"\n", b"\xff") + b"\xff"
        line = line[:cut] + junk + line[cut:]
    elif how == "surrogate-bytes":  # inside the last string value there is, else as a value of its own
        cut = line.rfind(b'"}')
        line = line[:cut] + b"\xed\xa0\x80" + line[cut:] if cut > 0 else line[:-1] + b',"x":"\xed\xa0\x80"}'

    return line, request_id, sure


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    command, env = limbic_command(tmp_path_factory.mktemp("db") / "g.db")
    with RawServer(command, {**env, "LIMBIC_HOME": str(home)}) as s:
        s.initialize()
        yield s


def _exchange(s: RawServer, line: bytes, request_id: int, sure: bool = False) -> dict:
    """Send the line, then a ping; exactly one answer to the line (its id, or null unless ``sure``) must come."""
    s.proc.stdin.write(line + b"\n")
    s.proc.stdin.flush()
    ping = f"ping-{request_id}"
    s.send({"jsonrpc": "2.0", "id": ping, "method": "ping"})
    answers, pinged = [], False
    while not pinged or not answers:
        try:
            message = s.lines.get(timeout=60)
        except queue.Empty:
            raise AssertionError(f"no answer to {line[:200]!r}") from None
        assert message is not None, f"the server exited on {line[:200]!r}: {''.join(s.stderr)[-2000:]}"
        if message.get("id") == ping:
            assert message.get("result") == {}, message
            pinged = True
        elif "method" not in message:  # a notification is no answer
            assert message.get("id") in (request_id, None), (message, line[:200])
            answers.append(message)
    assert len(answers) == 1, (answers, line[:200])
    if sure:
        assert answers[0].get("id") == request_id, (answers[0], line[:200])
    text = json.dumps(answers[0])
    # A broken request is the client's mistake, said as such: never a failure inside Limbic.
    assert "Traceback" not in text and "unexpected error" not in text, text[:500]
    assert answers[0].get("error", {}).get("code") != -32603, text[:500]
    return answers[0]


def _after(s: RawServer) -> None:
    """Nothing was left to come, and the server answers."""
    assert s.request("ping", timeout=60)["result"] == {}
    assert s.proc.poll() is None


@settings(max_examples=int(os.environ.get("LIMBIC_HOSTILE_EXAMPLES", "30")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=hostile_line())
def test_every_hostile_request_gets_one_answer_and_the_server_lives(live, case):
    _exchange(live, *case)
    _after(live)


@pytest.mark.slow
@settings(max_examples=600, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=hostile_line())
def test_many_hostile_requests_get_one_answer_each(live, case):
    _exchange(live, *case)
    _after(live)


@pytest.mark.parametrize("depth", [980, 1_000, 5_000, 100_000])
def test_the_reported_deep_lines_are_answered(live, depth):
    request_id = next(_ids)
    line = '{"jsonrpc":"2.0","id":%d,"method":"ping","params":%s}' % (request_id, _nest(depth, "1", False))
    _exchange(live, line.encode(), request_id, sure=True)
    arrays = ('{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_nodes","arguments":{"query":%s}}}'
              % (request_id, _nest(50_000, "", True)))
    _exchange(live, arrays.encode(), request_id, sure=True)
    _after(live)


def test_an_encoded_surrogate_is_a_protocol_error_not_a_failed_tool(live):
    request_id = next(_ids)
    line = b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_nodes","arguments":{"query":"a\xed\xa0\x80b"}}}' % request_id
    assert _exchange(live, line, request_id, sure=True)["error"]["code"] == -32700
    _after(live)
