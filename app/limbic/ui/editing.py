"""What the entity editor saves and what undo restores: plain data and plain functions on a Graph (no Qt)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from limbic.engine.graph import Entity, Graph, Relation

logger = logging.getLogger(__name__)


@dataclass
class EntityView:
    """An entity as the editor shows it: itself and its relations both ways."""

    entity: Entity
    outgoing: list[Relation]
    incoming: list[Relation]


@dataclass
class EntityDraft:
    """The editor's state; ``entity_id`` None means a new entity."""

    entity_id: int | None
    name: str
    entity_type: str
    observations: list[tuple[int | None, str]] = field(default_factory=list)  # (stored id or None, text)
    outgoing: list[tuple[str, str]] = field(default_factory=list)  # (relation type, target name)
    incoming: list[tuple[str, str]] = field(default_factory=list)  # (source name, relation type)

    @classmethod
    def from_view(cls, view: EntityView) -> EntityDraft:
        """The draft that matches a stored entity exactly (nothing to save)."""
        ent = view.entity
        return cls(
            ent.id,
            ent.name,
            ent.entity_type,
            [(o.id, o.content) for o in ent.observations],
            [(r.relation_type, r.to_name) for r in view.outgoing],
            [(r.from_name, r.relation_type) for r in view.incoming],
        )


@dataclass
class EntitySnapshot:
    """Everything needed to bring a deleted entity back."""

    name: str
    entity_type: str
    observations: list[str]
    outgoing: list[tuple[str, str]]  # (relation type, target name)
    incoming: list[tuple[str, str]]  # (source name, relation type)


def load_view(graph: Graph, ref: int | str) -> EntityView:
    """The entity with its relations; raises NotFoundError."""
    entity = graph.get_entity(ref)
    outgoing, incoming = graph.relations_of(entity.id)
    return EntityView(entity, outgoing, incoming)


def apply_draft(graph: Graph, draft: EntityDraft) -> int:
    """Save a draft in one transaction (one re-embedding); returns the entity id."""
    texts = [t.strip() for _, t in draft.observations]
    with graph.write():
        if draft.entity_id is None:
            entity_id = graph.create_entity(draft.name, draft.entity_type or None, [t for t in texts if t])
        else:
            entity_id = draft.entity_id
            current = load_view(graph, entity_id)
            if draft.name.strip() != current.entity.name:
                graph.rename_entity(entity_id, draft.name)
            if draft.entity_type.strip() and draft.entity_type.strip() != current.entity.entity_type:
                graph.set_entity_type(entity_id, draft.entity_type)
            kept = {oid for oid, _ in draft.observations if oid is not None}
            stored = {o.id: o.content for o in current.entity.observations}
            for oid in stored:
                if oid not in kept:
                    graph.delete_observation(oid)
            new_texts = []
            for (oid, _), text in zip(draft.observations, texts):
                if oid is None:
                    if text:
                        new_texts.append(text)
                elif oid in stored and text != stored[oid]:
                    graph.edit_observation(oid, text)
            if new_texts:
                graph.add_observations(entity_id, new_texts)
            old_out = {(r.relation_type, r.to_name) for r in current.outgoing}
            old_in = {(r.from_name, r.relation_type) for r in current.incoming}
            for rtype, target in old_out - set(draft.outgoing):
                graph.remove_relation(entity_id, target, rtype)
            for source, rtype in old_in - set(draft.incoming):
                graph.remove_relation(source, entity_id, rtype)
        # New relations are added after the entity exists (and after a rename, by id).
        for rtype, target in draft.outgoing:
            graph.add_relation(entity_id, target, rtype)
        for source, rtype in draft.incoming:
            graph.add_relation(source, entity_id, rtype)
    return entity_id


def snapshot(graph: Graph, ref: int | str) -> EntitySnapshot:
    """Record an entity before it is deleted, so the deletion can be undone."""
    view = load_view(graph, ref)
    return EntitySnapshot(
        view.entity.name,
        view.entity.entity_type,
        view.entity.observation_texts,
        [(r.relation_type, r.to_name) for r in view.outgoing if r.to_id != view.entity.id],
        [(r.from_name, r.relation_type) for r in view.incoming],
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
