"""Following the commits other programs make to the same file, through its change log."""

from __future__ import annotations

from limbic.engine.store.changes import ChangeSet, Cursor, read_since, start_cursor
from limbic.engine.store.db import Database


def cursor_at_end(db: Database) -> Cursor:
    """A place in the change log after everything committed so far: what follows is new."""
    return start_cursor(db)


def others_since(db: Database, cursor: Cursor) -> ChangeSet:
    """What other writers committed since ``cursor`` (which moves on); this connection's own commits are left out."""
    return read_since(db, cursor)
