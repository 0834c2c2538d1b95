"""What the graph view shows, read from the graph: neighbourhoods, suggestions, the whole graph, positions.

Operations take the ``Graph`` first (``op(graph, ...)``) and run on the engine's thread; the view
gets plain data back (dataclasses and numpy arrays) and never touches the database itself.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from limbic.engine.vectors import vector_index
from limbic.engine.graph.graph import Graph
from limbic.engine.vectors.index import VEC_TABLE
from limbic.engine.graph.layout import ForceLayout, LayoutParams, place_new  # noqa: F401  (the view lays out what it shows)

logger = logging.getLogger(__name__)

HUB_LIMIT = 40  # neighbours shown around one node before the rest fold into a "+N more" node
MAX_DEPTH = 3
SUGGESTIONS = 5
POSITIONS_TABLE = "layout_positions"
# Derived data (a saved layout), so it is created on first use rather than by a schema migration;
# a deleted entity takes its position with it.
_POSITIONS_DDL = (
    f"CREATE TABLE IF NOT EXISTS {POSITIONS_TABLE} ("
    "entity_id INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE, x REAL NOT NULL, y REAL NOT NULL)"
)
_CHUNK = 500


@dataclass
class GraphNode:
    """One node of a local view: an entity, or a "+N more" node standing for a hub's hidden neighbours."""

    id: int  # the entity id; a "+N more" node has the negated id of its hub
    name: str
    entity_type: str
    status: str = "active"
    degree: int = 0
    depth: int = 0
    more: int = 0  # how many neighbours a "+N more" node stands for (0 for an entity)

    @property
    def is_more(self) -> bool:
        return self.more > 0


@dataclass(frozen=True)
class GraphEdge:
    source: int
    target: int
    relation_type: str


@dataclass
class Neighbourhood:
    """An entity and what surrounds it to a depth, with the filters that shaped it."""

    centre: int
    depth: int
    nodes: list[GraphNode] = field(default_factory=list)
    edges: list[GraphEdge] = field(default_factory=list)

    def node(self, node_id: int) -> GraphNode | None:
        return next((n for n in self.nodes if n.id == node_id), None)


@dataclass
class Suggestion:
    """An entity close in meaning to the centre with no relation to it."""

    id: int
    name: str
    entity_type: str
    similarity: float


@dataclass
class GraphArrays:
    """The whole graph as arrays: node i is entity ``ids[i]``; edge j joins nodes ``src[j]`` and ``dst[j]``."""

    ids: np.ndarray  # int64, ascending
    names: list[str]
    types: np.ndarray  # int32 index into type_names
    type_names: list[str]
    statuses: list[str]
    degree: np.ndarray  # int32
    src: np.ndarray  # int32
    dst: np.ndarray  # int32
    rels: np.ndarray  # int32 index into rel_names
    rel_names: list[str]
    positions: np.ndarray  # float64 (n, 2); NaN where no position was saved

    @property
    def n(self) -> int:
        return len(self.ids)


@dataclass
class EntityDelta:
    """The current state of some entities, for updating a picture in place."""

    present: list[GraphNode]  # those that still exist (degree over all their relations)
    missing: list[int]  # those that no longer exist
    edges: list[GraphEdge]  # every active relation touching one of them


# -- helpers ---------------------------------------------------------------------------------


def _chunks(ids: Sequence[int]) -> Iterable[list[int]]:
    ids = list(ids)
    for start in range(0, len(ids), _CHUNK):
        yield ids[start : start + _CHUNK]


def _relations_touching(graph: Graph, ids: Sequence[int]) -> list[tuple[int, int, str]]:
    """Active relations with either end in ``ids`` (each once)."""
    seen: set[tuple[int, int, str]] = set()
    for chunk in _chunks(ids):
        marks = ",".join("?" * len(chunk))
        for col in ("from_entity", "to_entity"):
            seen.update(
                (int(a), int(b), t)
                for a, b, t in graph.db.execute(
                    f"SELECT from_entity, to_entity, relation_type FROM relations WHERE active = 1 AND {col} IN ({marks})",
                    chunk,
                )
            )
    return sorted(seen)


def _entity_rows(graph: Graph, ids: Sequence[int]) -> dict[int, tuple[str, str, str]]:
    out: dict[int, tuple[str, str, str]] = {}
    for chunk in _chunks(ids):
        marks = ",".join("?" * len(chunk))
        for i, name, etype, status in graph.db.execute(
            f"SELECT id, name, entity_type, status FROM entities WHERE id IN ({marks})", chunk
        ):
            out[int(i)] = (name, etype, status)
    return out


def _degrees(graph: Graph, ids: Sequence[int]) -> dict[int, int]:
    """Active relations touching each entity, either way."""
    out = dict.fromkeys(ids, 0)
    for chunk in _chunks(ids):
        marks = ",".join("?" * len(chunk))
        for col in ("from_entity", "to_entity"):
            for entity_id, n in graph.db.execute(
                f"SELECT {col}, count(*) FROM relations WHERE active = 1 AND {col} IN ({marks}) GROUP BY {col}", chunk
            ):
                out[int(entity_id)] += int(n)
    return out


