"""The conflicts sync kept: both values, both devices, when; and resolving one (keep mine, theirs, both).

A conflict is named alike on every device that meets it (``key_of``: the row, the field and the two
values, which are the same on both sides since the winner is). A resolution is an ordinary local
write, published like any other, so every device ends with the value the person chose; and the choice
itself travels (``sync_outbox`` until the next publish, then ``receive`` on the other devices), so the
same conflict closes everywhere. A choice that meets another choice made elsewhere for the same
conflict, without either seeing the other, is a conflict of its own, holding the text the two left
out of the live graph, never a silent overwrite.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from limbic.engine.errors import NotFoundError, ValidationError
from limbic.engine.store.schema import SYNCED_TABLES
from limbic.engine.store.values import now_utc, shown
from limbic.engine.sync import rows, state
from limbic.engine.sync.conflict_key import key_of

if TYPE_CHECKING:
    from limbic.engine.graph.graph import Graph

KEEPS = ("mine", "theirs", "both")
_RULES = {
    "field": "changed on both devices",
    "deleted_there": "deleted on {lost_name}; kept because it was changed here; delete again?",
    "deleted_here": "deleted here; kept because {lost_name} changed it meanwhile; delete again?",
    "rename_taken": "renamed onto a name another entity holds",
    "missing": "changed on {lost_name}, but it is nowhere here",
    "resolved_twice": "chosen differently here and on {lost_name}, each without seeing the other",
    "superseded_edit": "replaced by a newer text while it was edited on the other device; the edit is history now",
}
SIDES = ("kept", "lost", "both", "delete", "keep")  # a choice as it travels: in the values' terms, not "mine"


@dataclass
class SyncConflict:
    """One conflict as the person sees it."""

    id: int
    kind: str
    gid: str
    entity: str | None  # the name of the entity it concerns, when it is still here
    field: str
    rule: str
    mine: object  # this device's value (None: deleted or absent)
    theirs: object
    my_device: str  # device ids, as the folder names them
    their_device: str
    kept: str  # "mine" or "theirs": which value the graph holds now
    at: str
    resolved: str | None = None
    my_device_name: str = ""  # device names, as each device calls itself ("" when never told)
    their_device_name: str = ""
    # Where this device's value was made on another device (a third device meeting two others' writes): its
    # name; "" where this device made it.
    mine_made_on: str = ""

    def sentence(self) -> str:
        """One line: what, which field, both values."""
        what = f"{self.kind} of “{shown(self.entity or '?', 40)}”" if self.kind != "entity" else f"“{shown(self.entity or '?', 40)}”"
        why = _RULES.get(self.rule, self.rule).format(lost_name=self.their_device_name or self.their_device)
        if self.rule in ("field", "rename_taken", "resolved_twice", "superseded_edit"):
            return (f"{what}: {self.field} {why}: mine “{shown(str(self.mine), 40)}”, "
                    f"theirs “{shown(str(self.theirs), 40)}” (kept: {self.kept})")
        return f"{what}: {why}"

    @property
    def deleter(self) -> str | None:
        """For a deletion against an edit, the side that deleted ("mine" or "theirs"); None otherwise."""
        return {"deleted_there": "theirs", "deleted_here": "mine"}.get(self.rule)

    def choices(self) -> tuple[str, ...]:
        """The keeps that do something of their own here (``resolve`` takes all three; "both" is the kept
        value, save for a text changed on both devices, and a row changed there but nowhere here is only let go)."""
        if self.rule == "missing":
            return ("mine",)
        if self.rule in ("field", "resolved_twice", "superseded_edit") and self.kind == "observation" \
                and self.field == "content":
            return KEEPS
        return ("mine", "theirs")

    def to_json(self) -> dict:
        """The conflict for ``limbic conflicts --json``: each side's device by id and by name alike."""
        return {"id": self.id, "kind": self.kind, "gid": self.gid, "entity": self.entity, "field": self.field,
                "rule": self.rule, "mine": self.mine, "theirs": self.theirs,
                "my_device": {"id": self.my_device, "name": self.my_device_name or None},
                "their_device": {"id": self.their_device, "name": self.their_device_name or None},
                "kept": self.kept, "at": self.at, "resolved": self.resolved, "sentence": self.sentence()}


