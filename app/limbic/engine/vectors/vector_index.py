"""Exact cosine KNN at memory speed: a numpy mirror of the vec0 table, kept in step with it.

The vec0 table stays the durable store. sqlite-vec answers a KNN query with a float32 scan
that costs ~80 ms at 100k × 384; the same exact scan as one BLAS matrix-vector product over
a contiguous float32 matrix costs ~10 ms. So each connection keeps, lazily, an in-memory
copy of the table:

* it is loaded on the first KNN query, in the thread that owns the connection;
* every vector write or delete made through ``index.py`` updates it in the same process;
* every such write also stores a fresh random token in ``meta`` (same transaction). A query
  compares the token in the file with the one the mirror was made from: a write by another
  process, or a rolled-back write of our own, shows up as a different token and the mirror
  is brought up to date before it answers. The token lives in the same file as the vectors, so a
  file restored from a backup brings the token that matches its vectors.
* a write by another process is followed through the change log (``changes.py``): only the
  vectors those commits touched are read again. A full reload happens only when the log cannot
  say (pruned past, a restore, a change of model) or when most rows changed; a rolled-back write
  of our own makes the next query reload.

Any code that writes the vec0 table must call ``vectors_written``, ``vectors_deleted`` or
``table_recreated`` in the same transaction (``index.py`` and ``check.py`` do).
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import apsw
import numpy as np

from limbic.engine.store import changes
from limbic.engine.store.db import Database

logger = logging.getLogger(__name__)

TOKEN_KEY = "vectors_token"
# The first vector table's token keeps the name files already hold; any other table has its own.
FIRST_TABLE = "entity_embeddings"


def token_key(table: str) -> str:
    return TOKEN_KEY if table == FIRST_TABLE else f"{TOKEN_KEY}:{table}"
_GROWTH = 1.25
_MIN_CAPACITY = 1024

_mirrors: weakref.WeakKeyDictionary[Database, dict[str, VectorMirror]] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class SimilarityStats:
    """Mean and standard deviation of one query's cosine similarity over all ``count`` rows."""

    mean: float
    std: float
    count: int


