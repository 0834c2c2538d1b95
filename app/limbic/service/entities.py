"""What the entity editor saves and what undo restores: plain data and plain functions on a Graph."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from datetime import datetime, timedelta, timezone

from limbic.engine.graph import activity_log
from limbic.engine.errors import LimbicError, NotFoundError
from limbic.engine.graph.graph import TIME_FORMAT, Entity, Graph, Relation

logger = logging.getLogger(__name__)

HISTORY_CHANGES = 20  # the editor names who made the newest changes of an entity


@dataclass
class EntityView:
    """An entity as the editor shows it: itself and its relations both ways."""

    entity: Entity
    outgoing: list[Relation]
    incoming: list[Relation]
    ended: list[Relation] = field(default_factory=list)  # ended relations either way: kept, shown greyed
    reflections: list = field(default_factory=list)  # Reflection: about it or its relations
    changes: list = field(default_factory=list)  # activity_log.Change: who changed it and when (the editor's view)
    reads: list = field(default_factory=list)  # activity_log.ReadCount: which assistants read it this week
    aliases: list[str] = field(default_factory=list)  # its other names, in the order given
    gid: str | None = None  # its global id: never given to another entity, unlike its integer id


@dataclass
class EntityDraft:
    """The editor's state; ``entity_id`` None means a new entity."""

    entity_id: int | None
    name: str
    entity_type: str
    observations: list[tuple[int | None, str]] = field(default_factory=list)  # (stored id or None, text)
    outgoing: list[tuple[str, str]] = field(default_factory=list)  # (relation type, target name)
    incoming: list[tuple[str, str]] = field(default_factory=list)  # (source name, relation type)
    base: EntityView | None = None  # the entity as it was loaded: a save applies only the changes since

    @classmethod
    def from_view(cls, view: EntityView) -> EntityDraft:
        """The draft that matches a stored entity exactly (nothing to save)."""
        ent = view.entity
        return cls(
            ent.id,
            ent.name,
            ent.entity_type,
            [(o.id, o.content) for o in ent.observations if o.current],  # superseded ones are history
            [(r.relation_type, r.to_name) for r in view.outgoing],
            [(r.from_name, r.relation_type) for r in view.incoming],
            view,
        )


@dataclass
class EntitySnapshot:
    """Everything needed to bring a deleted entity back."""

    name: str
    entity_type: str
    observations: list[str]
    outgoing: list[tuple[str, str]]  # (relation type, target name)
    incoming: list[tuple[str, str]]  # (source name, relation type)
    entity_id: int | None = None  # undo brings the entity back with its id and creation time
    created_at: str | None = None


def load_view(graph: Graph, ref: int | str) -> EntityView:
    """The entity with its relations; raises NotFoundError."""
    entity = graph.get_entity(ref)
    outgoing, incoming = graph.relations_of(entity.id)
    all_out, all_in = graph.relations_of(entity.id, ended=True)
    ended = [r for r in all_out + all_in if not r.active]
    aliases = graph.aliases_by_entity([entity.id]).get(entity.id, [])
    # The gid column came with schema 7, with its unique index; a read-only older file has neither.
    gid = graph.db.scalar("SELECT gid FROM entities WHERE id = ?", (entity.id,)) \
        if graph.db.has_table("entities_gid") else None
    return EntityView(entity, outgoing, incoming, ended, graph.reflections_of(entity.id), aliases=aliases, gid=gid)


def open_view(graph: Graph, ref: int | str, record: bool = False, together: tuple[int, ...] = ()) -> EntityView:
    """Load an entity for the editor; ``record`` counts it as used (a hit opened from the results).

    ``together`` holds the hits shown with it, which then count as having come up together.
    """
    from limbic.engine.graph import signals

    view = load_view(graph, ref)
    if record:
        signals.record_access(graph.db, [view.entity.id], together=list(together or ()))
    view.changes = activity_log.entity_history(graph.db, view.entity.id, limit=HISTORY_CHANGES)
    week_ago = (datetime.now(timezone.utc) - timedelta(days=7)).strftime(TIME_FORMAT)
    view.reads = activity_log.reads_of(graph.db, view.entity.id, since=week_ago)
    return view


