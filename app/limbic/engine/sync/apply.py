"""Applying another device's changes: through the graph's write path, conflicts decided alike everywhere.

Each field keeps the stamp of its last write (``sync_stamp``): a remote value replaces the local one
when its stamp (then its device id) is higher, so every device ends with the same value whatever
order the changes arrive in. Where the remote change's before-value is not what is here, the two
were made without seeing each other: the value that lost is kept in ``sync_conflicts``, the same conflict
on every device whatever the order of arrival (a change that arrives below the write holding its field is
weighed at its place in clock order: late.py). Rules that
are not last-writer-wins: an addition of the same thing (an entity's name, an observation's text on
an entity, a relation) on two devices is one row under the smaller global id; an edit beats a
delete (the row stays, or comes back where it was deleted, with a conflict asking to delete again).
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from limbic.engine.store.schema import SYNCED_TABLES
from limbic.engine.store.values import TIME_FORMAT, now_utc
from limbic.engine.sync import conflicts, entry, joining, parting, rows, scope_travel, state
from limbic.engine.sync.capture import DERIVED, REFS, ROW_FIELD, Names, changed_fields
from limbic.engine.sync.late import LateValues
from limbic.engine.sync.removal import Removals, missed

if TYPE_CHECKING:
    from limbic.engine.graph.graph import Graph

_SET_STAMP = "INSERT OR REPLACE INTO sync_stamp(gid, field, stamp, device) VALUES (?, ?, ?, ?)"



def _made_at(change: dict) -> str | None:
    """When a change was made, in the stored time format; None for a graph's first publish or a snapshot,
    whose rows carry their own times."""
    at = change.get("at")
    return at if isinstance(at, str) and len(at) == len(now_utc()) else None


def _stamp_time(stamp: str) -> str:
    """A stamp's wall clock in the stored time format (the same on every device)."""
    wall = state.Stamp.parse(stamp or "").wall
    return datetime.fromtimestamp(wall / 1000, timezone.utc).strftime(TIME_FORMAT)


@dataclass
class Outcome:
    """What applying changes did."""

    changes: int = 0
    items: int = 0
    conflicts: int = 0
    entities: set[int] = field(default_factory=set)


