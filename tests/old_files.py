"""Graph files as an older Limbic left them, written directly, for the upgrade tests."""

from __future__ import annotations

import apsw

from limbic.engine.store import db as db_module


def write_v1_file(path, name: str = "Kept") -> None:
    """A version 1 graph file holding one entity, ``name``, of type T."""
    conn = apsw.Connection(str(path))
    conn.execute(db_module._SCHEMA_V1)
    conn.execute("INSERT INTO entities(name, entity_type, created_at, updated_at) VALUES (?, 'T', 'x', 'x')", (name,))
    conn.execute("PRAGMA user_version = 1")
    conn.close()
