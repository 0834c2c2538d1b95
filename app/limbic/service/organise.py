"""Browsing and organising the graph: the empty-query lists, the browser, pins, merges, type renames.

Pins live in a small ``pins`` table created on the first pin (``IF NOT EXISTS``, no schema
change): a file without it simply has no pins, and older versions of Limbic ignore it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from limbic.engine.errors import ValidationError
from limbic.engine.graph.graph import Graph, shown
from limbic.service.aliases import keep_names, names_kept_by_merge
from limbic.service.entities import EntitySnapshot, EntityView, load_view, snapshot
from limbic.service.undo import MergeStep, TypeRenameStep, pending_change, recorded

PINS_DDL = """CREATE TABLE IF NOT EXISTS pins (
    entity_id INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
    pinned_at TEXT NOT NULL
)"""
HOME_LIMIT = 8
SORTS = ("name", "date", "importance")


@dataclass
class Item:
    """One entity in a list: enough to show a row and open it."""

    entity_id: int
    name: str
    entity_type: str
    updated_at: str = ""
    uses: int = 0  # how often it was opened or returned
    degree: int = 0  # active relations touching it


@dataclass
class Home:
    """What the result panel shows while the query is empty."""

    pinned: list[Item] = field(default_factory=list)
    opened: list[Item] = field(default_factory=list)
    changed: list[Item] = field(default_factory=list)


_ITEM_SQL = """
SELECT e.id, e.name, e.entity_type, e.updated_at, coalesce(a.access_count, 0),
       (SELECT count(*) FROM relations r WHERE r.active = 1 AND (r.from_entity = e.id OR r.to_entity = e.id))
