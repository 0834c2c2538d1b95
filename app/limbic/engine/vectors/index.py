"""Keeps the full-text rows and the vectors in step with the graph, inside the caller's transaction."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence

from typing import TYPE_CHECKING

from limbic.engine.text import stemming

from limbic.engine.vectors import index_chunks
from limbic.engine.store.db import Database
from limbic.engine.vectors.entity_text import EntitySource, build_text, fts_obs_text
from limbic.engine.errors import Cancelled

if TYPE_CHECKING:
    import numpy as np

    from limbic.engine.vectors.embeddings import Embedder

logger = logging.getLogger(__name__)

VEC_TABLE = "entity_embeddings"
ALIAS_TABLE = "entity_aliases"
EMBED_BATCH = 64


def _mirror():
    """The in-memory vector index; imported on first use because it brings numpy."""
    from limbic.engine.vectors import vector_index

    return vector_index


def load_source(db: Database, entity_id: int) -> EntitySource | None:
    """Read what an entity's index rows are made from; None if it no longer exists."""
    return load_sources(db, [entity_id]).get(entity_id)


def alias_texts(db: Database, ids: list[int] | None = None) -> dict[int, list[str]]:
    """Each entity's aliases, in the order given (of every entity when ``ids`` is None): its full-text row
    holds their words with its name's, so "Apple" finds the entity also known as "Big Apple"."""
    out: dict[int, list[str]] = {}
    if ids == [] or not db.has_table(ALIAS_TABLE):
        return out
    where = f" WHERE entity_id IN ({','.join('?' * len(ids))})" if ids is not None else ""
    for owner, alias in db.execute(f"SELECT entity_id, alias FROM {ALIAS_TABLE}{where} ORDER BY id", ids or ()):
        out.setdefault(owner, []).append(alias)
    return out


def reflection_texts(db: Database, ids: list[int]) -> dict[int, list[str]]:
    """Reflections that belong to each entity's text: about it, or about a relation it starts.

    They join the entity's full-text row and embedded text after its observations, so a search
    finds the entity a reflection is about (results are entities, and that is where it is shown).
    A reflection about the whole graph belongs to no entity and is not searched.
    """
    out: dict[int, list[str]] = {}
    if not ids or not db.has_table("reflections"):
        return out
    marks = ",".join("?" * len(ids))
    for owner, content in db.execute(
        f"SELECT coalesce(f.entity_id, r.from_entity), f.content FROM reflections f "
        f"LEFT JOIN relations r ON r.id = f.relation_id "
        f"WHERE f.entity_id IN ({marks}) OR r.from_entity IN ({marks}) ORDER BY f.id",
        ids + ids,
    ):
        out.setdefault(owner, []).append(content)
    return out


def fts_row(entity_id: int, name: str, entity_type: str, observations: Sequence[str],
            aliases: Sequence[str] = ()) -> tuple:
    """The values of an entity's full-text row: its text as written, then the stems of its names
    (the name and its aliases) and of its text."""
    return (entity_id, name, entity_type, fts_obs_text(observations),
            *stemming.stem_columns(name, entity_type, observations, aliases))


FTS_INSERT = "INSERT INTO entity_fts(rowid, name, entity_type, obs_text, stem_name, stem_text) VALUES (?, ?, ?, ?, ?, ?)"


def sync_fts(db: Database, src: EntitySource) -> None:
    """Replace the entity's full-text row with its current state (idempotent)."""
    db.execute("DELETE FROM entity_fts WHERE rowid = ?", (src.entity_id,))
    db.execute(FTS_INSERT, fts_row(src.entity_id, src.name, src.entity_type, src.observations, src.aliases))


# Which stems the full-text rows hold (stemming.STEMMER_VERSION): another value means re-index once.
FTS_STEMS_KEY = "fts_stems"
# What the rows hold now: those stems, and the words of each entity's aliases with its name's. A file
# indexed with the same stems before aliases were indexed re-makes only the rows of entities with aliases.
FTS_CONTENT = stemming.STEMMER_VERSION + "+aliases"