class ConflictError(LimbicError):
    """A save that would overwrite another program's change; the person decides."""

    def __init__(self, conflicts: list[Conflict], draft: EntityDraft) -> None:
        self.conflicts = conflicts
        self.draft = draft
        first = conflicts[0].describe() if conflicts else ""
        more = f" (and {len(conflicts) - 1} more)" if len(conflicts) > 1 else ""
        super().__init__(f"Not saved: {first}{more}.")


@dataclass
class Conflict:
    """One place where the person and another program changed the same thing."""

    what: str  # "deleted", "name", "type", "observation"
    mine: str | None
    theirs: str | None
    obs_id: int | None = None

    def describe(self) -> str:
        if self.what == "deleted":
            return "the entity was deleted by another program while you edited it"
        if self.what == "observation" and self.theirs is None:
            return "an observation you edited was deleted by another program"
        if self.what == "observation" and self.mine is None:
            return "an observation you deleted was changed by another program"
        if self.what == "observation":
            return "an observation you edited was also changed by another program"
        return f"the {self.what} was changed by another program to “{self.theirs}”"


MINE = "mine"  # resolve every conflict with the person's version
THEIRS = "theirs"  # keep the other program's version wherever both changed


def apply_draft(graph: Graph, draft: EntityDraft, resolve: str | None = None) -> int:
    """Save a draft in one transaction (one re-embedding); returns the entity id.

    Only what the person changed since the draft was loaded (``draft.base``) is applied, so
    observations and relations another program added meanwhile stay. Where both sides changed
    the same thing, nothing is written and ``ConflictError`` lists it, unless ``resolve`` says
    whose version wins (``MINE`` or ``THEIRS``).
    """
    with graph.write():
        if draft.entity_id is None:
            entity_id = graph.create_entity(draft.name, draft.entity_type or None, [t.strip() for _, t in draft.observations if t.strip()])
            out_add, in_add, out_del, in_del = set(draft.outgoing), set(draft.incoming), set(), set()
        else:
            entity_id, out_add, in_add, out_del, in_del = _apply_existing(graph, draft, resolve)
        # New relations are added after the entity exists (and after a rename, by id).
        for rtype, target in draft.outgoing:
            if (rtype, target) in out_add:
                graph.add_relation(entity_id, target, rtype)
        for source, rtype in draft.incoming:
            if (source, rtype) in in_add:
                graph.add_relation(source, entity_id, rtype)
    return entity_id


