"""Assistants' scopes as they travel: one value per assistant, the later stamp winning on every device.

A scope set here is stamped from the sync clock when it is set (``set_scope``), so a later choice made
elsewhere wins over it and an earlier one does not, whatever order they arrive in. A publish sends the
scopes set since the last one as a change with no rows (``outgoing``); a device applies them
(``receive``) and a new device starting from a snapshot reads them from it (``from_snapshot``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from limbic.engine.errors import ValidationError
from limbic.engine.store import scopes
from limbic.engine.store.values import now_utc
from limbic.engine.sync import state

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

ORIGIN = "scopes"  # the origin of a published change carrying scopes, no rows


def set_scope(db: Database, client: str, read, write) -> None:
    """Set ``client``'s scope (scopes.DEFAULT_CLIENT: the default for new assistants), stamped to travel."""
    read_text, write_text = scopes.encode(read), scopes.encode(write)
    with db.transaction():
        stamp = state.tick(db).text()
        scopes.put(db, client, read_text, write_text, now_utc(), stamp, db.get_meta(state.DEVICE_KEY) or "", True)


def waiting(db: Database) -> bool:
    """A scope set here that no publish has sent yet."""
    return db.has_table("assistant_scopes") and bool(db.scalar("SELECT 1 FROM assistant_scopes WHERE pending = 1 LIMIT 1"))


def outgoing(db: Database, device: str, upto: int) -> list[dict]:
    """Inside a publish's transaction: the scopes set here since the last publish, as one change (or none)."""
    if not waiting(db):
        return []
    db.execute("UPDATE assistant_scopes SET device = ? WHERE pending = 1 AND device = ''", (device,))
    rows = db.execute("SELECT client, read, write, changed_at, stamp, device FROM assistant_scopes WHERE pending = 1 "
                      "ORDER BY client").fetchall()
    db.execute("UPDATE assistant_scopes SET pending = 0 WHERE pending = 1")
    sent = [{"client": c, "read": r, "write": w, "at": at, "stamp": s, "device": d} for c, r, w, at, s, d in rows]
    return [{"cid": upto, "at": now_utc(), "origin": ORIGIN, "stamp": state.tick(db).text(), "items": [],
             "scopes": sent}]


def _check(entry: object) -> tuple[str, str, str, str, str, str]:
    if not isinstance(entry, dict):
        raise ValidationError("An assistant's scope that travels is an object.")
    client = scopes.check_client(entry.get("client"))
    values = [entry.get(k) for k in ("read", "write")]
    for value in values:
        if not isinstance(value, str) or len(value) > scopes.MAX_SCOPE_CHARS:
            raise ValidationError("An assistant's scope is “all”, “none” or a list of entity types.")
        if value not in (scopes.ALL, scopes.NONE) and scopes.decode(value) == scopes.NONE:
            raise ValidationError("An assistant's scope is “all”, “none” or a list of entity types.")
    stamp, device, at = entry.get("stamp"), entry.get("device", ""), entry.get("at", "")
    if not isinstance(stamp, str) or not isinstance(device, str) or not isinstance(at, str) or len(at) > 64 \
            or len(device) > 64:
        raise ValidationError("An assistant's scope travels with its stamp, device and time.")
    return client, values[0], values[1], at, state.norm(stamp), device


def receive(db: Database, entries: object) -> int:
    """Apply scopes from another device where they are later than what is here; how many were applied."""
    if not isinstance(entries, list):
        raise ValidationError("A change's scopes are not a list.")
    checked = [_check(e) for e in entries]  # all checked before any is applied
    applied = 0
    for client, read, write, at, stamp, device in checked:
        state.observe(db, state.Stamp.parse(stamp))
        here = db.one("SELECT stamp, device FROM assistant_scopes WHERE client = ?", (client,))
        if here is None or (stamp, device) > (here[0], here[1]):
            scopes.put(db, client, read, write, at, stamp, device, False)
            applied += 1
    return applied


def from_snapshot(db: Database, snap: Database) -> None:
    """A snapshot's scopes applied here like a change's (a snapshot from before schema 11 holds none)."""
    if not snap.has_table("assistant_scopes"):
        return
    entries = [{"client": c, "read": r, "write": w, "at": at, "stamp": s, "device": d}
               for c, r, w, at, s, d in snap.execute(
                   "SELECT client, read, write, changed_at, stamp, device FROM assistant_scopes LIMIT 10000")]
    receive(db, entries)