def ensure_fts(db: Database, progress: Callable[[int, int], None] | None = None) -> int:
    """Fill an empty full-text index beside a non-empty graph (a file from another tool), and re-index,
    once, one made before its rows held word stems (or other stems) or their aliases' words; returns how
    many were indexed."""
    if db.readonly:
        return 0
    has_entities = db.scalar("SELECT 1 FROM entities LIMIT 1") is not None
    stored = db.get_meta(FTS_STEMS_KEY)
    current = stored == FTS_CONTENT
    empty = db.scalar("SELECT 1 FROM entity_fts LIMIT 1") is None
    if not has_entities or (current and not empty):
        if not current:
            with db.transaction():
                db.set_meta(FTS_STEMS_KEY, FTS_CONTENT)
        return 0
    if stored == stemming.STEMMER_VERSION and not empty:
        ids = sorted(alias_texts(db))  # the same stems: only the rows that lack their aliases' words change
        logger.info("adding the words of aliases to the full-text rows of %d entities", len(ids))
    else:
        ids = [r[0] for r in db.execute("SELECT id FROM entities")]
        if current:
            logger.info("back-filling the full-text index for %d entities", len(ids))
        else:
            logger.warning("Rebuilding the full-text index once so that it holds word stems (%d entities)", len(ids))
    with db.transaction():
        if not empty and stored != stemming.STEMMER_VERSION:
            db.execute("DELETE FROM entity_fts")
        for n, entity_id in enumerate(ids, 1):
            src = load_source(db, entity_id)
            if src:
                sync_fts(db, src)
            if n % 5_000 == 0 or n == len(ids):
                logger.info("full-text index: %d of %d entities", n, len(ids))
                if progress:
                    progress(n, len(ids))
        db.set_meta(FTS_STEMS_KEY, FTS_CONTENT)
    return len(ids)


def delete_index_rows(db: Database, entity_id: int) -> None:
    """Remove an entity's FTS row and vector: neither cascades."""
    db.execute("DELETE FROM entity_fts WHERE rowid = ?", (entity_id,))
    if db.has_table(VEC_TABLE):
        db.execute(f"DELETE FROM {VEC_TABLE} WHERE rowid = ?", (entity_id,))
        _mirror().vectors_deleted(db, VEC_TABLE, [entity_id])
        db.note("vectors", (entity_id,))
    index_chunks.delete(db, entity_id)
    db.execute("DELETE FROM embedding_state WHERE entity_id = ?", (entity_id,))


def vectors_ready(db: Database, embedder: Embedder | None) -> bool:
    """True when the vector table exists and was made by this embedder's model."""
    return embedder is not None and db.has_table(VEC_TABLE) and db.get_meta("model_identity") == embedder.identity


def entity_texts(sources: list[EntitySource], embedder: Embedder) -> list[str]:
    return [build_text(s, embedder.count_tokens, embedder.spec.text_budget) for s in sources]


def write_vectors(db: Database, sources: list[EntitySource], vectors: np.ndarray, chunked: Sequence[bool] | None = None) -> None:
    """Store each entity's first vector with the digest of the source it was made from.

    ``chunked`` says, per entity, that its further windows are stored too; an entity without it
    waits in the windows' backlog (``index_chunks``).
    """
    import numpy as np

    flags = list(chunked) if chunked is not None else [False] * len(sources)
    for src, vec, flag in zip(sources, vectors, flags):
        db.execute(f"DELETE FROM {VEC_TABLE} WHERE rowid = ?", (src.entity_id,))
        db.execute(f"INSERT INTO {VEC_TABLE}(rowid, embedding) VALUES (?, ?)", (src.entity_id, vec.astype(np.float32).tobytes()))
        db.execute(
            "INSERT OR REPLACE INTO embedding_state(entity_id, text_hash, chunked) VALUES (?, ?, ?)",
            (src.entity_id, src.digest(), int(flag)),
        )
    _mirror().vectors_written(db, VEC_TABLE, [s.entity_id for s in sources], vectors)
    db.note("vectors", [s.entity_id for s in sources])


