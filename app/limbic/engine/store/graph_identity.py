"""Which graph a file holds: an id made once per graph, carried by its backups, kept by a restore.

A restore compares the backup's id with the open graph's to notice a file of another graph
(``limbic restore other.db``). Files from before the id existed have none: then two graphs with
entities but no entity name in common are taken for different graphs.
"""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING

import apsw

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

logger = logging.getLogger(__name__)

GRAPH_ID_KEY = "graph_id"
NAME_SAMPLE = 2000  # entity names of the backup looked up in the open graph when an id is missing


def graph_id(db: Database) -> str | None:
    """The graph's id, or None for a file made before ids existed."""
    if not db.has_table("meta"):
        return None
    return db.get_meta(GRAPH_ID_KEY)


def ensure_graph_id(db: Database) -> str | None:
    """The graph's id, made now if it has none (None for a file that cannot be written)."""
    found = graph_id(db)
    if found or db.readonly or str(db.path) == ":memory:" or not db.has_table("meta"):
        return found
    try:
        with db.transaction():
            db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)", (GRAPH_ID_KEY, secrets.token_hex(16)))
    except (apsw.Error, OSError) as exc:  # best effort: a busy or full file still backs up and restores
        logger.info("no graph id written to %s: %s", db.path, exc)
    return graph_id(db)


def other_graph(db: Database, source: Database) -> bool:
    """Whether ``source`` (a backup) holds another graph than ``db``: by id, else by entity names."""
    mine, theirs = ensure_graph_id(db), graph_id(source)
    if mine and theirs:
        return mine != theirs
    names = [r[0] for r in source.execute("SELECT name FROM entities LIMIT ?", (NAME_SAMPLE,))]
    if not names or db.scalar("SELECT 1 FROM entities LIMIT 1") is None:
        return False  # an empty side: nothing tells them apart, and nothing of value is replaced unseen
    return not any(db.scalar("SELECT 1 FROM entities WHERE name = ?", (n,)) for n in names)
