"""What a graph file knows of sync: its hybrid logical clock, what it published, global ids of rows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from limbic.engine.store import values
from limbic.engine.store.schema import SYNCED_TABLES

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

FORMAT = 2  # the segment format (2: fixed-width stamps; 1 is read too); a segment names its schema besides
HLC_KEY = "sync_hlc"  # the clock's last stamp
DEVICE_KEY = "sync_device"  # the device that last published from this file
DEVICE_NAME_KEY = "sync_device_name"  # that device's name (conflicts name both sides by id and name)
SEQ_KEY = "sync_seq"  # the last sequence that device published
UPTO_KEY = "sync_published_upto"  # the last change_log id published (or passed over: sync's own)
JOINED_KEY = "sync_joined"  # set once the graph has been joined to a folder: the last change before it
SYNC_ORIGIN = "sync:"
AGAIN = "="  # after SYNC_ORIGIN: this device's own changes, applied again in their place by a rebase
TAKEN = "_taken_by:"  # a sync_stamp field of a deleted entity: the entity created under its name after it
TOOK = "_took:"
MISSED = "_missed:"  # a sync_stamp field (removal.py): a deletion, by its stamp and device, that missed a write  # the same the other way: a sync_stamp field of that entity, naming the deleted one

# The wall clock in milliseconds; tests replace it to skew one device's clock.
wall_clock: Callable[[], int] = lambda: int(values.wall().timestamp() * 1000)  # noqa: E731


WALL_DIGITS, COUNTER_DIGITS = 16, 10  # a stamp's text is fixed-width: text order is the clock's order
WALL_MAX, COUNTER_MAX = 10 ** WALL_DIGITS - 1, 10 ** COUNTER_DIGITS - 1


@dataclass(frozen=True, order=True)
class Stamp:
    """A hybrid logical clock reading: wall milliseconds, then a counter; ordered, never going back.

    Stamps are compared everywhere as their text (in SQL too), so the text has one width: a wall of
    16 digits and a counter of 10. Format 1 wrote 13 and 5 digits, and a counter past 99,999 (or a
    wall past year 2286) then sorted before smaller stamps; every stamp read is made fixed-width first.
    """

    wall: int
    counter: int

    def text(self) -> str:
        return f"{min(max(self.wall, 0), WALL_MAX):0{WALL_DIGITS}d}.{min(max(self.counter, 0), COUNTER_MAX):0{COUNTER_DIGITS}d}"

    def after(self, physical_ms: int) -> Stamp:
        """The next reading after this one for a change made at ``physical_ms``: the counter rolls into the wall."""
        wall = max(self.wall, physical_ms)
        counter = self.counter + 1 if wall == self.wall else 0
        if counter > COUNTER_MAX:
            wall, counter = wall + 1, 0
        return Stamp(min(wall, WALL_MAX), counter)

    @classmethod
    def parse(cls, text: str) -> Stamp:
        wall, _, counter = (text or "0.0").partition(".")
        return cls(min(int(wall), WALL_MAX), min(int(counter or 0), COUNTER_MAX))


def norm(text: str | None) -> str:
    """A stamp of any width as the fixed-width text ("" stays "": no stamp)."""
    return Stamp.parse(text).text() if text else (text or "")


def norm_field(field: str) -> str:
    """A sync_stamp field naming a stamp in it (a deletion known to have missed a write) with that stamp fixed-width."""
    if field.startswith(MISSED):
        stamp, sep, device = field[len(MISSED):].partition(":")
        if sep:
            return f"{MISSED}{norm(stamp)}:{device}"
    return field


def norm_change(change: dict) -> dict:
    """A change read from a segment with every stamp it names fixed-width (its own, what a removal saw, a creation's deletions)."""
    if isinstance(change.get("stamp"), str):
        change["stamp"] = norm(change["stamp"])
    for item in change.get("items") or ():
        for key in ("saw", "gone_at"):
            seen = item.get(key) if isinstance(item, dict) else None
            if isinstance(seen, dict):
                for name, pair in seen.items():
                    if isinstance(pair, list) and pair and isinstance(pair[0], str):
                        seen[name] = [norm(pair[0]), *pair[1:]]
    return change


def clock(db: Database) -> Stamp:
    """The file's clock as it was last left."""
    return Stamp.parse(db.get_meta(HLC_KEY) or "0.0")


def tick(db: Database, physical_ms: int | None = None) -> Stamp:
    """A new stamp for a change made at ``physical_ms`` (now if None): after every stamp seen so far."""
    stamp = clock(db).after(physical_ms if physical_ms is not None else wall_clock())
    db.set_meta(HLC_KEY, stamp.text())
    return stamp


def observe(db: Database, seen: Stamp) -> None:
    """Merge another device's stamp into the clock, so every later change here is stamped after it."""
    last = clock(db)
    if seen > last:
        db.set_meta(HLC_KEY, seen.text())


def joined(db: Database) -> bool:
    """Whether this graph was ever joined to a sync folder."""
    return bool(db.has_table("meta") and db.get_meta(JOINED_KEY))


def joined_after(db: Database) -> int:
    """The last change_log id made before this graph joined a folder: what came before was never published
    change by change (the first publish sent the graph as it then was)."""
    try:
        return int(db.get_meta(JOINED_KEY) or 0)
    except ValueError:
        return 0


def published_upto(db: Database) -> int:
    return int(db.get_meta(UPTO_KEY) or 0)


def resolve_alias(db: Database, gid: str | None) -> str | None:
    """The global id a row goes by here (two ids merged into one keep the smaller)."""
    if gid is None:
        return None
    for _ in range(8):  # aliases point at the merged id; a chain is short, a loop impossible but bounded
        target = db.scalar("SELECT target FROM sync_alias WHERE gid = ?", (gid,))
        if target is None:
            return gid
        gid = target
    return gid


def local_id(db: Database, kind: str, gid: str | None) -> int | None:
    """The local row id of a global id (after aliases), or None when there is no such row here."""
    gid = resolve_alias(db, gid)
    if gid is None:
        return None
    return db.scalar(f"SELECT id FROM {SYNCED_TABLES[kind]} WHERE gid = ?", (gid,))


def gid_at(db: Database, kind: str, row_id: int | None, change_id: int) -> str | None:
    """The global id of local row ``row_id`` as it was at change ``change_id`` (deleted since or not)."""
    if row_id is None:
        return None
    gone = db.scalar(
        "SELECT gid FROM sync_tombstone WHERE kind = ? AND row_id = ? AND change_id >= ? ORDER BY change_id LIMIT 1",
        (kind, row_id, change_id),
    )
    if gone is not None:
        return gone
    return db.scalar(f"SELECT gid FROM {SYNCED_TABLES[kind]} WHERE id = ?", (row_id,))


class GidsAt:
    """``gid_at`` for the rows of many changes, read in a few queries (one per kind and table) instead of two each.

    Built for the rows ``wanted`` (kind, local id) of changes from ``since`` on: a row's tombstones from
    there and its current global id are read once, and each question is answered from them.
    """

    CHUNK = 500  # ids per query (SQLite's limit on parameters is far above)

    def __init__(self, db: Database, wanted: set[tuple[str, int]], since: int) -> None:
        self.current: dict[tuple[str, int], str] = {}
        self.gone: dict[tuple[str, int], list[tuple[int, str]]] = {}  # (change id, gid), in gid_at's order
        by_kind: dict[str, list[int]] = {}
        for kind, row_id in wanted:
            by_kind.setdefault(kind, []).append(row_id)
        for kind, ids in by_kind.items():
            for start in range(0, len(ids), self.CHUNK):
                chunk = ids[start:start + self.CHUNK]
                marks = ",".join("?" * len(chunk))
                for row_id, gid in db.execute(f"SELECT id, gid FROM {SYNCED_TABLES[kind]} WHERE id IN ({marks})", chunk):
                    self.current[(kind, row_id)] = gid
                for row_id, change_id, gid in db.execute(
                        f"SELECT row_id, change_id, gid FROM sync_tombstone WHERE kind = ? AND row_id IN ({marks}) "
                        "AND change_id >= ? ORDER BY change_id, rowid", (kind, *chunk, since)):
                    self.gone.setdefault((kind, row_id), []).append((change_id, gid))

    def __call__(self, kind: str, row_id: int | None, change_id: int) -> str | None:
        if row_id is None:
            return None
        for gone_at, gid in self.gone.get((kind, row_id), ()):
            if gone_at >= change_id:
                return gid
        return self.current.get((kind, row_id))


def set_stamp(db: Database, gid: str, field: str, stamp: str, device: str) -> None:
    db.execute("INSERT OR REPLACE INTO sync_stamp(gid, field, stamp, device) VALUES (?, ?, ?, ?)",
               (gid, field, stamp, device))


def get_stamp(db: Database, gid: str, field: str) -> tuple[str, str]:
    """(stamp, device) of a field's last write known to sync; ("", "") when none was stamped."""
    row = db.one("SELECT stamp, device FROM sync_stamp WHERE gid = ? AND field = ?", (gid, field))
    return (row[0], row[1]) if row else ("", "")


def applied(db: Database) -> dict[str, int]:
    """The last sequence applied here from each device (this file's own device: what it published)."""
    out = {r[0]: int(r[1]) for r in db.execute("SELECT device, seq FROM sync_applied")}
    me = db.get_meta(DEVICE_KEY)
    if me:
        out[me] = max(out.get(me, 0), int(db.get_meta(SEQ_KEY) or 0))
    return out


def known_as(db: Database, gid: str) -> list[str]:
    """Every global id this row goes by here: its own and those merged into it."""
    return sorted({gid, *(r[0] for r in db.execute("SELECT gid FROM sync_alias WHERE target = ?", (gid,)))})


def deleted_entities(db: Database, name: str, before_change: int | None = None) -> list[str]:
    """Global ids (with those merged into them) of entities of this name deleted here before ``before_change``."""
    sql = ("SELECT DISTINCT t.gid FROM sync_tombstone t JOIN change_item ci ON ci.change_id = t.change_id "
           "AND ci.kind = 'entity' AND ci.row_id = t.row_id AND ci.op = 'remove' "
           "WHERE t.kind = 'entity' AND json_extract(ci.before, '$.name') = ?")
    params: tuple = (name,)
    if before_change is not None:
        sql += " AND t.change_id < ?"
        params = (name, before_change)
    return sorted({g for (gid,) in db.execute(sql, params).fetchall() for g in known_as(db, gid)})


def renamed_entities(db: Database, name: str, before_change: int | None = None, since: int = 0) -> list[str]:
    """Global ids (with those merged into them) of entities here that were renamed away from this name
    (by a change after ``since``)."""
    sql = ("SELECT DISTINCT row_id, change_id FROM change_item WHERE kind = 'entity' AND op = 'change' "
           "AND json_extract(before, '$.name') = ? AND json_extract(after, '$.name') IS NOT ? AND change_id > ?")
    params: tuple = (name, name, since)
    if before_change is not None:
        sql += " AND change_id < ?"
        params = (name, name, since, before_change)
    gids = {gid_at(db, "entity", row_id, change_id) for row_id, change_id in db.execute(sql, params).fetchall()}
    return sorted({g for gid in gids if gid for g in known_as(db, resolve_alias(db, gid))})


def note_taken(db: Database, taken: list[str], taker: str, stamp: str, device: str) -> None:
    """Entity ``taker`` was created under the name of the deleted entities ``taken``, its creator knowing them deleted."""
    for gid in taken:
        set_stamp(db, resolve_alias(db, gid), TAKEN + taker, stamp, device)
        set_stamp(db, resolve_alias(db, taker), TOOK + gid, stamp, device)


def takers(db: Database, gid: str, prefix: str = TAKEN) -> list[str]:
    """The entities created under this deleted entity's name by a device that knew it deleted (their ids here);
    with ``TOOK``, the other way: the deleted entities whose name this one took when it was made."""
    found = set()
    for known in known_as(db, resolve_alias(db, gid)):
        for (field,) in db.execute("SELECT field FROM sync_stamp WHERE gid = ? AND field >= ? AND field < ?",
                                   (known, prefix, prefix + "\uffff")):
            found.add(resolve_alias(db, field[len(prefix):]))
    return sorted(found)
