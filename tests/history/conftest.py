"""A clock the tests set: every module's ``now_utc`` reads it, so recorded times are the test's."""

from __future__ import annotations

import sys
from datetime import datetime, timedelta

import pytest

from limbic.engine.store import values


class Clock:
    """A UTC clock that moves only when told."""

    def __init__(self, start: str = "2025-01-01 09:00:00") -> None:
        self.at = datetime.strptime(start, values.TIME_FORMAT)

    def __call__(self) -> str:
        return self.at.strftime(values.TIME_FORMAT)

    def advance(self, seconds: int) -> str:
        self.at += timedelta(seconds=seconds)
        return self()


def patch_clock(monkeypatch, clock: Clock) -> None:
    """Point every loaded module's ``now_utc`` (imported by name or not) at ``clock``."""
    real = values.now_utc
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("limbic") and getattr(module, "now_utc", None) is real:
            monkeypatch.setattr(module, "now_utc", clock)


@pytest.fixture
def clock(monkeypatch) -> Clock:
    import limbic.engine.graph.graph  # noqa: F401 - loaded before patching, so its name is patched too
    import limbic.engine.graph.revert  # noqa: F401
    import limbic.engine.store.changes  # noqa: F401

    c = Clock()
    patch_clock(monkeypatch, c)
    return c


def ann_and_companies(path, clock: Clock, *companies: str):
    """A graph on ``path``: a minute in, Ann (who lives in Oslo) and each company named, in that order."""
    from limbic.engine.graph.graph import Graph
    from limbic.engine.store.db import Database

    graph = Graph(Database(path))
    clock.advance(60)
    graph.create_entity("Ann", "Person", ["lives in Oslo"])
    for company in companies:
        graph.create_entity(company, "Company")
    return graph