class VectorMirror:
    """An in-memory copy of one vec0 table answering exact cosine KNN queries."""

    def __init__(self, table: str, follow_log: bool = True) -> None:
        self.table = table
        self.token_key = token_key(table)
        # The change log names entities: a table whose rowids are not entity ids reloads instead.
        self.follow_log = follow_log
        self.version = 0  # changes with every change of the contents; for caches built on them
        self.loaded = False
        self.token: str | None = None
        self.loads = 0  # how many times the table was read in full; for tests and benchmarks
        self.follows = 0  # how many times outside changes were applied row by row
        self.cursor: changes.Cursor | None = None
        self._clear(0)

    def _clear(self, dim: int, capacity: int = 0) -> None:
        self._mat = np.zeros((capacity, dim), dtype=np.float32)
        self._inv = np.zeros(capacity, dtype=np.float32)  # 1 / |row|: cosine without touching rows
        self._ids = np.zeros(capacity, dtype=np.int64)
        self._n = 0
        self._pos: dict[int, int] | None = {}
        self.version = getattr(self, "version", 0) + 1

    def __len__(self) -> int:
        return self._n

    @property
    def dim(self) -> int:
        return int(self._mat.shape[1])

    @property
    def nbytes(self) -> int:
        """Memory held by the mirror's arrays."""
        return int(self._mat.nbytes + self._inv.nbytes + self._ids.nbytes)

    def ids(self) -> list[int]:
        """The ids held, in no particular order."""
        return [int(i) for i in self._ids[: self._n]]

    # -- queries -------------------------------------------------------------------------

    def knn(self, db: Database, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
        """(id, cosine distance) of the ``k`` nearest rows, nearest first; ties by id."""
        return self.knn_with_stats(db, vector, k)[0]

    def knn_with_stats(self, db: Database, vector: np.ndarray, k: int) -> tuple[list[tuple[int, float]], SimilarityStats]:
        """The ``k`` nearest rows, and how similar the query is to the table as a whole.

        The mean and spread of the query's similarity to every row say how far a hit stands
        out for this query and this model (models differ: e5's similarities all sit near 0.8).
        """
        self.refresh(db)
        n = self._n
        k = min(int(k), n)
        if k <= 0:
            return [], SimilarityStats(0.0, 0.0, 0)
        q = np.asarray(vector, dtype=np.float32).reshape(-1)
        if q.shape[0] != self.dim:
            raise ValueError(f"A {q.shape[0]}-dimension query cannot search {self.dim}-dimension vectors.")
        norm = float(np.linalg.norm(q))
        if norm > 0:
            q = q / norm
        # einsum runs in this thread; BLAS's matmul would wake a thread pool that, on a busy
        # machine (or right after the model's own threads), costs far more than it saves.
        sims = np.einsum("ij,j->i", self._mat[:n], q)
        sims *= self._inv[:n]
        top = np.argpartition(-sims, k - 1)[:k] if k < n else np.arange(n)
        ids = self._ids[top]
        dist = (np.float32(1.0) - sims[top]).astype(np.float32)
        order = np.lexsort((ids, dist))
        stats = SimilarityStats(float(sims.mean()), float(sims.std()), n)
        return [(int(ids[i]), float(dist[i])) for i in order], stats

    def similarities(self, db: Database, vector: np.ndarray, wanted: Sequence[int]) -> dict[int, float]:
        """Cosine similarity of the query to the given rows (absent ones are left out)."""
        self.refresh(db)
        where = self._where
        pos = [(int(i), where[int(i)]) for i in wanted if int(i) in where]
        if not pos:
            return {}
        q = np.asarray(vector, dtype=np.float32).reshape(-1)
        norm = float(np.linalg.norm(q))
        q = q / norm if norm > 0 else q
        rows = np.fromiter((p for _, p in pos), dtype=np.int64, count=len(pos))
        sims = (self._mat[rows] @ q) * self._inv[rows]
        return {entity_id: float(s) for (entity_id, _), s in zip(pos, sims)}

    def rows(self, db: Database) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(ids, vectors, 1/|vector|) of every row, brought up to date; views, not copies: read, never keep."""
        self.refresh(db)
        return self.rows_unchecked()

    def rows_unchecked(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``rows`` as the mirror holds them now, for a caller that has just refreshed it."""
        n = self._n
        return self._ids[:n], self._mat[:n], self._inv[:n]

    def positions(self, ids: Sequence[int]) -> np.ndarray:
        """Each id's row in the mirror, -1 for one it does not hold."""
        where = self._where
        return np.fromiter((where.get(int(i), -1) for i in ids), dtype=np.int64, count=len(ids))

    # -- keeping in step -----------------------------------------------------------------

    def refresh(self, db: Database) -> bool:
        """Reload from the table if it changed outside this mirror; returns True if it did."""
        token = db.get_meta(self.token_key)
        if self.loaded and token == self.token:
            return False
        if self.loaded and self._follow_log(db):
            return True
        self.load(db)
        return True

    def _follow_log(self, db: Database) -> bool:
        """Apply only the vectors that other writers' commits touched; False if a full load is needed."""
        if self.cursor is None or not self.follow_log or not db.has_table(self.table):
            return False
        with _read_snapshot(db):
            token = db.get_meta(self.token_key)
            cs = changes.read_since(db, self.cursor)
            if cs.full or cs.vectors_reset:
                return False
            ids = sorted(cs.vectors)
            if len(ids) > max(2_000, self._n // 4):
                return False  # most of the table: one sequential read is cheaper
            found: dict[int, bytes] = {}
            try:
                for start in range(0, len(ids), 500):
                    chunk = ids[start : start + 500]
                    marks = ",".join("?" * len(chunk))
                    for rowid, blob in db.execute(f"SELECT rowid, embedding FROM {self.table} WHERE rowid IN ({marks})", chunk):
                        found[int(rowid)] = blob
            except apsw.SQLError:
                # The table changed under this connection (another program upgraded or re-created
                # it): a full load reads it as it is now.
                logger.info("vector table changed while following the change log; reloading it")
                return False
        if found:
            keys = sorted(found)
            mat = np.frombuffer(b"".join(found[k] for k in keys), dtype=np.float32).reshape(len(keys), -1)
            if self._n and mat.shape[1] != self.dim:
                return False
            self.upsert(keys, mat)
        gone = [i for i in ids if i not in found]
        if gone:
            self.remove(gone)
        self.token = token
        self.follows += 1
        return True

    def load(self, db: Database) -> None:
        """Read the whole table (one consistent snapshot)."""
        with _read_snapshot(db):
            token = db.get_meta(self.token_key)
            self.cursor = changes.start_cursor(db)
            if not db.has_table(self.table):
                self._clear(self.dim)
            elif not self._load_chunks(db):
                self._load_scan(db)
        self.token = token
        self.loaded = True
        self.loads += 1
        logger.debug("loaded %d vectors of %s into memory", self._n, self.table)

    def _load_scan(self, db: Database) -> None:
        """The portable path: read every row through vec0 itself."""
        rows = db.execute(f"SELECT rowid, embedding FROM {self.table}").fetchall()
        dim = len(rows[0][1]) // 4 if rows else self.dim
        self._clear(dim)
        if rows:
            ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
            mat = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), dim)
            self._adopt(ids, mat.copy())

    def _load_chunks(self, db: Database) -> bool:
        """The fast path: copy sqlite-vec 0.1's chunk blobs straight into one matrix.

        Returns False (and the caller scans instead) if the layout is not the one expected.
        """
        t = self.table
        names = {f"{t}_chunks", f"{t}_rowids", f"{t}_vector_chunks00", f"{t}_info"}
        found = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'") if r[0] in names}
        if found != names:
            return False
        info = dict(db.execute(f'SELECT key, value FROM "{t}_info"').fetchall())
        if (info.get("CREATE_VERSION_MAJOR"), info.get("CREATE_VERSION_MINOR")) != (0, 1):
            return False
        chunks = db.execute(f'SELECT chunk_id, size, validity, rowids FROM "{t}_chunks" ORDER BY chunk_id').fetchall()
        expected = int(db.scalar(f'SELECT count(*) FROM "{t}_rowids"'))
        if not chunks:
            if expected:
                return False
            self._clear(self.dim)
            return True
        first = db.scalar(f'SELECT length(vectors) FROM "{t}_vector_chunks00" WHERE rowid = ?', (chunks[0][0],))
        size0 = int(chunks[0][1])
        if not first or size0 <= 0 or first % (size0 * 4):
            return False
        dim = first // (size0 * 4)
        slots = sum(int(c[1]) for c in chunks)
        mat = np.empty((slots, dim), dtype=np.float32)
        ids = np.empty(slots, dtype=np.int64)
        valid = np.empty(slots, dtype=bool)
        at = 0
        try:
            for chunk_id, size, validity, rowids in chunks:
                size = int(size)
                if len(rowids) != size * 8 or len(validity) * 8 < size:
                    return False
                with db.conn.blob_open("main", f"{t}_vector_chunks00", "vectors", chunk_id, False) as blob:
                    if blob.length() != size * dim * 4:
                        return False
                    blob.read_into(mat[at : at + size])
                ids[at : at + size] = np.frombuffer(rowids, dtype=np.int64)
                bits = np.unpackbits(np.frombuffer(validity, dtype=np.uint8), bitorder="little")
                valid[at : at + size] = bits[:size].astype(bool)
                at += size
        except apsw.Error as exc:
            logger.info("vector chunks of %s not readable directly (%s); scanning instead", t, exc)
            return False
        if int(valid.sum()) != expected:
            return False
        # Move the rows past the end into the holes (deleted slots, usually none), in place:
        # copying the whole matrix would double the memory for a moment.
        count = expected
        holes = np.flatnonzero(~valid[:count])
        movers = np.flatnonzero(valid[count:]) + count
        if len(holes):
            mat[holes] = mat[movers]
            ids[holes] = ids[movers]
        self._clear(dim)
        self._adopt(ids[:count], mat)  # the chunks' unused slots stay as room to grow
        return True

    def _adopt(self, ids: np.ndarray, mat: np.ndarray) -> None:
        """Take ``mat`` (rows past ``len(ids)`` are spare capacity) as the contents."""
        n = len(ids)
        self._mat = mat
        self._ids = np.zeros(len(mat), dtype=np.int64)
        self._ids[:n] = ids
        self._inv = np.zeros(len(mat), dtype=np.float32)
        self._inv[:n] = _inverse_norms(mat[:n])
        self._n = n
        self._pos = None  # built on the first update: a search never needs it
        self.version += 1

    @property
    def _where(self) -> dict[int, int]:
        """id -> row, for updates."""
        if self._pos is None:
            self._pos = dict(zip(self._ids[: self._n].tolist(), range(self._n)))
        return self._pos

    def upsert(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        """Set these rows (new or replaced), as the table now holds them."""
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(ids), -1)
        if len(ids) == 0:
            return
        if self.dim != vectors.shape[1]:
            if self._n:
                raise ValueError("vector dimension changed without the table being dropped")
            self._clear(vectors.shape[1])
        inv = _inverse_norms(vectors)
        self.version += 1
        where = self._where
        for row, (entity_id, vec) in enumerate(zip(ids, vectors)):
            pos = where.get(int(entity_id))
            if pos is None:
                self._grow(self._n + 1)
                pos = self._n
                self._n += 1
                where[int(entity_id)] = pos
                self._ids[pos] = entity_id
            self._mat[pos] = vec
            self._inv[pos] = inv[row]

    def remove(self, ids: Sequence[int]) -> None:
        """Forget these rows (absent ones are ignored)."""
        self.version += 1
        where = self._where
        for entity_id in ids:
            pos = where.pop(int(entity_id), None)
            if pos is None:
                continue
            last = self._n - 1
            if pos != last:  # move the last row into the hole: rows stay contiguous
                moved = int(self._ids[last])
                self._mat[pos] = self._mat[last]
                self._inv[pos] = self._inv[last]
                self._ids[pos] = moved
                where[moved] = pos
            self._n = last

    def reset(self) -> None:
        """The table was emptied (dropped and re-created)."""
        self._clear(0)
        self.loaded = True

    def _grow(self, needed: int) -> None:
        cap = len(self._ids)
        if needed <= cap:
            return
        new = max(needed, _MIN_CAPACITY, int(cap * _GROWTH))
        mat = np.zeros((new, self.dim), dtype=np.float32)
        mat[: self._n] = self._mat[: self._n]
        inv = np.zeros(new, dtype=np.float32)
        inv[: self._n] = self._inv[: self._n]
        ids = np.zeros(new, dtype=np.int64)
        ids[: self._n] = self._ids[: self._n]
        self._mat, self._inv, self._ids = mat, inv, ids


