"""Vectors for the graph of a past moment: today's vector of each entity whose text has not changed since.

Embedding every past text again would take minutes on a large graph, so search of a past moment
borrows: an entity whose name, type, observations and links then are those it has now gets its
current first vector. The texts that differed are embedded afresh when they are few
(``EMBED_AT_MOST``); beyond that they are found by their words, names and links only, as an entity
waiting for embedding is today. A long entity's further windows are not borrowed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from limbic.engine.graph.graph import Graph
from limbic.engine.history import past_index
from limbic.engine.store.db import Database
from limbic.engine.vectors import index, vector_index

EMBED_AT_MOST = 200  # past texts embedded again for one search (a few seconds on a laptop)
_LOOKUPS_AT_MOST = 2_000  # beyond this many vectors to borrow, reading them all in one pass is faster

if TYPE_CHECKING:
    from limbic.engine.vectors.embeddings import Embedder


def borrow_vectors(live: Database, past: Graph, embedder: Embedder) -> tuple[int, int]:
    """Give ``past`` the live vectors of its unchanged entities; returns (borrowed, left to words)."""
    import numpy as np  # loaded with the model, not with the window

    if not index.vectors_ready(live, embedder):
        return 0, int(past.db.scalar("SELECT count(*) FROM entities"))
    past.embedder = embedder
    index.prepare_vectors(past.db, embedder)
    stored = {r[0]: r[1] for r in live.execute("SELECT entity_id, text_hash FROM embedding_state")}
    same = {src.entity_id: stored[src.entity_id] for src in past_index.sources(past.db)
            if stored.get(src.entity_id) == src.digest()}  # id -> digest, today's and then the same
    del stored
    left = int(past.db.scalar("SELECT count(*) FROM entities")) - len(same)
    rows_out, vectors = [], []
    # Many: one pass over today's vectors keeps those of the unchanged entities; few: a lookup each.
    rows = (live.execute(f"SELECT rowid, embedding FROM {index.VEC_TABLE}") if len(same) > _LOOKUPS_AT_MOST else
            ((i, live.scalar(f"SELECT embedding FROM {index.VEC_TABLE} WHERE rowid = ?", (i,))) for i in list(same)))
    for entity_id, blob in rows:
        digest = same.pop(entity_id, None)
        if digest is not None and blob is not None:
            rows_out.append((entity_id, blob, digest))
            vectors.append(np.frombuffer(blob, dtype=np.float32))
    left += len(same)  # marked embedded, but without a vector
    if rows_out:
        # What index.write_vectors does, in three statements for all (the past graph has no vectors yet).
        ids = [r[0] for r in rows_out]
        with past.db.transaction():
            past.db.executemany(f"INSERT INTO {index.VEC_TABLE}(rowid, embedding) VALUES (?, ?)", (r[:2] for r in rows_out))
            past.db.executemany("INSERT OR REPLACE INTO embedding_state(entity_id, text_hash, chunked) VALUES (?, ?, 1)",
                                ((r[0], r[2]) for r in rows_out))
            vector_index.vectors_written(past.db, index.VEC_TABLE, ids, np.stack(vectors))
            past.db.note("vectors", ids)
    if 0 < left <= EMBED_AT_MOST:
        past.embed_pending()
        left = 0
    return len(rows_out), left