def _apply_existing(graph: Graph, draft: EntityDraft, resolve: str | None):
    base = draft.base
    entity_id = draft.entity_id
    assert entity_id is not None
    try:
        current = load_view(graph, entity_id)
    except NotFoundError:
        if resolve != MINE:
            raise ConflictError([Conflict("deleted", draft.name, None)], draft) from None
        # The person keeps the entity: it comes back with their version of it.
        revived = EntityDraft(None, draft.name, draft.entity_type, [(None, t) for _, t in draft.observations],
                              list(draft.outgoing), list(draft.incoming))
        new_id = apply_draft(graph, revived)
        return new_id, set(), set(), set(), set()
    if base is None:
        base = current  # no record of what was loaded: compare with now (the old behaviour)
    conflicts: list[Conflict] = []
    ops: list = []
    name, etype = draft.name.strip(), draft.entity_type.strip()
    if name != base.entity.name:
        if current.entity.name not in (base.entity.name, name):
            conflicts.append(Conflict("name", name, current.entity.name))
            if resolve == MINE:
                ops.append(lambda: graph.rename_entity(entity_id, name))
        elif name != current.entity.name:
            ops.append(lambda: graph.rename_entity(entity_id, name))
    if etype and etype != base.entity.entity_type:
        if current.entity.entity_type not in (base.entity.entity_type, etype):
            conflicts.append(Conflict("type", etype, current.entity.entity_type))
            if resolve == MINE:
                ops.append(lambda: graph.set_entity_type(entity_id, etype))
        elif etype != current.entity.entity_type:
            ops.append(lambda: graph.set_entity_type(entity_id, etype))
    # Superseded observations are history the editor does not show: a save never touches them.
    loaded = {o.id: o.content for o in base.entity.observations if o.current}
    now = {o.id: o.content for o in current.entity.observations if o.current}
    kept = {oid for oid, _ in draft.observations if oid is not None}
    new_texts: list[str] = []
    for oid, text in loaded.items():
        if oid in kept:
            continue
        # The person deleted it.
        if oid not in now:
            continue  # gone already
        if now[oid] != text:
            conflicts.append(Conflict("observation", None, now[oid], oid))
            if resolve == MINE:
                ops.append(lambda oid=oid: graph.delete_observation(oid))
        else:
            ops.append(lambda oid=oid: graph.delete_observation(oid))
    for oid, text in draft.observations:
        text = text.strip()
        if oid is None:
            if text:
                new_texts.append(text)
            continue
        if oid not in loaded or text == loaded[oid]:
            continue  # untouched by the person
        if oid not in now:
            conflicts.append(Conflict("observation", text, None, oid))
            if resolve == MINE and text:
                new_texts.append(text)
        elif now[oid] not in (loaded[oid], text):
            conflicts.append(Conflict("observation", text, now[oid], oid))
            if resolve == MINE:
                ops.append(lambda oid=oid, text=text: graph.edit_observation(oid, text) if text else graph.delete_observation(oid))
        elif now[oid] != text:
            ops.append(lambda oid=oid, text=text: graph.edit_observation(oid, text) if text else graph.delete_observation(oid))
    if conflicts and resolve is None:
        raise ConflictError(conflicts, draft)
    for op in ops:
        op()
    if new_texts:
        graph.add_observations(entity_id, new_texts)
    base_out = {(r.relation_type, r.to_name) for r in base.outgoing}
    base_in = {(r.from_name, r.relation_type) for r in base.incoming}
    now_out = {(r.relation_type, r.to_name) for r in current.outgoing}
    now_in = {(r.from_name, r.relation_type) for r in current.incoming}
    out_del = (base_out - set(draft.outgoing)) & now_out
    in_del = (base_in - set(draft.incoming)) & now_in
    for rtype, target in out_del:
        graph.remove_relation(entity_id, target, rtype)
    for source, rtype in in_del:
        graph.remove_relation(source, entity_id, rtype)
    out_add = set(draft.outgoing) - base_out - now_out
    in_add = set(draft.incoming) - base_in - now_in
    return entity_id, out_add, in_add, out_del, in_del


def snapshot(graph: Graph, ref: int | str) -> EntitySnapshot:
    """Record an entity before it is deleted, so the deletion can be undone."""
    view = load_view(graph, ref)
    return EntitySnapshot(
        view.entity.name,
        view.entity.entity_type,
        view.entity.observation_texts,
        [(r.relation_type, r.to_name) for r in view.outgoing if r.to_id != view.entity.id],
        [(r.from_name, r.relation_type) for r in view.incoming],
        view.entity.id,
        view.entity.created_at,
    )


def delete_with_snapshot(graph: Graph, ref: int | str) -> EntitySnapshot:
    """Delete an entity and return what undo needs."""
    snap = snapshot(graph, ref)
    graph.delete_entity(ref)
    return snap


def restore(graph: Graph, snap: EntitySnapshot) -> tuple[int, int]:
    """Re-create a deleted entity with its observations and relations.

    Returns (entity id, relations skipped because their other end is gone meanwhile).
    """
    skipped = 0
    with graph.write():
        if snap.entity_id is not None and snap.created_at:
            entity_id = graph.restore_entity(snap.entity_id, snap.name, snap.entity_type, snap.created_at,
                                             snap.observations)
        else:
            entity_id = graph.create_entity(snap.name, snap.entity_type, snap.observations)
        for rtype, target in snap.outgoing:
            if graph.entity_id(target) is None and target != snap.name:
                skipped += 1
                continue
            graph.add_relation(entity_id, target, rtype)
        for source, rtype in snap.incoming:
            if graph.entity_id(source) is None:
                skipped += 1
                continue
            graph.add_relation(source, entity_id, rtype)
    return entity_id, skipped


def set_status(graph: Graph, entity_id: int, status: str) -> int:
    """Give an entity another status (active, paused, done, archived); its id, for the caller to show it."""
    graph.set_status(entity_id, status)
    return entity_id