def _inverse_norms(mat: np.ndarray) -> np.ndarray:
    norms = np.sqrt(np.einsum("ij,ij->i", mat, mat, dtype=np.float32))
    out = np.zeros(len(mat), dtype=np.float32)
    np.divide(np.float32(1.0), norms, out=out, where=norms > 0)  # a zero vector matches nothing
    return out


@contextlib.contextmanager
def _read_snapshot(db: Database) -> Iterator[None]:
    """A read transaction (or a savepoint inside the caller's), so token and rows agree."""
    db.execute("SAVEPOINT limbic_vector_load")
    try:
        yield
    finally:
        with contextlib.suppress(apsw.Error):
            db.execute("RELEASE limbic_vector_load")


# -- the connection's mirrors and the hooks index.py calls --------------------------------


def mirror_for(db: Database, table: str, follow_log: bool = True) -> VectorMirror:
    """The mirror of ``table`` on this connection (created empty; loaded on first use)."""
    per_db = _mirrors.get(db)
    if per_db is None:
        per_db = _mirrors[db] = {}

        def forget() -> None:  # a rolled-back write may have reached the mirror: reload next time
            for m in per_db.values():
                m.loaded = False

        db.rollback_listeners.append(forget)
    mirror = per_db.get(table)
    if mirror is None:
        mirror = per_db[table] = VectorMirror(table, follow_log)
    return mirror


