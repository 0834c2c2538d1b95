"""Rows by global id: reading one as its JSON (references as global ids), writing one from such JSON."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from limbic.engine.store.schema import SYNCED_TABLES
from limbic.engine.sync import state
from limbic.engine.sync.conflict_key import follow_merge
from limbic.engine.store.activity import ITEM_COLUMNS
from limbic.engine.sync.capture import REFS, ROW_FIELD

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

# The JSON key of each column (as the activity log writes rows), per kind.
COLUMNS = ITEM_COLUMNS
OWN = "_own:"  # a sync_stamp field: a row's own stamp of a field, kept when it merged with a twin
WAS = "_was:"  # a sync_stamp field: a row's own value of a field (its JSON as the stamp), kept alike
KEPT = (OWN, WAS)  # what a row kept of its own: it stays with the id it was kept under
DEFAULTS = {"status": "active", "kind": "note", "type": "Generic", "active": 1, "author": "", "private": 0}


def current(db: Database, kind: str, gid: str) -> tuple[int, dict] | None:
    """(local id, JSON with references as global ids) of the row going by ``gid`` here, or None."""
    cols = COLUMNS[kind]
    select = f"SELECT id, {', '.join(cols.values())} FROM {SYNCED_TABLES[kind]} WHERE gid = ?"
    real = state.resolve_alias(db, gid)
    row = db.one(select, (real,))
    if row is None and real != gid:  # a row parted from a merge goes by its own id again, whatever it was merged into
        row = db.one(select, (gid,))
    if row is None:
        return None
    values = dict(zip(cols, row[1:]))
    for key, ref_kind in REFS[kind].items():
        if values.get(key) is not None:
            values[key] = db.scalar(f"SELECT gid FROM {SYNCED_TABLES[ref_kind]} WHERE id = ?", (values[key],))
    return int(row[0]), values


def same(a: object, b: object) -> bool:
    """Equal as stored values (the JSON of an integer column and its value compare alike)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def local_values(db: Database, kind: str, values: dict) -> tuple[dict, list[str]]:
    """Columns for a row from its JSON: references as local ids; the keys whose row is not here."""
    out, missing = {}, []
    for key, column in COLUMNS[kind].items():
        value = values.get(key, DEFAULTS.get(key))
        ref_kind = REFS[kind].get(key)
        if ref_kind and value is not None:
            local = state.local_id(db, ref_kind, value)
            if local is None:
                missing.append(key)
            value = local
        out[column] = value
    return out, missing


def entity_of(db: Database, kind: str, row_id: int) -> int | None:
    """The entity a row belongs to (a relation: its source)."""
    if kind == "entity":
        return row_id
    column = "from_entity" if kind == "relation" else "entity_id"
    return db.scalar(f"SELECT {column} FROM {SYNCED_TABLES[kind]} WHERE id = ?", (row_id,))


def twin(db: Database, kind: str, columns: dict) -> tuple[int, str] | None:
    """A local row that is the same thing under another global id: a name, a text on an entity, a relation."""
    if kind == "entity":
        row = db.one("SELECT id, gid FROM entities WHERE name = ?", (columns["name"],))
        if row is None:
            row = db.one("SELECT id, gid FROM entities WHERE name = ? COLLATE NOCASE ORDER BY id LIMIT 1",
                         (columns["name"],))
    elif kind == "observation":
        # A text can be both superseded and current on one entity: only a current row is the same thing. A
        # superseded one is history: the text said again after it is a row of its own, as where it was said.
        if columns.get("superseded_at") is not None or columns.get("superseded_by") is not None:
            return None
        row = db.one("SELECT id, gid FROM observations WHERE entity_id = ? AND content = ? AND superseded_at IS NULL "
                     "AND superseded_by IS NULL ORDER BY id LIMIT 1", (columns["entity_id"], columns["content"]))
    elif kind == "relation":
        row = db.one("SELECT id, gid FROM relations WHERE from_entity = ? AND to_entity = ? AND relation_type = ?",
                     (columns["from_entity"], columns["to_entity"], columns["relation_type"]))
    elif kind == "alias":
        # One alias names one entity: the same alias given on two devices is one row, whichever entity
        # it went to (the entity field's stamps then decide, and the loser is kept as a conflict).
        row = db.one("SELECT id, gid FROM entity_aliases WHERE alias = ? COLLATE NOCASE", (columns["alias"],))
    else:
        return None
    return (int(row[0]), row[1]) if row else None