_COLS = "id, kind, gid, entity_gid, field, rule, kept, lost, kept_device, lost_device, mine_kept, at, resolution"


def _load(graph: Graph, row, names: dict[str, str], here: str) -> SyncConflict:
    """One conflict as this device (``here``) shows it."""
    (cid, kind, gid, entity_gid, field_name, rule, kept, lost, kept_dev, lost_dev, mine_kept, at, resolution) = row
    kept_v, lost_v = json.loads(kept) if kept else None, json.loads(lost) if lost else None
    mine, theirs = (kept_v, lost_v) if mine_kept else (lost_v, kept_v)
    my_dev, their_dev = (kept_dev, lost_dev) if mine_kept else (lost_dev, kept_dev)
    entity = None
    if entity_gid:
        found = rows.current(graph.db, "entity", entity_gid)
        entity = found[1]["name"] if found else None
        if entity is None and isinstance(kept_v, dict):
            entity = kept_v.get("name")
    if rule in ("deleted_there", "deleted_here") and kind == "entity" and isinstance(kept_v, dict):
        # The side that kept the entity, as it stands: the edit the deletion had not seen is among its texts.
        local = state.local_id(graph.db, "entity", gid)
        if local is not None:
            texts = [r[0] for r in graph.db.execute(
                "SELECT content FROM observations WHERE entity_id = ? AND superseded_at IS NULL AND superseded_by IS NULL "
                "ORDER BY id", (local,))]
            standing = {**kept_v, "observations": texts}
            mine, theirs = (standing, lost_v) if mine_kept else (lost_v, standing)
    if kind == "alias" and field_name == "entity":  # which entity has the alias: said by its name, not its id
        mine, theirs = ((rows.current(graph.db, "entity", v) or (0, {"name": v}))[1]["name"] if v else v
                        for v in (mine, theirs))
    return SyncConflict(cid, kind, gid, entity, field_name, rule, mine, theirs, my_dev, their_dev,
                        "mine" if mine_kept else "theirs", at, resolution,
                        names.get(my_dev, ""), names.get(their_dev, ""),
                        (names.get(my_dev) or my_dev[:8]) if my_dev and here and my_dev != here else "")


def device_names(graph: Graph) -> dict[str, str]:
    """Each device's name by its id: the others' as their segments gave it, this one's as it last synced."""
    names = {r[0]: r[1] for r in graph.db.execute("SELECT device, name FROM sync_applied") if r[1]}
    me, my_name = graph.db.get_meta(state.DEVICE_KEY), graph.db.get_meta(state.DEVICE_NAME_KEY)
    if me and my_name:
        names[me] = my_name
    return names


def list_conflicts(graph: Graph, resolved: bool = False) -> list[SyncConflict]:
    """The conflicts not resolved yet (with ``resolved``, all of them), oldest first."""
    if not graph.db.has_table("sync_conflicts"):
        return []
    where = "" if resolved else " WHERE resolved_at IS NULL"
    names = device_names(graph)
    here = graph.db.get_meta(state.DEVICE_KEY) or ""
    return [_load(graph, r, names, here) for r in graph.db.execute(f"SELECT {_COLS} FROM sync_conflicts{where} ORDER BY id")]


def open_count(graph: Graph) -> int:
    if not graph.db.has_table("sync_conflicts"):
        return 0
    return int(graph.db.scalar("SELECT count(*) FROM sync_conflicts WHERE resolved_at IS NULL"))


