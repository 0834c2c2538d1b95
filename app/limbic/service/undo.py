"""Undo and redo of every edit: each step applies the inverse through the editor's own three-way save.

A step keeps the entity as it was before and after the person's change (``EntityView``). Undoing
saves the "before" state as a draft loaded from the "after" state, so only what the person
changed is taken back: what another program changed meanwhile stays, and a true conflict is
reported like any save's. Redo does the same the other way. Deleted entities come back with their
id and creation time. Steps run on the engine's thread (``undo_step``/``redo_step`` are ordinary
service operations); ``UndoHistory`` is the plain list of steps the window keeps.
"""

from __future__ import annotations

from dataclasses import dataclass

from limbic.engine.graph import Graph, shown
from limbic.service.entities import (
    EntityDraft,
    EntitySnapshot,
    EntityView,
    apply_draft,
    load_view,
    restore,
    snapshot,
)

MAX_STEPS = 100


def revert(graph: Graph, target: EntityView, base: EntityView) -> EntityView:
    """Bring an entity from ``base`` (how it is believed to be) back to ``target``; returns it as it is then."""
    base_ids = {o.id for o in base.entity.observations}
    draft = EntityDraft(
        base.entity.id,
        target.entity.name,
        target.entity.entity_type,
        [(o.id if o.id in base_ids else None, o.content) for o in target.entity.observations],
        [(r.relation_type, r.to_name) for r in target.outgoing],
        [(r.from_name, r.relation_type) for r in target.incoming],
        base,
    )
    entity_id = apply_draft(graph, draft)
    return load_view(graph, entity_id)


def describe_edit(before: EntityView | None, after: EntityView) -> str:
    """What a save did, in a few words for the Edit menu: “rename of “X””, “edit of “X””."""
    name = shown(after.entity.name, 40)
    if before is None:
        return f"creation of “{name}”"
    parts = []
    if before.entity.name != after.entity.name:
        parts.append("rename")
    if before.entity.entity_type != after.entity.entity_type:
        parts.append("type")
    if [o.content for o in before.entity.observations] != [o.content for o in after.entity.observations]:
        parts.append("observations")
    rel = lambda v: ({(r.relation_type, r.to_name) for r in v.outgoing}, {(r.from_name, r.relation_type) for r in v.incoming})  # noqa: E731
    if rel(before) != rel(after):
        parts.append("relations")
    if parts == ["rename"]:
        return f"rename of “{shown(before.entity.name, 40)}”"
    if parts == ["type"]:
        return f"type change of “{name}”"
    if parts == ["observations"]:
        return f"observation edit in “{name}”"
    if parts == ["relations"]:
        return f"relation change of “{name}”"
    return f"edit of “{name}”"


class Step:
    """One undoable action; ``undo``/``redo`` return the id of the entity to show, if any."""

    label = ""

    def undo(self, graph: Graph) -> int | None:  # pragma: no cover - interface
        raise NotImplementedError

    def redo(self, graph: Graph) -> int | None:  # pragma: no cover - interface
        raise NotImplementedError


@dataclass
class EditStep(Step):
    """A save of an existing entity."""

    before: EntityView
    after: EntityView
    label: str = ""

    def undo(self, graph: Graph) -> int | None:
        self.before = revert(graph, self.before, self.after)
        return self.before.entity.id

    def redo(self, graph: Graph) -> int | None:
        self.after = revert(graph, self.after, self.before)
        return self.after.entity.id


@dataclass
class DeleteStep(Step):
    """A deletion (undo brings the entity back with its id); also a creation, upside down."""

    snap: EntitySnapshot
    label: str = ""
    created: bool = False  # the step was a creation: undo deletes, redo restores

    def _restore(self, graph: Graph) -> int:
        entity_id, _ = restore(graph, self.snap)
        return entity_id

    def _delete(self, graph: Graph) -> None:
        ref = self.snap.entity_id if self.snap.entity_id is not None else self.snap.name
        self.snap = snapshot(graph, ref)
        graph.delete_entity(ref)

    def undo(self, graph: Graph) -> int | None:
        if self.created:
            self._delete(graph)
            return None
        return self._restore(graph)

    def redo(self, graph: Graph) -> int | None:
        if self.created:
            return self._restore(graph)
        self._delete(graph)
        return None


