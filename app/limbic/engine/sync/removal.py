"""Removals from another device, and the rule that an edit beats a delete, decided alike everywhere.

A removal names the stamps of the writes it had seen (``saw``). Where this device holds a write it
had not seen, the removal gives way: the row (or the entity, with every row deleted with it) stays.
Where the removal arrived first, a later change it had not seen brings the row back. Either way
every device ends with the same rows, with a conflict asking to delete again.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from limbic.engine.store.schema import SYNCED_TABLES
from limbic.engine.sync import rows, state
from limbic.engine.sync.capture import ROW_FIELD
from limbic.engine.vectors import index

if TYPE_CHECKING:
    from limbic.engine.graph.graph import Graph
    from limbic.engine.store.db import Database

# The stamp of a removal of a row that was gone here already (deleted with its entity): when that
# entity's deletion later gives way, the row stays removed, as where the removal came first.
REMOVED_ALONE = "_removed"
# The stamp and device of a removal of a row that stayed because its entity's deletion gave way: that device
# had seen the row and removed it, so a later deletion of the row's other end from there has seen it too.
KEPT_REMOVED = "_kept_removed"
KEPT_SAW = "_kept_saw:"  # beside it, per field: the write of the row that removal had seen (a later one it had not)
# Marks a deletion of an entity (by its stamp and device) that had not seen all of it: it gave way here,
# the entity came back after it, or this device knew writes it had not seen (``missed``).
MISSED = state.MISSED


def missed(db: Database, gid: str, stamp: str, device: str) -> bool:
    """Whether the deletion of this entity stamped (stamp, device) is known here to have missed a write."""
    field_name = f"{MISSED}{stamp}:{device}"
    return any(state.get_stamp(db, g, field_name)[0] for g in state.known_as(db, state.resolve_alias(db, gid)))


class Removals:
    """The removal rules of ``apply.Applier`` (which provides the attributes and helpers named here)."""

    graph: Graph
    db: Database
    remote: str
    now: str
    newer_values: dict[tuple[str, str], dict]  # what the change bringing a row back sets on it

    def _changed_unseen(self, kind: str, gid: str, row_id: int, removal: dict, now: dict) -> bool:
        """The row was written here in a way the removal had not seen: an edit it did not know wins over it.

        A removal names the stamps of the writes it had seen (``saw``); a later stamp here, or a change
        made here and not published yet (it will be stamped after everything seen), is an edit it did
        not see. The verdict is the same on every device, whichever of the two arrived first. Older
        segments without ``saw`` compare the values it removed with the values here.
        """
        if self._pending_here(kind, row_id):
            return True
        if removal.get("saw") is None:
            before = removal.get("b") or {}
            return any(k in rows.COLUMNS[kind] and not rows.same(now.get(k), v) for k, v in before.items())
        return self._missed_write(gid, removal)

    def _missed_write(self, gid: str, removal: dict) -> bool:
        """This device knows a write to the row stamped after the one the removal saw (none for older segments)."""
        saw = removal.get("saw")
        if saw is None:
            return False
        for field_name, stamp, device in self.db.execute(
            "SELECT field, stamp, device FROM sync_stamp WHERE gid = ?", (state.resolve_alias(self.db, gid),)
        ).fetchall():
            if not field_name.startswith("_") and (stamp, device) > tuple(saw.get(field_name) or ("", "")):
                return True
        return False

    def _unseen_by_deletion(self, gid: str, before: dict, after: dict, stamp: str) -> bool:
        """A change arriving after its row's deletion sets a field later than the write the deletion saw."""
        real = state.resolve_alias(self.db, gid)
        return any((stamp, self.remote) > state.get_stamp(self.db, real, k)
                   for k, v in after.items() if not rows.same(before.get(k), v))

    def _note_missed(self, gid: str, stamp: str, device: str) -> None:
        if stamp:
            state.set_stamp(self.db, state.resolve_alias(self.db, gid), f"{MISSED}{stamp}:{device}", stamp, device)

    def _missed_gone(self, gid: str, items: list[dict], stamp: str) -> None:
        """A deletion of an entity gone here already: where it had not seen a write to it or to a row deleted
        with it that this device knows, it is marked as having missed it (as where it arrived first and gave way)."""
        gone = rows.tombstone(self.db, "entity", gid)
        if gone is None:
            return
        theirs = {state.resolve_alias(self.db, i["gid"]): i for i in items if i.get("op") == "remove"}
        deleted = [("entity", gid, None)] + self.db.execute(
            "SELECT kind, gid, row_id FROM sync_tombstone WHERE change_id = ? AND kind != 'entity'", (gone[1],)).fetchall()
        for kind, row_gid, row_id in deleted:
            row_gid = state.resolve_alias(self.db, row_gid)
            item = theirs.get(row_gid)
            if kind != "entity" and gid not in {state.resolve_alias(self.db, v) for k, v in (
                    rows.deleted_values(self.db, kind, row_id, gone[1]) or {}).items() if k in ("entity", "from", "to")}:
                continue
            if item is None or "saw" not in item:
                if item is None and kind != "entity":
                    return self._note_missed(gid, stamp, self.remote)
                continue
            for field_name, f_stamp, device in self.db.execute(
                    "SELECT field, stamp, device FROM sync_stamp WHERE gid = ?", (row_gid,)).fetchall():
                if not field_name.startswith("_") and (f_stamp, device) > tuple(item["saw"].get(field_name) or ("", "")):
                    return self._note_missed(gid, stamp, self.remote)

    def _removed_after(self, stamp: str) -> list[tuple[str, str, set]]:
        """Rows removed here by a write stamped after ``stamp``: (kind, global id, global ids of their entities
        as they went by then: a local id is taken again by a row made after its own was deleted)."""
        out = []
        for kind, gid, row_id, change_id in self.db.execute(
                "SELECT t.kind, t.gid, t.row_id, t.change_id FROM sync_tombstone t JOIN sync_stamp s ON s.gid = t.gid "
                "AND s.field = ? WHERE t.kind != 'entity' AND (s.stamp > ?2 OR (s.stamp = ?2 AND s.device > ?3))",
                (ROW_FIELD, stamp, self.remote)).fetchall():
            before = self.db.scalar("SELECT before FROM change_item WHERE change_id = ? AND kind = ? AND row_id = ? "
                                    "AND op = 'remove'", (change_id, kind, row_id))
            values = json.loads(before) if before else {}
            owners = {state.resolve_alias(self.db, state.gid_at(self.db, "entity", values[k], change_id))
                      for k in ("entity", "from", "to") if values.get(k) is not None}
            out.append((kind, state.resolve_alias(self.db, gid), owners))
        return out

    def _kept_removed(self, gid: str, stamp: str, device: str | None = None, removal: dict | None = None) -> None:
        """Note that ``device`` (the one being applied) removed this row at ``stamp`` and it stayed, with the writes
        of the row it had seen; not where the row holds a write that removal had not seen (``removal``: its item)."""
        real, device = state.resolve_alias(self.db, gid), device or self.remote
        kind = removal.get("k") if removal is not None else None
        found = rows.current(self.db, kind, real) if kind in SYNCED_TABLES else None
        if found is not None and self._changed_unseen(kind, real, found[0], removal, found[1]):
            return  # a write its device never saw keeps it: nothing was removed knowingly
        if stamp and (stamp, device) > state.get_stamp(self.db, real, KEPT_REMOVED):
            state.set_stamp(self.db, real, KEPT_REMOVED, stamp, device)
            for field_name, at, by in self.db.execute("SELECT field, stamp, device FROM sync_stamp WHERE gid = ? AND "
                                                      "substr(field, 1, 1) != '_'", (real,)).fetchall():
                state.set_stamp(self.db, real, KEPT_SAW + field_name, at, by)

    def _removed_before(self, gid: str, stamp: str) -> bool:
        """The device being applied removed this row before ``stamp`` and nothing was written to it that the removal
        had not seen (a later write, or an earlier one arriving since): a deletion of its entity from there had seen
        it (it stayed here only for an entity whose deletion gave way)."""
        real = state.resolve_alias(self.db, gid)
        at, device = state.get_stamp(self.db, real, KEPT_REMOVED)
        if device != self.remote or not at or at > stamp:
            return False
        for field_name, written, by in self.db.execute("SELECT field, stamp, device FROM sync_stamp WHERE gid = ? AND "
                                                       "substr(field, 1, 1) != '_'", (real,)).fetchall():
            if written > at or (written, by) > state.get_stamp(self.db, real, KEPT_SAW + field_name):
                return False
        return True

    def _removed_unseen(self, entity: str, removed: dict[str, dict], late: list[tuple[str, str, set]]) -> bool:
        """A row of the entity made and removed here that the deletion does not name, removed after it (a later
        stamp): its device had not seen the deletion, whose own device never saw the row; where the row
        arrived before its removal, it brought the entity back (an addition it had not seen)."""
        return any(entity in owners and gid not in removed and rows.current(self.db, kind, gid) is None
                   for kind, gid, owners in late)

    def _blocked_deletions(self, items: list[dict], stamp: str = "") -> set[str]:
        """Entities this change deletes that were changed here meanwhile: the edit wins, the entity stays."""
        removed = {state.resolve_alias(self.db, i["gid"]): i for i in items if i.get("op") == "remove"}
        blocked = set()
        late = None  # rows removed here after this deletion, read once for all of its entities
        for item in items:
            if item.get("k") != "entity" or item.get("op") != "remove":
                continue
            gid = state.resolve_alias(self.db, item["gid"])
            found = rows.current(self.db, "entity", gid)
            if found is None:
                self._missed_gone(gid, items, stamp)
                continue
            entity_id, now = found
            edited = self._changed_unseen("entity", gid, entity_id, item, now)
            unseen: list[str] = []  # what of it the deletion had not seen: the person judges the conflict by it
            writers: list = []  # who wrote it (stamp, device): a third device names them, not itself
            if "seen" in item and set(state.known_as(self.db, gid)) - set(item["seen"]):
                edited = True  # the same name created elsewhere and merged here: the deleter never saw it
            for kind, sql in (
                ("observation", "SELECT gid FROM observations WHERE entity_id = ?"),
                ("relation", "SELECT gid FROM relations WHERE from_entity = ?1 OR to_entity = ?1"),
                ("reflection", "SELECT gid FROM reflections WHERE entity_id = ?"),
                ("alias", "SELECT gid FROM entity_aliases WHERE entity_id = ?"),
            ):
                for (dep,) in self.db.execute(sql, (entity_id,)).fetchall():
                    theirs = removed.get(dep)
                    mine = rows.current(self.db, kind, dep)
                    if theirs is None and mine is not None and self._removed_before(dep, stamp):
                        continue  # its device removed it before, knowingly: it stayed only for another entity
                    if theirs is None or mine is None or self._changed_unseen(kind, dep, mine[0], theirs, mine[1]):
                        edited = True
                        if mine is not None:
                            unseen.append(self._in_words(kind, mine[1], gid))
                            writers.append(self.db.one(
                                "SELECT stamp, device FROM sync_stamp WHERE gid = ? AND substr(field, 1, 1) != '_' "
                                "ORDER BY stamp DESC LIMIT 1", (state.resolve_alias(self.db, dep),)))
            if not edited:
                late = self._removed_after(stamp) if late is None else late
                edited = self._removed_unseen(gid, removed, late)
            if edited:
                blocked.add(gid)
                self._note_missed(gid, stamp, self.remote)
                written = max((w for w in writers if w), default=None)
                self.conflict("entity", gid, ROW_FIELD, "deleted_there",
                              {**now, "unseen": [u for u in unseen if u]} if unseen else now, None, True, lost_stamp="",
                              here=written[1] if written else "")
        return blocked

    def _remove(self, kind: str, gid: str, item: dict, stamp: str, alone: bool = True) -> None:
        found = rows.current(self.db, kind, gid)
        if found is None:
            # Gone with its entity here: removed on its own, it stays removed where that deletion gives way,
            # unless it had not seen an edit of the row (the edit wins, as where it arrived before the edit).
            if kind != "entity" and alone and rows.tombstone(self.db, kind, gid) is not None \
                    and not self._missed_write(gid, item):
                state.set_stamp(self.db, state.resolve_alias(self.db, gid), REMOVED_ALONE, stamp, self.remote)
            return  # gone here too
        row_id, now = found
        if kind != "entity":
            if self._changed_unseen(kind, state.resolve_alias(self.db, gid), row_id, item, now):
                self.conflict(kind, state.resolve_alias(self.db, gid), ROW_FIELD, "deleted_there", now, None, True)
                for key, value in (item.get("b") or {}).items():  # the values it saw, removed knowingly
                    self._replaced_knowingly(kind, state.resolve_alias(self.db, gid), key, value, stamp)
                return
        entity = rows.entity_of(self.db, kind, row_id)
        if kind == "entity":
            self.db.note("relations", self.graph._neighbours(row_id) - {row_id})
            self.graph._dirty.update(r[0] for r in self.db.execute(
                "SELECT from_entity FROM relations WHERE to_entity = ? AND from_entity != ?", (row_id, row_id)))
            index.delete_index_rows(self.db, row_id)
            self.db.execute("DELETE FROM entities WHERE id = ?", (row_id,))
            self.db.note("removed", (row_id,))
            self.db.note_flag("names")
            self.graph._dirty.discard(row_id)
            self._settled_by_deletion(state.resolve_alias(self.db, gid))
        else:
            self._touch(kind, row_id)
            self.db.execute(f"DELETE FROM {SYNCED_TABLES[kind]} WHERE id = ?", (row_id,))
        state.set_stamp(self.db, state.resolve_alias(self.db, gid), ROW_FIELD, stamp, self.remote)
        if entity is not None:
            self.out.entities.add(entity)

    def _settled_by_deletion(self, gid: str) -> None:
        """An open "delete again?" of this entity is answered by a deletion that holds (it saw every write that
        kept the entity): the entity is gone as that choice would have left it, on every device that asked."""
        self.db.execute(
            "UPDATE sync_conflicts SET resolved_at = ?, resolved_by = ?, resolution = CASE rule WHEN 'deleted_here' "
            "THEN 'mine' ELSE 'theirs' END WHERE kind = 'entity' AND gid = ? AND rule IN ('deleted_here', "
            "'deleted_there') AND resolved_at IS NULL", (self.now, self.remote_name, gid))

    def _restore(self, kind: str, gid: str, depth: int = 0, newer: dict | None = None) -> int | None:
        """Bring back a row deleted here that another device changed meanwhile (an edit beats a delete).

        ``newer``: the values the change bringing it back sets and wins with. It comes back with them, as
        where the change arrived before the deletion: renamed, it does not merge with a namesake of its old name.
        """
        gone = rows.tombstone(self.db, kind, gid)
        if gone is None or depth > 3:
            return None
        key = (kind, state.resolve_alias(self.db, gid))
        if newer:  # it may come back first as a row deleted with its entity (below): with these values too
            self.newer_values[key] = newer
        newer = newer or self.newer_values.get(key)
        row_id, change_id = gone
        values = rows.deleted_values(self.db, kind, row_id, change_id)
        if values is None:
            return None
        if newer and kind == "entity" and "name" in newer and self.db.scalar(
                "SELECT 1 FROM entities WHERE name = ?", (newer["name"],)):
            newer = {k: v for k, v in newer.items() if k != "name"}  # the rename gives way there too (_fields)
        values.update(newer or {})
        for key, ref_kind in (("entity", "entity"), ("from", "entity"), ("to", "entity")):
            if kind != "entity" and values.get(key) and rows.current(self.db, ref_kind, values[key]) is None:
                if self._restore(ref_kind, values[key], depth + 1) is None:
                    return None
        again = rows.current(self.db, kind, gid)
        if again is not None:
            return again[0]  # it came back with the entity it belongs to
        if values.get("superseded_by") and rows.current(self.db, "observation", values["superseded_by"]) is None:
            values["superseded_by"] = None
        if kind == "reflection" and values.get("relation") and rows.current(self.db, "relation", values["relation"]) is None:
            values["relation"] = None
        columns, missing = rows.local_values(self.db, kind, values)
        if missing:
            return None
        real_gid = state.resolve_alias(self.db, gid)
        deleted_at = state.get_stamp(self.db, real_gid, ROW_FIELD)  # the stamp of the deletion it comes back from
        if kind == "entity":  # the deletion that removed it here had not seen all of it
            self._note_missed(real_gid, *deleted_at)
        twin = rows.twin(self.db, kind, columns)
        if twin is not None and kind == "observation" and (self._under(kind, twin[0], "content") or ("",))[0] == "change":
            twin = None  # its words came by an edit, which never merges two texts: in clock order both stand
        if twin is None and kind == "entity":  # an entity made under its name by a device that knew it deleted
            taken = [*state.takers(self.db, real_gid), *state.takers(self.db, real_gid, state.TOOK)]  # either way round
            twin = next(((state.local_id(self.db, "entity", g), state.resolve_alias(self.db, g)) for g in taken
                         if state.local_id(self.db, "entity", g) is not None), None)
        if twin is not None:
            # The same thing was made here again since (a name, a text): it comes back as that row, as
            # on a device where the deletion arrived after both and the two merged by their name.
            real_gid = self._merge_restored(kind, twin, real_gid, values)
            new_id = twin[0]
        else:
            new_id = rows.insert(self.db, kind, real_gid, columns, self.at or self.now)
        self._touch(kind, new_id, "added")
        if kind == "entity":
            deleter = state.get_stamp(self.db, real_gid, ROW_FIELD)[1]
            # Its existence is as old as its name again: the deletion's stamp must not read as a rename.
            name_stamp = state.get_stamp(self.db, real_gid, "name")
            if name_stamp[0]:
                state.set_stamp(self.db, real_gid, ROW_FIELD, *name_stamp)
            if deleter and deleter not in (self.me, self.remote) and self.remote != self.me:
                # Deleted on a third device: this one names both, the edit kept (as where the deletion gives way)
                editor, self.remote, raised = self.remote, deleter, self.out.conflicts
                try:
                    self.conflict("entity", real_gid, ROW_FIELD, "deleted_there", values, None, True, here=editor)
                finally:
                    self.remote = editor
                if self.out.conflicts > raised:  # it names the edit that kept it (_name_the_edit)
                    self._kept_back.add(self.db.conn.last_insert_rowid())
            else:
                self.conflict("entity", real_gid, ROW_FIELD, "deleted_here", values, None, False)
            # The rows deleted with it come back too: the other device kept them all.
            for dep_kind in ("observation", "relation", "reflection", "alias"):
                for dep_id, dep_gid in self.db.execute(
                    "SELECT row_id, gid FROM sync_tombstone WHERE kind = ? AND change_id = ?", (dep_kind, change_id)
                ).fetchall():
                    dep = rows.deleted_values(self.db, dep_kind, dep_id, change_id) or {}
                    mine = real_gid in {state.resolve_alias(self.db, dep.get(k)) for k in ("entity", "from", "to")}
                    dep_real = state.resolve_alias(self.db, dep_gid)
                    alone = state.get_stamp(self.db, dep_real, REMOVED_ALONE)[0] or self._apart(dep_real, deleted_at)
                    if mine and not alone and rows.current(self.db, dep_kind, dep_gid) is None \
                            and not self._other_end_gone(dep_kind, dep, real_gid):
                        self._restore(dep_kind, dep_gid, depth + 1)
                        self._kept_removed(dep_gid, *deleted_at)  # that deletion had seen it and removed it
            self._resupersede(change_id)
            # A namesake made here after this deletion and deleted since: where this entity lived on, the
            # namesake merged with it by name, and its deletion gave way to the part it had never seen.
            names = {values.get("name") or "", (rows.deleted_values(self.db, kind, row_id, change_id) or {}).get("name") or ""}
            for later in sorted({g for name in names for g in state.deleted_entities(self.db, name)}):
                gone_later = rows.tombstone(self.db, "entity", later)
                if gone_later is not None and gone_later[1] > change_id and state.local_id(self.db, "entity", later) is None:
                    self._restore("entity", later, depth + 1)
        return new_id

    def _in_words(self, kind: str, values: dict, entity_gid: str) -> str:
        """A row of an entity as its conflict names it: a text, a relation to another entity, an alias."""
        if kind in ("observation", "reflection"):
            return str(values.get("content") or "")
        if kind == "alias":
            return str(values.get("alias") or "")
        ends = [values.get("from"), values.get("to")]
        other = next((e for e in ends if state.resolve_alias(self.db, e) != entity_gid), entity_gid)
        found = rows.current(self.db, "entity", other)
        arrow = "→" if state.resolve_alias(self.db, ends[0]) == entity_gid else "←"
        return f"{arrow} {values.get('type') or ''} {found[1]['name'] if found else ''}".strip()

    def _other_end_gone(self, kind: str, values: dict, entity_gid: str) -> bool:
        """A relation deleted with this entity whose other end is deleted here too: it does not come back with
        this entity (its other end's deletion holds unless it gives way itself, and then brings it back)."""
        if kind != "relation":
            return False
        ends = {state.resolve_alias(self.db, values.get(k)) for k in ("from", "to")} - {entity_gid, None}
        return any(rows.current(self.db, "entity", end) is None for end in ends)

    def _resupersede(self, change_id: int) -> None:
        """Texts back with their entity point at the newer texts that came back after them: each came back
        before its newer one existed here again, so it pointed at none (as where their additions arrive, it
        points at its newer text)."""
        column = rows.COLUMNS["observation"]["superseded_by"]
        for dep_id, dep_gid in self.db.execute(
            "SELECT row_id, gid FROM sync_tombstone WHERE kind = 'observation' AND change_id = ?", (change_id,)
        ).fetchall():
            newer = (rows.deleted_values(self.db, "observation", dep_id, change_id) or {}).get("superseded_by")
            found = rows.current(self.db, "observation", dep_gid)
            target = rows.current(self.db, "observation", newer) if newer else None
            if found is not None and target is not None and found[1].get("superseded_by") is None \
                    and target[0] != found[0]:
                rows.update(self.db, "observation", found[0], {column: target[0]})

    def _apart(self, gid: str, deleted_at: tuple[str, str]) -> bool:
        """A row gone in the same local change as its entity, by a removal of its own (another stamp): one
        segment's changes apply here as one change, but the row was removed on its own, before the entity."""
        removed_at = state.get_stamp(self.db, gid, ROW_FIELD)
        return bool(removed_at[0] and deleted_at[0]) and removed_at != deleted_at

    def _merge_restored(self, kind: str, twin: tuple[int, str], gid: str, values: dict) -> str:
        """A deleted row coming back onto its twin: one row under the smaller id, each field by its stamp."""
        twin_id, twin_gid = twin
        theirs = {k: state.get_stamp(self.db, gid, k) for k in values}
        mine = {k: state.get_stamp(self.db, twin_gid, k) for k in theirs}
        # Its existence is as old as its fields: the deletion's stamp under the old id must not read as a rename.
        existence = max([state.get_stamp(self.db, twin_gid, ROW_FIELD), *theirs.values()])
        keep = rows.merge_ids(self.db, kind, twin_gid, gid, values)
        state.set_stamp(self.db, keep, ROW_FIELD, *existence)
        now = rows.current(self.db, kind, keep)[1]
        wanted = {}
        for key, value in values.items():
            if key in rows.COLUMNS[kind] and not rows.same(now.get(key), value) and theirs[key] > mine[key]:
                wanted[key] = value
        for key, stamp in theirs.items():
            if stamp > mine[key]:
                state.set_stamp(self.db, keep, key, *stamp)
        if wanted:
            columns, missing = rows.local_values(self.db, kind, {**now, **wanted})
            if not missing:
                rows.update(self.db, kind, twin_id, {rows.COLUMNS[kind][k]: columns[rows.COLUMNS[kind][k]] for k in wanted})
        return keep