def _encode(db: Database, embedder: Embedder, sources: list[EntitySource], first: bool = True):
    """Plan and encode every text these entities need: (plans, each plan's vectors: first, then new windows)."""
    plans = index_chunks.plan(db, sources, embedder, first)
    vectors = embedder.encode(index_chunks.texts_to_encode(plans))
    out, at = [], 0
    for p in plans:
        n = (p.first is not None) + len(p.new)
        out.append(vectors[at : at + n])
        at += n
    return plans, out


def _store(db: Database, plans, vectors) -> None:
    """Store encoded plans (inside the caller's transaction)."""
    import numpy as np

    firsts, first_vecs, flags = [], [], []
    for p, vecs in zip(plans, vectors):
        windows = vecs[1:] if p.first is not None else vecs
        ok = index_chunks.store_windows(db, p, windows)
        if p.first is not None:
            firsts.append(p.source)
            first_vecs.append(vecs[0])
            flags.append(ok)
        elif ok:
            db.execute("UPDATE embedding_state SET chunked = 1 WHERE entity_id = ?", (p.source.entity_id,))
    if firsts:
        write_vectors(db, firsts, np.stack(first_vecs), flags)


def load_sources(db: Database, ids: Sequence[int]) -> dict[int, EntitySource]:
    """``load_source`` of many entities (those that exist), each table read once per few hundred ids."""
    out: dict[int, EntitySource] = {}
    current = " AND superseded_at IS NULL" if db.has_history() else ""
    ids = list(ids)
    for start in range(0, len(ids), 400):
        chunk = ids[start : start + 400]
        marks = ",".join("?" * len(chunk))
        rows = db.execute(f"SELECT id, name, entity_type FROM entities WHERE id IN ({marks})", chunk).fetchall()
        if not rows:
            continue
        obs: dict[int, list[str]] = {}
        for owner, content in db.execute(
            f"SELECT entity_id, content FROM observations WHERE entity_id IN ({marks}){current} ORDER BY id", chunk
        ):
            obs.setdefault(owner, []).append(content)
        for owner, texts in reflection_texts(db, chunk).items():
            obs.setdefault(owner, []).extend(texts)
        rels: dict[int, list[tuple[str, str]]] = {}
        for owner, rtype, target in db.execute(
            "SELECT r.from_entity, r.relation_type, e.name FROM relations r JOIN entities e ON e.id = r.to_entity "
            f"WHERE r.from_entity IN ({marks}) AND r.active = 1 ORDER BY r.id",
            chunk,
        ):
            rels.setdefault(owner, []).append((rtype, target))
        aliases = alias_texts(db, chunk)
        for entity_id, name, etype in rows:
            out[entity_id] = EntitySource(entity_id, name, etype, tuple(obs.get(entity_id, ())),
                                          tuple(rels.get(entity_id, ())), tuple(aliases.get(entity_id, ())))
    return out


