"""The graph view's time slider: when each entity and relation existed, read once from the recorded history.

A slider step must redraw in well under 100 ms at 20,000 nodes, and rebuilding a whole past graph
per step is far slower, so the view reads every entity's and relation's existence periods in one
query and filters them in memory (``exists_at``). Times are whole seconds since 1970 (UTC) in
int64 arrays; a period still open ends at ``OPEN``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from limbic.engine.graph.graph import Graph
from limbic.engine.history import moments
from limbic.engine.store import values

OPEN = np.iinfo(np.int64).max  # the end of a period that has not ended
_CHUNK = 500


def seconds(stored: Iterable[str]) -> np.ndarray:
    """Stored times ("YYYY-MM-DD HH:MM:SS", UTC) as int64 seconds since 1970."""
    return np.asarray(list(stored), dtype="datetime64[s]").astype(np.int64)


def stored(second: int) -> str:
    """Seconds since 1970 as a stored time."""
    return str(np.datetime64(int(second), "s")).replace("T", " ")


@dataclass
class Lifetimes:
    """Each entity's and relation's existence periods (an edge has one row per period it was active)."""

    start: int  # the earliest moment the history reaches
    now: int
    entity_ids: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # one row per period, by id
    entity_from: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    entity_to: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    names: list[str] = field(default_factory=list)  # each entity's last name and type (a deleted one's, its tombstone's)
    types: list[str] = field(default_factory=list)
    edge_src: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # entity ids
    edge_dst: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    edge_type: list[str] = field(default_factory=list)
    edge_from: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    edge_to: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    @property
    def known(self) -> bool:
        """False for a file that keeps no readable history (the slider then has nothing to show)."""
        return self.start < self.now


def exists_at(start: np.ndarray, end: np.ndarray, at: int) -> np.ndarray:
    """Which periods ``[start, end)`` hold the moment ``at``."""
    return (start <= at) & (end > at)


def _periods(rows) -> list:
    """[row id, from, to, fields] per period a row existed (a relation: was active), from its versions
    ordered by row and time (``to`` None: still open)."""
    out: list = []
    current = None
    for row_id, start, end, ended, active, *fields in rows:
        alive = active is None or bool(active)
        if current is not None and (current[0] != row_id or not alive or current[2] != start):
            out.append(current)
            current = None
        if alive:
            if current is None:
                current = [row_id, start, end, fields]
            else:
                current[2], current[3] = end, fields
        if current is not None and (end is None or ended == "delete"):
            out.append(current)
            current = None
    if current is not None:
        out.append(current)
    return out


# Read in SQL (times as seconds, the value's fields by name): no Python parsing per version.
_FIELDS = {"entity": "NULL, json_extract(value, '$.name'), json_extract(value, '$.entity_type')",
           "relation": "json_extract(value, '$.active'), json_extract(value, '$.from_entity'), "
                       "json_extract(value, '$.to_entity'), json_extract(value, '$.relation_type')"}


def _versions(graph: Graph, kind: str, where: str = "", params: tuple = ()):
    return graph.db.execute(
        "SELECT row_id, CAST(strftime('%s', recorded_from) AS INTEGER), CAST(strftime('%s', recorded_to) AS INTEGER), "
        f"ended, {_FIELDS[kind]} FROM history WHERE kind = ? {where} ORDER BY row_id, recorded_from, id",
        (kind, *params))


def _touching(graph: Graph, ids: list[int]) -> list:
    rows: dict[int, list] = {}
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start:start + _CHUNK]
        marks = ",".join("?" * len(chunk))
        for column in ("from_entity", "to_entity"):
            for row in _versions(graph, "relation", f"AND json_extract(value, '$.{column}') IN ({marks})",
                                 tuple(chunk)):
                rows.setdefault(row[0], []).append(row)
    out = []
    for row_id in sorted(rows):  # a version found from both ends is read once
        seen = set()
        for row in sorted(rows[row_id], key=lambda r: r[1]):
            if (row[1], row[2]) not in seen:
                seen.add((row[1], row[2]))
                out.append(row)
    return out


def lifetimes(graph: Graph, ids: Iterable[int] | None = None) -> Lifetimes:
    """When the entities and relations existed: the whole graph's (``ids`` None), or those of these
    entities, the relations touching them and the entities at their other ends (a local view)."""
    now = values.now_utc()
    start = moments.history_start(graph.db)
    if start is None:
        return Lifetimes(start=int(seconds([now])[0]), now=int(seconds([now])[0]))
    if ids is None:
        rel_rows = list(_versions(graph, "relation"))
    else:
        rel_rows = _touching(graph, sorted({int(i) for i in ids if int(i) > 0}))
    edges = _periods(rel_rows)
    if ids is None:
        ent_rows = list(_versions(graph, "entity"))
    else:
        wanted = {int(i) for i in ids if int(i) > 0}
        for e in edges:
            wanted.update((int(e[3][0]), int(e[3][1])))
        ent_rows = []
        ordered = sorted(wanted)
        for at in range(0, len(ordered), _CHUNK):
            chunk = ordered[at:at + _CHUNK]
            ent_rows += list(_versions(graph, "entity", f"AND row_id IN ({','.join('?' * len(chunk))})",
                                       tuple(chunk)))
    # An entity's id may be given again after its deletion: each life is its own period.
    lives = _periods(ent_rows)
    lt = Lifetimes(start=int(seconds([start])[0]), now=int(seconds([now])[0]))
    lt.entity_ids = np.asarray([e[0] for e in lives], dtype=np.int64)
    lt.entity_from = np.asarray([e[1] for e in lives], dtype=np.int64)
    lt.entity_to = _ends(lives)
    lt.names = [str(e[3][0] or "") for e in lives]
    lt.types = [str(e[3][1] or "") for e in lives]
    lt.edge_src = np.asarray([int(e[3][0]) for e in edges], dtype=np.int64)
    lt.edge_dst = np.asarray([int(e[3][1]) for e in edges], dtype=np.int64)
    lt.edge_type = [str(e[3][2] or "") for e in edges]
    lt.edge_from = np.asarray([e[1] for e in edges], dtype=np.int64)
    lt.edge_to = _ends(edges)
    return lt


def _ends(periods: list) -> np.ndarray:
    return np.asarray([OPEN if p[2] is None else p[2] for p in periods], dtype=np.int64)
