"""A request refused before it is parsed (nested more than 128 deep, not UTF-8, longer than the line
limit) is answered with its own id whenever the id can be read from the line's first or last bytes
beside plain values: as the Python SDK writes a request (id second) and as the TypeScript SDK does
(id last). The reading is fuzzed: on any JSON text it never names another id than the message's."""

from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from limbic.mcp import wire
from limbic.mcp.wire import parse_line, readable_id
from tests.mcp.raw import RawServer, limbic_command

# Text that looks like JSON structure and like an "id" key, to tempt a careless reader.
TRICKY = st.lists(st.sampled_from(list('id",:{}[]\\ ') + ["id", '"id":', ',"id":9}', "\\\"", "é", "\u2028"]),
                  max_size=6).map("".join)
KEYS = st.one_of(TRICKY, st.sampled_from(["id", "name", "arguments"]))
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=False, allow_infinity=False),
                    TRICKY)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(KEYS, inner, max_size=4)), max_leaves=12)
IDS = st.one_of(st.integers(-10**15, 10**15), TRICKY)


@st.composite
def request_line(draw):
    """(line, id, readable): a JSON-RPC request in any key order and layout; readable when every key before
    the id, or every key after it, holds a plain value (how real clients write requests)."""
    request_id = draw(IDS)
    pairs = [("jsonrpc", "2.0"), ("method", draw(TRICKY)), ("params", draw(VALUES)), ("_meta", draw(VALUES))]
    pairs += [(k, draw(SCALARS)) for k in draw(st.lists(TRICKY.filter(lambda k: k not in ("id", "jsonrpc", "method", "params", "_meta")),
                                                        max_size=2, unique=True))]
    pairs = draw(st.permutations(pairs))
    at = draw(st.integers(0, len(pairs)))
    pairs.insert(at, ("id", request_id))
    message = dict(pairs)
    layout = draw(st.sampled_from([{}, {"indent": 2}, {"separators": (",", ":")}, {"separators": (" , ", " : ")}]))
    text = json.dumps(message, ensure_ascii=draw(st.booleans()), **layout)
    return text.encode("utf-8"), request_id, readable(pairs, at) and len(text) < wire.ID_TAIL_BYTES


def readable(pairs: list, at: int, deep: bool = False) -> bool:
    """Whether every key before the id (at ``at``), or every key after it, holds a plain value."""
    plain = lambda k, v: not isinstance(v, (list, dict)) and not (deep and k == "params")  # noqa: E731
    return all(plain(k, v) for k, v in pairs[:at]) or all(plain(k, v) for k, v in pairs[at + 1:])


