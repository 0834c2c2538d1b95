"""The name every device gives a conflict, and keeping it when the row's global ids merge."""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from limbic.engine.store.db import Database


def key_of(kind: str, gid: str, field_name: str, rule: str, kept: object, lost: object) -> str:
    """The name every device gives this conflict: the row and field, and the two values (unordered)."""
    if rule in ("deleted_there", "deleted_here"):
        parts: list = [kind, gid, "deleted"]
    else:  # two choices that met are a conflict apart from the one they settled, over the same two values
        parts = [kind, gid, field_name, sorted(json.dumps(v, sort_keys=True) for v in (kept, lost)),
                 *(["twice"] if rule == "resolved_twice" else [])]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:32]


def follow_merge(db: Database, kind: str, drop: str, keep: str) -> None:
    """Two global ids found to be one row: its conflicts go by the id kept, as on a device where the two
    merged before either conflict was met, and the same conflict met under both ids is listed once."""
    for cid, field_name, rule, kept, lost, resolved in db.execute(
        "SELECT id, field, rule, kept, lost, resolved_at FROM sync_conflicts WHERE kind = ? AND gid = ? ORDER BY id",
        (kind, drop),
    ).fetchall():
        key = key_of(kind, keep, field_name, rule, json.loads(kept) if kept else None, json.loads(lost) if lost else None)
        twin = db.scalar("SELECT id FROM sync_conflicts WHERE key = ? AND id != ? AND (resolved_at IS NULL) = ?",
                         (key, cid, int(resolved is None)))
        if twin is not None:
            db.execute("DELETE FROM sync_conflicts WHERE id = ?", (cid,))
        else:
            db.execute("UPDATE sync_conflicts SET gid = ?, key = ? WHERE id = ?", (keep, key, cid))
    if kind == "entity":
        db.execute("UPDATE sync_conflicts SET entity_gid = ? WHERE entity_gid = ?", (keep, drop))
