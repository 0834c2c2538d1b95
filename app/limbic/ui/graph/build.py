"""Scenes from what the service returns, and scenes updated in place from re-read entities (Qt-free)."""

from __future__ import annotations

import numpy as np

from limbic.service.graph_view import place_new
from limbic.service.graph_view import EntityDelta, GraphArrays, Neighbourhood, Suggestion
from limbic.ui.graph.scene import KIND_ENTITY, KIND_MORE, KIND_SUGGESTION, Scene

RING = 110.0  # world distance between the depth rings of a fresh local view


def _positions_from(old: Scene | None, ids: np.ndarray) -> np.ndarray:
    """Positions of the nodes ``old`` already showed (by id), NaN for the others."""
    pos = np.full((len(ids), 2), np.nan)
    if old is None or old.n == 0:
        return pos
    for k, entity_id in enumerate(ids):
        i = old.index_of(int(entity_id))
        if i >= 0:
            pos[k] = old.pos[i]
    return pos


def local_scene(view: Neighbourhood, found: list[Suggestion], old: Scene | None, seed: int = 0) -> tuple[Scene, np.ndarray]:
    """The scene of a neighbourhood (plus suggestions); returns it and which nodes are new.

    Nodes ``old`` showed keep their positions; new ones go on depth rings around the centre when
    nothing is placed yet, else next to their placed neighbours.
    """
    linked = {n.id for n in view.nodes}
    extra = [s for s in found if s.id not in linked]
    type_names: list[str] = []
    type_of: dict[str, int] = {}
    ids, types, degree, kinds, labels, statuses, depth = [], [], [], [], [], [], []
    for n in view.nodes:
        ids.append(n.id)
        types.append(type_of.setdefault(n.entity_type, len(type_of)) if not n.is_more else 0)
        degree.append(n.degree)
        kinds.append(KIND_MORE if n.is_more else KIND_ENTITY)
        labels.append(n.name)
        statuses.append(n.status)
        depth.append(n.depth)
    for s in extra:
        ids.append(s.id)
        types.append(type_of.setdefault(s.entity_type, len(type_of)))
        degree.append(0)
        kinds.append(KIND_SUGGESTION)
        labels.append(s.name)
        statuses.append("")
        depth.append(2)
    type_names = list(type_of)
    ids_arr = np.asarray(ids, dtype=np.int64)
    index = {int(i): k for k, i in enumerate(ids_arr)}
    rel_of: dict[str, int] = {}
    src, dst, rels, dashed = [], [], [], []
    for e in view.edges:
        if e.source in index and e.target in index:
            src.append(index[e.source])
            dst.append(index[e.target])
            rels.append(rel_of.setdefault(e.relation_type, len(rel_of)))
            dashed.append(False)
    centre = index.get(view.centre, -1)
    for s in extra:
        src.append(centre)
        dst.append(index[s.id])
        rels.append(rel_of.setdefault("", len(rel_of)))
        dashed.append(True)
    pos = _positions_from(old, ids_arr)
    fresh = np.isnan(pos).any(axis=1)
    if fresh.all() and centre >= 0:
        pos = _rings(np.asarray(depth), centre, seed)
    elif fresh.any():
        pos = place_new(pos, np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64),
                        np.random.default_rng(seed), RING * 0.6)
    scene = Scene(
        ids=ids_arr, pos=pos, types=np.asarray(types, dtype=np.int32), type_names=type_names,
        degree=np.asarray(degree, dtype=np.int32), kinds=np.asarray(kinds, dtype=np.int8), labels=labels,
        statuses=statuses, src=np.asarray(src, dtype=np.int32), dst=np.asarray(dst, dtype=np.int32),
        rels=np.asarray(rels, dtype=np.int32), rel_names=list(rel_of), dashed=np.asarray(dashed, dtype=bool),
        highlight=np.zeros(len(ids_arr), dtype=bool), centre=centre,
    )
    return scene, fresh


def _rings(depth: np.ndarray, centre: int, seed: int) -> np.ndarray:
    """A first picture: the centre at the origin, each depth on its own ring."""
    rng = np.random.default_rng(seed)
    pos = np.zeros((len(depth), 2))
    for d in range(1, int(depth.max(initial=0)) + 1):
        members = np.flatnonzero(depth == d)
        if len(members) == 0:
            continue
        angle = np.linspace(0, 2 * np.pi, len(members), endpoint=False) + rng.uniform(0, 0.3)
        radius = RING * d * max(1.0, len(members) / (12 * d))
        pos[members] = np.column_stack((np.cos(angle), np.sin(angle))) * radius
    pos[centre] = 0.0
    return pos