FROM entities e LEFT JOIN entity_access a ON a.entity_id = e.id
"""


def items(graph: Graph, where: str, order: str, params: tuple = (), limit: int | None = None) -> list[Item]:
    """Entities as list rows; ``where`` and ``order`` are SQL over ``entities e`` and ``entity_access a``."""
    sql = f"{_ITEM_SQL} {where} ORDER BY {order}" + (f" LIMIT {int(limit)}" if limit else "")
    return [Item(*row) for row in graph.db.execute(sql, params)]


def pinned_ids(graph: Graph) -> list[int]:
    if not graph.db.has_table("pins"):
        return []
    return [r[0] for r in graph.db.execute("SELECT entity_id FROM pins ORDER BY pinned_at DESC, entity_id")]


def home(graph: Graph, limit: int = HOME_LIMIT) -> Home:
    """Pinned, recently opened and recently changed entities (read-only: runs on the reader)."""
    pins = pinned_ids(graph)
    pinned = []
    if pins:
        marks = ",".join("?" * len(pins))
        found = {i.entity_id: i for i in items(graph, f"WHERE e.id IN ({marks})", "e.name", tuple(pins))}
        pinned = [found[i] for i in pins if i in found]
    opened = items(graph, "WHERE a.last_access IS NOT NULL", "a.last_access DESC, e.id DESC", limit=limit)
    changed = items(graph, "", "e.updated_at DESC, e.id DESC", limit=limit)
    return Home(pinned, opened, changed)


def type_counts(graph: Graph) -> list[tuple[str, int]]:
    """Every entity type with how many entities have it, most common first."""
    return [(r[0], r[1]) for r in graph.db.execute(
        "SELECT entity_type, count(*) FROM entities GROUP BY entity_type ORDER BY count(*) DESC, entity_type")]


def browse(graph: Graph, entity_type: str = "", sort: str = "name", limit: int = 5000) -> list[Item]:
    """The entities of one type (all types for ""), sorted by name, last change or importance."""
    if sort not in SORTS:
        raise ValidationError(f"Entities can be sorted by {', '.join(SORTS)}.")
    order = {"name": "e.name COLLATE NOCASE", "date": "e.updated_at DESC, e.id DESC",
             "importance": "coalesce(a.access_count, 0) DESC, 6 DESC, e.name COLLATE NOCASE"}[sort]
    where, params = ("WHERE e.entity_type = ?", (entity_type,)) if entity_type else ("", ())
    return items(graph, where, order, params, limit)


def set_pinned(graph: Graph, entity_id: int, pinned: bool) -> bool:
    """Pin or unpin an entity; returns whether it is pinned now."""
    from limbic.engine.graph.graph import now_utc

    with graph.write():
        graph.get_entity(entity_id)  # NotFoundError for an entity gone meanwhile
        graph.db.execute(PINS_DDL)
        if pinned:
            graph.db.execute("INSERT OR IGNORE INTO pins(entity_id, pinned_at) VALUES (?, ?)", (entity_id, now_utc()))
        else:
            graph.db.execute("DELETE FROM pins WHERE entity_id = ?", (entity_id,))
    return pinned


def is_pinned(graph: Graph, entity_id: int) -> bool:
    return entity_id in pinned_ids(graph)


def merge_entities(graph: Graph, source: int | str, target: int | str) -> MergeStep:
    """Merge ``source`` into ``target``: its observations and relations move, duplicates collapse, it goes.

    Returns the undo step (undo brings the source back with its id and restores the target).
    """
    with graph.write():
        change_id = pending_change(graph)
        target_before = load_view(graph, target)
        src = load_view(graph, source)
        if src.entity.id == target_before.entity.id:
            raise ValidationError("An entity cannot be merged into itself.")
        snap: EntitySnapshot = snapshot(graph, src.entity.id)
        tid, sid = target_before.entity.id, src.entity.id
        graph.add_observations(tid, src.entity.observation_texts)  # duplicates are skipped
        for r in src.outgoing:
            if r.to_id not in (sid, tid):  # a relation between the two would point at itself
                graph.add_relation(tid, r.to_id, r.relation_type, r.context)
        for r in src.incoming:
            if r.from_id not in (sid, tid):
                graph.add_relation(r.from_id, tid, r.relation_type, r.context)
        names = names_kept_by_merge(graph, sid, tid)
        _merge_signals(graph, sid, tid)
        graph.delete_entity(sid)
        keep_names(graph, tid, names)  # the merged-away name still finds the survivor
        target_after = load_view(graph, tid)
    label = f"merge of “{shown(snap.name, 30)}” into “{shown(target_after.entity.name, 30)}”"
    return MergeStep(snap, target_before, target_after, label, live=recorded(graph, change_id))


def _merge_signals(graph: Graph, source_id: int, target_id: int) -> None:
    """The target inherits the source's use, so a merge does not make an entity look forgotten."""
    row = graph.db.one("SELECT access_count, last_access FROM entity_access WHERE entity_id = ?", (source_id,))
    if row is None:
        return
    graph.db.execute(
        "INSERT INTO entity_access(entity_id, access_count, last_access) VALUES (?, ?, ?) "
        "ON CONFLICT(entity_id) DO UPDATE SET access_count = access_count + excluded.access_count, "
        "last_access = max(coalesce(last_access, ''), coalesce(excluded.last_access, ''))",
        (target_id, row[0], row[1]),
    )


def rename_type(graph: Graph, old: str, new: str) -> TypeRenameStep:
    """Give every entity of type ``old`` the type ``new`` (one transaction); returns the undo step."""
    if old == new.strip():
        raise ValidationError("The new type name is the same as the old one.")
    with graph.write():
        change_id = pending_change(graph)
        ids = graph.rename_type(old, new)
    if not ids:
        raise ValidationError(f"No entity has the type “{shown(old, 40)}”.")
    label = f"type rename of “{shown(old, 30)}” to “{shown(new.strip(), 30)}”"
    return TypeRenameStep(old, new.strip(), ids, label, live=recorded(graph, change_id))


def target_view(graph: Graph, ref: int | str) -> EntityView:
    """The entity a merge would go into (for the merge dialog's check)."""
    return load_view(graph, ref)