def release(db: Database) -> None:
    """Free the connection's mirrors now (they also go when the Database is garbage-collected)."""
    _mirrors.pop(db, None)


def knn(db: Database, table: str, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
    """Exact cosine KNN over ``table``: (id, distance), nearest first."""
    return mirror_for(db, table).knn(db, vector, k)


def knn_with_stats(db: Database, table: str, vector: np.ndarray, k: int) -> tuple[list[tuple[int, float]], SimilarityStats]:
    """Exact cosine KNN over ``table`` and the query's similarity distribution over all of it."""
    return mirror_for(db, table).knn_with_stats(db, vector, k)


def rows(db: Database, table: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every vector of ``table`` as the mirror holds it: (ids, vectors, inverse norms)."""
    return mirror_for(db, table).rows(db)


def _bump(db: Database, table: str) -> VectorMirror | None:
    """Mark the table as changed; returns the mirror if it is current and should follow the change."""
    key = token_key(table)
    before = db.get_meta(key)
    after = secrets.token_hex(8)
    db.set_meta(key, after)
    mirror = _mirrors.get(db, {}).get(table)
    if mirror is None or not mirror.loaded:
        return None
    if mirror.token != before:
        mirror.loaded = False  # it missed a change (another process, or a rollback): reload later
        return None
    mirror.token = after
    return mirror


def vectors_written(db: Database, table: str, ids: Sequence[int], vectors: np.ndarray) -> None:
    """Call after inserting or replacing rows of ``table`` (inside the same transaction)."""
    mirror = _bump(db, table)
    if mirror is not None:
        mirror.upsert(ids, vectors)


def vectors_deleted(db: Database, table: str, ids: Sequence[int]) -> None:
    """Call after deleting rows of ``table`` (inside the same transaction)."""
    mirror = _bump(db, table)
    if mirror is not None:
        mirror.remove(ids)


def table_recreated(db: Database, table: str) -> None:
    """Call after ``table`` was dropped and created again empty (inside the same transaction)."""
    mirror = _bump(db, table)
    if mirror is not None:
        mirror.reset()