def whole_scene(arrays: GraphArrays, old: Scene | None = None) -> Scene:
    """The scene of the whole graph; positions from ``old`` (by id) first, then the saved ones."""
    pos = arrays.positions.copy()
    if old is not None and old.n:
        previous = _positions_from(old, arrays.ids)
        have = np.isfinite(previous).all(axis=1)
        pos[have] = previous[have]
    return Scene(
        ids=arrays.ids, pos=pos, types=arrays.types, type_names=list(arrays.type_names), degree=arrays.degree,
        kinds=np.zeros(arrays.n, dtype=np.int8), labels=list(arrays.names), statuses=list(arrays.statuses),
        src=arrays.src, dst=arrays.dst, rels=arrays.rels, rel_names=list(arrays.rel_names),
        dashed=np.zeros(len(arrays.src), dtype=bool), highlight=np.zeros(arrays.n, dtype=bool),
    )


def merge_delta(scene: Scene, delta: EntityDelta, seed: int = 0) -> tuple[Scene, np.ndarray]:
    """The whole-graph scene with these entities re-read: removed ones go, changed ones change,
    new ones appear next to their neighbours, and the relations touching them are replaced.

    Returns the new scene and which of its nodes are new (every other node keeps its position).
    """
    touched = {n.id for n in delta.present} | set(delta.missing)
    keep = np.flatnonzero(~np.isin(scene.ids, list(delta.missing)))
    ids = [int(i) for i in scene.ids[keep]]
    pos = [scene.pos[keep]]
    types = scene.types[keep].tolist()
    labels = [scene.labels[k] for k in keep]
    statuses = [scene.statuses[k] for k in keep]
    type_names = list(scene.type_names)
    type_of = {t: k for k, t in enumerate(type_names)}
    index = {i: k for k, i in enumerate(ids)}
    new_rows = []
    for node in delta.present:
        t = type_of.get(node.entity_type)
        if t is None:
            t = type_of[node.entity_type] = len(type_names)
            type_names.append(node.entity_type)
        k = index.get(node.id)
        if k is None:
            index[node.id] = k = len(ids)
            ids.append(node.id)
            types.append(t)
            labels.append(node.name)
            statuses.append(node.status)
            new_rows.append(k)
        else:
            types[k], labels[k], statuses[k] = t, node.name, node.status
    all_pos = np.vstack(pos + [np.full((len(new_rows), 2), np.nan)])
    # Relations: those not touching a re-read entity stay; those touching one are as read now.
    old_src, old_dst = scene.ids[scene.src], scene.ids[scene.dst]
    stay = ~(np.isin(old_src, list(touched)) | np.isin(old_dst, list(touched)))
    rel_names = list(scene.rel_names)
    rel_of = {r: k for k, r in enumerate(rel_names)}
    src = [index[int(a)] for a in old_src[stay]]
    dst = [index[int(b)] for b in old_dst[stay]]
    rels = scene.rels[stay].tolist()
    for e in delta.edges:
        if e.source in index and e.target in index:
            src.append(index[e.source])
            dst.append(index[e.target])
            r = rel_of.get(e.relation_type)
            if r is None:
                r = rel_of[e.relation_type] = len(rel_names)
                rel_names.append(e.relation_type)
            rels.append(r)
    n = len(ids)
    src_arr, dst_arr = np.asarray(src, dtype=np.int32), np.asarray(dst, dtype=np.int32)
    degree = (np.bincount(src_arr, minlength=n) + np.bincount(dst_arr, minlength=n)).astype(np.int32)
    fresh = np.zeros(n, dtype=bool)
    fresh[new_rows] = True
    if fresh.any():
        all_pos = place_new(all_pos, src_arr.astype(np.int64), dst_arr.astype(np.int64),
                            np.random.default_rng(seed), 40.0)
    highlight = np.zeros(n, dtype=bool)
    highlight[: len(keep)] = scene.highlight[keep] if len(scene.highlight) == scene.n else False
    merged = Scene(
        ids=np.asarray(ids, dtype=np.int64), pos=all_pos, types=np.asarray(types, dtype=np.int32),
        type_names=type_names, degree=degree, kinds=np.zeros(n, dtype=np.int8), labels=labels, statuses=statuses,
        src=src_arr, dst=dst_arr, rels=np.asarray(rels, dtype=np.int32), rel_names=rel_names,
        dashed=np.zeros(len(src_arr), dtype=bool), highlight=highlight,
    )
    return merged, fresh