def sync_entities(db: Database, ids: Iterable[int], embedder: Embedder | None, embed: bool = True,
                  written: tuple[int, dict[int, EntitySource]] | None = None) -> list[int]:
    """Bring FTS rows and vectors of these entities up to date; returns the ids re-embedded.

    An entity whose source is unchanged keeps its vector. A changed one is re-embedded now
    when ``embed`` and a matching model allow it; otherwise its stale vector is dropped and
    it waits in the pending set (see ``pending_ids``). Read and written a few hundred at a time.
    ``written``: the connection's count of changed rows (``total_changes``) when a batch wrote the
    entities given (every row of their source, as ``bulk.py`` does); while no row has changed since,
    their sources are those, not read back.
    """
    known = written[1] if written is not None and written[0] == db.conn.total_changes() else {}
    ready = vectors_ready(db, embedder)
    has_vec = db.has_table(VEC_TABLE)
    to_embed: list[EntitySource] = []
    ordered = sorted(set(ids))
    # No full-text row has a rowid past the last one: a new entity's row needs no deleting first.
    last_row = db.scalar("SELECT rowid FROM entity_fts ORDER BY rowid DESC LIMIT 1") if ordered else None
    for start in range(0, len(ordered), 400):
        chunk = ordered[start : start + 400]
        sources = load_sources(db, [i for i in chunk if i not in known] if known else chunk)
        sources.update((i, known[i]) for i in chunk if i in known)
        for entity_id in chunk:
            if entity_id not in sources:
                delete_index_rows(db, entity_id)
        present = [sources[i] for i in chunk if i in sources]
        if not present:
            continue
        held = [(s.entity_id,) for s in present if last_row is not None and s.entity_id <= last_row]
        if held:
            db.executemany("DELETE FROM entity_fts WHERE rowid = ?", held)
        db.executemany(FTS_INSERT, [fts_row(s.entity_id, s.name, s.entity_type, s.observations, s.aliases)
                                    for s in present])
        if not ((embed and ready) or has_vec):
            continue  # nothing to embed and no vectors to drop: which texts changed matters to nobody
        marks = ",".join("?" * len(present))
        hashes = dict(db.execute(f"SELECT entity_id, text_hash FROM embedding_state WHERE entity_id IN ({marks})",
                                 [s.entity_id for s in present]))
        changed = [s for s in present if hashes.get(s.entity_id) != s.digest()]
        if embed and ready:
            to_embed += changed
        elif has_vec and changed:
            stale = [s.entity_id for s in changed]
            db.executemany(f"DELETE FROM {VEC_TABLE} WHERE rowid = ?", [(i,) for i in stale])
            db.execute(f"DELETE FROM embedding_state WHERE entity_id IN ({','.join('?' * len(stale))})", stale)
            _mirror().vectors_deleted(db, VEC_TABLE, stale)
            for entity_id in stale:
                index_chunks.delete(db, entity_id)
            db.note("vectors", stale)
    if to_embed:
        assert embedder is not None
        _store(db, *_encode(db, embedder, to_embed))
    return [s.entity_id for s in to_embed]


def prepare_vectors(db: Database, embedder: Embedder) -> bool:
    """Make the vector table match this model; returns True if stored vectors were dropped.

    A file embedded with one model is never searched with another: on a change of model the
    vectors are dropped and every entity becomes pending.
    """
    if vectors_ready(db, embedder):
        return False
    with db.transaction():
        had = db.has_table(VEC_TABLE)
        db.execute(f"DROP TABLE IF EXISTS {VEC_TABLE}")
        db.execute("DELETE FROM embedding_state")
        index_chunks.drop_table(db)
        db.execute(
            f"CREATE VIRTUAL TABLE {VEC_TABLE} USING vec0(embedding float[{embedder.dim}] distance_metric=cosine)"
        )
        _mirror().table_recreated(db, VEC_TABLE)
        db.note_flag("vectors_reset")
        db.set_meta("model_identity", embedder.identity)
        db.set_meta("model_name", embedder.spec.name)
        db.set_meta("model_dim", str(embedder.dim))
    if had:
        logger.info("model changed to %s: vectors will be rebuilt", embedder.spec.name)
    return had


def pending_ids(db: Database, limit: int | None = None, after: int = 0) -> list[int]:
    """Entities that have no vector for the current model, by id, starting after ``after``."""
    sql = (
        "SELECT e.id FROM entities e LEFT JOIN embedding_state s ON s.entity_id = e.id "
        "WHERE s.entity_id IS NULL AND e.id > ? ORDER BY e.id"
    )
    if limit:
        sql += f" LIMIT {int(limit)}"
    return [r[0] for r in db.execute(sql, (after,))]


def _unembedded_count(db: Database) -> int:
    return int(db.scalar("SELECT (SELECT count(*) FROM entities) - (SELECT count(*) FROM embedding_state)"))


def pending_count(db: Database) -> int:
    """Entities with no vector, and those whose further windows were never made (a file from before them)."""
    return _unembedded_count(db) + index_chunks.backlog_count(db)


def pending_among(db: Database, ids: Iterable[int]) -> list[int]:
    """Which of these entities have no vector for the current model, by id."""
    wanted = sorted(set(ids))
    out: list[int] = []
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        out += [r[0] for r in db.execute(
            "SELECT e.id FROM entities e LEFT JOIN embedding_state s ON s.entity_id = e.id "
            f"WHERE s.entity_id IS NULL AND e.id IN ({','.join('?' * len(chunk))}) ORDER BY e.id", chunk)]
    return out


