"""Whether this device's own writes lie apart from what a rebase would take back and apply again.

A rebase (``rebase.py``) takes back changes of other devices and applies them again in clock order. A change of
this device's own written since stays where it is: it is not recorded as those are, so it cannot be taken back.
Where it touched none of the entities (by global id or by name) that the changes taken back, or the late ones,
touch, the two commute: applying the others again in clock order around it gives what the order gives, and the
rebase goes on. Where they share an entity, the rules for a late change decide, as before.

An entity is named by its global id (as it goes by here, after merges), by its name (case-folded: names are
unique without case), and by the ids of the rows that refer to it (a text's entity, a relation's two ends, an
alias's entity and the alias itself, which takes a name). Anything that cannot be named (a row whose global id is
no longer known) counts as touching everything.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from limbic.engine.sync import capture, state

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

EVERYTHING = frozenset({("*", "*")})


def item_keys(db: Database, kind: str, gid: str | None, before: dict | None, after: dict | None) -> set[tuple]:
    """What one synced row's change touches, as keys comparable across devices."""
    if gid is None:
        return set(EVERYTHING)
    keys: set[tuple] = {(kind, state.resolve_alias(db, gid))}
    for values in (before, after):
        if not values:
            continue
        if kind == "entity":
            keys.add(("entity", state.resolve_alias(db, gid)))
            if isinstance(values.get("name"), str):
                keys.add(("name", values["name"].casefold()))
        if kind == "alias" and isinstance(values.get("alias"), str):
            keys.add(("name", values["alias"].casefold()))
        for ref, ref_kind in capture.REFS.get(kind, {}).items():
            if values.get(ref) is not None:
                keys.add((ref_kind, state.resolve_alias(db, str(values[ref]))))
    return keys


def change_keys(db: Database, changes: Iterable[dict | None]) -> set[tuple]:
    """What changes of other devices (as they travel) touch."""
    keys: set[tuple] = set()
    for change in changes:
        for item in (change or {}).get("items", []):
            keys |= item_keys(db, str(item.get("k")), item.get("gid"), item.get("b"), item.get("a"))
    return keys


def own_keys(db: Database, ids: set[int]) -> set[tuple]:
    """What this device's own writes logged as changes ``ids`` touch (EVERYTHING where one cannot be named)."""
    keys: set[tuple] = set()
    if not ids:
        return keys
    for change_id, kind, row_id, before, after, gid_at in capture.own_rows(db, min(ids) - 1, max(ids)):
        if change_id not in ids:
            continue
        gid = gid_at(kind, row_id, change_id)
        keys |= item_keys(db, kind, gid, capture.translate(db, kind, before, change_id, gid_at),
                          capture.translate(db, kind, after, change_id, gid_at))
        if EVERYTHING <= keys:
            break
    return keys


def touching(own: set[tuple], others: set[tuple]) -> bool:
    """Whether own writes and others' changes share an entity (or one of them cannot be named)."""
    return bool(own & others) or EVERYTHING <= own or EVERYTHING <= others
