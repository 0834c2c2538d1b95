"""A change that arrives below the write holding its field (its stamp is lower): the conflicts it makes, the
same on every device whatever order the changes arrive in.

In clock order (stamp, then device, then sequence) a change is a conflict where its before-values are not the
values at its place, and a value is lost (a conflict, never dropped) where the next write over it never saw it.
A device that meets a change late cannot replay the order; it tells what was at that place from what it holds:
the field's stamps, the row's creation stamp, the log of the values it replaced here, and the values listed as
lost. An addition (a creation merged into a row by its name) has no before-values: it saw nothing of the row.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from limbic.engine.sync import rows, state
from limbic.engine.sync.capture import ROW_FIELD

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

# A sync_stamp field: the latest write below the one holding a field that set the same value (its stamp, and
# its value's JSON as the device): what a change arriving later found at its place in clock order.
SAME = "_same:"


class LateValues:
    """The rules of ``apply.Applier`` (which provides the attributes and helpers named here) for a change that
    arrives below the write holding its field."""

    db: Database
    remote: str
    _quiet: set[str]  # fields whose concurrent values the addition being applied keeps quiet

    def _arrived_below(self, kind: str, gid: str, row_id: int, key: str, before: dict | None, value, now: dict,
                       theirs: tuple[str, str], pending: bool) -> None:
        """The value loses; which conflicts it makes, in clock order:

        - older than the row's creation here: its value is lost to the creation's (_created_above);
        - a value listed as lost that this change saw and replaced: that value was not lost (_replaced_knowingly);
        - its value, lost to the write holding the field where that write did not replace it (_lost_unseen);
        - its before-value, where it is not the value at its place, a value it replaced unseen (_met_below).
        A change made here and not published yet will be stamped above it: its value is lost, as before."""
        stamp = theirs[0]
        mine = state.get_stamp(self.db, gid, key)
        knew = before is not None and self._replaced_knowingly(kind, gid, key, before.get(key), stamp)
        if key in self._quiet:
            return
        created = None if pending else self._created_above(kind, gid, row_id, key, theirs)
        if created is not None:
            if not rows.same(created[0], value):
                self.conflict(kind, gid, key, "field", created[0], value, True, created[1], stamp)
            return
        under = self._under(kind, row_id, key)
        if pending or self._lost_unseen(kind, gid, under, key, before, value, now):
            self.conflict(kind, gid, key, "field", now.get(key), value, True, mine[0], stamp, mine[1])
        if before is not None and not pending and not knew:
            self._met_below(kind, gid, under, key, before, value, stamp)

    def _same_below(self, gid: str, key: str, value, stamp: str) -> None:
        """The value held was also written below the write holding it: a later change made over it found it at
        its place in clock order (_met_below)."""
        if stamp > state.get_stamp(self.db, gid, SAME + key)[0]:
            state.set_stamp(self.db, gid, SAME + key, stamp, json.dumps(value))

    def _under(self, kind: str, row_id: int, key: str) -> tuple[str, object] | None:
        """What the value held here replaced, from the log: ("change", the value before it), ("add", None) where
        the row was made with it here, None where the log no longer tells."""
        row = self.db.one(
            "SELECT op, json_extract(before, '$.' || ?1) FROM change_item WHERE kind = ?2 AND row_id = ?3 "
            "AND (op = 'add' OR json_extract(before, '$.' || ?1) IS NOT json_extract(after, '$.' || ?1)) "
            "ORDER BY id DESC LIMIT 1", (key, kind, row_id))
        return (row[0], row[1]) if row else None

    def _lost_unseen(self, kind: str, gid: str, under, key: str, before: dict | None, value, now: dict) -> bool:
        """A value that arrives below the write holding its field is lost to that write, which never saw it (a
        segment waits for what its device had seen): in clock order it is a conflict where that write's
        before-value is not this value. The holder's before-value, as this device can tell it:

        - held by the row's creation (the field's stamp is the row's: a name made on two devices) — a creation
          has no before-values, it saw nothing of the row: always a conflict, even where this change's
          before-value equals the creation's value (the two devices made the same value apart);
        - the value the holding change replaced here, from the log (``under``); the same value is no conflict;
        - where the log does not tell, the two were made from the same value as far as this device can tell:
          a conflict where this change's before-value is not the value held (an addition has none: always)."""
        if state.get_stamp(self.db, gid, key) == state.get_stamp(self.db, gid, ROW_FIELD):
            return True
        if under is not None and under[0] == "change":
            return not rows.same(under[1], value)
        return before is None or not rows.same(now.get(key), before.get(key))

    def _replaced_knowingly(self, kind: str, gid: str, key: str, seen, stamp: str) -> bool:
        """A change that saw a value listed as lost to a later write, and is itself earlier than that write:
        in clock order the value was replaced by this change, which saw it, not lost to the later one (this
        change's own value meets the later write instead), so that conflict is not listed."""
        knew = False
        for cid, lost in self.db.execute(
                "SELECT id, lost FROM sync_conflicts WHERE kind = ?1 AND gid = ?2 AND field = ?3 AND rule = 'field' "
                "AND resolved_at IS NULL AND (lost_stamp < ?4 OR (lost_stamp = ?4 AND lost_device < ?5)) "
                "AND (kept_stamp > ?4 OR (kept_stamp = ?4 AND kept_device > ?5))",  # clock order: stamp, then device
                (kind, gid, key, stamp, self.remote)).fetchall():
            if rows.same(json.loads(lost) if lost else None, seen):
                self.db.execute("DELETE FROM sync_conflicts WHERE id = ?", (cid,))
                knew = True
        return knew

    def _created_above(self, kind: str, gid: str, row_id: int, key: str, theirs: tuple) -> tuple[object, str] | None:
        """(the value the row was made with here, its stamp) where this change is older than the row's creation
        here (a name made on two devices, the other's made first): in clock order the next write above it is that
        creation, which has no before-values, so its value is lost to the creation's where the two differ,
        whatever was written after the creation."""
        made_at = state.get_stamp(self.db, gid, ROW_FIELD)
        if not made_at[0] or theirs >= made_at:
            return None
        row = self.db.one("SELECT json_extract(after, '$.' || ?1), json_type(after, '$.' || ?1), change_id FROM "
                          "change_item WHERE kind = ?2 AND row_id = ?3 AND op = 'add' ORDER BY id DESC LIMIT 1",
                          (key, kind, row_id))
        joined = state.joined_after(self.db)
        if row and row[2] <= joined:
            # Made before this graph joined the folder: the other devices met it as the first publish's addition,
            # which carried the values it held then, not the ones it was made with.
            row = self.db.one("SELECT json_extract(after, '$.' || ?1), json_type(after, '$.' || ?1) FROM change_item "
                              "WHERE kind = ?2 AND row_id = ?3 AND change_id <= ?4 AND after IS NOT NULL "
                              "ORDER BY id DESC LIMIT 1", (key, kind, row_id, joined))
        return (row[0], made_at[0]) if row and row[1] is not None else None

    def _met_below(self, kind: str, gid: str, under, key: str, before: dict, value, stamp: str) -> None:
        """A change that arrives below the write holding its field was made, in clock order, over the value that
        write replaced (as this device can tell it): where its before-value is not that, it replaced that value
        without seeing it, a conflict of its own (the holder's replacing it is the other, _lost_unseen)."""
        if under is None or under[0] != "change" or state.get_stamp(self.db, gid, key) == state.get_stamp(
                self.db, gid, ROW_FIELD):
            return
        same_at, same = state.get_stamp(self.db, gid, SAME + key)
        if same_at and same_at < stamp and rows.same(json.loads(same), before.get(key)):
            return  # its before-value was written below it too: it found that value at its place
        if not rows.same(before.get(key), under[1]) and not rows.same(value, under[1]):
            self.conflict(kind, gid, key, "field", value, under[1], False, stamp, "")
