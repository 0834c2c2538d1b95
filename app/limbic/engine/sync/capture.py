"""This device's changes as they travel: the change log's exact before/after rows, named by global ids.

Only changes made here are published (an origin of ``sync:…`` was applied from another device,
which published it itself). Each change gets a clock stamp from the time it was made, and every
field it set is stamped in ``sync_stamp``, so a later change from another device is weighed
against it. A graph joining a folder for the first time publishes its whole content as additions.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from limbic.engine.store.schema import SYNCED_TABLES
from limbic.engine.store.values import TIME_FORMAT
from limbic.engine.sync import state

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

# Which fields of a row's JSON (activity.py) name another row, and that row's kind.
REFS = {
    "observation": {"entity": "entity", "superseded_by": "observation"},
    "relation": {"from": "entity", "to": "entity"},
    "reflection": {"entity": "entity", "relation": "relation"},
    "entity": {},
    "alias": {"entity": "entity"},
}
INFO_ONLY = ("from_name", "to_name")  # names kept for the activity panel's words; the ids decide
DERIVED = "updated_at"  # a whole row's own last update (a first publish, a snapshot): no field of its own to stamp
ROW_FIELD = "_row"  # the stamp of a row's existence (its removal)

_ROWS = {
    "entity": "SELECT id, json_object('name', name, 'type', entity_type, 'status', status, 'created_at', created_at, "
              "'private', private, 'updated_at', updated_at) FROM entities ORDER BY id",
    "observation": "SELECT id, json_object('entity', entity_id, 'content', content, 'kind', kind, "
                   "'created_at', created_at, 'superseded_by', superseded_by, 'superseded_at', superseded_at, "
                   "'valid_from', valid_from, 'valid_until', valid_until) FROM observations ORDER BY id",
    "relation": "SELECT id, json_object('from', from_entity, 'to', to_entity, 'type', relation_type, "
                "'context', context, 'active', active, 'created_at', created_at, 'ended_at', ended_at, "
                "'valid_from', valid_from, 'valid_until', valid_until) FROM relations ORDER BY id",
    "reflection": "SELECT id, json_object('target_type', target_type, 'entity', entity_id, 'relation', relation_id, "
                  "'target_ref', target_ref, 'author', author, 'content', content, 'mood', mood, "
                  "'created_at', created_at) FROM reflections ORDER BY id",
    "alias": "SELECT id, json_object('entity', entity_id, 'alias', alias, 'created_at', created_at) "
             "FROM entity_aliases ORDER BY id",
}


@functools.lru_cache(maxsize=256)
def _ms(at: str) -> int:
    try:
        return int(datetime.strptime(at, TIME_FORMAT).replace(tzinfo=timezone.utc).timestamp() * 1000)
    except (TypeError, ValueError):
        return 0


def translate(db: Database, kind: str, values: dict | None, change_id: int,
              gid_at: Callable[[str, int | None, int], str | None] | None = None) -> dict | None:
    """A row's JSON with its references to other rows as global ids (``gid_at``: a batch's look-up, state.GidsAt)."""
    if values is None:
        return None
    out = {k: v for k, v in values.items() if k not in INFO_ONLY}
    for key, ref_kind in REFS[kind].items():
        if out.get(key) is not None:
            out[key] = gid_at(ref_kind, out[key], change_id) if gid_at else state.gid_at(db, ref_kind, out[key], change_id)
    return out


def change_gids(db: Database, change_id: int) -> list[str]:
    """The global ids of the synced rows one change of the log touched, in order, as its published items name them."""
    out = []
    for kind, row_id in db.execute("SELECT kind, row_id FROM change_item WHERE change_id = ? ORDER BY id", (change_id,)):
        gid = state.gid_at(db, kind, row_id, change_id) if kind in SYNCED_TABLES else None
        if gid is not None:
            out.append(gid)
    return out


def changed_fields(item: dict) -> list[str]:
    """The fields an item sets: all of an addition, those that differ in a change, the row for a removal."""
    before, after = item.get("b"), item.get("a")
    if after is None:
        return [ROW_FIELD]
    if before is None:
        return [ROW_FIELD, *(k for k in after if k != DERIVED)]
    return [k for k in after if before.get(k) != after.get(k)]


def _stamp_rows(items: list[dict], stamp: str, device: str) -> list[tuple[str, str, str, str]]:
    return [(item["gid"], name, stamp, device) for item in items for name in changed_fields(item)]


def stamp_items(db: Database, items: list[dict], stamp: str, device: str) -> None:
    """Record that these fields were last set by this stamp (what later changes are weighed against)."""
    db.conn.executemany(_SET_STAMP, _stamp_rows(items, stamp, device))


_SET_STAMP = "INSERT OR REPLACE INTO sync_stamp(gid, field, stamp, device) VALUES (?, ?, ?, ?)"


class Names:
    """The names entities here were deleted under or renamed away from: a filter read from the log once.

    Most names have neither; asking the log about every created entity's name read the whole log
    each time (hours for the first publish, or the first sync, of 100,000 entities). Renames logged
    since the last look are read on the next one (by item id), so the filter stays a superset.
    """

    def __init__(self, db: Database, still: bool = False) -> None:
        self.db = db
        self.deleted: set[str] | None = None
        self.renamed: set[str] = set()
        self._seen = 0  # the last change item read for renames
        self._still = still  # the log does not change while this filter is used (a publish): read it once

    def load(self) -> None:
        if self._still and self.deleted is not None:
            return
        if self.deleted is None:
            self.deleted = {r[0] for r in self.db.execute(
                "SELECT DISTINCT json_extract(ci.before, '$.name') FROM sync_tombstone t JOIN change_item ci "
                "ON ci.change_id = t.change_id AND ci.kind = 'entity' AND ci.row_id = t.row_id "
                "AND ci.op = 'remove' WHERE t.kind = 'entity'")}
        for item_id, name in self.db.execute(
                "SELECT id, CASE WHEN kind = 'entity' AND op = 'change' AND json_extract(before, '$.name') IS NOT "
                "json_extract(after, '$.name') THEN json_extract(before, '$.name') END FROM change_item WHERE id > ? "
                "ORDER BY id", (self._seen,)):
            self._seen = item_id
            if name is not None:
                self.renamed.add(name)

    def maybe_renamed(self, name: str) -> bool:
        """False when no entity here was ever renamed away from ``name`` (True: ask the log)."""
        self.load()
        return name in self.renamed


def _with_context(db: Database, item: dict, change_id: int, names: Names | None = None) -> dict:
    """An entity's deletion names every global id it had seen the entity by, its creation the deletions it
    had seen of that name: a deletion then removes only what it saw, on every device alike (apply.py). A change
    or removal of another row names its ids when it goes by more than one (without ``seen``: its own only)."""
    if item["k"] != "entity":
        if item["op"] != "add":  # the ids of the same row made on two devices and merged here (apply.py parts them)
            known = state.known_as(db, state.resolve_alias(db, item["gid"]))
            if len(known) > 1:
                item["seen"] = known
        return item
    if item["op"] == "remove":
        item["seen"] = state.known_as(db, item["gid"])
    elif item["op"] == "add" and (item["a"] or {}).get("name"):
        names = names or Names(db)
        names.load()
        name = item["a"]["name"]
        gone = state.deleted_entities(db, name, change_id) if name in (names.deleted or ()) else []
        if gone:
            item["gone"] = gone
        renamed = state.renamed_entities(db, name, change_id) if name in names.renamed else []
        if renamed:
            item["renamed"] = renamed
    return item


def unpublished(db: Database, device: str, limit: int = 50_000) -> tuple[list[dict], int]:
    """Inside a write transaction: this device's changes not published yet, stamped; and the last log id read."""
    upto = state.published_upto(db)
    rows = db.execute(
        "SELECT id, at, origin FROM change_log WHERE id > ? ORDER BY id LIMIT ?", (upto, limit)
    ).fetchall()
    out: list[dict] = []
    last = rows[-1][0] if rows else upto
    names = Names(db, still=True)  # nothing is logged while a publish reads the log
    clock = state.clock(db)
    stamps: list[tuple[str, str, str, str]] = []
    seen: dict[str, dict[str, list[str]]] = {}  # this batch's field stamps by row, not written yet
    by_change, gid_at = _batch_items(db, upto, last)
    for change_id, at, origin in rows:
        if origin.startswith(state.SYNC_ORIGIN):
            continue
        items = []
        for kind, op, row_id, before, after in by_change.get(change_id, ()):
            gid = gid_at(kind, row_id, change_id)
            if gid is None:
                continue  # a row that never had a global id (a file written before sync, pruned since)
            item = {
                "k": kind, "op": op, "gid": gid,
                "b": translate(db, kind, before, change_id, gid_at),
                "a": translate(db, kind, after, change_id, gid_at),
            }
            items.append(_with_context(db, item, change_id, names))
        if not items:
            continue
        clock = _next(clock, _ms(at))
        stamp = clock.text()
        _note_seen(db, items, seen)
        for row in _stamp_rows(items, stamp, device):
            stamps.append(row)
            seen.setdefault(row[0], {})[row[1]] = [row[2], row[3]]
        out.append({"cid": change_id, "at": at, "origin": origin, "stamp": stamp, "items": items})
    if out:  # the clock and the stamps written once for the whole batch
        db.set_meta(state.HLC_KEY, clock.text())
        db.conn.executemany(_SET_STAMP, stamps)
    return out, last


