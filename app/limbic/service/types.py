"""The engine's names a front end may hold: value types, result types and constants, never an operation.

A front end (the app, the CLI, the MCP server) runs every operation through a service function; what
it gets back, and what it passes in, are the engine's own types, re-exported here so that each front
end imports the engine from two places only: this module and ``limbic.engine.errors`` (the errors it
catches and shows). The contract in ``pyproject.toml`` and ``tests/test_layers.py`` hold to that.

- ``Graph``: the open graph every service function takes (a front end never builds one; it gets one
  from ``service.opening``).
- ``ChangeSet``, ``Cursor`` and the ``ORIGIN_*`` names: what a commit touched, a place in the change
  log, and who a writer is: a front end refreshes what changed and says who it is.
- ``ScoringParams`` and ``BASE_CHOICES``: the ranking's settings, which the app's dialog edits.
- ``SearchResponse``, ``SearchResult``, ``MAX_LIMIT``: what a search answers, and its bound.
- ``LayoutParams``: the graph view's layout settings.
- ``STATUSES``: the entity statuses an editor offers.
- ``SCHEMA_VERSION``: the newest file version this Limbic reads, for `limbic info`.
- ``SYNC_ORIGIN``: how the origin of what sync applied from another device begins ("sync:desktop").
- ``counted``: the one plural rule, so every layer words a count alike ("1 entity", "2 entities").
"""

from __future__ import annotations

from limbic.engine.store.changes import ORIGIN_APP, ORIGIN_ASSISTANT, ORIGIN_CLI, ORIGIN_IMPORT, ChangeSet, Cursor
from limbic.engine.store.db import SCHEMA_VERSION
from limbic.engine.graph.graph import Graph
from limbic.engine.graph.graph_history import STATUSES
from limbic.engine.search.scoring import BASE_CHOICES, ScoringParams
from limbic.engine.search.search import MAX_LIMIT, SearchResponse, SearchResult
from limbic.engine.sync.state import SYNC_ORIGIN
from limbic.engine.wording import counted

__all__ = [
    "BASE_CHOICES", "ChangeSet", "Cursor", "Graph", "LayoutParams", "MAX_LIMIT", "ORIGIN_APP", "ORIGIN_ASSISTANT",
    "ORIGIN_CLI", "ORIGIN_IMPORT", "SCHEMA_VERSION", "SYNC_ORIGIN", "STATUSES", "ScoringParams", "SearchResponse", "SearchResult",
    "counted",
]


def __getattr__(name: str):
    # The layout module brings numpy, which neither the window's first paint nor `limbic mcp` may wait for.
    if name == "LayoutParams":
        from limbic.engine.graph.layout import LayoutParams

        return LayoutParams
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