class Applier(Removals, LateValues):
    """Applies changes of one remote device inside the caller's write transaction."""

    def __init__(self, graph: Graph, me: str, my_name: str, remote: str, remote_name: str) -> None:
        self.graph, self.db = graph, graph.db
        self.me, self.my_name, self.remote, self.remote_name = me, my_name, remote, remote_name or remote[:8]
        self.out = Outcome()
        self.now = now_utc()
        self.at: str | None = self.now  # the time the change being applied was made (_made_at)
        self.upto = state.published_upto(self.db)
        self.names = Names(self.db)  # which names were ever renamed away from, read from the log once
        self._gone_at: dict[str, list[str]] = {}  # the deletions of its name the addition being applied had seen
        self._took: list[str] = []  # the deleted entities whose name it took
        self._quiet: set[str] = set()  # fields whose concurrent values the addition being applied keeps quiet
        self.newer_values: dict[tuple[str, str], dict] = {}
        # A new row's fields are stamped with its change's stamp; a snapshot's import brings its rows' own
        # stamps after them (snapshot.py), so it leaves this off rather than write each stamp twice.
        self.stamp_added = True
        self._kept_back: set[int] = set()  # conflicts of entities deleted here, kept by the applied device's edits
        # Devices whose every write held here the rows being applied had seen (a snapshot covering all of their
        # segments this device has): a value of theirs an addition replaces was replaced knowingly, no conflict.
        self.seen: set[str] = set()

    # -- bookkeeping ----------------------------------------------------------------------------

    def _touch(self, kind: str, row_id: int | None, how: str = "changed") -> None:
        entity = rows.entity_of(self.db, kind, row_id) if row_id is not None else None
        if entity is None:
            return
        self.graph._dirty.add(entity)
        self.out.entities.add(entity)
        self._updated(entity, self.at)
        self.db.note(how if kind == "entity" else "changed", (entity,))
        if kind == "relation":
            other = self.db.scalar("SELECT to_entity FROM relations WHERE id = ?", (row_id,))
            self.db.note("relations", [e for e in (entity, other) if e is not None])
        self.db.note_flag("names")

    def _updated(self, entity: int | None, at: str | None) -> None:
        """When it was last updated is the change's own time, as on the device that made it (the latest
        change wins whatever order they arrive in), never the time of applying; a whole row that travels
        (a first publish, a snapshot) carries its own."""
        if at and entity is not None:
            self.db.execute("UPDATE entities SET updated_at = ? WHERE id = ? AND updated_at < ?", (at, entity, at))

    def conflict(self, kind: str, gid: str, field_name: str, rule: str, kept, lost, mine_kept: bool,
                 kept_stamp: str = "", lost_stamp: str = "", here: str = "") -> None:
        """Keep a conflict; ``here``: the device that wrote the value this device holds, where it is another
        device's (a third device meeting two others' writes names both makers, not itself)."""
        gid = state.resolve_alias(self.db, gid) or gid
        me = here if here and here != self.remote else self.me
        key = conflicts.key_of(kind, gid, field_name, rule, kept, lost)
        if self.remote == self.me:  # a change of this device's own applied again in its place (own.py): seen from
            # here its value is mine, and the value it met another device's (the one holding it, else the last met)
            other = next((d for d in (here, state.get_stamp(self.db, gid, field_name)[1], self.db.scalar(
                "SELECT device FROM sync_applied WHERE device != ? ORDER BY at DESC LIMIT 1", (self.me,)))
                if d and d != self.me), "")
            named, raised = set(self._kept_back), self.out.conflicts
            self.remote = other
            try:
                self.conflict(kind, gid, field_name, {"deleted_there": "deleted_here", "deleted_here": "deleted_there"}
                              .get(rule, rule), kept, lost, not mine_kept, kept_stamp, lost_stamp)
            finally:
                self.remote = self.me
            # The edit that kept the entity is named where the change applied is that edit (_name_the_edit); where
            # it is this device's deletion, the edit was named as it was met (removal.py).
            self._kept_back = named
            if rule == "deleted_here" and kind == "entity" and self.out.conflicts > raised:
                self._kept_back.add(self.db.conn.last_insert_rowid())
            return
        if self.db.scalar("SELECT 1 FROM sync_conflicts WHERE key = ? AND resolved_at IS NULL", (key,)):
            return  # met again (by another way, or under another of its ids): listed once, as everywhere
        entity_gid = gid if kind == "entity" else None
        if entity_gid is None:
            found = rows.current(self.db, kind, gid)
            if found is not None:
                entity_gid = found[1].get("entity") or found[1].get("from")
        self.db.execute(
            "INSERT INTO sync_conflicts(kind, gid, entity_gid, field, rule, kept, lost, kept_device, lost_device, "
            "kept_stamp, lost_stamp, mine_kept, at, key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (kind, gid, entity_gid, field_name, rule, json.dumps(kept), json.dumps(lost),
             me if mine_kept else self.remote, self.remote if mine_kept else me,
             kept_stamp, lost_stamp, int(mine_kept), self.now, key),
        )
        if kind == "entity" and rule == "deleted_here":  # its conflict names the edits that kept it (_name_the_edit)
            self._kept_back.add(self.db.conn.last_insert_rowid())
        self.out.conflicts += 1

    def _pending_here(self, kind: str, row_id: int, upto: int | None = None) -> bool:
        """A change to this row made here and not published yet (it will be stamped after everything seen);
        ``upto``: the last change counted as published (this apply's, by default)."""
        return self.db.scalar(
            "SELECT 1 FROM change_item ci JOIN change_log cl ON cl.id = ci.change_id WHERE ci.kind = ? "
            "AND ci.row_id = ? AND ci.change_id > ? AND cl.origin NOT LIKE 'sync:%' LIMIT 1",
            (kind, row_id, self.upto if upto is None else upto),
        ) is not None

    # -- one change ---------------------------------------------------------------------------

    def apply_change(self, change: dict) -> None:
        entry.check_change(change)  # the rules of a local write, before anything of it is written
        stamp = change.get("stamp", "")
        state.observe(self.db, state.Stamp.parse(stamp))
        self.at = _made_at(change)
        items = [self._canonical(item) for item in change.get("items", [])]
        self.newer_values.clear()
        self._newer_in_change(items, stamp)
        blocked = self._blocked_deletions(items, stamp)
        doomed = {state.resolve_alias(self.db, i["gid"]) for i in items if i.get("k") == "entity" and i.get("op") == "remove"}
        self._fixups: list[tuple[str, str, dict]] = []
        for item in items:
            kind, op, gid = item.get("k"), item.get("op"), item.get("gid")
            if kind not in SYNCED_TABLES or not gid:
                continue
            self.out.items += 1
            self._quiet = set()
            if op == "add":
                self._gone_at = item.get("gone_at") or {}
                self._took = item.get("took") or []
                self._add(kind, gid, item.get("a") or {}, stamp, item.get("gone"), item.get("renamed"))
            elif op == "change":
                parting.part(self, kind, gid, item)
                self._change(kind, gid, item.get("b") or {}, item.get("a") or {}, stamp)
            elif op == "remove":
                before = item.get("b") or {}
                owners = {self._owner(kind, before, gid), state.resolve_alias(self.db, before.get("to"))}
                if owners & blocked:
                    # It goes with an entity whose deletion gave way (both ends of a relation); its device had
                    # removed it knowingly, which a later deletion of its other end from there has seen.
                    self._kept_removed(gid, stamp, removal=item)
                    continue
                parting.part(self, kind, gid, item)
                self._remove(kind, gid, item, stamp, alone=not owners & doomed)
            self._updated(state.local_id(self.db, "entity", self._owner(kind, item.get("a") or item.get("b") or {}, gid)),
                          self.at)  # its device changed it then, even where this device held that value already
        for kind, gid, values in self._fixups:  # references to rows added later in the same change
            found = rows.current(self.db, kind, gid)
            if found is not None:
                columns, missing = rows.local_values(self.db, kind, values)
                if not missing:
                    rows.update(self.db, kind, found[0], columns)
        if self._kept_back:
            self._name_the_edit(items)
        if change.get("scopes"):  # what the person lets each assistant see, chosen on that device
            scope_travel.receive(self.db, change["scopes"])
        if change.get("resolves"):  # the person's choices on that device settle the same conflicts here
            self.out.conflicts += conflicts.receive(self.graph, change["resolves"], self.remote, self.remote_name)
        self.out.changes += 1

    def _name_the_edit(self, items: list[dict]) -> None:
        """An entity this device deleted, back for an edit of it from the device being applied: its conflict names
        that edit (the texts, relations and fields written), so the person sees what the deletion had not seen.
        The device's later changes in this exchange had not seen the deletion either: they are named too."""
        for cid, gid, kept in self.db.execute(
            f"SELECT id, gid, kept FROM sync_conflicts WHERE resolved_at IS NULL AND id IN "
            f"({','.join('?' * len(self._kept_back))})", tuple(self._kept_back),
        ).fetchall():
            unseen = []
            for item in items:
                after = item.get("a") or {}
                kind = item.get("k")
                if kind == "entity" and state.resolve_alias(self.db, item.get("gid")) == gid and item.get("op") == "change":
                    unseen += [f"{k}: {v}" for k, v in after.items() if k in ("name", "type", "status")
                               and not rows.same((item.get("b") or {}).get(k), v)]
                elif kind != "entity" and item.get("op") in ("add", "change") and gid in {
                        state.resolve_alias(self.db, after.get(k)) for k in ("entity", "from", "to")}:
                    unseen.append(self._in_words(kind, after, gid))
            values = json.loads(kept) if kept else None
            unseen = [u for u in unseen if u]
            if unseen and isinstance(values, dict):
                unseen = [*values.get("unseen", []), *(u for u in unseen if u not in values.get("unseen", []))]
                self.db.execute("UPDATE sync_conflicts SET kept = ? WHERE id = ?",
                                (json.dumps({**values, "unseen": unseen}), cid))

    def _newer_in_change(self, items: list[dict], stamp: str) -> None:
        """What this change sets on texts, relations and the like deleted here: one that comes back with its
        entity, brought back by an earlier item of the change (the newer text a supersede adds), comes back
        with them, as where its own item brought it back (superseded, it is no twin of the same text made here
        since)."""
        for item in items:
            kind, gid = item.get("k"), item.get("gid")
            if item.get("op") != "change" or kind not in SYNCED_TABLES or kind == "entity" or not gid:
                continue
            before, after = item.get("b") or {}, item.get("a") or {}
            if rows.current(self.db, kind, gid) is not None or rows.tombstone(self.db, kind, gid) is None \
                    or not self._unseen_by_deletion(gid, before, after, stamp):
                continue
            real = state.resolve_alias(self.db, gid)
            newer = {k: v for k, v in after.items() if k in rows.COLUMNS[kind] and not rows.same(before.get(k), v)
                     and (stamp, self.remote) > state.get_stamp(self.db, real, k)}
            if newer:
                self.newer_values[(kind, real)] = newer

    def _canonical(self, item: dict) -> dict:
        """The item with every global id it names as it goes by here (two merged ids compare equal)."""
        refs = REFS.get(item.get("k"), {})
        out = dict(item)
        for side in ("b", "a"):
            values = item.get(side)
            if values:
                out[side] = {k: (state.resolve_alias(self.db, v) if k in refs and v else v) for k, v in values.items()}
        return out

    def _owner(self, kind: str, before: dict, gid: str) -> str | None:
        if kind == "entity":
            return state.resolve_alias(self.db, gid)
        return state.resolve_alias(self.db, before.get("entity") or before.get("from"))

    # -- additions ----------------------------------------------------------------------------

    def _add(self, kind: str, gid: str, after: dict, stamp: str, item_gone: list[str] | None = None,
             item_renamed: list[str] | None = None) -> None:
        found = rows.current(self.db, kind, gid)
        if found is not None:
            self._fields(kind, state.resolve_alias(self.db, gid), found, None, after, stamp)
            return
        columns, missing = self._columns(kind, after)
        if missing is None:
            self.conflict(kind, gid, ROW_FIELD, "missing", None, after, True)
            return
        same = rows.twin(self.db, kind, columns)
        # Even where an entity made here since holds the name: the one deleted comes back and joins it.
        revived = kind == "entity" and self._revive(columns["name"], gid, item_gone)
        if revived:
            same = rows.twin(self.db, kind, columns)
        elif kind == "entity":
            # An entity renamed away from this name here, the rename not seen by the creator: where the
            # creation arrived first, the two merged by that name, before any later holder of it was made.
            away = self._renamed_away(columns["name"], [*(item_renamed or ()), *(item_gone or ())])
            if away is not None:
                same, revived = away, True
                # Joined by the name the rename left: where the rename holds, nothing was lost (where the
                # creation arrived first, the rename met the name it had seen), so that is no conflict here either.
                self._quiet = {"name"}
        if kind == "entity" and self._took:
            same, revived = self._taken(same, revived)
        if same is not None:
            if kind == "entity" and not revived and self._renamed_here(same[0], same[1], stamp):
                self._undo_rename(same[0], same[1], columns["name"])
            else:
                keep = rows.merge_ids(self.db, kind, same[1], gid, after)
                if kind != "entity":  # the addition's own stamps, as its fields get them below
                    rows.note_own(self.db, gid, {f: (stamp, self.remote) for f in changed_fields({"a": after})})
                found = rows.current(self.db, kind, keep)
                self._fields(kind, keep, found, None, after, stamp)
                self._quiet = set()
                if kind == "entity":
                    self._updated(found[0], after.get(DERIVED))
                if (stamp, self.remote) > state.get_stamp(self.db, keep, ROW_FIELD):
                    # Created on both: its existence is as recent as its name, which is no rename.
                    state.set_stamp(self.db, keep, ROW_FIELD, stamp, self.remote)
                if kind == "entity":
                    state.note_taken(self.db, self._took, keep, stamp, self.remote)
                return
        if kind == "entity":
            state.note_taken(self.db, self._took, gid, stamp, self.remote)
        row_id = rows.insert(self.db, kind, gid, columns, after.get(DERIVED) or self.at or _stamp_time(stamp))
        if self.stamp_added:
            self.db.conn.executemany(_SET_STAMP, [(gid, name, stamp, self.remote) for name in changed_fields({"a": after})])
        if missing:
            self._fixups.append((kind, gid, after))
        self._touch(kind, row_id, "added")

    def _revive(self, name: str, gid: str, gone: list[str] | None) -> bool:
        """An entity of this name deleted here, its deletion not seen by the device that created this one:
        the two were made at once, so the deletion had not seen all of the entity and gives way."""
        seen = set(gone or ())
        revived = False
        joined = state.joined_after(self.db)
        for dead in state.deleted_entities(self.db, name):
            if dead == gid or state.local_id(self.db, "entity", dead) is not None:
                continue
            gone = rows.tombstone(self.db, "entity", dead)
            if gone is not None and gone[1] <= joined:
                continue  # deleted before this graph joined: no other device ever knew of it
            if dead in seen and not self._deleted_again(dead, gone):
                continue
            if self._restore("entity", dead) is not None:
                revived = True
        return revived

    def _deleted_again(self, dead: str, gone: tuple[int, int] | None) -> bool:
        """The deletion that holds here is a later one than the creator had seen (the entity came back in
        between): where the creator's device had it back, the creation merged with it and that deletion
        gave way, so it gives way here too."""
        seen_at = self._gone_at.get(dead)
        if seen_at is None:
            return False
        if gone is not None and gone[1] > self.upto and self.db.scalar(
                "SELECT origin NOT LIKE 'sync:%' FROM change_log WHERE id = ?", (gone[1],)):
            return True  # deleted here, not published yet: stamped after everything seen, the creation included
        return missed(self.db, dead, *seen_at)

    def _taken(self, same: tuple[int, str] | None, revived: bool) -> tuple[tuple[int, str] | None, bool]:
        """A creation under the name of an entity its device knew deleted, where that entity is here (its
        deletion gave way): the two are one, whatever name it goes by now, as where it came back after."""
        for dead in self._took:
            found = rows.current(self.db, "entity", dead)
            if found is not None:
                return (found[0], state.resolve_alias(self.db, dead)), True
        return same, revived

    def _renamed_away(self, name: str, renamed: list[str] | None) -> tuple[int, str] | None:
        """An entity here renamed away from this name, the rename not seen by the device that created this
        one: where that creation arrived first, the two merged by the old name, so they merge here too."""
        if not self.names.maybe_renamed(name):
            return None  # asking the log for every added entity read all of it each time
        seen = set(renamed or ())
        for gid in state.renamed_entities(self.db, name, since=state.joined_after(self.db)):
            found = rows.current(self.db, "entity", gid)
            if found is not None and not set(state.known_as(self.db, state.resolve_alias(self.db, gid))) & seen:
                return found[0], state.resolve_alias(self.db, gid)
        return None

    def _columns(self, kind: str, values: dict) -> tuple[dict, list[str] | None]:
        """Local columns of a row to write; missing None when the row it belongs to is nowhere."""
        columns, missing = rows.local_values(self.db, kind, values)
        if not missing:
            return columns, missing
        for key in missing:
            ref_kind = {"entity": "entity", "from": "entity", "to": "entity", "relation": "relation",
                        "superseded_by": "observation"}[key]
            self._restore(ref_kind, values[key])  # an addition to a row deleted here brings it back
        columns, missing = rows.local_values(self.db, kind, values)
        if any(k in ("entity", "from", "to") for k in missing) and kind != "reflection":
            return columns, None
        return columns, missing

    def _renamed_here(self, entity_id: int, gid: str, stamp: str) -> bool:
        """The entity holding the name (``entity_id``, going by ``gid``) got it by a rename (its name is younger
        than the entity)."""
        name_stamp = state.get_stamp(self.db, gid, "name")
        row_stamp = state.get_stamp(self.db, gid, ROW_FIELD)
        if name_stamp != row_stamp and name_stamp[0]:
            return True
        # A rename made here onto the name it holds: one made here away from it and undone since by a name
        # made elsewhere (its existence as recent as that name, above) holds the name by that creation.
        # Read by its local id: a row parted from a merge goes by a global id that may name another row here.
        name = self.db.scalar("SELECT name FROM entities WHERE id = ?", (entity_id,))
        return self.db.scalar(
            "SELECT 1 FROM change_item ci JOIN change_log cl ON cl.id = ci.change_id WHERE ci.kind = 'entity' "
            "AND ci.op = 'change' AND ci.row_id = ? AND cl.origin NOT LIKE 'sync:%' "
            "AND json_extract(ci.before, '$.name') IS NOT json_extract(ci.after, '$.name') "
            "AND json_extract(ci.after, '$.name') = ? LIMIT 1",
            (entity_id, name),
        ) is not None

    def _undo_rename(self, entity_id: int, gid: str, name: str) -> None:
        """A name created on the other device and taken here by a rename: the rename gives way (a conflict)."""
        previous = self.db.scalar(
            "SELECT json_extract(before, '$.name') FROM change_item WHERE kind = 'entity' AND op = 'change' "
            "AND row_id = ? AND json_extract(after, '$.name') = ? ORDER BY id DESC LIMIT 1", (entity_id, name))
        candidate = previous or f"{name} (renamed)"
        n = 2
        while self.db.scalar("SELECT 1 FROM entities WHERE name = ?", (candidate,)):
            candidate, n = f"{previous or name} ({n})", n + 1
        self.db.execute("UPDATE entities SET name = ? WHERE id = ?", (candidate, entity_id))
        self.conflict("entity", gid, "name", "rename_taken", candidate, name, False)
        self._touch("entity", entity_id)

    # -- changes ------------------------------------------------------------------------------

    def _change(self, kind: str, gid: str, before: dict, after: dict, stamp: str) -> None:
        found = rows.current(self.db, kind, gid)
        if found is None:
            if rows.tombstone(self.db, kind, gid) is not None and not self._unseen_by_deletion(gid, before, after, stamp):
                return  # every value it sets lost to one the deletion had seen: the deletion holds
            real = state.resolve_alias(self.db, gid)
            newer = {k: v for k, v in after.items() if k in rows.COLUMNS[kind] and not rows.same(before.get(k), v)
                     and (stamp, self.remote) > state.get_stamp(self.db, real, k)}
            raised = self.out.conflicts
            restored = self._restore(kind, gid, newer=newer)
            if restored is None:
                self.conflict(kind, gid, ROW_FIELD, "missing", None, after, True)
                return
            found = rows.current(self.db, kind, gid)
            if kind != "entity" and self.out.conflicts == raised:
                # Removed on its own here, back for an edit the removal had not seen: the device that made the
                # edit asks whether to remove it again, and so does this one (its entity's return asks for both).
                self.conflict(kind, real, ROW_FIELD, "deleted_here", found[1], None, False)
        self._fields(kind, state.resolve_alias(self.db, gid), found, before, after, stamp)

    def _by_current_ids(self, kind: str, values: dict | None) -> dict | None:
        refs = REFS.get(kind, {})
        return values and {k: (state.resolve_alias(self.db, v) if k in refs and v else v) for k, v in values.items()}

    def _fields(self, kind: str, gid: str, found, before: dict | None, after: dict, stamp: str) -> None:
        """Last writer wins per field; a concurrent value that lost is kept as a conflict."""
        row_id, now = found
        theirs = (stamp, self.remote)
        changed: dict = {}
        # A reference names a row by the id it goes by now: an earlier item of this change may have found two
        # ids to be one row (an entity made on two devices), and two ids of one row are one value, no conflict.
        before, after = (self._by_current_ids(kind, values) for values in (before, after))
        pending = self._pending_here(kind, row_id)
        if kind == "observation" and before is not None:
            conflicts.edit_met_supersede(self, gid, before, after, now)
        for key, value in after.items():
            if key not in rows.COLUMNS[kind] or (before is not None and rows.same(before.get(key), value)):
                continue
            if rows.same(now.get(key), value):
                if theirs > state.get_stamp(self.db, gid, key):
                    state.set_stamp(self.db, gid, key, stamp, self.remote)
                else:
                    self._same_below(gid, key, value, stamp)
                    if before is not None:  # a value listed as lost that this change saw: it replaced it
                        self._replaced_knowingly(kind, gid, key, before.get(key), stamp)
                    # Held again since, but in clock order the row's creation here came next, and it replaced
                    # this value unseen where it was made with another (_arrived_below weighs it alike).
                    created = None if pending or key in self._quiet or key in REFS.get(kind, {}) \
                        else self._created_above(kind, gid, row_id, key, theirs)
                    if created is not None and not rows.same(created[0], value):
                        self.conflict(kind, gid, key, "field", created[0], value, True, created[1], stamp)
                continue
            mine = state.get_stamp(self.db, gid, key)
            # An addition has no before-values: it replaces, unseen, a value another device wrote; one its own
            # device wrote before it (an entity it deleted and made again under its name, come back) it saw.
            concurrent = mine[1] not in (self.remote, *self.seen) if before is None \
                else not rows.same(now.get(key), before.get(key))
            # An equal stamp is an earlier item of this same change (a row added, then given its valid
            # time): the items of one change apply in order, each after the one before.
            if theirs >= mine and not pending:
                holder = self.db.one("SELECT id, gid FROM entities WHERE name = ? AND id != ?", (value, row_id)) \
                    if kind == "entity" and key == "name" else None
                if holder is not None and before is None and not self._renamed_here(int(holder[0]), holder[1], stamp):
                    gid = joining.join(self, (row_id, gid), (int(holder[0]), holder[1]))  # a name made on both
                elif holder is not None:
                    self.conflict(kind, gid, key, "rename_taken", now.get(key), value, True, mine[0], stamp, mine[1])
                    continue
                changed[key] = value
                if theirs > state.get_stamp(self.db, gid, key):  # joined, the namesake's stamp may be later
                    state.set_stamp(self.db, gid, key, stamp, self.remote)
                if concurrent:
                    self.conflict(kind, gid, key, "field", value, now.get(key), False, stamp, mine[0], mine[1])
            else:
                self._arrived_below(kind, gid, row_id, key, before, value, now, theirs, pending)
        if changed:
            columns, missing = rows.local_values(self.db, kind, {**now, **changed})
            if missing:
                return
            wanted = {rows.COLUMNS[kind][k]: columns[rows.COLUMNS[kind][k]] for k in changed}
            rows.update(self.db, kind, row_id, wanted)
            self._touch(kind, row_id)
