"""One row made on two devices and merged here, parted again by an edit or removal that never saw the merge.

The same text added to an entity on two devices is one row (apply.py), and so is the same relation
or alias. Where one device edits the text, or removes the row, before the other's arrives, that
device ends with the other's row apart: its addition found no twin there. A device that merged them
first parts them again when the edit arrives, so every device ends with the same rows whatever order
the three arrived in. The edit names the ids it knew its row by (``seen``; without it, its own
only); the ids it did not know keep the row as it was, each part with the stamps it had before the
merge (``rows.OWN``). A relation or an alias cannot stand twice: a removal only takes its ids off it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from limbic.engine.store.schema import SYNCED_TABLES
from limbic.engine.sync import rows, state

if TYPE_CHECKING:
    from limbic.engine.store.db import Database
    from limbic.engine.sync.apply import Applier

_GET = "SELECT field, stamp, device FROM sync_stamp WHERE gid = ?"
_SET = "INSERT OR REPLACE INTO sync_stamp(gid, field, stamp, device) VALUES (?, ?, ?, ?)"


def parts(kind: str, item: dict) -> bool:
    """Whether this change can part a merged row: a removal, or a change of an observation's text."""
    if item.get("op") == "remove":
        return kind in ("observation", "relation", "alias")
    if kind != "observation":
        return False  # a relation or an alias is unique by what makes it one: two of them cannot stand
    before, after = item.get("b") or {}, item.get("a") or {}
    return "content" in after and not rows.same(before.get("content"), after["content"])


def part(applier: Applier, kind: str, gid: str, item: dict) -> None:
    """Where the row ``gid`` goes by here merged ids the change had not seen, those ids go on as a row of their own."""
    if not parts(kind, item):
        return
    db = applier.db
    real = state.resolve_alias(db, gid)
    known = set(state.known_as(db, real))
    if len(known) < 2:
        return
    edited = known & {gid, *(item.get("seen") or ())}
    rest = known - edited
    if not edited or not rest:
        return
    found = rows.current(db, kind, real)
    if found is None:
        return
    row_id, values = found
    columns, missing = rows.local_values(db, kind, values)
    if missing:
        return
    if kind != "observation":  # unique: the ids it removes go, the row stays as the others (nothing to remove)
        _go(db, kind, real, edited, rest)
        applier._touch(kind, row_id)
        return
    moving, staying = (rest, edited) if real in edited else (edited, rest)
    new_gid = min(moving)
    merged = db.execute(_GET, (real,)).fetchall()
    for g in moving:
        db.execute("DELETE FROM sync_alias WHERE gid = ?", (g,))
        if g != new_gid:
            db.execute("INSERT INTO sync_alias(gid, target) VALUES (?, ?)", (g, new_gid))
    new_id = rows.insert(db, kind, new_gid, columns, applier.at or applier.now)
    db.execute("DELETE FROM sync_stamp WHERE gid = ? AND substr(field, 1, 5) NOT IN (?, ?)", (new_gid, *rows.KEPT))
    db.conn.executemany(_SET, [(new_gid, f, s, d) for f, s, d in merged if not f.startswith(rows.KEPT)])
    kept = {g: db.execute(_GET, (g,)).fetchall() for g in known}  # what each id kept of its own at the merge
    decided = _decided(kept, merged)
    for target, ids, target_id in ((real, staying, row_id), (new_gid, moving, new_id)):
        _own_stamps(db, target, ids, kept)
        _own_values(db, kind, target, target_id, ids, decided, kept)
    _forget(db, known)
    applier._touch(kind, new_id, "added")
    applier._touch(kind, row_id)


def _go(db: Database, kind: str, real: str, gone: set[str], rest: set[str]) -> None:
    """The ids ``gone`` leave the row going by ``real``; it goes on under the others' id, with their own stamps."""
    keep = min(rest)
    merged = db.execute(_GET, (real,)).fetchall()
    for g in gone | rest:
        db.execute("DELETE FROM sync_alias WHERE gid = ?", (g,))
    db.conn.executemany("INSERT INTO sync_alias(gid, target) VALUES (?, ?)", [(g, keep) for g in rest - {keep}])
    if keep != real:
        db.execute(f"UPDATE {SYNCED_TABLES[kind]} SET gid = ? WHERE gid = ?", (keep, real))
        db.execute("DELETE FROM sync_stamp WHERE gid = ? AND substr(field, 1, 5) NOT IN (?, ?)", (keep, *rows.KEPT))
        db.conn.executemany(_SET, [(keep, f, s, d) for f, s, d in merged if not f.startswith(rows.KEPT)])
    _own_stamps(db, keep, rest, {g: db.execute(_GET, (g,)).fetchall() for g in rest})
    _forget(db, gone | rest)


def _own_stamps(db: Database, target: str, ids: set[str], kept: dict[str, list]) -> None:
    """The row ``target`` takes the stamps its ids ``ids`` had before they merged with others."""
    own = [(f[len(rows.OWN):], s, d) for g in sorted(ids) for f, s, d in kept[g] if f.startswith(rows.OWN)]
    db.conn.executemany(_SET, [(target, f, s, d) for f, s, d in own])


def _decided(kept: dict[str, list], merged: list[tuple[str, str, str]]) -> set[str]:
    """The fields whose value the merge decided: no write stamped after every part's own one came since."""
    own: dict[str, tuple[str, str]] = {}
    for f, s, d in (r for found in kept.values() for r in found):
        if f.startswith(rows.OWN):
            name = f[len(rows.OWN):]
            own[name] = max(own.get(name, ("", "")), (s, d))
    now = {f: (s, d) for f, s, d in merged}
    return {f for f, latest in own.items() if now.get(f, ("", "")) <= latest}


def _own_values(db: Database, kind: str, target: str, row_id: int, ids: set[str], decided: set[str],
                kept: dict[str, list]) -> None:
    """The row ``target`` takes back the values its ids had before the merge, where the merge decided them
    (the part a device that never merged them kept apart has them: a creation time, a status)."""
    own = {f[len(rows.WAS):]: json.loads(value) for g in sorted(ids) for f, value, _ in kept[g]
           if f.startswith(rows.WAS) and f[len(rows.WAS):] in decided}  # as for the stamps: the last id's
    found = rows.current(db, kind, target)
    if found is None:
        return
    wanted = {k: v for k, v in own.items() if not rows.same(found[1].get(k), v)}
    if not wanted:
        return
    columns, missing = rows.local_values(db, kind, {**found[1], **wanted})
    if not missing:
        rows.update(db, kind, row_id, {rows.COLUMNS[kind][k]: columns[rows.COLUMNS[kind][k]] for k in wanted})


def _forget(db: Database, ids: set[str]) -> None:
    """Parted, each is a row of its own again: a later merge remembers it afresh."""
    for g in ids:
        db.execute("DELETE FROM sync_stamp WHERE gid = ? AND substr(field, 1, 5) IN (?, ?)", (g, *rows.KEPT))