def embed_pending(
    db: Database,
    embedder: Embedder,
    batch_size: int = EMBED_BATCH,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    only: Iterable[int] | None = None,
) -> int:
    """Embed every pending entity (or the pending ones among ``only``), one transaction per batch.

    Returns how many were embedded.
    """
    prepare_vectors(db, embedder)
    if only is not None:
        return _embed_ids(db, embedder, pending_among(db, only), batch_size, progress, cancelled)
    total = pending_count(db)
    done = 0
    if progress:
        progress(0, total)
    # Walk the ids forward so each batch starts where the last ended (no rescans from the
    # start); a second pass picks up entities that changed while they were being encoded.
    last, passes = 0, 1
    while True:
        if cancelled and cancelled():
            raise Cancelled("Embedding was cancelled; it resumes next time.")
        ids = pending_ids(db, batch_size, after=last)
        if not ids:
            if last == 0 or passes >= 3 or _unembedded_count(db) == 0:
                break
            last, passes = 0, passes + 1
            continue
        last = ids[-1]
        sources = [s for s in (load_source(db, i) for i in ids) if s is not None]
        kept = _embed_batch(db, embedder, sources)
        done += kept
        if kept < len(sources):
            continue  # changed meanwhile: picked up again on the next pass
        if progress:
            progress(done, max(total, done))
    return _embed_backlog(db, embedder, batch_size, cancelled, progress, done, total)


def _embed_backlog(db: Database, embedder: Embedder, batch_size: int, cancelled, progress, done: int, total: int) -> int:
    """Embed the further windows of entities whose first vector is older than windows (one pass)."""
    last: int | None = 0
    while True:
        if cancelled and cancelled():
            raise Cancelled("Embedding was cancelled; it resumes next time.")
        kept, last = embed_backlog_batch(db, embedder, batch_size, after=last or 0)
        if last is None:
            return done
        done += kept
        if progress:
            progress(done, max(total, done))


def embed_backlog_batch(db: Database, embedder: Embedder, batch_size: int = EMBED_BATCH, after: int = 0) -> tuple[int, int | None]:
    """One batch of the windows' backlog: (entities brought up to date, the last id looked at or None)."""
    prepare_vectors(db, embedder)
    ids = index_chunks.backlog_ids(db, batch_size, after=after)
    if not ids:
        return 0, None
    sources = [s for s in (load_source(db, i) for i in ids) if s is not None]
    plans, vectors = _encode(db, embedder, sources, first=False)
    with db.transaction():
        marks = ",".join("?" * len(ids))
        state = dict(db.execute(f"SELECT entity_id, text_hash FROM embedding_state WHERE entity_id IN ({marks})", ids))
        kept = [
            (p, v)
            for p, v in zip(plans, vectors)
            if load_source(db, p.source.entity_id) == p.source and state.get(p.source.entity_id) == p.source.digest()
        ]
        if kept:
            _store(db, [p for p, _ in kept], [v for _, v in kept])
    return len(kept), ids[-1]


def _embed_batch(db: Database, embedder: Embedder, sources: list[EntitySource]) -> int:
    """Encode outside the write lock, then store the vectors of the entities still as they were read.

    Returns how many were stored; one that changed meanwhile keeps waiting for the next pass.
    """
    plans, vectors = _encode(db, embedder, sources)
    with db.transaction():
        current = [load_source(db, s.entity_id) for s in sources]
        kept = [i for i, (s, c) in enumerate(zip(sources, current)) if c == s]
        if kept:
            _store(db, [plans[i] for i in kept], [vectors[i] for i in kept])
    return len(kept)


def _embed_ids(db, embedder, ids, batch_size, progress, cancelled) -> int:
    """Embed these entities (pending ones) in batches; one changed meanwhile waits for the next run."""
    done = 0
    if progress:
        progress(0, len(ids))
    for start in range(0, len(ids), batch_size):
        if cancelled and cancelled():
            raise Cancelled("Embedding was cancelled; it resumes next time.")
        sources = [s for s in (load_source(db, i) for i in ids[start : start + batch_size]) if s is not None]
        done += _embed_batch(db, embedder, sources)
        if progress:
            progress(min(start + batch_size, len(ids)), len(ids))
    return done