# -- the local view ----------------------------------------------------------------------------


def neighbourhood(
    graph: Graph,
    centre: int | str,
    depth: int = 1,
    *,
    hub_limit: int = HUB_LIMIT,
    expanded: Iterable[int] = (),
    entity_types: Iterable[str] | None = None,
    relation_types: Iterable[str] | None = None,
) -> Neighbourhood:
    """The centre and the entities within ``depth`` relations of it (outgoing and incoming).

    A node with more than ``hub_limit`` new neighbours shows the best connected ones and folds
    the rest into one "+N more" node, unless its id is in ``expanded``; folded entities are not
    followed further. ``entity_types`` / ``relation_types`` (None: all) keep only those kinds;
    the centre is always shown.
    """
    centre_id = graph.resolve(centre)
    depth = max(1, min(MAX_DEPTH, int(depth)))
    expanded = set(expanded)
    allowed_types = None if entity_types is None else set(entity_types)
    allowed_rels = None if relation_types is None else set(relation_types)
    depth_of: dict[int, int] = {centre_id: 0}
    more: dict[int, int] = {}
    frontier = [centre_id]
    for level in range(1, depth + 1):
        if not frontier:
            break
        rels = [r for r in _relations_touching(graph, frontier) if allowed_rels is None or r[2] in allowed_rels]
        in_frontier = set(frontier)
        candidates: dict[int, set[int]] = {}
        for a, b, _ in rels:
            if a in in_frontier and b not in depth_of:
                candidates.setdefault(a, set()).add(b)
            if b in in_frontier and a not in depth_of:
                candidates.setdefault(b, set()).add(a)
        everyone = sorted(set().union(*candidates.values())) if candidates else []
        rows = _entity_rows(graph, everyone)
        degree = _degrees(graph, everyone) if any(len(c) > hub_limit for c in candidates.values()) else {}
        next_frontier: list[int] = []
        for node in sorted(candidates):
            new = [
                e for e in sorted(candidates[node])
                if e not in depth_of and e in rows and (allowed_types is None or rows[e][1] in allowed_types)
            ]
            if len(new) > hub_limit and node not in expanded:
                new.sort(key=lambda e: (-degree.get(e, 0), rows[e][0].casefold()))
                more[node] = len(new) - hub_limit
                new = new[:hub_limit]
            for e in new:
                depth_of[e] = level
                next_frontier.append(e)
        frontier = next_frontier

    visible = sorted(depth_of)
    rows = _entity_rows(graph, visible)
    degree = _degrees(graph, visible)
    nodes = [GraphNode(i, rows[i][0], rows[i][1], rows[i][2], degree[i], depth_of[i]) for i in visible if i in rows]
    edges = [
        GraphEdge(a, b, t)
        for a, b, t in _relations_touching(graph, visible)
        if a in depth_of and b in depth_of and (allowed_rels is None or t in allowed_rels)
    ]
    for hub, hidden in sorted(more.items()):
        nodes.append(GraphNode(-hub, f"+{hidden} more", "", "", 0, depth_of[hub] + 1, hidden))
        edges.append(GraphEdge(hub, -hub, ""))
    return Neighbourhood(centre_id, depth, nodes, edges)


def suggestions(graph: Graph, centre: int | str, k: int = SUGGESTIONS) -> list[Suggestion]:
    """The ``k`` entities nearest to the centre by meaning that have no relation to it (either way).

    Uses the stored vectors only (no model needed); empty when the centre has no vector yet.
    """
    centre_id = graph.resolve(centre)
    db = graph.db
    if not db.has_table(VEC_TABLE):
        return []
    row = db.one(f"SELECT embedding FROM {VEC_TABLE} WHERE rowid = ?", (centre_id,))
    if row is None:
        return []
    vector = np.frombuffer(row[0], dtype=np.float32)
    linked = {b if a == centre_id else a for a, b, _ in _relations_touching(graph, [centre_id])}
    hits = vector_index.knn(db, VEC_TABLE, vector, k + 1 + len(linked))
    keep = [(i, d) for i, d in hits if i != centre_id and i not in linked][:k]
    rows = _entity_rows(graph, [i for i, _ in keep])
    return [Suggestion(i, rows[i][0], rows[i][1], round(1.0 - d, 4)) for i, d in keep if i in rows]


def local_view(
    graph: Graph,
    centre: int | str,
    depth: int,
    expanded: Iterable[int],
    entity_types: Iterable[str] | None,
    relation_types: Iterable[str] | None,
    want_suggestions: bool,
) -> tuple[Neighbourhood, list[Suggestion]]:
    """One read for the local view: the neighbourhood and, if asked, the suggestions around its centre."""
    view = neighbourhood(graph, centre, depth, expanded=expanded, entity_types=entity_types,
                         relation_types=relation_types)
    return view, (suggestions(graph, view.centre) if want_suggestions else [])


