"""The nesting check's quick way of taking a line's strings out leaves what the string pattern leaves."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from limbic.mcp.wire import MAX_DEPTH, _STRING, nesting_depth, outside_strings


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=60) | st.text(alphabet='"\\[]{}ab ,:', max_size=60).map(str.encode))
def test_outside_strings_is_the_pattern(line):
    assert outside_strings(line) == _STRING.sub(b"", line)


def test_brackets_inside_strings_do_not_count_either_way():
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    shallow = {"entities": [{"name": deep, "observations": ["]" * 300, "[" * 300]} for _ in range(100)]}
    for text, depth in ((json.dumps(shallow), 4), (json.dumps(shallow).replace('"name"', '"na\\\\me"'), 4),
                        (deep, MAX_DEPTH + 1), (json.dumps({"x": deep, "y": json.loads(deep)}), MAX_DEPTH + 2)):
        assert nesting_depth(text.encode()) == depth