def resolve(graph: Graph, conflict_id: int, keep: str) -> SyncConflict:
    """Settle a conflict: the graph takes my value, theirs, or both (a deletion: mine or theirs decides)."""
    if keep not in KEEPS:
        raise ValidationError(f"Keep one of {', '.join(KEEPS)}, not “{shown(keep, 20)}”.")
    db = graph.db
    row = db.one(f"SELECT {_COLS} FROM sync_conflicts WHERE id = ?", (conflict_id,)) if db.has_table(
        "sync_conflicts") else None
    if row is None:
        raise NotFoundError(f"There is no sync conflict {conflict_id}.")
    c = _load(graph, row, device_names(graph), graph.db.get_meta(state.DEVICE_KEY) or "")
    if c.resolved:
        raise ValidationError(f"Sync conflict {conflict_id} was resolved already ({c.resolved}).")
    with db.activity.using("sync resolve"), graph.write():
        if c.deleter is not None:
            if keep == c.deleter:
                _delete(graph, c.kind, c.gid)
            elif state.local_id(db, c.kind, c.gid) is None:
                raise ValidationError(f"“{shown(c.entity or '?', 40)}” is no longer in the graph: it was deleted again "
                                      "since. Choose “delete it again” to close this conflict, or bring it back from its history.")
        elif c.rule == "superseded_edit" and keep != c.kept:
            _edit_back(graph, c, keep)
        elif c.rule in ("field", "rename_taken", "resolved_twice") and keep != "both" and keep != c.kept:
            _set(graph, c.kind, c.gid, c.field, c.mine if keep == "mine" else c.theirs)
        elif c.rule in ("field", "resolved_twice") and keep == "both" and c.kind == "observation" and c.field == "content":
            other = c.theirs if c.kept == "mine" else c.mine
            found = rows.current(db, "observation", c.gid)
            if found is not None and isinstance(other, str):
                graph._append_observations(rows.entity_of(db, "observation", found[0]), [other], "note")
        db.execute("UPDATE sync_conflicts SET resolved_at = ?, resolution = ? WHERE id = ?", (now_utc(), keep, c.id))
        key = db.scalar("SELECT key FROM sync_conflicts WHERE id = ?", (c.id,))
        if key:  # the choice goes out with the next publish, so the other devices close this conflict too
            db.execute("INSERT INTO sync_outbox(key, side, at) VALUES (?, ?, ?)", (key, side_of(c, keep), now_utc()))
    c.resolved = keep
    return c


def edit_met_supersede(applier, gid: str, before: dict, after: dict, now: dict) -> None:
    """An observation edited on one device and replaced by a newer text (superseded) on another, neither seeing
    the other: the edit ends as history under the newer text. Kept as a conflict (the newer text kept, the edit
    lost), the same on both devices, so the person can bring the edit back."""
    superseding = after.get("superseded_by") if before.get("superseded_by") is None else None
    if superseding is not None and not rows.same(now.get("content"), before.get("content")):
        edit, mine_kept = now.get("content"), False  # their supersede meets my edit
    elif not rows.same(before.get("content"), after.get("content")) and before.get("superseded_by") is None \
            and now.get("superseded_by") is not None:
        superseding, edit, mine_kept = now.get("superseded_by"), after.get("content"), True  # their edit, my supersede
    else:
        return
    newer = rows.current(applier.db, "observation", superseding)
    if newer is not None and isinstance(edit, str):
        applier.conflict("observation", gid, "content", "superseded_edit", newer[1].get("content"), edit, mine_kept)


def _edit_back(graph: Graph, c: SyncConflict, keep: str) -> None:
    """The edit that was made history by a newer text: current again, beside it (both) or in its place."""
    edit = c.theirs if c.kept == "mine" else c.mine
    found = rows.current(graph.db, "observation", c.gid)
    if found is None or not isinstance(edit, str):
        raise ValidationError("What this conflict was about is no longer in the graph; nothing was changed.")
    entity = rows.entity_of(graph.db, "observation", found[0])
    newer = state.local_id(graph.db, "observation", found[1].get("superseded_by"))
    if keep != "both" and newer is not None:
        graph.supersede_observation(newer, edit)
    else:
        graph._append_observations(entity, [edit], "note")


def side_of(c: SyncConflict, keep: str) -> str:
    """A choice ("mine", "theirs", "both") in terms every device reads alike."""
    if c.deleter is not None:
        return "delete" if keep == c.deleter else "keep"
    if keep == "both":
        return "both"
    return "kept" if keep == c.kept else "lost"


def keep_for(c: SyncConflict, side: str) -> str:
    """The other way: a choice as it travels, as this device says it."""
    other = {"mine": "theirs", "theirs": "mine"}
    if side in ("delete", "keep") and c.deleter is not None:
        return c.deleter if side == "delete" else other[c.deleter]
    if side == "both":
        return "both"
    return c.kept if side == "kept" else other[c.kept]


