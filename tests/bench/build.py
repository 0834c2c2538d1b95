"""Building the benchmark graphs: large ones written straight into the tables and cached between runs."""

from __future__ import annotations

import json
import logging
import shutil
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np

from limbic.engine.store import tables

from limbic.engine.vectors import index, index_chunks, vector_index
from limbic.engine.store.db import Database
from limbic.engine.vectors.embeddings import Embedder
from limbic.engine.vectors.entity_chunks import build_chunks, text_hash
from limbic.engine.vectors.entity_text import EntitySource
from limbic.engine.graph.graph import TIME_FORMAT
from tests.bench.common import RESULTS
from tests.bench.synth import GENERATOR_VERSION, SynthGraph, cheap_vectors, generate

logger = logging.getLogger(__name__)

BUILD_KEY = "bench_build"


def _stamp(base: datetime, hours: float) -> str:
    return (base - timedelta(hours=hours)).strftime(TIME_FORMAT)


def build_direct(path: Path, synth: SynthGraph, embedder: Embedder, seed: int = 3) -> None:
    """Write a whole graph in one transaction, with cheap vectors instead of the model's.

    Rows are exactly what the engine would write (same FTS text, same digests, so nothing is
    pending), plus a history of accesses and co-occurrences so limbic scoring has work to do.
    """
    path.unlink(missing_ok=True)
    for suffix in ("-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    rng = np.random.default_rng(seed)
    n = len(synth.entities)
    now = datetime.now(timezone.utc)
    db = Database(path)
    try:
        tables.ensure_present(db)  # a new file starts with the first schema's full-text table; bring it up to date
        index.prepare_vectors(db, embedder)
        ids = {rec.name: i + 1 for i, rec in enumerate(synth.entities)}
        ages = rng.uniform(0, 24 * 730, size=n)  # created over the last two years
        outgoing: dict[int, list[tuple[str, str]]] = {}
        for rel in synth.relations:
            outgoing.setdefault(ids[rel.source], []).append((rel.relation_type, rel.target))
        vectors = cheap_vectors(n, embedder.dim)
        with db.transaction():
            db.executemany(
                "INSERT INTO entities(id, name, entity_type, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                ((i + 1, r.name, r.entity_type, _stamp(now, ages[i]), _stamp(now, ages[i] / 2)) for i, r in enumerate(synth.entities)),
            )
            db.executemany(
                "INSERT INTO observations(entity_id, content, created_at) VALUES (?, ?, ?)",
                ((i + 1, o, _stamp(now, ages[i])) for i, r in enumerate(synth.entities) for o in r.observations),
            )
            db.executemany(
                "INSERT INTO relations(from_entity, to_entity, relation_type, created_at) VALUES (?, ?, ?, ?)",
                ((ids[r.source], ids[r.target], r.relation_type, _stamp(now, 1)) for r in synth.relations),
            )
            db.executemany(
                index.FTS_INSERT,
                (index.fts_row(i + 1, r.name, r.entity_type, r.observations) for i, r in enumerate(synth.entities)),
            )
            db.executemany(
                f"INSERT INTO {index.VEC_TABLE}(rowid, embedding) VALUES (?, ?)",
                ((i + 1, vectors[i].tobytes()) for i in range(n)),
            )
            sources = [
                EntitySource(i + 1, r.name, r.entity_type, tuple(r.observations), tuple(outgoing.get(i + 1, ())))
                for i, r in enumerate(synth.entities)
            ]
            db.executemany(
                "INSERT INTO embedding_state(entity_id, text_hash, chunked) VALUES (?, ?, 1)",
                ((s.entity_id, s.digest()) for s in sources),
            )
            _windows(db, sources, embedder, vectors)
            _history(db, rng, n, now)
            db.set_meta(vector_index.TOKEN_KEY, f"bench-{rng.integers(1 << 62):x}")
            db.set_meta(BUILD_KEY, build_key(n))
            db.set_meta(index.FTS_STEMS_KEY, index.FTS_CONTENT)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("ANALYZE")
    finally:
        db.close()


def _windows(db: Database, sources: list[EntitySource], embedder: Embedder, firsts: np.ndarray) -> None:
    """The further windows the engine would make (the real tokenizer decides which entities are long),
    each with its entity's cheap vector moved a little, so that windows compete with first vectors."""
    rows = []
    for src in sources:
        for slot, text in enumerate(build_chunks(src, embedder.count_tokens, embedder.spec.text_budget)[1:], 1):
            rows.append(((src.entity_id << index_chunks.SLOT_BITS) | slot, src.entity_id, text_hash(text)))
    if not rows:
        return
    index_chunks.ensure_table(db, embedder.dim)
    noise = cheap_vectors(len(rows), embedder.dim, seed=13)
    vecs = firsts[[r[1] - 1 for r in rows]] + 0.5 * noise
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    vecs = vecs.astype(np.float32)
    db.executemany("INSERT INTO embedding_chunks(id, entity_id, text_hash) VALUES (?, ?, ?)", rows)
    db.executemany(
        f"INSERT INTO {index_chunks.CHUNK_TABLE}(rowid, embedding) VALUES (?, ?)",
        ((r[0], vecs[j].tobytes()) for j, r in enumerate(rows)),
    )
    db.set_meta(vector_index.token_key(index_chunks.CHUNK_TABLE), "bench-windows")


def _history(db: Database, rng: np.random.Generator, n: int, now: datetime) -> None:
    """One entity in five was opened before, some on several days; some pairs came up together."""
    used = rng.choice(n, size=max(1, n // 5), replace=False) + 1
    counts = rng.zipf(1.6, size=len(used)).clip(1, 500)
    db.executemany(
        "INSERT INTO entity_access(entity_id, access_count, last_access) VALUES (?, ?, ?)",
        ((int(e), int(c), _stamp(now, float(rng.uniform(0, 24 * 365)))) for e, c in zip(used, counts)),
    )
    db.executemany(
        "INSERT OR IGNORE INTO entity_access_log(entity_id, access_date, access_count) VALUES (?, ?, 1)",
        ((int(e), _stamp(now, 24 * float(d))[:10]) for e, c in zip(used, counts) for d in rng.integers(0, 365, size=min(int(c), 10))),
    )
    pairs = rng.choice(used, size=(len(used) * 2, 2))
    db.executemany(
        "INSERT OR IGNORE INTO co_occurrences(entity_a_id, entity_b_id, co_count, last_co) VALUES (?, ?, ?, ?)",
        (
            (int(min(a, b)), int(max(a, b)), int(rng.integers(1, 20)), _stamp(now, float(rng.uniform(0, 24 * 365))))
            for a, b in pairs
            if a != b
        ),
    )


def build_key(n: int) -> str:
    """What a cached graph was made by: a different generator or size means a rebuild."""
    return f"{GENERATOR_VERSION}/{n}/windows-1"


def _cache_ok(path: Path, n: int, embedder: Embedder) -> bool:
    if not path.is_file():
        return False
    try:
        db = Database(path, readonly=True)
    except Exception as exc:  # an unreadable cache is simply rebuilt
        logger.info("cached graph %s unusable: %s", path, exc)
        return False
    try:
        return db.get_meta(BUILD_KEY) == build_key(n) and db.get_meta("model_identity") == embedder.identity
    finally:
        db.close()


def cached_graph(n: int, embedder: Embedder, rebuild: bool = False, queries: int = 200) -> tuple[Path, list[tuple[str, str]], float]:
    """A private working copy of the cached ``n``-entity graph, its queries and the build time (0 if cached)."""
    RESULTS.mkdir(exist_ok=True)
    cache = RESULTS / f"graph-{n}.db"
    qfile = RESULTS / f"graph-{n}.queries.json"
    built = 0.0
    if rebuild or not _cache_ok(cache, n, embedder) or not qfile.is_file():
        logger.info("building the %d-entity graph (cached for later runs)", n)
        t0 = time.perf_counter()
        synth = generate(n, queries=queries)
        build_direct(cache, synth, embedder)
        qfile.write_text(json.dumps(synth.queries), encoding="utf-8")
        built = time.perf_counter() - t0
    work = RESULTS / f"work-{n}.db"
    for suffix in ("-wal", "-shm"):
        Path(str(work) + suffix).unlink(missing_ok=True)
    shutil.copyfile(cache, work)  # searches record signals: the cache itself stays as built
    queries_list = [tuple(q) for q in json.loads(qfile.read_text(encoding="utf-8"))]
    return work, queries_list, built


def remove_db(path: Path) -> None:
    """Delete a database file and its WAL companions."""
    for p in (path, Path(str(path) + "-wal"), Path(str(path) + "-shm")):
        p.unlink(missing_ok=True)