@settings(max_examples=int(os.environ.get("LIMBIC_HOSTILE_EXAMPLES", "300")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=request_line(), depth=st.integers(129, 400), junk=st.binary(min_size=1, max_size=4), cut=st.floats(0, 1))
def test_a_refused_request_is_answered_with_its_own_id_or_null_never_another(case, depth, junk, cut):
    line, request_id, sure = case
    found = readable_id(line)
    assert found in (None, request_id), (line, found)
    if sure:
        assert found == request_id, line
    # Too deep: the same request with its params nested past the limit.
    deep = json.loads(line)
    deep["params"] = json.loads("[" * depth + "1" + "]" * depth)
    deep_line = json.dumps(deep).encode()
    refused = parse_line(deep_line)
    assert refused.error["error"]["code"] == -32600 and refused.error["id"] in (None, request_id)
    pairs = list(deep.items())
    if sure and readable(pairs, [k for k, _ in pairs].index("id"), deep=True):
        assert refused.error["id"] == request_id
    # Not UTF-8: bytes that are never UTF-8 put anywhere (JSON's structure untouched).
    at = int(cut * len(line))
    broken = line[:at] + bytes(0x80 | b for b in junk) + b"\xff" + line[at:]
    assert readable_id(broken) in (None, request_id)
    # Too long: only the first bytes were read, so only they may name the id.
    assert readable_id(line[:at], whole=False) in (None, request_id)


def test_the_ways_an_id_is_read_or_left_unread():
    assert readable_id(b'{"jsonrpc":"2.0","id":5,"method":"x","params":[[[]]]}') == 5
    assert readable_id(b'{"method":"x","params":{"a":[1]},"jsonrpc":"2.0","id":"ab\\u00e9"}\r\n') == "ab\u00e9"
    assert readable_id(b'{"params":{"id":7},"id":1}') == 1
    assert readable_id(b'{"params":{"id":7}', whole=False) is None  # cut short: its end is not the message's
    assert readable_id(b'{"a":[{"id":3}],"b":1}') is None  # a nested id is not the request's
    assert readable_id(b'{"id":1,"x":[],"id":2}') is None  # two ids: neither is sure
    assert readable_id(b'{"id":"\\ud800","x":[]}') is None  # not text
    assert readable_id(b'{"id":true,"x":[]}') is None and readable_id(b'{"id":1.5,"x":[]}') is None
    assert readable_id(b'[{"id":1}]') is None
    assert readable_id(b'{"s":"a,\\"id\\":4}"}') is None


def test_reading_an_id_looks_only_at_the_ends_of_lines_built_to_slow_it(monkeypatch):
    """The work is bounded by construction: the patterns see at most the first ``ID_HEAD_BYTES`` and the last
    ``ID_TAIL_BYTES`` of a line however long it is, so a line built to make them backtrack cannot stall."""
    seen = []

    class Watched:
        def __init__(self, pattern):
            self.pattern = pattern

        def search(self, part):
            seen.append((self.pattern is wire._ID_LAST, len(part)))
            return self.pattern.search(part)

    monkeypatch.setattr(wire, "_ID_FIRST", Watched(wire._ID_FIRST))
    monkeypatch.setattr(wire, "_ID_LAST", Watched(wire._ID_LAST))
    for line in (b',"id":1' * 20_000 + b"x", b"{" + b'"id":1,' * 20_000 + b'"id":[', b"{" + b'"k":"\\\\",' * 20_000,
                 b'{"a":' * 200_000, b"{" + b" " * 1_000_000):
        seen.clear()
        readable_id(line)
        assert seen and all(size <= (wire.ID_TAIL_BYTES if last else wire.ID_HEAD_BYTES) for last, size in seen), seen
    seen.clear()  # and an id past the head of a line read only from its start is not looked for
    assert readable_id(b'{"x":"' + b"a" * wire.ID_HEAD_BYTES + b'","id":7}', whole=False) is None
    assert seen == [(False, wire.ID_HEAD_BYTES)]


def test_the_refusals_carry_the_id_over_the_wire(tmp_path, monkeypatch):
    command, env = limbic_command(tmp_path / "g.db")
    nested = "[" * 200 + "]" * 200
    with RawServer(command, {**env, "LIMBIC_HOME": os.environ["LIMBIC_HOME"]}) as s:
        s.initialize()
        s.send_line('{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"search_nodes","arguments":{"query":%s}}}'
                    % nested)
        assert s.wait_for(41)["error"]["code"] == -32600
        s.send_line('{"method":"tools/call","params":{"name":"open_nodes","arguments":{"names":%s}},"jsonrpc":"2.0","id":"ts-42"}'
                    % nested)
        assert "128 deep" in s.wait_for("ts-42")["error"]["message"]
        s.proc.stdin.write(b'{"jsonrpc":"2.0","id":43,"method":"tools/call","params":{"name":"search_nodes",'
                           b'"arguments":{"query":"caf\xe9"}}}\n')
        s.proc.stdin.flush()
        assert s.wait_for(43)["error"]["code"] == -32700
    monkeypatch.setattr(wire, "MAX_LINE_BYTES", 100)
    refused = parse_line(b'{"jsonrpc":"2.0","id":44,"method":"tools/call","params":{"name":"search_nodes","arguments":{"query":"'
                         + b"x" * 200)
    assert refused.error["id"] == 44 and refused.error["error"]["code"] == -32600
