"""Undo and redo of every edit: each step takes back exactly the changes its commit logged.

A step remembers the change_log ids of its commit (the activity log holds every row it added,
removed or changed, with before and after). Undo applies the inverse of those rows and nothing
else (``engine.revert``), checking each against the graph now: what another program committed
meanwhile stays, and a piece it changed since is a ``RevertConflict`` (what, by whom) with nothing
changed, until the person chooses (keep theirs and take back the rest, or bring a deleted entity
back into the one that holds its name now). Undo is itself a logged change; redo takes it back.
Steps run on the engine's thread (``undo_step``/``redo_step`` are ordinary service operations);
``UndoHistory`` is the plain list of steps the window keeps.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from limbic.engine.graph import revert
from limbic.engine.errors import ValidationError
from limbic.engine.graph.graph import Graph, shown
from limbic.engine.graph.revert import RevertConflict  # noqa: F401 - what undo raises, for front ends
from limbic.service.entities import (
    EntityDraft,
    EntitySnapshot,
    EntityView,
    apply_draft,
    load_view,
    snapshot,
)

MAX_STEPS = 100


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
    """One undoable action: the logged changes it made, taken back and made again conditionally.

    ``live`` are the change_log ids whose effect is in the graph now (the action's own commit,
    or the redo that made it again); ``undone`` the undo's own change. Undo and redo apply the
    inverse of exactly those changes (``engine.revert``): a piece another writer changed since
    raises ``RevertConflict`` with nothing changed, unless ``choice`` says what to do with it.
    """

    label = ""
    live: list[int]
    undone: list[int]

    def shown_after_undo(self, graph: Graph) -> int | None:  # pragma: no cover - interface
        return None

    def shown_after_redo(self, graph: Graph) -> int | None:  # pragma: no cover - interface
        return None

    def undo(self, graph: Graph, choice: str | None = None) -> int | None:
        """Take the action back; returns the id of the entity to show, if any."""
        if not self.live:
            raise ValidationError(f"The {self.label or 'step'} left nothing in the activity log to take back.")
        done = revert.apply(graph, self.live, choice, tool="undo")
        self.undone, self.live = ([done.change_id] if done.change_id else []), []
        return self.shown_after_undo(graph)

    def redo(self, graph: Graph, choice: str | None = None) -> int | None:
        """Make the action again (by taking its undo back); returns the id of the entity to show."""
        if not self.undone:
            raise ValidationError(f"The {self.label or 'step'} cannot be redone: its undo changed nothing.")
        done = revert.apply(graph, self.undone, choice, tool="redo")
        self.live, self.undone = ([done.change_id] if done.change_id else []), []
        return self.shown_after_redo(graph)


def _exists(graph: Graph, entity_id: int | None) -> int | None:
    return entity_id if entity_id is not None and graph.db.scalar(
        "SELECT 1 FROM entities WHERE id = ?", (entity_id,)) is not None else None


@dataclass
class EditStep(Step):
    """A save of an existing entity."""

    before: EntityView
    after: EntityView
    label: str = ""
    live: list[int] = field(default_factory=list)
    undone: list[int] = field(default_factory=list)

    def shown_after_undo(self, graph: Graph) -> int | None:
        return _exists(graph, self.before.entity.id)

    def shown_after_redo(self, graph: Graph) -> int | None:
        return _exists(graph, self.after.entity.id)


@dataclass
class DeleteStep(Step):
    """A deletion (undo brings the entity back with its id); also a creation, upside down."""

    snap: EntitySnapshot
    label: str = ""
    created: bool = False  # the step was a creation: undo deletes, redo restores
    live: list[int] = field(default_factory=list)
    undone: list[int] = field(default_factory=list)

    def _shown(self, graph: Graph) -> int | None:
        return _exists(graph, self.snap.entity_id) or graph.entity_id(self.snap.name)

    def shown_after_undo(self, graph: Graph) -> int | None:
        return None if self.created else self._shown(graph)

    def shown_after_redo(self, graph: Graph) -> int | None:
        return self._shown(graph) if self.created else None


@dataclass
class MergeStep(Step):
    """Entity ``source`` merged into ``target``: undo restores the source and the target as they were."""

    source: EntitySnapshot
    target_before: EntityView
    target_after: EntityView
    label: str = ""
    live: list[int] = field(default_factory=list)
    undone: list[int] = field(default_factory=list)

    def shown_after_undo(self, graph: Graph) -> int | None:
        return _exists(graph, self.source.entity_id) or graph.entity_id(self.source.name)

    def shown_after_redo(self, graph: Graph) -> int | None:
        return _exists(graph, self.target_after.entity.id)


@dataclass
class TypeRenameStep(Step):
    """Every entity of one type given another type."""

    old: str
    new: str
    ids: list[int]
    label: str = ""
    live: list[int] = field(default_factory=list)
    undone: list[int] = field(default_factory=list)


class OneEntityStep(Step):
    """A step that shows the same entity after undo and after redo, while it exists."""

    entity_id: int | None

    def shown_after_undo(self, graph: Graph) -> int | None:
        return _exists(graph, self.entity_id)

    def shown_after_redo(self, graph: Graph) -> int | None:
        return _exists(graph, self.entity_id)


@dataclass
class RevertStep(OneEntityStep):
    """A revert made in the Activity panel: undo takes the revert back (its own logged change), redo takes back again."""

    label: str = ""
    entity_id: int | None = None  # the entity open when it was made: shown again after undo or redo
    live: list[int] = field(default_factory=list)
    undone: list[int] = field(default_factory=list)


def undo_step(graph: Graph, step: Step, choice: str | None = None) -> int | None:
    """Service operation: take one step back (in one transaction); RevertConflict leaves everything as it is."""
    with graph.write():
        return step.undo(graph, choice)


def redo_step(graph: Graph, step: Step, choice: str | None = None) -> int | None:
    """Service operation: do an undone step again (in one transaction)."""
    with graph.write():
        return step.redo(graph, choice)


def pending_change(graph: Graph) -> int:
    """Inside a write: the change_log id its commit will have (what an undo step takes back)."""
    return graph.db.activity.pending_change_id()


def recorded(graph: Graph, change_id: int) -> list[int]:
    """After a write: ``[change_id]`` when that commit was logged, else nothing (it changed nothing)."""
    if graph.db.in_transaction:
        return [change_id]  # an outer transaction commits it, with this id
    return [change_id] if graph.db.activity.last_change_id == change_id else []


@dataclass
class Saved:
    """What a save through ``save_draft`` did: the entity id and the step that takes it back."""

    entity_id: int
    step: Step


def save_draft(graph: Graph, draft: EntityDraft, resolve: str | None = None) -> Saved:
    """``apply_draft`` that also returns its undo step."""
    with graph.write():
        change_id = pending_change(graph)
        entity_id = apply_draft(graph, draft, resolve)
        after = load_view(graph, entity_id)
    live = recorded(graph, change_id)
    if draft.entity_id is None or draft.base is None or entity_id != draft.entity_id:
        snap = _snapshot_of(after)
        return Saved(entity_id, DeleteStep(snap, f"creation of “{shown(after.entity.name, 40)}”", created=True, live=live))
    return Saved(entity_id, EditStep(draft.base, after, describe_edit(draft.base, after), live=live))


def delete_entity(graph: Graph, ref: int | str) -> DeleteStep:
    """Delete an entity; the step brings it back with its id, creation time, observations and relations."""
    with graph.write():
        change_id = pending_change(graph)
        snap = snapshot(graph, ref)
        graph.delete_entity(ref)
    return DeleteStep(snap, f"delete of “{shown(snap.name, 40)}”", live=recorded(graph, change_id))


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
