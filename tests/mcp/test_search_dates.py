"""The MCP search tool takes since/until as dates or as people say them; without them its reply is as before."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from limbic.engine.errors import ValidationError
import limbic.mcp.server  # noqa: F401 - the server's tool modules add their arguments to the tools
from limbic.mcp.tools import TOOLS, unknown_argument
from limbic.service.memory_search import search


@pytest.fixture
def dated(graph):
    graph.upsert_entity("Old deploy", "Note", ["deployment of the billing service"])
    graph.upsert_entity("New deploy", "Note", ["deployment of the billing service, again"])
    long_ago = (datetime.now(timezone.utc) - timedelta(days=400)).strftime("%Y-%m-%d %H:%M:%S")
    with graph.write():
        graph.db.execute("UPDATE entities SET created_at = ?, updated_at = ? WHERE name = 'Old deploy'",
                         (long_ago, long_ago))
    return graph


def test_since_and_until_narrow_the_search(dated):
    names = lambda out: [r["name"] for r in out["results"]]  # noqa: E731
    assert sorted(names(search(dated, "deployment", record=False))) == ["New deploy", "Old deploy"]
    assert names(search(dated, "deployment", since="last week", record=False)) == ["New deploy"]
    assert names(search(dated, "deployment", until="hace dos meses", record=False)) == ["Old deploy"]
    with pytest.raises(ValidationError, match="“soonish” is not a date"):
        search(dated, "deployment", since="soonish", record=False)
    with pytest.raises(ValidationError, match="since"):
        search(dated, "deployment", since=7, record=False)


def test_the_schema_offers_since_and_until():
    spec = next(t for t in TOOLS if t.name == "search")
    assert list(spec.input_schema["properties"]) == ["query", "limit", "since", "until", "as_of", "valid_at"]
    assert unknown_argument(spec, {"query": "x", "since": "last week", "until": "2026-03-01"}) is None
    assert spec.input_schema["required"] == ["query"]
