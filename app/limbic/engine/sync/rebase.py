"""Putting a late change in its place: take back what was applied after it, and apply it all again in clock order.

Every group of other devices' changes this device applies (``pulling``), and every write of its own (``own``), is
recorded as it is written: the changes themselves, in the order applied, and what the group wrote to the graph and
its bookkeeping as SQLite's session extension sees it (a changeset: every row before and after). When changes arrive whose place in the clock
order lies below changes already applied, the device takes those back (the changesets inverted, the newest
first) and applies the late changes and the taken-back ones again, all in clock order, in one write transaction:
the window, ``limbic mcp`` and search never see a half state. The device then holds what one machine that made
every change in clock order would hold, by construction rather than by the rules for a change that arrives
below its place (``late.py``, ``joining.py``, ``parting.py``), which still decide where a rebase cannot be made:

- a write of this device's own that cannot be applied again lies in the way, touching what the late changes or
  those to take back touch (apart.py): one not published yet, or never recorded (own.py records the others,
  which are taken back and applied again like any device's);
- the late change lies below what is kept ready (``KEEP`` changes), or a group too large to keep
  (``KEEP_ITEMS`` rows, a first sync) lies above it;
- the graph changed since in a way the changesets do not foresee (an inverse that does not apply exactly is
  refused whole).

Derived rows follow: the full-text rows and vectors of every entity the take-back touched are brought up to date
when the transaction ends, as after any write. The person's usage signals of an entity taken back follow it by
its global id to the entity as it is made again (its local id may change), and go only with an entity that is gone.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass

import apsw

from limbic.engine.store.activity import NEXT_CHANGE_SQL
from limbic.engine.sync import apart, state

KEEP = 10_000  # changes kept ready to be applied again, at least (the depth a late change can be put in its place)
KEEP_ITEMS = 20_000  # a group writing more rows than this is not kept: nothing below it is taken back

# What the apply writes, as the session records it: the synced rows, their bookkeeping, the activity log and
# history. Not the derived rows (full text, vectors: brought up to date after), the usage signals, nor the
# clock (``meta``: a clock never goes back).
RECORDED = frozenset({
    "entities", "observations", "relations", "reflections", "entity_aliases", "sync_stamp", "sync_tombstone",
    "sync_alias", "sync_conflicts", "sync_applied", "sync_outbox", "change_log", "change_item", "history",
    "activity_session", "assistant_scopes",
})
# Rows naming an entity. Where the take-back removed the entity, the derived and usage ones go with it (its
# local id may be another's when it is made again); a synced one left naming it means the record was not exact.
_NAMED_BY = (("observations", "entity_id"), ("relations", "from_entity"), ("relations", "to_entity"),
             ("reflections", "entity_id"), ("entity_aliases", "entity_id"), ("entity_access", "entity_id"),
             ("entity_access_log", "entity_id"), ("embedding_state", "entity_id"), ("embedding_chunks", "entity_id"),
             ("co_occurrences", "entity_a_id"), ("co_occurrences", "entity_b_id"))

_TABLE = """CREATE TABLE IF NOT EXISTS sync_replay (
    id      INTEGER PRIMARY KEY,
    low     TEXT NOT NULL,
    high    TEXT NOT NULL,
    first   INTEGER NOT NULL,
    count   INTEGER NOT NULL,
    steps   TEXT NOT NULL,
    undo    BLOB NOT NULL,
    own     TEXT
)"""
# ``own``: the log ids of a write of this device's own not published yet (own.py), whose place is above every stamp.


class CannotTakeBack(Exception):
    """The graph changed since in a way the recorded changesets do not foresee: the rules decide instead."""


@dataclass
class Kept:
    """One recorded group: where its changes lie in the clock order, and how to take it back."""

    id: int
    first: int  # the first change_log id it wrote
    steps: list  # [key, device, seq, name, at, change or None, last], in the order applied
    own: list[int] | None = None  # a write of this device's own not published yet: its log ids


def ensure(db) -> None:
    db.execute(_TABLE)
    if "own" not in {r[1] for r in db.execute("PRAGMA main.table_info(sync_replay)")}:
        db.execute("ALTER TABLE sync_replay ADD COLUMN own TEXT")  # kept by an earlier version


def above(db, low: str, late: list[dict | None] | None = None) -> list[Kept] | None:
    """The recorded groups from the first one holding a change above ``low`` in the clock order; [] when none
    does; None when the late changes (``late``; None: not known) cannot be put in their place (see the module's
    reasons: a change of this device's own in the way is one only where it touches what they touch, apart.py)."""
    if not db.has_table("sync_replay"):
        return []
    start = db.scalar("SELECT min(id) FROM sync_replay WHERE high > ?", (low,))
    if start is None:
        return []
    cut = db.get_meta(CUT_KEY)
    if cut is None or cut > low:
        return None  # below it lie changes that cannot be taken back (this device's own, pruned, never kept)
    # Read only: a table kept by an earlier version has no ``own`` column yet (the next write's ``ensure`` adds it).
    own = "own" if "own" in {r[1] for r in db.execute("PRAGMA main.table_info(sync_replay)")} else "NULL"
    rows = [Kept(i, f, json.loads(s), json.loads(o) if o else None) for i, f, s, o in db.execute(
        f"SELECT id, first, steps, {own} FROM sync_replay WHERE id >= ? ORDER BY id", (start,))]
    taken = [row for row in rows if row.own is None]
    # Own writes that stay where they are: not published yet (their place is above all), or never recorded.
    me = db.get_meta(state.DEVICE_KEY)
    recorded = {step[5].get("cid") for row in taken for step in row.steps if step[1] == me and step[5]}
    staying = {c for row in rows if row.own for c in row.own} | {c for (c,) in db.execute(
        "SELECT cl.id FROM change_log cl WHERE cl.id >= ? AND cl.origin NOT LIKE 'sync:%' AND EXISTS "
        "(SELECT 1 FROM change_item ci WHERE ci.change_id = cl.id)", (rows[0].first,))} - recorded
    if not staying:
        return taken
    if late is None:
        return None
    others = apart.change_keys(db, [*late, *(step[5] for row in taken for step in row.steps)])
    return None if apart.touching(apart.own_keys(db, staying), others) else taken


CUT_KEY = "sync_replay_floor"  # the highest stamp of what cannot be taken back (own, pruned or never kept)


def floor(db, stamp: str | None = None) -> None:
    """Nothing at or below ``stamp`` (the clock, by default) can be taken back: this device's own changes
    published, or a graph started again from a snapshot."""
    try:
        high = state.norm(stamp if stamp is not None else (db.get_meta(state.HLC_KEY) or "0.0"))
    except ValueError:
        return
    if high > (db.get_meta(CUT_KEY) or ""):
        db.set_meta(CUT_KEY, high)


def take_back(db, rows: list[Kept]) -> set[int]:
    """Undo the recorded groups, the newest first, inside the caller's transaction; the entities touched.
    CannotTakeBack (nothing taken back is left half done: the caller rolls its transaction back)."""
    touched: set[int] = set()

    def refuse(reason: int, change: apsw.TableChange) -> int:
        # Rows naming an entity taken back are looked at below, for those entities alone: not a whole-file check.
        if reason == apsw.SQLITE_CHANGESET_FOREIGN_KEY:
            return apsw.SQLITE_CHANGESET_OMIT
        if reason == apsw.SQLITE_CHANGESET_DATA and change.name == "change_log" and change.op == "DELETE":
            return apsw.SQLITE_CHANGESET_REPLACE  # marked reviewed since: the change applied again comes back unread
        return apsw.SQLITE_CHANGESET_ABORT

    with _triggers_off(db):  # the log's, history's and global ids' triggers: the changesets hold what they wrote
        for kept in reversed(rows):
            undo = db.scalar("SELECT undo FROM sync_replay WHERE id = ?", (kept.id,))
            touched |= _entities(db, undo)
            try:
                apsw.Changeset.apply(undo, db.conn, conflict=refuse, flags=apsw.SQLITE_CHANGESETAPPLY_FKNOACTION)
            except apsw.Error as exc:
                raise CannotTakeBack(str(exc)) from exc
    gone = sorted(i for i in touched if db.scalar("SELECT 1 FROM entities WHERE id = ?", (i,)) is None)
    for start in range(0, len(gone), 500):
        chunk = gone[start:start + 500]
        marks = ",".join("?" * len(chunk))
        for table, column in _NAMED_BY:
            if table in RECORDED and db.has_table(table) and db.scalar(
                    f"SELECT 1 FROM {table} WHERE {column} IN ({marks}) LIMIT 1", chunk) is not None:
                raise CannotTakeBack(f"rows of {table} would name entities that are gone")
            if table not in RECORDED and db.has_table(table):
                db.execute(f"DELETE FROM {table} WHERE {column} IN ({marks})", chunk)
    db.execute(f"DELETE FROM sync_replay WHERE id IN ({','.join(str(int(r.id)) for r in rows)})")
    return touched


# The person's usage signals (what searches recorded): no change wrote them, so none takes them back. Over a
# take-back they are kept by their entities' global ids and put back on those entities as they are made again.
_USAGE = {
    "entity_access": ("SELECT e.gid, u.access_count, u.last_access FROM entity_access u JOIN entities e "
                      "ON e.id = u.entity_id WHERE e.gid IS NOT NULL AND u.entity_id IN ({marks})",
                      "DELETE FROM entity_access WHERE entity_id IN ({marks})"),
    "entity_access_log": ("SELECT e.gid, u.access_date, u.access_count FROM entity_access_log u JOIN entities e "
                          "ON e.id = u.entity_id WHERE e.gid IS NOT NULL AND u.entity_id IN ({marks})",
                          "DELETE FROM entity_access_log WHERE entity_id IN ({marks})"),
    "co_occurrences": ("SELECT a.gid, b.gid, u.co_count, u.last_co FROM co_occurrences u JOIN entities a "
                       "ON a.id = u.entity_a_id JOIN entities b ON b.id = u.entity_b_id WHERE a.gid IS NOT NULL "
                       "AND b.gid IS NOT NULL AND (u.entity_a_id IN ({marks}) OR u.entity_b_id IN ({marks}))",
                       "DELETE FROM co_occurrences WHERE entity_a_id IN ({marks}) OR entity_b_id IN ({marks})"),
    # Which entities an assistant read (the Activity panel's): each row moves to its entity's id, nothing merges.
    "activity_read": ("SELECT e.gid, u.rowid FROM activity_read u JOIN entities e ON e.id = u.entity_id "
                      "WHERE e.gid IS NOT NULL AND u.entity_id IN ({marks})", None),
}
_DERIVED = frozenset({"embedding_state", "embedding_chunks"})  # made again from the entity's text when it ends
_LATER = "CASE WHEN {c} IS NULL OR excluded.{c} > {c} THEN excluded.{c} ELSE {c} END"
_PUT = {
    "entity_access": "INSERT INTO entity_access(entity_id, access_count, last_access) VALUES (?, ?, ?) ON CONFLICT"
                     "(entity_id) DO UPDATE SET access_count = access_count + excluded.access_count, last_access = "
                     + _LATER.format(c="last_access"),
    "entity_access_log": "INSERT INTO entity_access_log(entity_id, access_date, access_count) VALUES (?, ?, ?) ON "
                         "CONFLICT(entity_id, access_date) DO UPDATE SET access_count = access_count + "
                         "excluded.access_count",
    "activity_read": "UPDATE activity_read SET entity_id = ? WHERE rowid = ?",
    "co_occurrences": "INSERT INTO co_occurrences(entity_a_id, entity_b_id, co_count, last_co) VALUES (?, ?, ?, ?) ON "
                      "CONFLICT(entity_a_id, entity_b_id) DO UPDATE SET co_count = co_count + excluded.co_count, "
                      "last_co = "
                      + _LATER.format(c="last_co"),
}


def lift(db, rows: list[Kept]) -> dict[str, list[tuple]]:
    """Take out the usage signals, the reads noted and any other row naming an entity the take-back of ``rows``
    writes, by its global id (``put_back``)."""
    ids: set[int] = set()
    for kept in rows:
        undo = db.scalar("SELECT undo FROM sync_replay WHERE id = ?", (kept.id,))
        ids.update((c.old or c.new)[0] for c in apsw.Changeset.iter(undo) if c.name == "entities")
    out: dict[str, list[tuple]] = {}
    ordered = sorted(i for i in ids if isinstance(i, int))
    for table, (read, delete) in _USAGE.items():
        if not db.has_table(table):
            continue
        for start in range(0, len(ordered), 400):
            chunk = ordered[start:start + 400]
            marks = ",".join("?" * len(chunk))
            out.setdefault(table, []).extend(
                tuple(r) for r in db.execute(read.format(marks=marks), chunk * read.count("{marks}")))
            if delete is not None:
                db.execute(delete.format(marks=marks), chunk * delete.count("{marks}"))
    _lift_naming(db, ordered, out)
    return out


def _lift_naming(db, ordered: list[int], out: dict[str, list[tuple]]) -> None:
    """Any other table's rows naming these entities (the pins): each row as it is, its entities by global id."""
    for table, columns in _naming(db).items():
        names = [r[1] for r in db.execute(f'PRAGMA main.table_info("{table}")')]
        at = [names.index(c) for c in columns]
        gids = {}
        for start in range(0, len(ordered), 400):
            chunk = ordered[start:start + 400]
            marks = ",".join("?" * len(chunk))
            where = " OR ".join(f'"{c}" IN ({marks})' for c in columns)
            found = db.execute(f'SELECT * FROM "{table}" WHERE {where}', chunk * len(columns)).fetchall()
            for row in found:
                row = list(row)
                for i in at:
                    if row[i] is not None and row[i] not in gids:
                        gids[row[i]] = db.scalar("SELECT gid FROM entities WHERE id = ?", (row[i],))
                    row[i] = gids.get(row[i])
                out.setdefault(table, []).append((names, at, row))
            db.execute(f'DELETE FROM "{table}" WHERE {where}', chunk * len(columns))


def _naming(db) -> dict[str, list[str]]:
    """The file's other tables with rows naming an entity (by a foreign key), and the columns that do."""
    out: dict[str, list[str]] = {}
    for (table,) in db.execute("SELECT name FROM main.sqlite_master WHERE type = 'table'").fetchall():
        if table not in RECORDED and table not in _USAGE and table not in _DERIVED:
            columns = [r[3] for r in db.execute(f'PRAGMA main.foreign_key_list("{table}")') if r[2] == "entities"]
            if columns:
                out[table] = columns
    return out


def put_back(db, lifted: dict[str, list[tuple]]) -> None:
    """What ``lift`` took out, on its entities as they are now: usage added to what an entity holds (one made again
    into another of its name), a row gone with an entity that is gone."""
    ids: dict[str, int | None] = {}

    def local(gid: str) -> int | None:
        if gid not in ids:
            ids[gid] = state.local_id(db, "entity", gid)
        return ids[gid]

    for table in ("entity_access", "entity_access_log", "activity_read"):
        for gid, *rest in lifted.get(table, ()):
            if (i := local(gid)) is not None:
                db.execute(_PUT[table], (i, *rest))
    for a, b, *rest in lifted.get("co_occurrences", ()):
        x, y = local(a), local(b)
        if x is not None and y is not None and x != y:
            db.execute(_PUT["co_occurrences"], (min(x, y), max(x, y), *rest))
    for table, rows in lifted.items():
        if table in _USAGE:
            continue
        for names, at, row in rows:
            named = [i for i in at if row[i] is not None]
            row = [local(v) if i in named else v for i, v in enumerate(row)]
            if all(row[i] is not None for i in named):  # gone with an entity that is gone
                columns = ", ".join('"' + n + '"' for n in names)
                db.execute(f'INSERT OR IGNORE INTO "{table}"({columns}) VALUES ({", ".join("?" * len(row))})', row)


@contextlib.contextmanager
def _triggers_off(db) -> Iterator[None]:
    """The triggers on the recorded tables dropped, and made again as they were (inside the transaction)."""
    found = [(schema, sql) for schema in ("main", "temp") for name, table, sql in db.execute(
        f"SELECT name, tbl_name, sql FROM {schema}.sqlite_master WHERE type = 'trigger'").fetchall()
        if table in RECORDED and db.execute(f'DROP TRIGGER {schema}."{name}"') is not None]
    try:
        yield
    finally:
        for schema, sql in found:
            db.execute(sql if schema == "main" else "CREATE TEMP " + sql[len("CREATE "):])


_OWNER = {"observations": ("entity_id",), "relations": ("from_entity", "to_entity"),
          "reflections": ("entity_id",), "entity_aliases": ("entity_id",)}


def _entities(db, undo: bytes) -> set[int]:
    """The entity ids an inverse changeset writes (its rows' own, or their entity's), read before it applies:
    from the values it holds, and, where an update leaves the entity unchanged, from the row as it is."""
    out: set[int] = set()
    at: dict[tuple[str, str], int] = {}
    for change in apsw.Changeset.iter(undo):
        if change.name == "entities":
            out.add((change.old or change.new)[0])
            continue
        if change.name not in _OWNER:
            continue
        pk = (change.old or change.new)[0]
        for column in _OWNER[change.name]:
            if (change.name, column) not in at:
                names = [r[1] for r in db.execute(f"PRAGMA table_info({change.name})")]
                at[(change.name, column)] = names.index(column)
            i = at[(change.name, column)]
            out.update(v[i] for v in (change.old, change.new) if v and i < len(v) and isinstance(v[i], int))
            found = db.scalar(f"SELECT {column} FROM {change.name} WHERE id = ?", (pk,))
            if isinstance(found, int):
                out.add(found)
    return out


class Recording:
    """What one group writes, as the session extension sees it; ``keep`` stores it with the group's steps."""

    def __init__(self, db) -> None:
        self.db = db
        if db.get_meta(CUT_KEY) is None:
            floor(db)  # what was applied before anything was kept cannot be taken back
        self.first = int(db.scalar(NEXT_CHANGE_SQL))
        self.session = apsw.Session(db.conn, "main")
        self.session.config(apsw.SQLITE_SESSION_OBJCONFIG_ROWID, 1)  # sync_tombstone has no key of its own
        self.session.table_filter(lambda name: name in RECORDED)
        self.session.attach()

    def keep(self, steps: list, low: str, high: str, items: int) -> None:
        if items > KEEP_ITEMS:
            self._cut(high)
            return
        undo = apsw.Changeset.invert(self.session.changeset())
        ensure(self.db)
        self.db.execute("INSERT INTO sync_replay(low, high, first, count, steps, undo) VALUES (?, ?, ?, ?, ?, ?)",
                        (low, high, self.first, len(steps), json.dumps(steps, separators=(",", ":")), undo))
        self._prune()

    def close(self) -> None:
        self.session.close()

    def _cut(self, high: str) -> None:
        """Nothing at or below ``high``, nor anything kept, can be taken back any more."""
        forget(self.db)
        floor(self.db, high)

    def _prune(self) -> None:
        prune(self.db)


def prune(db) -> None:
    """Keep the newest records holding at least ``KEEP`` changes; what is older can no longer be taken back."""
    total = 0
    for row_id, count in db.execute("SELECT id, count FROM sync_replay ORDER BY id DESC").fetchall():
        total += count
        if total >= KEEP:
            floor(db, db.scalar("SELECT max(high) FROM sync_replay WHERE id < ? AND own IS NULL", (row_id,)) or "")
            db.execute("DELETE FROM sync_replay WHERE id < ?", (row_id,))
            return


def forget(db) -> None:
    """Everything kept can no longer be taken back (a group applied by the rules below it, a snapshot)."""
    if db.has_table("sync_replay"):
        ensure(db)
        top = db.scalar("SELECT max(high) FROM sync_replay WHERE own IS NULL")
        if top is not None:
            floor(db, top)
        db.execute("DELETE FROM sync_replay")
