"""The protocol layer of `limbic mcp` without a graph: every line gets the answer the protocol's rules
give it (both eras, with the SDK's codes and sentences), and only protocol messages reach stdout."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from limbic.mcp.protocol import CAPABILITIES_KEY, SERVER_INFO_KEY, SUBSCRIPTION_KEY, VERSION_KEY, Session
from limbic.mcp.wire import Wire, encode, parse_line
from tests.mcp.conftest import APP

ENVELOPE = {VERSION_KEY: "2026-07-28", CAPABILITIES_KEY: {}, "io.modelcontextprotocol/clientInfo": {"name": "probe", "version": "2"}}
INFO = {"name": "limbic", "title": "Limbic knowledge graph", "version": "9"}


class Recorder(Wire):
    def __init__(self) -> None:
        super().__init__(io.BytesIO(), io.BytesIO())
        self.sent: list[dict] = []

    def send(self, message: dict, plain: bool = False) -> bool:
        self.sent.append(json.loads(encode(message, plain)))
        return True


def session(**handlers):
    wire = Recorder()
    defaults = {"tools/list": lambda r: r.reply({"tools": []})}
    return Session(wire, INFO, "Use it.", {**defaults, **handlers}), wire


def feed(s: Session, *messages) -> list[dict]:
    before = len(s.wire.sent)
    for m in messages:
        line = m if isinstance(m, bytes) else json.dumps(m).encode()
        incoming = parse_line(line)
        if incoming is not None:
            s.receive(incoming)
    return s.wire.sent[before:]


def req(i, method, params=None):
    out = {"jsonrpc": "2.0", "id": i, "method": method}
    if params is not None:
        out["params"] = params
    return out


def initialize(version="2025-06-18"):
    return req(0, "initialize", {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "ide", "version": "1"}})


@pytest.mark.parametrize("asked, given", [("2024-11-05", "2024-11-05"), ("2025-06-18", "2025-06-18"),
                                          ("1999-01-01", "2025-11-25"), ("2026-07-28", "2025-11-25")])
def test_the_handshake_negotiates_a_version_it_speaks(asked, given):
    s, _ = session()
    [answer] = feed(s, initialize(asked))
    result = answer["result"]
    assert result["protocolVersion"] == given and result["serverInfo"] == INFO and result["instructions"] == "Use it."
    assert result["capabilities"] == {"resources": {"listChanged": False, "subscribe": True}, "tools": {"listChanged": False}}
    assert s.client.name == "ide"


def test_handshake_era_rules():
    s, _ = session()
    early = feed(s, req(1, "tools/list"), req(2, "ping"), req(3, "no/such"))
    assert early[0]["error"]["code"] == -32600 and "before “initialize”" in early[0]["error"]["message"]
    assert early[1]["result"] == {}
    assert early[2]["error"] == {"code": -32601, "message": "Method not found", "data": "no/such"}
    feed(s, initialize(), {"jsonrpc": "2.0", "method": "notifications/initialized"})
    listed, enveloped, discover, listen = feed(s, req(4, "tools/list"), req(5, "tools/list", {"_meta": ENVELOPE}),
                                               req(6, "server/discover", {"_meta": {}}), req(7, "subscriptions/listen"))
    assert listed == {"jsonrpc": "2.0", "id": 4, "result": {"tools": []}}  # no 2026 stamps on this era
    assert enveloped["error"]["code"] == -32600 and "handshake protocol era" in enveloped["error"]["message"]
    assert discover["error"]["code"] == listen["error"]["code"] == -32601


def test_2026_era_rules():
    s, _ = session()
    discover, listed = feed(s, req("d", "server/discover", {"_meta": ENVELOPE}), req(1, "tools/list", {"_meta": ENVELOPE}))
    assert discover["result"]["supportedVersions"] == ["2026-07-28"]
    assert discover["result"]["capabilities"]["resources"] == {"listChanged": True, "subscribe": True}
    assert listed["result"] == {"tools": [], "resultType": "complete", "cacheScope": "private", "ttlMs": 0,
                                "_meta": {SERVER_INFO_KEY: INFO}}
    assert s.client.name == "probe"
    bare, half, later, handshake, ping, subscribe = feed(
        s, req(2, "tools/list"), req(3, "tools/list", {"_meta": {VERSION_KEY: "2026-07-28"}}),
        req(4, "tools/list", {"_meta": {**ENVELOPE, VERSION_KEY: "2027-01-01"}}), initialize(),
        req(5, "ping", {"_meta": ENVELOPE}), req(6, "resources/subscribe", {"uri": "x", "_meta": ENVELOPE}))
    assert bare["error"]["code"] == -32602 and "params._meta must be an object" in bare["error"]["message"]
    assert half["error"]["message"] == f"params._meta is missing the required envelope key(s): {CAPABILITIES_KEY}"
    assert later["error"] == {"code": -32022, "message": "Unsupported protocol version",
                              "data": {"supported": ["2026-07-28"], "requested": "2027-01-01"}}
    assert handshake["error"]["code"] == -32022 and handshake["error"]["data"]["requested"] == "2025-06-18"
    assert ping["error"]["code"] == subscribe["error"]["code"] == -32601


def test_a_listen_stream_is_acknowledged_carries_updates_and_ends_on_cancel():
    s, _ = session()
    [ack] = feed(s, req("L", "subscriptions/listen", {"_meta": ENVELOPE, "notifications": {
        "resourceSubscriptions": ["memory://knowledge-graph"], "toolsListChanged": True, "promptsListChanged": False}}))
    assert ack == {"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {
        "_meta": {SUBSCRIPTION_KEY: "L"},
        "notifications": {"toolsListChanged": True, "resourceSubscriptions": ["memory://knowledge-graph"]}}}
    s.resource_updated("memory://other")
    s.resource_updated("memory://knowledge-graph")
    assert s.wire.sent[-1] == {"jsonrpc": "2.0", "method": "notifications/resources/updated",
                               "params": {"_meta": {SUBSCRIPTION_KEY: "L"}, "uri": "memory://knowledge-graph"}}
    count = len(s.wire.sent)
    feed(s, {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "L"}})
    s.resource_updated("memory://knowledge-graph")
    assert len(s.wire.sent) == count


def test_a_cancelled_request_gets_no_late_answer_and_others_still_do():
    pending = []
    s, wire = session(**{"tools/call": pending.append})
    feed(s, initialize(), req(1, "tools/call", {"name": "x"}), req(2, "tools/call", {"name": "y"}),
         {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})
    for request in pending:
        request.reply({"content": []})
        request.reply({"content": ["twice"]})  # a second answer is never sent
    answered = [m["id"] for m in wire.sent if "result" in m and m.get("id") != 0]
    assert answered == [2]


def test_a_cancel_that_comes_after_the_answer_spoils_nothing_later():
    pending = []
    s, wire = session(**{"tools/call": pending.append})
    feed(s, initialize(), req(1, "tools/call", {"name": "x"}))
    pending.pop().reply({"content": []})
    feed(s, {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})
    feed(s, req(1, "tools/call", {"name": "x"}))  # an id may be used again once answered
    pending.pop().reply({"content": ["again"]})
    assert [m["result"]["content"] for m in wire.sent if m.get("id") == 1] == [[], ["again"]]


def test_a_handler_that_raises_still_answers():
    def broken(request):
        raise RuntimeError("boom")

    s, _ = session(**{"tools/list": broken})
    feed(s, initialize())
    [answer] = feed(s, req(1, "tools/list"))
    assert answer["error"]["code"] == -32603 and "unexpected error" in answer["error"]["message"]


@pytest.mark.parametrize("line, code, words", [
    (b'{"jsonrpc": "2.0", "id": 5, "method": ', -32700, "not valid JSON"),
    (b'\xff\xfe{}', -32700, "not valid JSON"),
    (b'[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]', -32600, "Batches"),
    (b'"ping"', -32600, "JSON object"),
    (b'{"jsonrpc": "2.0", "id": true, "method": "ping"}', -32600, "string or an integer"),
    (b'{"jsonrpc": "2.0", "id": 9}', -32600, "needs"),
    (b'{"id": 9, "method": "ping"}', -32600, "needs"),
    (b'{"jsonrpc": "2.0", "id": 9, "method": "ping", "params": [1]}', -32602, "params must be a JSON object"),
    (b'{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "x\\udc00"}}', -32602, "params.name holds a lone surrogate"),
])
def test_every_malformed_request_gets_an_answer_with_a_sentence(line, code, words):
    incoming = parse_line(line)
    assert incoming is not None and incoming.error is not None
    assert incoming.error["error"]["code"] == code and words in incoming.error["error"]["message"]


@pytest.mark.parametrize("line", [
    b"", b"   ", b'{"jsonrpc": "2.0", "id": 3, "result": {}}',  # blank; a response to nothing
    b'{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"reason": "\\ud800"}}',  # a notification
])
def test_lines_that_want_no_answer_get_none(line):
    assert parse_line(line) is None


def test_a_surrogate_pair_is_text_not_a_lone_surrogate():
    incoming = parse_line(b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "\\ud83d\\ude00"}}')
    assert incoming.error is None and incoming.params["name"] == "\U0001F600"


def test_stored_lone_surrogates_still_go_out_as_valid_utf8():
    line = encode({"jsonrpc": "2.0", "id": 1, "result": {"text": "a\ud800b"}})
    assert json.loads(line.decode("utf-8"))["result"]["text"] == "a\ud800b"


def test_only_protocol_messages_reach_stdout():
    code = (
        "import os, sys\n"
        "from limbic.mcp.wire import Wire\n"
        "wire = Wire.claim_stdio()\n"
        "print('a stray print')\n"
        "sys.stdout.flush()\n"
        "os.write(1, b'a library writing to descriptor 1\\n')\n"
        "line = next(wire.lines())\n"
        "wire.send({'jsonrpc': '2.0', 'id': 1, 'result': {'echo': line.decode().strip()}})\n"
    )
    done = subprocess.run([sys.executable, "-c", code], input=b"hello\n", capture_output=True, timeout=60,
                          env={"PYTHONPATH": APP, "PATH": ""})
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().splitlines() == ['{"jsonrpc":"2.0","id":1,"result":{"echo":"hello"}}']
    assert "a stray print" in done.stderr.decode() and "descriptor 1" in done.stderr.decode()


def test_a_tool_whose_result_cannot_be_written_still_gets_an_answer():
    from concurrent.futures import Future
    from types import SimpleNamespace

    from limbic.mcp.server import MemoryServer

    class Host:
        def submit(self, fn, *args):
            done: Future = Future()
            done.set_result(fn(*args))
            return done

        def invoke(self, spec, args, client, note=True):
            return SimpleNamespace(value=object(), changes=SimpleNamespace(graph_changed=False))

        def note_reads(self, spec, value):
            raise AssertionError("a result that could not be written is no read")

    wire = Recorder()
    mcp = MemoryServer(Host(), wire)
    feed(mcp.session, initialize(), req(1, "tools/call", {"name": "read_graph", "arguments": {}}))
    answer = wire.sent[-1]
    assert answer["id"] == 1 and answer["result"]["isError"] is True
    assert "could not be written" in answer["result"]["content"][0]["text"]
