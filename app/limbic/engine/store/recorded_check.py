"""Checking and repairing the recorded history (recorded.py): versions that disagree with the rows or each other.

Damage a check finds (each a list of history ids, or of ``kind:row_id`` for a row without a version):

- *pointing nowhere*: an open version (``recorded_to`` empty) of a row the graph no longer has;
- *unrecorded*: a row of the graph with no open version (its creation was never recorded);
- *backwards*: a version that ends before it starts;
- *overlapping*: two versions of one row whose periods overlap (two open ones included);
- *differing*: the open version of a row holding another value than the row.

A repair changes history only by closing or adding versions, so every value it held stays in it:
a version pointing nowhere is closed as deleted at the time of the repair (a tombstone with its last
value), a backwards one ends where it starts, an overlapping one ends where the next one starts, a
row without a version gets one from its ``created_at`` (or from where its last version ended), and an
open version holding another value than its row is closed at the time of the repair and followed by
one holding the row's value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from limbic.engine.store import values
from limbic.engine.store.recorded import COLUMNS, TABLE, has_history, history_ok

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

_START = "0001-01-01 00:00:00"


@dataclass
class HistoryDamage:
    """What a check of the recorded history found; empty lists when it agrees with the graph."""

    unreadable: bool = False  # the table is there but not in the shape Limbic writes
    nowhere: list[int] = field(default_factory=list)
    unrecorded: list[str] = field(default_factory=list)
    backwards: list[int] = field(default_factory=list)
    overlapping: list[int] = field(default_factory=list)
    differing: list[int] = field(default_factory=list)  # open versions whose value is not the row's

    @property
    def count(self) -> int:
        return (int(self.unreadable) + len(self.nowhere) + len(self.unrecorded) + len(self.backwards) + len(self.overlapping)
                + len(self.differing))

    def lines(self, sample: int = 5) -> list[str]:
        """One plain sentence per kind of damage found."""
        if self.unreadable:
            return ["The recorded history table is not in the shape Limbic writes: changes are not recorded in it."]
        out = []
        for items, what in (
            (self.nowhere, "history records say a row exists that the graph no longer has"),
            (self.unrecorded, "rows of the graph have no record of their creation in the history"),
            (self.backwards, "history records end before they start"),
            (self.overlapping, "history records overlap another record of the same row"),
            (self.differing, "history records of today's rows hold another value than the row"),
        ):
            if items:
                more = "…" if len(items) > sample else ""
                out.append(f"{len(items)} {what} ({', '.join(map(str, items[:sample]))}{more}).")
        return out


def _tables(db: Database) -> dict[str, str]:
    return {kind: table for kind, table in TABLE.items() if db.has_table(table)}


def find(db: Database) -> HistoryDamage:
    """Look for damage in the recorded history; changes nothing (a file without history has none)."""
    damage = HistoryDamage()
    if not has_history(db):
        return damage
    if not history_ok(db):
        damage.unreadable = True
        return damage
    for kind, table in _tables(db).items():
        damage.nowhere += [r[0] for r in db.execute(
            f"SELECT h.id FROM history h WHERE h.kind = ? AND h.recorded_to IS NULL "
            f"AND NOT EXISTS (SELECT 1 FROM {table} t WHERE t.id = h.row_id) ORDER BY h.id", (kind,))]
        damage.unrecorded += [f"{kind}:{r[0]}" for r in db.execute(
            f"SELECT t.id FROM {table} t WHERE NOT EXISTS (SELECT 1 FROM history h WHERE h.kind = ? "
            "AND h.row_id = t.id AND h.recorded_to IS NULL) ORDER BY t.id", (kind,))]
        differs = " OR ".join(f"json_extract(h.value, '$.{c}') IS NOT t.{c}" for c in COLUMNS[kind])
        damage.differing += [r[0] for r in db.execute(
            f"SELECT h.id FROM history h JOIN {table} t ON t.id = h.row_id WHERE h.kind = ? "
            f"AND h.recorded_to IS NULL AND ({differs}) ORDER BY h.id", (kind,))]
    damage.backwards = [r[0] for r in db.execute(
        "SELECT id FROM history WHERE recorded_to IS NOT NULL AND recorded_to < recorded_from ORDER BY id")]
    damage.overlapping = [row[0] for row in _overlaps(db)]
    return damage


def _overlaps(db: Database) -> list[tuple[int, str]]:
    """(id, where it should end) of each version that runs past the start of its row's next version."""
    out = []
    for hid, end, next_from in db.execute(
        "SELECT id, recorded_to, nxt FROM (SELECT id, recorded_to, lead(recorded_from) OVER "
        "(PARTITION BY kind, row_id ORDER BY recorded_from, id) AS nxt FROM history "
        "WHERE recorded_to IS NULL OR recorded_to > recorded_from) "  # an empty period overlaps nothing
        "WHERE nxt IS NOT NULL AND (recorded_to IS NULL OR recorded_to > nxt) ORDER BY id"
    ):
        out.append((hid, next_from))
    return out


def repair(db: Database) -> int:
    """Inside a write transaction: close and add versions so the history agrees with the graph; how many changed."""
    damage = find(db)
    if damage.unreadable or damage.count == 0:
        return 0
    now = values.now_utc()
    changed = 0
    for hid in damage.backwards:
        db.execute("UPDATE history SET recorded_to = recorded_from WHERE id = ?", (hid,))
        changed += 1
    for hid, end in _overlaps(db):
        db.execute("UPDATE history SET recorded_to = ?, ended = coalesce(ended, 'change') WHERE id = ?", (end, hid))
        changed += 1
    for hid in damage.nowhere:
        db.execute("UPDATE history SET recorded_to = max(recorded_from, ?), ended = 'delete' WHERE id = ? "
                   "AND recorded_to IS NULL", (now, hid))
        changed += 1
    for hid in find(db).differing:  # after the overlaps closed: the open version left is the one to compare
        db.execute("UPDATE history SET recorded_to = max(recorded_from, ?), ended = 'change' WHERE id = ?", (now, hid))
        kind, row_id = db.one("SELECT kind, row_id FROM history WHERE id = ?", (hid,))
        changed += 1 + _record(db, kind, row_id)
    for item in damage.unrecorded:
        kind, row_id = item.split(":")
        changed += _record(db, kind, int(row_id))
    return changed


def _record(db: Database, kind: str, row_id: int) -> int:
    table = TABLE[kind]
    cols = COLUMNS[kind]
    has_gid = "gid" in {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
    value = "json_object(" + ", ".join(f"'{c}', {c}" for c in cols) + ")"
    row = db.one(f"SELECT {'gid' if has_gid else 'NULL'}, {value}, created_at FROM {table} WHERE id = ?", (row_id,))
    if row is None:
        return 0
    last_end = db.scalar("SELECT max(recorded_to) FROM history WHERE kind = ? AND row_id = ?", (kind, row_id))
    # From its creation, unless older versions of it are kept: then from where the last of them ended.
    start = last_end or row[2] or _START
    db.execute(
        "INSERT INTO history(kind, row_id, gid, value, recorded_from, who) VALUES (?, ?, ?, ?, ?, 'repair')",
        (kind, row_id, row[0], row[1], start),
    )
    return 1
