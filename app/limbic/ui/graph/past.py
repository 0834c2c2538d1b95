"""The picture at a past date, filtered in memory from the picture of now and the graph's lifetimes (Qt-free).

``union`` is built once when the slider is first moved: the nodes of the current picture, then the
entities that are in it no more (deleted, or no longer linked to a local view), each with the period
it existed; the edges are every period each relation was active. ``scene_at`` is a slider step: a
few numpy masks over those arrays, so a new date redraws in milliseconds even at 20,000 nodes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from limbic.service.graph_time import OPEN, Lifetimes, exists_at
from limbic.service.graph_view import place_new
from limbic.ui.graph.scene import KIND_ENTITY, KIND_MORE, Scene

ALWAYS = np.iinfo(np.int64).min  # a node with no recorded start ("+N more", a file's rows older than its history)


@dataclass
class Past:
    """The current picture's nodes followed by those gone from it, with when each existed."""

    scene: Scene  # the union: ``scene.n`` nodes, the first ``n_now`` of them the picture of now
    n_now: int
    node_from: np.ndarray
    node_to: np.ndarray
    edge_from: np.ndarray
    edge_to: np.ndarray
    live_degree: bool  # the whole graph: sizes follow the relations of the date shown


@dataclass
class Moment:
    """One slider step: the picture then, and how much differs from now."""

    scene: Scene
    added: int  # entities shown now that did not exist then (not drawn)
    removed: int  # entities drawn that are gone since (faded)
    shown: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # union indices drawn
    entities_then: int = 0
    relations_then: int = 0


def _inner(now: Scene, depth: int) -> set[int]:
    """The ids of a local view's nodes nearer to its centre than ``depth`` (their past neighbours belong in it)."""
    if now.centre < 0:
        return {int(i) for i in now.ids}
    level = {now.centre: 0}
    frontier = [now.centre]
    adjacent: dict[int, list[int]] = {}
    for a, b in zip(now.src.tolist(), now.dst.tolist()):
        adjacent.setdefault(a, []).append(b)
        adjacent.setdefault(b, []).append(a)
    for d in range(1, depth):
        frontier = [m for k in frontier for m in adjacent.get(k, ()) if m not in level]
        for m in frontier:
            level[m] = d
    return {int(now.ids[k]) for k in level if now.kinds[k] == KIND_ENTITY}


def inner_ids(now: Scene, depth: int) -> set[int]:
    """A local view's entities nearer its centre than ``depth``: a past neighbour of one of them joins the picture."""
    return _inner(now, depth)


def union(now: Scene, lt: Lifetimes, local: set[int] | None = None, entity_types: set[str] | None = None,
          relation_types: set[str] | None = None) -> Past:
    """The current picture and what was in it before, each node and edge with its period.

    ``local`` (a local view): the entities whose past neighbours join it; the type filters of the
    view apply to them too.
    """
    n_now = now.n
    # Each node of now is the open period of its id; every other period (a deleted entity, an id's
    # earlier life, an entity no longer linked to a local view) may join as a node of the past.
    open_of = {int(i): k for k, i in enumerate(lt.entity_ids.tolist()) if lt.entity_to[k] == OPEN}
    matched = [open_of.get(int(i), -1) for i in now.ids.tolist()]
    known = set(lt.entity_ids.tolist())
    # A node of now with no open period was deleted after the picture was read: its periods stand for it.
    node_from = np.asarray([lt.entity_from[k] if k >= 0 else OPEN if int(i) in known else ALWAYS
                            for k, i in zip(matched, now.ids.tolist())], dtype=np.int64)
    node_to = np.full(n_now, OPEN, dtype=np.int64)
    # A suggestion is about now: it never stands in a past picture.
    node_from[(now.kinds != KIND_ENTITY) & (now.kinds != KIND_MORE)] = OPEN
    keep_edge = np.asarray([relation_types is None or t in relation_types for t in lt.edge_type], dtype=bool)
    near = None
    if local is not None:  # a past neighbour joins through an edge to one of the inner nodes
        inner = np.isin(lt.edge_src, list(local)) | np.isin(lt.edge_dst, list(local))
        near = set(lt.edge_src[inner & keep_edge].tolist()) | set(lt.edge_dst[inner & keep_edge].tolist())
    used = set(matched)
    extra = [k for k, i in enumerate(lt.entity_ids.tolist()) if k not in used and (near is None or i in near)
             and (entity_types is None or lt.types[k] in entity_types)]
    type_of = {t: k for k, t in enumerate(now.type_names)}
    extra_types = [type_of.setdefault(lt.types[k], len(type_of)) for k in extra]
    type_names = list(type_of)
    ids = np.concatenate((now.ids, lt.entity_ids[extra])).astype(np.int64)
    node_from = np.concatenate((node_from, lt.entity_from[extra]))
    node_to = np.concatenate((node_to, lt.entity_to[extra]))
    lives: dict[int, list[int]] = {}  # entity id -> its nodes (one per period)
    for k, i in enumerate(ids.tolist()):
        lives.setdefault(i, []).append(k)
    # Edges: every active period of a relation between two nodes of the union, then the "+N more" links of now.
    s = _ends_at(lt.edge_src, lt.edge_from, lives, node_from, node_to)
    d = _ends_at(lt.edge_dst, lt.edge_from, lives, node_from, node_to)
    ok = (s >= 0) & (d >= 0) & keep_edge
    rel_names = list(now.rel_names)
    rel_of = {r: k for k, r in enumerate(rel_names)}
    rels = [rel_of.setdefault(t, len(rel_of)) for t, good in zip(lt.edge_type, ok.tolist()) if good]
    more = np.flatnonzero(now.kinds[now.dst] == KIND_MORE) if len(now.dst) else np.zeros(0, dtype=np.int64)
    src = np.concatenate((s[ok], now.src[more])).astype(np.int32)
    dst = np.concatenate((d[ok], now.dst[more])).astype(np.int32)
    edge_from = np.concatenate((lt.edge_from[ok], np.full(len(more), ALWAYS, dtype=np.int64)))
    edge_to = np.concatenate((lt.edge_to[ok], np.full(len(more), OPEN, dtype=np.int64)))
    n = len(ids)
    degree = np.concatenate((now.degree, np.zeros(n - n_now, dtype=np.int32)))
    degree[n_now:] = (np.bincount(src, minlength=n) + np.bincount(dst, minlength=n))[n_now:]
    pos = np.vstack((now.pos, np.full((n - n_now, 2), np.nan)))
    if n > n_now:  # the gone ones next to their neighbours of then
        pos = place_new(pos, src.astype(np.int64), dst.astype(np.int64), np.random.default_rng(n), 50.0)
    highlight = np.zeros(n, dtype=bool)
    if len(now.highlight) == n_now:
        highlight[:n_now] = now.highlight
    scene = Scene(
        ids=ids, pos=pos, types=np.concatenate((now.types, np.asarray(extra_types, dtype=np.int32))).astype(np.int32),
        type_names=type_names, degree=degree.astype(np.int32),
        kinds=np.concatenate((now.kinds, np.zeros(n - n_now, dtype=np.int8))), labels=list(now.labels)
        + [lt.names[k] for k in extra], statuses=list(now.statuses) + [""] * len(extra), src=src, dst=dst,
        rels=np.concatenate((np.asarray(rels, dtype=np.int32), now.rels[more])).astype(np.int32),
        rel_names=list(rel_of), dashed=np.zeros(len(src), dtype=bool),
        highlight=highlight, centre=now.centre,
    )
    return Past(scene, n_now, node_from, node_to, edge_from, edge_to, live_degree=local is None)


