"""The operations every front end runs (the app, the CLI, the MCP server), with no Qt.

Each operation is a plain function over a ``Graph`` that returns its result together with the
``ChangeSet`` of what its commits touched (``Outcome``), so a front end refreshes only that.
Front ends import this package (the engine types they hold come from ``service.types``); the engine never imports it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from limbic.engine.store.changes import ChangeSet
from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph

T = TypeVar("T")


@dataclass
class Outcome(Generic[T]):
    """An operation's result and what its commits changed."""

    value: T
    changes: ChangeSet = field(default_factory=ChangeSet)


@contextlib.contextmanager
def collect(db: Database) -> Iterator[ChangeSet]:
    """Gather the changes of every commit made on ``db`` inside the block into one set."""
    gathered = ChangeSet()
    listener = gathered.merge
    db.commit_listeners.append(listener)
    try:
        yield gathered
    finally:
        db.commit_listeners.remove(listener)


def run(graph: Graph, fn: Callable[..., T], *args: Any, **kwargs: Any) -> Outcome[T]:
    """Run ``fn(graph, *args, **kwargs)`` and return its value with the changes it committed.

    Its commits are logged as made by the operation's name (the activity log's tool), unless an
    outer caller named the tool already (an MCP tool, a CLI command).
    """
    name = getattr(fn, "__name__", None) or getattr(getattr(fn, "func", None), "__name__", "")
    with collect(graph.db) as gathered, graph.db.activity.using(name):
        value = fn(graph, *args, **kwargs)
    if isinstance(value, Outcome):  # an operation that already reports its own changes
        gathered.merge(value.changes)
        value = value.value
    return Outcome(value, gathered)