def link(graph: Graph, source: int | str, target: int | str, relation_type: str) -> bool:
    """Turn a suggestion into a relation ``source -relation_type-> target``; False if it existed."""
    return graph.add_relation(source, target, relation_type)


# -- the whole graph ---------------------------------------------------------------------------


def _index(ids: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Positions of ``wanted`` in the sorted ``ids`` (-1 where absent)."""
    if len(ids) == 0:
        return np.full(len(wanted), -1, dtype=np.int64)
    at = np.searchsorted(ids, wanted)
    at = np.minimum(at, len(ids) - 1)
    return np.where(ids[at] == wanted, at, -1)


def whole_graph(graph: Graph) -> GraphArrays:
    """Every entity and active relation as arrays, with the saved layout positions."""
    db = graph.db
    ids, names, type_idx, statuses = [], [], [], []
    type_of: dict[str, int] = {}
    for i, name, etype, status in db.execute("SELECT id, name, entity_type, status FROM entities ORDER BY id"):
        ids.append(i)
        names.append(name)
        type_idx.append(type_of.setdefault(etype, len(type_of)))
        statuses.append(status)
    ids_arr = np.asarray(ids, dtype=np.int64)
    src, dst, rel_idx = [], [], []
    rel_of: dict[str, int] = {}
    for a, b, t in db.execute("SELECT from_entity, to_entity, relation_type FROM relations WHERE active = 1"):
        src.append(a)
        dst.append(b)
        rel_idx.append(rel_of.setdefault(t, len(rel_of)))
    s = _index(ids_arr, np.asarray(src, dtype=np.int64))
    d = _index(ids_arr, np.asarray(dst, dtype=np.int64))
    ok = (s >= 0) & (d >= 0)
    s, d = s[ok].astype(np.int32), d[ok].astype(np.int32)
    n = len(ids_arr)
    degree = (np.bincount(s, minlength=n) + np.bincount(d, minlength=n)).astype(np.int32)
    return GraphArrays(
        ids_arr, names, np.asarray(type_idx, dtype=np.int32), list(type_of), statuses, degree,
        s, d, np.asarray(rel_idx, dtype=np.int32)[ok], list(rel_of), load_positions(graph, ids_arr),
    )


def entity_delta(graph: Graph, ids: Iterable[int]) -> EntityDelta:
    """Re-read these entities and their relations (after a change touched them)."""
    wanted = sorted({int(i) for i in ids if int(i) > 0})
    rows = _entity_rows(graph, wanted)
    degree = _degrees(graph, list(rows))
    present = [GraphNode(i, *rows[i], degree=degree[i]) for i in wanted if i in rows]
    edges = [GraphEdge(a, b, t) for a, b, t in _relations_touching(graph, list(rows))]
    return EntityDelta(present, [i for i in wanted if i not in rows], edges)


# -- saved positions ---------------------------------------------------------------------------


def load_positions(graph: Graph, ids: np.ndarray) -> np.ndarray:
    """Saved positions of these entities, (n, 2), NaN where none was saved."""
    out = np.full((len(ids), 2), np.nan)
    if len(ids) == 0 or not graph.db.has_table(POSITIONS_TABLE):
        return out
    rows = np.array(list(graph.db.execute(f"SELECT entity_id, x, y FROM {POSITIONS_TABLE}")), dtype=np.float64)
    if len(rows) == 0:
        return out
    sorted_ids = np.asarray(ids, dtype=np.int64)
    order = np.argsort(sorted_ids)
    at = _index(sorted_ids[order], rows[:, 0].astype(np.int64))
    found = at >= 0
    out[order[at[found]]] = rows[found, 1:3]
    return out


def save_positions(graph: Graph, ids: Sequence[int] | np.ndarray, positions: np.ndarray) -> int:
    """Remember a layout so the next opening shows it at once; returns the rows written (0 read-only)."""
    db = graph.db
    if db.readonly:
        return 0
    pos = np.asarray(positions, dtype=np.float64)
    ok = np.isfinite(pos).all(axis=1)
    rows = [(int(i), float(x), float(y)) for i, (x, y), good in zip(ids, pos, ok) if good]
    with db.transaction():
        db.execute(_POSITIONS_DDL)
        existing = set()
        for chunk in _chunks([r[0] for r in rows]):
            existing.update(r[0] for r in db.execute(
                f"SELECT id FROM entities WHERE id IN ({','.join('?' * len(chunk))})", chunk))
        db.executemany(
            f"INSERT OR REPLACE INTO {POSITIONS_TABLE}(entity_id, x, y) VALUES (?, ?, ?)",
            [r for r in rows if r[0] in existing],
        )
    return len(rows)
