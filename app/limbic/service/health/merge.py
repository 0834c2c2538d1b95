"""Merging two entities the person chose: a plan first (the preview), then the same plan carried out.

``plan_merge`` works out, without writing, what the merged entity would hold: the target's
observations plus the source's that are not already there (equal once normalised, or nearly word
for word), every relation of the source re-pointed at the target (those between the two, and
those the target already has, dropped), and the type and status where the two disagree, to
choose. ``merge`` makes the plan again under the write lock and carries out exactly that plan,
so what the preview showed is what the merge does. The step it returns undoes the merge (it
reverts the merge's own commit in the activity log).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rapidfuzz import fuzz

from limbic.engine.errors import ValidationError
from limbic.engine.graph.graph import Graph, shown
from limbic.service.aliases import keep_names, names_kept_by_merge
from limbic.service.entities import EntitySnapshot, EntityView, load_view, snapshot
from limbic.service.health import text
from limbic.service.organise import _merge_signals
from limbic.service.undo import MergeStep, pending_change, recorded


@dataclass
class MergeConflict:
    """A field the two entities disagree on: the target's value is kept unless the person picks the other."""

    field: str  # "type" or "status"
    target: str
    source: str


@dataclass
class MergedRelation:
    """One relation of the merged entity; ``moved`` when it comes from the source."""

    relation_type: str
    other_id: int
    other_name: str
    outgoing: bool
    context: str | None = None
    moved: bool = False


@dataclass
class MergePlan:
    """What merging ``source`` into ``target`` would leave: the preview, and what the merge carries out."""

    source: EntityView
    target: EntityView
    entity_type: str
    status: str
    conflicts: list[MergeConflict] = field(default_factory=list)
    observations: list[str] = field(default_factory=list)  # the merged entity's, in order
    added: list[str] = field(default_factory=list)  # the source's that move over
    dropped: list[tuple[str, str]] = field(default_factory=list)  # (source's observation, the target's it repeats)
    relations: list[MergedRelation] = field(default_factory=list)
    dropped_relations: list[str] = field(default_factory=list)  # sentences
    aliases: list[str] = field(default_factory=list)  # names the survivor will also go by (the source's)

    @property
    def name(self) -> str:
        return self.target.entity.name

    def result(self) -> dict:
        """The merged entity as plain data (what the merge must leave in the file)."""
        return {
            "name": self.name, "entityType": self.entity_type, "status": self.status,
            "observations": list(self.observations),
            "outgoing": sorted((r.relation_type, r.other_name) for r in self.relations if r.outgoing),
            "incoming": sorted((r.other_name, r.relation_type) for r in self.relations if not r.outgoing),
        }

    def to_json(self) -> dict:
        """The preview as JSON (``limbic merge --dry-run --json``)."""
        return {
            "source": self.source.entity.name, "target": self.name, "result": self.result(),
            "added": self.added, "dropped": [{"observation": o, "repeats": t} for o, t in self.dropped],
            "moved_relations": [[r.relation_type, r.other_name, "out" if r.outgoing else "in"]
                                for r in self.relations if r.moved],
            "dropped_relations": self.dropped_relations,
            "conflicts": [{"field": c.field, "target": c.target, "source": c.source} for c in self.conflicts],
            "aliases": self.aliases,
        }


def view_result(view: EntityView) -> dict:
    """An entity as stored, in the shape of ``MergePlan.result`` (to compare a merge with its preview)."""
    e = view.entity
    return {
        "name": e.name, "entityType": e.entity_type, "status": e.status, "observations": e.observation_texts,
        "outgoing": sorted((r.relation_type, r.to_name) for r in view.outgoing if r.to_id != e.id),
        "incoming": sorted((r.from_name, r.relation_type) for r in view.incoming if r.from_id != e.id),
    }


def _repeats(candidate: str, kept: list[tuple[str, str]]) -> str | None:
    """The kept observation ``candidate`` says again (equal once normalised, or nearly word for word)."""
    key = text.observation_key(candidate)
    for original, other in kept:
        if key == other or (len(key) > 20 and fuzz.token_sort_ratio(key, other) >= 92):
            return original
    return None