@dataclass
class MergeStep(Step):
    """Entity ``source`` merged into ``target``: undo restores the source and the target as they were."""

    source: EntitySnapshot
    target_before: EntityView
    target_after: EntityView
    label: str = ""

    def undo(self, graph: Graph) -> int | None:
        with graph.write():
            source_id, _ = restore(graph, self.source)
            self.target_before = revert(graph, self.target_before, load_view(graph, self.target_after.entity.id))
        return source_id

    def redo(self, graph: Graph) -> int | None:
        from limbic.service.organise import merge_entities

        again = merge_entities(graph, self.source.entity_id or self.source.name, self.target_before.entity.id)
        self.source, self.target_after = again.source, again.target_after
        return self.target_after.entity.id


@dataclass
class TypeRenameStep(Step):
    """Every entity of one type given another type."""

    old: str
    new: str
    ids: list[int]
    label: str = ""

    def undo(self, graph: Graph) -> int | None:
        graph.rename_type(self.new, self.old, self.ids)
        return None

    def redo(self, graph: Graph) -> int | None:
        self.ids = graph.rename_type(self.old, self.new, self.ids)
        return None


def undo_step(graph: Graph, step: Step) -> int | None:
    """Service operation: take one step back (in one transaction)."""
    with graph.write():
        return step.undo(graph)


def redo_step(graph: Graph, step: Step) -> int | None:
    """Service operation: do an undone step again (in one transaction)."""
    with graph.write():
        return step.redo(graph)


@dataclass
class Saved:
    """What a save through ``save_draft`` did: the entity id and the step that takes it back."""

    entity_id: int
    step: Step


def save_draft(graph: Graph, draft: EntityDraft, resolve: str | None = None) -> Saved:
    """``apply_draft`` that also returns its undo step."""
    with graph.write():
        entity_id = apply_draft(graph, draft, resolve)
        after = load_view(graph, entity_id)
    if draft.entity_id is None or draft.base is None or entity_id != draft.entity_id:
        snap = _snapshot_of(after)
        return Saved(entity_id, DeleteStep(snap, f"creation of “{shown(after.entity.name, 40)}”", created=True))
    return Saved(entity_id, EditStep(draft.base, after, describe_edit(draft.base, after)))


def delete_entity(graph: Graph, ref: int | str) -> DeleteStep:
    """Delete an entity; the step brings it back with its id, creation time, observations and relations."""
    with graph.write():
        snap = snapshot(graph, ref)
        graph.delete_entity(ref)
    return DeleteStep(snap, f"delete of “{shown(snap.name, 40)}”")


def _snapshot_of(view: EntityView) -> EntitySnapshot:
    e = view.entity
    return EntitySnapshot(
        e.name, e.entity_type, e.observation_texts,
        [(r.relation_type, r.to_name) for r in view.outgoing if r.to_id != e.id],
        [(r.from_name, r.relation_type) for r in view.incoming],
        e.id, e.created_at,
    )


class UndoHistory:
    """The window's undo and redo lists (plain data; the steps run on the engine's thread)."""

    def __init__(self) -> None:
        self.undo_steps: list[Step] = []
        self.redo_steps: list[Step] = []

    def push(self, step: Step) -> None:
        """A new action: it can be undone, and what was undone before can no longer be redone."""
        self.undo_steps.append(step)
        del self.undo_steps[:-MAX_STEPS]
        self.redo_steps.clear()

    @property
    def undo_label(self) -> str:
        return self.undo_steps[-1].label if self.undo_steps else ""

    @property
    def redo_label(self) -> str:
        return self.redo_steps[-1].label if self.redo_steps else ""

    def clear(self) -> None:
        self.undo_steps.clear()
        self.redo_steps.clear()
