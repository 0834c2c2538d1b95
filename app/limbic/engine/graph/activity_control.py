"""Which assistants may write: the global switch and the paused clients, kept in the graph file so every server sees them."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from limbic.engine.errors import ValidationError

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

PAUSED_KEY = "activity_paused_clients"  # JSON list of client names (without case) whose writes are refused
WRITES_KEY = "assistants_may_write"  # "0": no assistant may write


def paused_clients(db: Database) -> list[str]:
    """The client names whose writes are paused (an unreadable list pauses none)."""
    try:
        names = json.loads(db.get_meta(PAUSED_KEY) or "[]")
    except ValueError:
        return []
    return [str(n) for n in names] if isinstance(names, list) else []


def assistants_may_write(db: Database) -> bool:
    """Whether the global switch lets assistants write."""
    return (db.get_meta(WRITES_KEY) or "1") != "0"


def set_paused(db: Database, client: str, paused: bool) -> None:
    """Pause (or resume) one assistant's writes, by its client name; kept in the file, so every server sees it."""
    client = (client or "").strip()
    if not client:
        raise ValidationError(f"Name the assistant to {'pause' if paused else 'resume'} (its client name, as the "
                              "activity log shows it); nothing was changed.")
    with db.transaction():
        names = [n for n in paused_clients(db) if n.casefold() != client.casefold()]
        if paused:
            names.append(client)
        db.set_meta(PAUSED_KEY, json.dumps(sorted(names)))


def set_assistants_may_write(db: Database, allowed: bool) -> None:
    """The global switch: when off, no assistant may write (reads still work)."""
    with db.transaction():
        db.set_meta(WRITES_KEY, "1" if allowed else "0")


def write_refusal(db: Database, client: str) -> str | None:
    """The sentence refusing an assistant's write now, or None when it may write."""
    if not assistants_may_write(db):
        return ("Nothing was changed: assistants may not write to this Limbic graph right now "
                "(the person turned “Assistants may write” off); reading still works.")
    if client and client.casefold() in {n.casefold() for n in paused_clients(db)}:
        return (f"Nothing was changed: writing by “{client}” is paused in Limbic (the person can resume it "
                "in the Activity panel or with `limbic activity --resume`); reading still works.")
    return None