def plan_merge(graph: Graph, source: int | str, target: int | str, entity_type: str | None = None,
               status: str | None = None) -> MergePlan:
    """What merging ``source`` into ``target`` would do (reads only); ``entity_type``/``status`` pick a side."""
    src, tgt = load_view(graph, source), load_view(graph, target)
    if src.entity.id == tgt.entity.id:
        raise ValidationError("An entity cannot be merged into itself.")
    conflicts = []
    for fname, tv, sv in (("type", tgt.entity.entity_type, src.entity.entity_type),
                          ("status", tgt.entity.status, src.entity.status)):
        if tv != sv:
            conflicts.append(MergeConflict(fname, tv, sv))
    for fname, chosen, c_values in (("type", entity_type, (tgt.entity.entity_type, src.entity.entity_type)),
                                    ("status", status, (tgt.entity.status, src.entity.status))):
        if chosen is not None and chosen not in c_values:
            if c_values[0] == c_values[1]:  # nothing to choose between: both entities have the same one
                raise ValidationError(f"Both entities' {fname} is “{shown(c_values[0], 30)}”, so the merged entity "
                                      f"keeps it and cannot be “{shown(chosen, 30)}”.")
            raise ValidationError(f"The merged entity's {fname} can be “{shown(c_values[0], 30)}” or "
                                  f"“{shown(c_values[1], 30)}”, not “{shown(chosen, 30)}”.")
    plan = MergePlan(src, tgt, entity_type or tgt.entity.entity_type, status or tgt.entity.status, conflicts)
    kept = [(o, text.observation_key(o)) for o in tgt.entity.observation_texts]
    plan.observations = [o for o, _ in kept]
    for o in src.entity.observation_texts:
        same = _repeats(o, kept)
        if same is not None:
            plan.dropped.append((o, same))
            continue
        plan.added.append(o)
        plan.observations.append(o)
        kept.append((o, text.observation_key(o)))
    sid, tid = src.entity.id, tgt.entity.id
    plan.aliases = names_kept_by_merge(graph, sid, tid)
    have_out = {(r.relation_type, r.to_id) for r in tgt.outgoing}
    have_in = {(r.relation_type, r.from_id) for r in tgt.incoming}
    plan.relations = [MergedRelation(r.relation_type, r.to_id, r.to_name, True, r.context)
                      for r in tgt.outgoing if r.to_id not in (sid, tid)]
    plan.relations += [MergedRelation(r.relation_type, r.from_id, r.from_name, False, r.context)
                       for r in tgt.incoming if r.from_id not in (sid, tid)]
    for r in tgt.outgoing + tgt.incoming:
        if sid in (r.to_id, r.from_id):
            plan.dropped_relations.append(f"“{shown(r.from_name, 30)}” {r.relation_type} “{shown(r.to_name, 30)}”: "
                                          "it would relate the entity to itself.")
    for r in src.outgoing:
        if r.to_id in (sid, tid):
            if r.to_id == tid:
                plan.dropped_relations.append(f"“{shown(r.from_name, 30)}” {r.relation_type} “{shown(r.to_name, 30)}”: "
                                              "it would relate the entity to itself.")
            continue
        if (r.relation_type, r.to_id) in have_out:
            plan.dropped_relations.append(f"“{shown(r.from_name, 30)}” {r.relation_type} “{shown(r.to_name, 30)}”: "
                                          f"“{shown(tgt.entity.name, 30)}” has it already.")
            continue
        have_out.add((r.relation_type, r.to_id))
        plan.relations.append(MergedRelation(r.relation_type, r.to_id, r.to_name, True, r.context, moved=True))
    for r in src.incoming:
        if r.from_id in (sid, tid):
            continue
        if (r.relation_type, r.from_id) in have_in:
            plan.dropped_relations.append(f"“{shown(r.from_name, 30)}” {r.relation_type} “{shown(r.to_name, 30)}”: "
                                          f"“{shown(tgt.entity.name, 30)}” has it already.")
            continue
        have_in.add((r.relation_type, r.from_id))
        plan.relations.append(MergedRelation(r.relation_type, r.from_id, r.from_name, False, r.context, moved=True))
    return plan


def _set_status(graph: Graph, entity_id: int, status: str) -> None:
    if graph.db.scalar("SELECT status FROM entities WHERE id = ?", (entity_id,)) != status:
        graph.db.execute("UPDATE entities SET status = ? WHERE id = ?", (status, entity_id))
        graph.db.note("changed", (entity_id,))


def merge(graph: Graph, source: int | str, target: int | str, entity_type: str | None = None,
          status: str | None = None) -> MergeStep:
    """Merge ``source`` into ``target`` exactly as ``plan_merge`` previews it; returns the undo step.

    One commit, recorded in the activity log like any edit of the person's (undo reverts exactly it).
    """
    with graph.write():
        change_id = pending_change(graph)
        plan = plan_merge(graph, source, target, entity_type, status)  # again, under the write lock
        sid, tid = plan.source.entity.id, plan.target.entity.id
        snap: EntitySnapshot = snapshot(graph, sid)
        if plan.added:
            graph.add_observations(tid, plan.added)
        for r in plan.relations:
            if r.moved:
                if r.outgoing:
                    graph.add_relation(tid, r.other_id, r.relation_type, r.context)
                else:
                    graph.add_relation(r.other_id, tid, r.relation_type, r.context)
        _merge_signals(graph, sid, tid)
        graph.delete_entity(sid)
        keep_names(graph, tid, plan.aliases)  # "NYC" still finds the survivor
        if plan.entity_type != plan.target.entity.entity_type:
            graph.set_entity_type(tid, plan.entity_type)
        _set_status(graph, tid, plan.status)
        after = load_view(graph, tid)
    label = f"merge of “{shown(snap.name, 30)}” into “{shown(after.entity.name, 30)}”"
    return MergeStep(snap, plan.target, after, label, live=recorded(graph, change_id))
