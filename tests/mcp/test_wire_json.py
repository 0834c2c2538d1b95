"""The tool results' text: byte for byte what json.dumps(value, ensure_ascii=False, indent=2) writes."""

from __future__ import annotations

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from limbic.mcp import wire_json

TEXT = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=12)  # surrogates too
LEAVES = st.none() | st.booleans() | st.integers() | st.floats() | TEXT
VALUES = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(TEXT, inner, max_size=5),
                      max_leaves=30)


def _stdlib(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


@settings(max_examples=400, deadline=None)
@given(VALUES)
def test_any_json_value_is_written_as_the_standard_library_writes_it(value):
    assert wire_json.dumps(value) == _stdlib(value)


def test_what_a_graph_read_looks_like_and_values_it_leaves_to_the_library():
    graph = {"entities": [{"name": "Ada \"L\"", "entityType": "Person", "observations": ["a\nb", "ü\u2028", ""]},
                          {"name": "Empty", "entityType": "T", "observations": []}],
             "relations": [{"from": "Ada \"L\"", "to": "Empty", "relationType": "knows"}], "note": None, "n": 2,
             "score": 0.25, "nested": {}, "flag": True}
    assert wire_json.dumps(graph) == _stdlib(graph)
    for odd in ({"t": (1, 2)}, {1: "int key"}, [math.inf], {"x": math.nan}, [True, 1, 1.0]):
        assert wire_json.dumps(odd) == _stdlib(odd)


PLAIN = st.recursive(st.none() | st.booleans() | st.integers() | TEXT,
                     lambda inner: st.lists(inner, max_size=5) | st.dictionaries(TEXT, inner, max_size=5), max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(PLAIN)
def test_a_value_without_fractions_is_written_alike_by_orjson_and_the_library(value):
    """Plain values (the reference's tools' results) go through orjson: the same bytes, indented and on the
    wire; what orjson refuses (a lone surrogate, an integer past 64 bits) falls back to the library's way."""
    from limbic.mcp.wire import encode

    assert wire_json.orjson is not None  # a dependency: the fast way is the one measured
    assert wire_json.dumps(value, plain=True) == _stdlib(value)
    message = {"jsonrpc": "2.0", "id": 1, "result": {"structuredContent": value, "text": _stdlib(value)}}
    assert encode(message, plain=True) == encode(message)


def test_floats_are_why_only_plain_values_go_through_orjson():
    assert wire_json.orjson.dumps(1e-07) != json.dumps(1e-07).encode()  # orjson writes 1e-7
    assert wire_json.dumps({"score": 1e-07}) == _stdlib({"score": 1e-07})
