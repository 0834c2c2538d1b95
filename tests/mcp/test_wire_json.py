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
