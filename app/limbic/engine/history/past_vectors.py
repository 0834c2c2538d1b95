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
from limbic.engine.store.db import Database
from limbic.engine.vectors import index

EMBED_AT_MOST = 200  # past texts embedded again for one search (a few seconds on a laptop)

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
    sources, vectors, left = [], [], 0
    for (entity_id,) in past.db.execute("SELECT id FROM entities ORDER BY id").fetchall():
        src = index.load_source(past.db, entity_id)
        blob = None
        if src is not None and stored.get(entity_id) == src.digest():
            blob = live.scalar(f"SELECT embedding FROM {index.VEC_TABLE} WHERE rowid = ?", (entity_id,))
        if blob is None:
            left += 1
            continue
        sources.append(src)
        vectors.append(np.frombuffer(blob, dtype=np.float32))
    if sources:
        with past.db.transaction():
            index.write_vectors(past.db, sources, np.stack(vectors), [True] * len(sources))
    if 0 < left <= EMBED_AT_MOST:
        past.embed_pending()
        left = 0
    return len(sources), left