def _batch_items(db: Database, upto: int, last: int) -> tuple[dict[int, list[tuple]], state.GidsAt]:
    """The synced rows of the changes after ``upto`` up to ``last`` not applied from another device, by change,
    their JSON parsed; and the global ids of every row they touch or name, read at once (a few queries
    for the whole batch, where each change and each row asked on its own: about six queries a change)."""
    by_change: dict[int, list[tuple]] = {}
    wanted: set[tuple[str, int]] = set()
    for change_id, kind, op, row_id, before, after in db.execute(
        "SELECT ci.change_id, ci.kind, ci.op, ci.row_id, ci.before, ci.after FROM change_item ci "
        "JOIN change_log cl ON cl.id = ci.change_id WHERE ci.change_id > ? AND ci.change_id <= ? "
        "AND substr(cl.origin, 1, ?) != ? ORDER BY ci.change_id, ci.id",
        (upto, last, len(state.SYNC_ORIGIN), state.SYNC_ORIGIN),
    ):
        if kind not in SYNCED_TABLES:
            continue
        values = [json.loads(text) if text else None for text in (before, after)]
        by_change.setdefault(change_id, []).append((kind, op, row_id, *values))
        if row_id is not None:
            wanted.add((kind, row_id))
        for side in values:
            for key, ref_kind in REFS[kind].items():
                if side and side.get(key) is not None:
                    wanted.add((ref_kind, side[key]))
    return by_change, state.GidsAt(db, wanted, upto + 1)