def receive(graph: Graph, resolves: list, device: str, device_name: str) -> int:
    """Another device's choices: the same conflicts here close with them. Where this device (or a third) chose
    otherwise without seeing that choice, a text the two choices left out of the live graph is kept as a new
    conflict. Returns the conflicts raised."""
    db = graph.db
    names, here = device_names(graph), graph.db.get_meta(state.DEVICE_KEY) or ""
    raised = 0
    for choice in resolves if isinstance(resolves, list) else ():
        key, side = (choice.get("key"), choice.get("side")) if isinstance(choice, dict) else (None, None)
        if not isinstance(key, str) or side not in SIDES:
            continue
        for row in db.execute(f"SELECT {_COLS} FROM sync_conflicts WHERE key = ?", (key,)).fetchall():
            c = _load(graph, row, names, here)
            if c.resolved is None:
                db.execute("UPDATE sync_conflicts SET resolved_at = ?, resolution = ?, resolved_by = ? WHERE id = ?",
                           (now_utc(), keep_for(c, side), device_name or device, c.id))
            elif side_of(c, c.resolved) != side and c.deleter is None:
                raised += _chosen_twice(graph, c, device)
    return raised


def _chosen_twice(graph: Graph, c: SyncConflict, device: str) -> int:
    """Two choices for one text conflict: the text neither left in the live graph becomes a conflict of its own."""
    db = graph.db
    found = rows.current(db, c.kind, c.gid)
    now = found[1].get(c.field) if found else None
    held = set()
    if c.kind == "observation" and found is not None:
        held = {r[0] for r in db.execute("SELECT content FROM observations WHERE entity_id = ? AND superseded_at IS NULL",
                                         (found[0],))}
    for value in (c.mine, c.theirs):
        if value is None or rows.same(value, now) or value in held:
            continue
        key = key_of(c.kind, c.gid, c.field, "resolved_twice", now, value)
        if db.scalar("SELECT 1 FROM sync_conflicts WHERE key = ?", (key,)):
            continue
        entity_gid = db.scalar("SELECT entity_gid FROM sync_conflicts WHERE id = ?", (c.id,))
        db.execute(
            "INSERT INTO sync_conflicts(kind, gid, entity_gid, field, rule, kept, lost, kept_device, lost_device, "
            "mine_kept, at, key) VALUES (?, ?, ?, ?, 'resolved_twice', ?, ?, ?, ?, 1, ?, ?)",
            (c.kind, c.gid, entity_gid, c.field, json.dumps(now), json.dumps(value), c.my_device, device, now_utc(), key))
        return 1
    return 0


def _set(graph: Graph, kind: str, gid: str, field_name: str, value) -> None:
    db = graph.db
    found = rows.current(db, kind, gid)
    if found is None or field_name not in rows.COLUMNS[kind]:
        raise ValidationError("What this conflict was about is no longer in the graph; nothing was changed.")
    row_id, now = found
    if kind == "entity" and field_name == "name" and db.scalar(
        "SELECT 1 FROM entities WHERE name = ? AND id != ?", (value, row_id)
    ):
        raise ValidationError(f"Another entity is named “{shown(str(value), 40)}”; rename or merge it first.")
    columns, missing = rows.local_values(db, kind, {**now, field_name: value})
    if missing:
        raise ValidationError("What this value points at is no longer in the graph; nothing was changed.")
    column = rows.COLUMNS[kind][field_name]
    rows.update(db, kind, row_id, {column: columns[column]})
    entity = rows.entity_of(db, kind, row_id)
    if entity is not None:
        graph._touch(entity)
    db.note_flag("names")


def _delete(graph: Graph, kind: str, gid: str) -> None:
    db = graph.db
    row_id = state.local_id(db, kind, gid)
    if row_id is None:
        return
    if kind == "entity":
        graph.delete_entity(row_id)
        return
    entity = rows.entity_of(db, kind, row_id)
    db.execute(f"DELETE FROM {SYNCED_TABLES[kind]} WHERE id = ?", (row_id,))
    if entity is not None:
        graph._touch(entity)



