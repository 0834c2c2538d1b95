"""One read of everything the health checks look at, in plain arrays (read-only: runs on any connection)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from limbic.engine.errors import Cancelled
from limbic.engine.graph.graph import Graph

logger = logging.getLogger(__name__)


@dataclass
class Handle:
    """Progress and cancel for a long check (same shape as the app's job context)."""

    progress: Callable[[str, int, int], None] = lambda stage, done, total: None
    cancelled: Callable[[], bool] = lambda: False

    def step(self, stage: str, done: int, total: int) -> None:
        """Report progress, and stop here with ``Cancelled`` if the person cancelled."""
        if self.cancelled():
            raise Cancelled("The health check was cancelled.")
        self.progress(stage, done, total)


@dataclass
class GraphData:
    """The graph as the checks need it; entities by position 0..n-1."""

    ids: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    last_access: list[str] = field(default_factory=list)  # "" when never opened
    access_count: list[int] = field(default_factory=list)
    neighbours: list[set[int]] = field(default_factory=list)  # positions related either way
    incoming: list[int] = field(default_factory=list)  # active relations pointing at it
    related: dict[tuple[int, int], set[str]] = field(default_factory=dict)  # (low, high) positions: relation types
    observations: list[list[tuple[int, str]]] = field(default_factory=list)  # current (id, text)
    pos: dict[int, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.ids)


def load(graph: Graph, handle: Handle, with_observations: bool = True) -> GraphData:
    """Read entities, relations, use and (optionally) observations in one snapshot."""
    db = graph.db
    data = GraphData()
    with _savepoint(db):
        for eid, name, etype, status, updated in db.execute(
                "SELECT id, name, entity_type, status, updated_at FROM entities ORDER BY id"):
            data.pos[eid] = len(data.ids)
            data.ids.append(eid)
            data.names.append(name)
            data.types.append(etype)
            data.statuses.append(status)
            data.updated.append(updated)
        n = len(data.ids)
        handle.step("reading", 0, 4)
        data.last_access = [""] * n
        data.access_count = [0] * n
        for eid, count, last in db.execute("SELECT entity_id, access_count, last_access FROM entity_access"):
            p = data.pos.get(eid)
            if p is not None:
                data.access_count[p] = int(count or 0)
                data.last_access[p] = last or ""
        handle.step("reading", 1, 4)
        data.neighbours = [set() for _ in range(n)]
        data.incoming = [0] * n
        for a, b, rtype in db.execute("SELECT from_entity, to_entity, relation_type FROM relations WHERE active = 1"):
            pa, pb = data.pos.get(a), data.pos.get(b)
            if pa is None or pb is None or pa == pb:
                continue
            data.neighbours[pa].add(pb)
            data.neighbours[pb].add(pa)
            data.incoming[pb] += 1
            data.related.setdefault((min(pa, pb), max(pa, pb)), set()).add(rtype)
        handle.step("reading", 2, 4)
        data.observations = [[] for _ in range(n)]
        if with_observations:
            columns = {r[1] for r in db.execute("PRAGMA table_info(observations)")}
            where = "WHERE superseded_at IS NULL" if "superseded_at" in columns else ""
            for oid, eid, content in db.execute(f"SELECT id, entity_id, content FROM observations {where} ORDER BY id"):
                p = data.pos.get(eid)
                if p is not None:
                    data.observations[p].append((oid, content))
        handle.step("reading", 3, 4)
    logger.debug("health: read %d entities", n)
    return data


class _savepoint:
    """A read transaction so the reads agree with each other (a savepoint inside the caller's)."""

    def __init__(self, db) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("SAVEPOINT limbic_health_read")

    def __exit__(self, *exc) -> None:
        self.db.execute("RELEASE limbic_health_read")
