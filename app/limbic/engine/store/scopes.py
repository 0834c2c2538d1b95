"""What each assistant may read and write, kept in the graph (schema 11) so it travels with sync.

A scope is ``all``, ``none`` or a list of entity types (kept as the JSON of the list). Each assistant
has one row, by its normalised client name; the row named ``""`` is the default for an assistant
not seen before. A row set here is stamped with the sync clock (``stamp_now``, given by the caller
that knows the clock) and marked ``pending`` until a publish has sent it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from limbic.engine.errors import ValidationError

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

ALL, NONE = "all", "none"
DEFAULT_CLIENT = ""  # the row that holds the default for assistants not seen before
MAX_TYPES = 200
MAX_CLIENT_CHARS = 512
MAX_SCOPE_CHARS = 64_000


@dataclass(frozen=True)
class Scope:
    """One assistant's scope: ``read`` and ``write`` are ALL, NONE or a tuple of entity types."""

    client: str
    read: str | tuple[str, ...] = ALL
    write: str | tuple[str, ...] = ALL
    changed_at: str = ""


def encode(value: str | tuple[str, ...] | list[str]) -> str:
    """The stored text of a scope value (refused with a sentence when it is not one)."""
    if value in (ALL, NONE):
        return str(value)
    if isinstance(value, (list, tuple)) and all(isinstance(t, str) and t.strip() for t in value):
        types = sorted({t.strip() for t in value})
        if not types:
            return NONE
        if len(types) > MAX_TYPES:
            raise ValidationError(f"A scope names at most {MAX_TYPES} entity types.")
        return json.dumps(types, ensure_ascii=False)
    raise ValidationError("A scope is “all”, “none” or a list of entity types.")


def decode(text: object) -> str | tuple[str, ...]:
    """A stored scope value read back; anything that is not one reads as NONE (nothing is shown by mistake)."""
    if text in (ALL, NONE):
        return str(text)
    try:
        value = json.loads(text) if isinstance(text, str) and len(text) <= MAX_SCOPE_CHARS else None
    except ValueError:
        return NONE
    if isinstance(value, list) and all(isinstance(t, str) for t in value):
        return tuple(value) if value else NONE
    return NONE


def check_client(client: object) -> str:
    if not isinstance(client, str) or len(client) > MAX_CLIENT_CHARS or "\x00" in client:
        raise ValidationError("An assistant's name is a text of at most 512 characters.")
    return client


def _table(db: Database) -> bool:
    return db.has_table("assistant_scopes")


def get(db: Database, client: str) -> Scope | None:
    """The scope set for ``client`` (DEFAULT_CLIENT: the default), or None when none is set."""
    if not _table(db):
        return None
    row = db.one("SELECT read, write, changed_at FROM assistant_scopes WHERE client = ?", (client,))
    return Scope(client, decode(row[0]), decode(row[1]), row[2]) if row else None


def all_scopes(db: Database) -> list[Scope]:
    if not _table(db):
        return []
    return [Scope(c, decode(r), decode(w), at) for c, r, w, at in
            db.execute("SELECT client, read, write, changed_at FROM assistant_scopes ORDER BY client")]


def put(db: Database, client: str, read: str, write: str, changed_at: str, stamp: str, device: str,
        pending: bool) -> None:
    """Write one assistant's row as given (inside the caller's transaction)."""
    db.execute(
        "INSERT INTO assistant_scopes(client, read, write, changed_at, stamp, device, pending) VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT(client) DO UPDATE SET read = excluded.read, write = excluded.write, changed_at = excluded.changed_at, "
        "stamp = excluded.stamp, device = excluded.device, pending = excluded.pending",
        (check_client(client), read, write, changed_at, stamp, device, int(pending)))