def _ends_at(ends: np.ndarray, starts: np.ndarray, lives: dict[int, list[int]], node_from: np.ndarray,
             node_to: np.ndarray) -> np.ndarray:
    """The node each edge end is: the life of its entity the edge began in (-1: not in the picture)."""
    out = np.full(len(ends), -1, dtype=np.int64)
    for j, (i, t) in enumerate(zip(ends.tolist(), starts.tolist())):
        nodes = lives.get(i)
        if nodes is None:
            continue
        if len(nodes) == 1:
            out[j] = nodes[0]
        else:
            out[j] = next((k for k in nodes if node_from[k] <= t < node_to[k]), nodes[-1])
    return out


def scene_at(past: Past, at: int, show_added: bool = False) -> Moment:
    """The picture at ``at`` (seconds since 1970): what existed then, the gone-since faded; with
    ``show_added``, the entities and relations of now that came later too, drawn as outlines."""
    u = past.scene
    then = exists_at(past.node_from, past.node_to, at)
    later = np.zeros(u.n, dtype=bool)  # entities of now that did not exist yet
    later[: past.n_now] = (u.kinds[: past.n_now] == KIND_ENTITY) & ~then[: past.n_now] & (
        past.node_from[: past.n_now] != OPEN)
    visible = then | later if show_added else then
    shown = np.flatnonzero(visible)
    remap = np.full(u.n, -1, dtype=np.int64)
    remap[shown] = np.arange(len(shown))
    edge_then = exists_at(past.edge_from, past.edge_to, at)
    edge_later = (past.edge_to == OPEN) & (past.edge_from > at) if show_added else np.zeros(len(u.src), dtype=bool)
    edges = np.flatnonzero((edge_then | edge_later) & visible[u.src] & visible[u.dst])
    src, dst = remap[u.src[edges]].astype(np.int32), remap[u.dst[edges]].astype(np.int32)
    ghost = shown >= past.n_now
    added = later[shown]
    ghost_edges = ((past.edge_to[edges] != OPEN) | edge_later[edges] | ghost[src] | ghost[dst] | added[src]
                   | added[dst])
    if past.live_degree:
        degree = (np.bincount(src, minlength=len(shown)) + np.bincount(dst, minlength=len(shown))).astype(np.int32)
    else:
        degree = u.degree[shown]
    labels, statuses = u.labels, u.statuses
    scene = Scene(
        ids=u.ids[shown], pos=u.pos[shown], types=u.types[shown], type_names=u.type_names, degree=degree,
        kinds=u.kinds[shown], labels=[labels[i] for i in shown.tolist()], statuses=[statuses[i] for i in shown.tolist()],
        src=src, dst=dst, rels=u.rels[edges], rel_names=u.rel_names, dashed=np.zeros(len(edges), dtype=bool),
        highlight=u.highlight[shown], ghost=ghost, ghost_edges=ghost_edges, added=added,
        centre=int(remap[u.centre]) if u.centre >= 0 else -1,
    )
    entities_then = int(((u.kinds == KIND_ENTITY) & then).sum())
    relations_then = int((edge_then[edges] & ~added[src] & ~added[dst]).sum())
    return Moment(scene, int(later.sum()), int(ghost.sum()), shown, entities_then, relations_then)
