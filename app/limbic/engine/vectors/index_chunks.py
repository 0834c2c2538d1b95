"""The further vectors of long entities (``entity_chunks.py``), kept in step with their first one.

An entity's first vector stays where it always was: the row of the vector table whose rowid is
the entity's id. Its further windows live in a second vec0 table of the same model, at rowid
``entity_id << SLOT_BITS | slot`` (slots 1…), with ``embedding_chunks`` recording the digest of
each window's text. An unchanged window keeps its vector; a changed entity re-embeds only the
windows whose text is new. ``embedding_state.chunked`` is 1 once an entity's windows are stored
for its current text; 0 (every entity of a file made before windows existed) puts it in the
backlog, where only its further windows are embedded: its first vector is already right.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from typing import TYPE_CHECKING

from limbic.engine.store.db import Database
from limbic.engine.vectors.entity_chunks import build_chunks, text_hash
from limbic.engine.vectors.entity_text import EntitySource

if TYPE_CHECKING:
    import numpy as np

    from limbic.engine.vectors.embeddings import Embedder

CHUNK_TABLE = "entity_chunk_embeddings"
SLOT_BITS = 12
SLOT_MASK = (1 << SLOT_BITS) - 1


def _mirror():
    from limbic.engine.vectors import vector_index

    return vector_index


def chunk_range(entity_id: int) -> tuple[int, int]:
    """The rowids an entity's further windows may take."""
    return entity_id << SLOT_BITS, (entity_id << SLOT_BITS) | SLOT_MASK


def ensure_table(db: Database, dim: int) -> None:
    if not db.has_table(CHUNK_TABLE):
        db.execute(f"CREATE VIRTUAL TABLE {CHUNK_TABLE} USING vec0(embedding float[{dim}] distance_metric=cosine)")
        _mirror().table_recreated(db, CHUNK_TABLE)


def drop_table(db: Database) -> None:
    db.execute(f"DROP TABLE IF EXISTS {CHUNK_TABLE}")
    db.execute("DELETE FROM embedding_chunks")
    _mirror().table_recreated(db, CHUNK_TABLE)


def stored(db: Database, entity_id: int) -> dict[str, int]:
    """digest -> rowid of the entity's stored further windows."""
    low, high = chunk_range(entity_id)
    return {h: r for r, h in db.execute("SELECT id, text_hash FROM embedding_chunks WHERE id BETWEEN ? AND ?", (low, high))}


def delete(db: Database, entity_id: int) -> list[int]:
    """Remove every further window of an entity; returns the rowids removed."""
    rowids = sorted(stored(db, entity_id).values())
    _delete_rows(db, rowids)
    return rowids


def _delete_rows(db: Database, rowids: Sequence[int]) -> None:
    if not rowids:
        return
    has_table = db.has_table(CHUNK_TABLE)
    for r in rowids:
        if has_table:
            db.execute(f"DELETE FROM {CHUNK_TABLE} WHERE rowid = ?", (r,))
        db.execute("DELETE FROM embedding_chunks WHERE id = ?", (r,))
    if has_table:
        _mirror().vectors_deleted(db, CHUNK_TABLE, list(rowids))


@dataclass
class Plan:
    """What to embed for one entity: its first text (unless kept) and its new windows."""

    source: EntitySource
    first: str | None
    windows: list[str]  # every further window's text, in order
    new: list[str] = field(default_factory=list)  # the ones to encode


def plan(db: Database, sources: Sequence[EntitySource], embedder: Embedder, first: bool = True) -> list[Plan]:
    out = []
    for src in sources:
        texts = build_chunks(src, embedder.count_tokens, embedder.spec.text_budget)
        have = stored(db, src.entity_id)
        windows = texts[1:]
        new = list(dict.fromkeys(t for t in windows if text_hash(t) not in have))
        out.append(Plan(src, texts[0] if first else None, windows, new))
    return out


def texts_to_encode(plans: Sequence[Plan]) -> list[str]:
    return [t for p in plans for t in ([p.first] if p.first is not None else []) + p.new]


def store_windows(db: Database, p: Plan, vectors: np.ndarray) -> bool:
    """Store a plan's new windows (``vectors`` in ``p.new`` order) and drop the ones no longer wanted.

    Returns False (nothing written) when a window the plan meant to keep is gone meanwhile.
    """
    import numpy as np

    entity_id = p.source.entity_id
    have = stored(db, entity_id)
    fresh = dict(zip(p.new, vectors))
    wanted = {text_hash(t): t for t in p.windows}
    if any(h not in have and t not in fresh for h, t in wanted.items()):
        return False
    _delete_rows(db, sorted(r for h, r in have.items() if h not in wanted))
    if fresh:
        ensure_table(db, len(vectors[0]))
    used = {r & SLOT_MASK for h, r in have.items() if h in wanted}
    rows, vecs = [], []
    slot = 0
    for h, t in wanted.items():
        if h in have:
            continue
        slot += 1
        while slot in used:
            slot += 1
        rowid = (entity_id << SLOT_BITS) | slot
        vec = np.asarray(fresh[t], dtype=np.float32)
        db.execute(f"INSERT INTO {CHUNK_TABLE}(rowid, embedding) VALUES (?, ?)", (rowid, vec.tobytes()))
        db.execute("INSERT INTO embedding_chunks(id, entity_id, text_hash) VALUES (?, ?, ?)", (rowid, entity_id, h))
        rows.append(rowid)
        vecs.append(vec)
    if rows:
        _mirror().vectors_written(db, CHUNK_TABLE, rows, np.stack(vecs))
    return True


def backlog_ids(db: Database, limit: int, after: int = 0) -> list[int]:
    """Entities whose first vector is current but whose further windows were never made."""
    return [
        r[0]
        for r in db.execute(
            "SELECT entity_id FROM embedding_state WHERE chunked = 0 AND entity_id > ? ORDER BY entity_id LIMIT ?",
            (after, int(limit)),
        )
    ]


def backlog_count(db: Database) -> int:
    return int(db.scalar("SELECT count(*) FROM embedding_state WHERE chunked = 0"))


def delete_for(db: Database, entity_ids: Sequence[int]) -> None:
    """Remove every further window of these entities, recorded or not (a repair's clean sweep)."""
    rowids: set[int] = set()
    for entity_id in entity_ids:
        low, high = chunk_range(entity_id)
        rowids |= {r[0] for r in db.execute("SELECT id FROM embedding_chunks WHERE id BETWEEN ? AND ? OR entity_id = ?", (low, high, entity_id))}
        if db.has_table(CHUNK_TABLE):
            # vec0 answers rowid look-ups one by one; a window's slot is at most SLOT_MASK.
            rowids |= {r[0] for r in db.execute(f"SELECT rowid FROM {CHUNK_TABLE} WHERE rowid >= ? AND rowid <= ?", (low, high))}
    _delete_rows(db, sorted(rowids))