def merge_ids(db: Database, kind: str, local_gid: str, remote_gid: str, remote_values: dict | None = None) -> str:
    """Two global ids for one thing: both devices keep the smaller, the other becomes its alias.

    Each row other than an entity keeps the stamps and values it had as its own (``OWN``, ``WAS``;
    ``remote_values``: the other's, which is not a row here): an edit made without seeing the other
    may part the two again (parting.py), each with its own stamps and values."""
    keep, drop = sorted((local_gid, remote_gid))
    if kind != "entity":
        found = current(db, kind, local_gid)
        for gid, values in ((local_gid, found[1] if found else None), (remote_gid, remote_values)):
            note_own(db, gid)
            note_values(db, kind, gid, values)
    if keep != local_gid:
        db.execute(f"UPDATE {SYNCED_TABLES[kind]} SET gid = ? WHERE gid = ?", (keep, local_gid))
        for field, stamp, device in db.execute(
            "SELECT field, stamp, device FROM sync_stamp WHERE gid = ? AND substr(field, 1, 5) NOT IN (?, ?)",
            (local_gid, *KEPT),
        ).fetchall():
            if (stamp, device) > state.get_stamp(db, keep, field):
                state.set_stamp(db, keep, field, stamp, device)
        db.execute("DELETE FROM sync_stamp WHERE gid = ? AND substr(field, 1, 5) NOT IN (?, ?)", (local_gid, *KEPT))
    # The ids merged into the one dropped go by the one kept too (known_as reads one step): a chain left
    # an entity's deletion naming fewer ids than another device knew it by, and it gave way there.
    db.execute("UPDATE sync_alias SET target = ? WHERE target = ?", (keep, drop))
    db.execute("INSERT OR REPLACE INTO sync_alias(gid, target) VALUES (?, ?)", (drop, keep))
    follow_merge(db, kind, drop, keep)
    return keep


def note_own(db: Database, gid: str, stamps: dict[str, tuple[str, str]] | None = None) -> None:
    """Remember a row's stamps (``stamps``, or those it holds now) as its own, before it merges with a twin
    (the first merge's: a row merged again keeps what it had before it was ever merged)."""
    if stamps is None:
        stamps = {f: (s, d) for f, s, d in db.execute(
            "SELECT field, stamp, device FROM sync_stamp WHERE gid = ? AND (substr(field, 1, 1) != '_' OR field = ?)",
            (gid, ROW_FIELD))}
    db.conn.executemany("INSERT OR IGNORE INTO sync_stamp(gid, field, stamp, device) VALUES (?, ?, ?, ?)",
                        [(gid, OWN + f, s, d) for f, (s, d) in stamps.items()])


def note_values(db: Database, kind: str, gid: str, values: dict | None) -> None:
    """Remember a row's values as its own before it merges with a twin (the first merge's, like its stamps)."""
    if values:
        db.conn.executemany("INSERT OR IGNORE INTO sync_stamp(gid, field, stamp, device) VALUES (?, ?, ?, '')",
                            [(gid, WAS + k, json.dumps(v)) for k, v in values.items() if k in COLUMNS[kind]])


def insert(db: Database, kind: str, gid: str, columns: dict, now: str) -> int:
    table = SYNCED_TABLES[kind]
    names = list(columns)
    if kind == "entity":
        names.append("updated_at")
    values = [columns[c] for c in columns] + ([now] if kind == "entity" else [])
    db.execute(f"INSERT INTO {table}(gid, {', '.join(names)}) VALUES (?, {', '.join('?' * len(names))})",
               (gid, *values))
    return int(db.conn.last_insert_rowid())


def update(db: Database, kind: str, row_id: int, columns: dict) -> None:
    if columns:
        db.execute(f"UPDATE {SYNCED_TABLES[kind]} SET {', '.join(c + ' = ?' for c in columns)} WHERE id = ?",
                   (*columns.values(), row_id))


def tombstone(db: Database, kind: str, gid: str) -> tuple[int, int] | None:
    """(row id, change id) of this row's latest deletion here, if it was deleted here."""
    row = db.one("SELECT row_id, change_id FROM sync_tombstone WHERE kind = ? AND gid = ? ORDER BY change_id DESC "
                 "LIMIT 1", (kind, state.resolve_alias(db, gid)))
    return (int(row[0]), int(row[1])) if row else None


def deleted_values(db: Database, kind: str, row_id: int, change_id: int) -> dict | None:
    """The row as it was when change ``change_id`` deleted it (references as global ids)."""
    text = db.scalar("SELECT before FROM change_item WHERE change_id = ? AND kind = ? AND row_id = ? AND op = 'remove'",
                     (change_id, kind, row_id))
    if not text:
        return None
    values = {k: v for k, v in json.loads(text).items() if k not in ("from_name", "to_name")}
    for key, ref_kind in REFS[kind].items():
        if values.get(key) is not None:
            values[key] = state.gid_at(db, ref_kind, values[key], change_id)
    return values