def own_rows(db: Database, upto: int, last: int) -> Iterator[tuple]:
    """(change id, kind, local row id, before, after, gid_at) of every synced row this device's own changes after
    ``upto`` up to ``last`` wrote (not those applied from another device)."""
    by_change, gid_at = _batch_items(db, upto, last)
    for change_id, items in by_change.items():
        for kind, _op, row_id, before, after in items:
            yield change_id, kind, row_id, before, after, gid_at


def _note_seen(db: Database, items: list[dict], batch: dict[str, dict[str, list[str]]]) -> None:
    """Each removal names the stamps of the writes to its row it had seen: an edit it had not seen then
    wins over it wherever the two meet, whichever arrives first (apply.py)."""
    for item in items:
        if item["op"] != "remove":
            continue
        gid = state.resolve_alias(db, item["gid"])
        saw = {f: [s, d] for f, s, d in db.execute("SELECT field, stamp, device FROM sync_stamp WHERE gid = ?", (gid,))}
        for known in dict.fromkeys((gid, item["gid"])):
            saw.update(batch.get(known, {}))
        item["saw"] = {f: v for f, v in saw.items() if not f.startswith("_")}


def _next(last: state.Stamp, physical_ms: int) -> state.Stamp:
    """The stamp after ``last`` for a change made at ``physical_ms`` (state.tick, without its two queries)."""
    return last.after(physical_ms)


def whole_graph(db: Database, device: str) -> list[dict]:
    """Inside a write transaction: every row of the graph as one change of additions (a first publish)."""
    items = []
    names = Names(db)
    for kind in SYNCED_TABLES:
        gids = {r[0]: r[1] for r in db.execute(f"SELECT id, gid FROM {SYNCED_TABLES[kind]}")}
        for row_id, text in db.execute(_ROWS[kind]):
            if gids.get(row_id) is None:
                continue
            values = json.loads(text)
            for key, ref_kind in REFS[kind].items():
                if values.get(key) is not None:
                    values[key] = db.scalar(f"SELECT gid FROM {SYNCED_TABLES[ref_kind]} WHERE id = ?", (values[key],))
            items.append(_with_context(db, {"k": kind, "op": "add", "gid": gids[row_id], "b": None, "a": values},
                                       1 << 62, names))
    if not items:
        return []
    stamp = state.tick(db).text()
    stamp_items(db, items, stamp, device)
    last = int(db.scalar("SELECT coalesce(max(id), 0) FROM change_log"))
    return [{"cid": last, "at": "", "origin": "join", "stamp": stamp, "items": items}]
