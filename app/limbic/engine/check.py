"""Checking a graph file: SQLite's integrity, graph/FTS/vector agreement, the model's identity; repairing derived data."""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import apsw
import numpy as np

from limbic.engine.store import recorded_check, tables

from limbic.engine.vectors import index, index_chunks, vector_index
from limbic.engine.store.db import FTS_DDL, Database
from limbic.engine.store.journal_watch import LOST_LOG_KEY
from limbic.engine.vectors.embeddings import Embedder
from limbic.engine.vectors.entity_text import EntitySource, fts_obs_text
from limbic.engine.errors import DatabaseError

logger = logging.getLogger(__name__)

CHUNK = 500
SAMPLE = 5  # ids named in a report line
# A stored vector is L2-normalised; anything this far from length 1 was not written by the model.
NORM_TOLERANCE = 1e-2
_DIM = re.compile(r"float\[(\d+)\]")


@dataclass
class CheckReport:
    """What `limbic check` found; the lists hold entity ids."""

    entities: int = 0
    integrity: list[str] = field(default_factory=list)  # SQLite's messages; empty when the file is sound
    foreign_key_errors: int = 0
    fts_index_error: str | None = None
    fts_missing: list[int] = field(default_factory=list)
    fts_orphans: list[int] = field(default_factory=list)
    fts_stale: list[int] = field(default_factory=list)
    has_vectors: bool = False
    vectors: int = 0
    vec_missing: list[int] = field(default_factory=list)  # marked embedded, but no vector
    vec_orphans: list[int] = field(default_factory=list)  # a vector or its record without an entity
    vec_stale: list[int] = field(default_factory=list)  # made from text the entity no longer has
    vec_bad: list[int] = field(default_factory=list)  # wrong size, not finite, or not unit length
    pending: int = 0  # no vector yet: embedded on the next open with a model, or by --repair
    windows: int = 0  # further vectors of long entities (index_chunks.py)
    windows_bad: list[int] = field(default_factory=list)  # entities whose further vectors disagree with their records
    windows_pending: int = 0  # entities whose further vectors were never made (a file from before them)
    stored_model: str | None = None
    model_name: str | None = None
    model_matches: bool | None = None  # None: no model loaded to compare with
    tables: dict[str, str] = field(default_factory=dict)  # derived or signal table -> "missing" / "malformed"
    indexes_missing: list[str] = field(default_factory=list)
    lost: str | None = None  # the file lost commits with its write-ahead log (Database.lost_note)
    history: recorded_check.HistoryDamage = field(default_factory=recorded_check.HistoryDamage)

    @property
    def file_ok(self) -> bool:
        return not self.integrity and not self.foreign_key_errors and not self.lost

    @property
    def derived_problems(self) -> int:
        """How many FTS and vector disagreements there are (each fixable by repair)."""
        fts = len(self.fts_missing) + len(self.fts_orphans) + len(self.fts_stale) + bool(self.fts_index_error)
        vec = len(self.vec_missing) + len(self.vec_orphans) + len(self.vec_stale) + len(self.vec_bad) + len(self.windows_bad)
        return (fts + vec + (self.model_matches is False) + len(self.tables) + len(self.indexes_missing)
                + self.history.count)

    @property
    def consistent(self) -> bool:
        """The file is sound and the graph, FTS rows and vectors agree (pending vectors allowed)."""
        return self.file_ok and self.derived_problems == 0

    def lines(self) -> list[str]:
        """The report as plain sentences, one per finding."""
        out = [self.lost] if self.lost else []
        if self.integrity:
            out.append(f"SQLite integrity check failed: {'; '.join(self.integrity[:3])}.")
        if self.foreign_key_errors:
            out.append(f"{self.foreign_key_errors} rows point at entities that do not exist.")
        for name, state in self.tables.items():
            what = "derived: rebuilt from the graph" if tables.BY_NAME[name].derived else "usage history: started afresh"
            out.append(f"The {name} table is {state} ({what} by a repair).")
        if self.indexes_missing:
            out.append(f"SQLite indexes are missing ({', '.join(self.indexes_missing)}).")
        if self.fts_index_error:
            out.append(f"The full-text index is damaged ({self.fts_index_error}).")
        for ids, what in (
            (self.fts_missing, "entities have no full-text row"),
            (self.fts_orphans, "full-text rows belong to no entity"),
            (self.fts_stale, "full-text rows are out of date"),
            (self.vec_missing, "entities are marked embedded but have no vector"),
            (self.vec_orphans, "vectors belong to no entity"),
            (self.vec_stale, "vectors were made from text the entity no longer has"),
            (self.vec_bad, "vectors are malformed"),
            (self.windows_bad, "long entities' further vectors are missing, malformed or belong to nothing"),
        ):
            if ids:
                out.append(f"{len(ids)} {what} (ids {', '.join(map(str, ids[:SAMPLE]))}{'…' if len(ids) > SAMPLE else ''}).")
        out += self.history.lines(SAMPLE)
        if self.model_matches is False:
            out.append(f"The vectors were made by {self.stored_model or 'an unknown model'}, not by {self.model_name}.")
        if self.pending:
            out.append(f"{self.pending} entities wait for embedding.")
        if self.windows_pending:
            out.append(f"{self.windows_pending} entities wait for the vectors of the rest of their text.")
        if not out:
            out.append("No problems found.")
        return out

    def summary(self) -> str:
        """One sentence: the verdict."""
        vec = f", {self.vectors} vectors" if self.has_vectors else ", no vectors"
        state = "consistent" if self.consistent else ("damaged" if not self.file_ok else "inconsistent")
        return f"{self.entities} entities{vec}: {state}."


def iter_sources(db: Database) -> Iterator[EntitySource]:
    """Every entity's index source, read in chunks (the same content as ``index.load_source``)."""
    last = 0
    while True:
        rows = db.execute("SELECT id, name, entity_type FROM entities WHERE id > ? ORDER BY id LIMIT ?", (last, CHUNK)).fetchall()
        if not rows:
            return
        ids = [r[0] for r in rows]
        marks = ",".join("?" * len(ids))
        obs: dict[int, list[str]] = {i: [] for i in ids}
        current = " AND superseded_at IS NULL" if db.has_history() else ""
        for entity_id, content in db.execute(
            f"SELECT entity_id, content FROM observations WHERE entity_id IN ({marks}){current} ORDER BY id", ids
        ):
            obs[entity_id].append(content)
        for entity_id, texts in index.reflection_texts(db, ids).items():
            obs[entity_id].extend(texts)
        rels: dict[int, list[tuple[str, str]]] = {i: [] for i in ids}
        for entity_id, rtype, target in db.execute(
            "SELECT r.from_entity, r.relation_type, e.name FROM relations r JOIN entities e ON e.id = r.to_entity "
            f"WHERE r.from_entity IN ({marks}) AND r.active = 1 ORDER BY r.id",
            ids,
        ):
            rels[entity_id].append((rtype, target))
        aliases = index.alias_texts(db, ids)
        for entity_id, name, etype in rows:
            yield EntitySource(entity_id, name, etype, tuple(obs[entity_id]), tuple(rels[entity_id]),
                               tuple(aliases.get(entity_id, ())))
        last = ids[-1]


def _stored_dim(db: Database) -> int | None:
    sql = db.scalar("SELECT sql FROM sqlite_master WHERE name = ?", (index.VEC_TABLE,)) or ""
    m = _DIM.search(sql)
    return int(m.group(1)) if m else None


def damage(db: Database) -> str | None:
    """SQLite's quick check of the whole file (no index-to-table cross-check): None when it is sound.

    The app runs it when it opens a file, so a damaged file is refused before anything is written
    into it; it reads every page once (about a second per few hundred megabytes).
    """
    try:
        found = [r[0] for r in db.execute("PRAGMA quick_check(5)")]
    except apsw.Error as exc:
        return str(exc)
    return None if found == ["ok"] else "; ".join(found)


def check_graph(db: Database, embedder: Embedder | None = None, integrity: bool = True) -> CheckReport:
    """Look for anything that disagrees; changes nothing."""
    report = CheckReport(lost=db.lost_note)
    try:
        report.tables = tables.problems(db)
        report.indexes_missing = tables.missing_indexes(db)
    except apsw.Error as exc:
        report.integrity.append(f"reading the schema failed ({type(exc).__name__})")
    if not db.readonly and not db.in_transaction and "entity_fts" not in report.tables:
        # FTS5's own check is spelled as an INSERT (a read-only file refuses it); it runs on its own.
        try:
            with db.transaction():
                db.execute("INSERT INTO entity_fts(entity_fts) VALUES ('integrity-check')")
        except apsw.Error as exc:
            report.fts_index_error = f"SQLite's check of it failed: {type(exc).__name__}"
        except DatabaseError as exc:
            report.fts_index_error = str(exc).rstrip(".")
    # Everything else is read from one snapshot, so that another program writing meanwhile
    # cannot make the graph and its indexes seem to disagree.
    own = not db.in_transaction
    if own:
        db.execute("BEGIN")
    try:
        if integrity:
            try:
                found = [r[0] for r in db.execute("PRAGMA integrity_check(20)")]
                report.integrity = [] if found == ["ok"] else found
                report.foreign_key_errors = len(db.execute("PRAGMA foreign_key_check").fetchall())
            except apsw.Error as exc:  # damage bad enough that SQLite cannot even walk the file
                report.integrity = [str(exc)]
        try:
            report.history = recorded_check.find(db)
            _check_derived(db, embedder, report)
        except (apsw.Error, UnicodeDecodeError) as exc:  # a damaged page can hold text that is not UTF-8
            report.integrity.append(f"reading the graph failed ({type(exc).__name__})")
    finally:
        if own:
            with contextlib.suppress(apsw.Error):
                db.execute("COMMIT")
    return report


def _check_derived(db: Database, embedder: Embedder | None, report: CheckReport) -> None:
    # A missing or malformed table is reported as such (report.tables), not row by row.
    fts_ok = "entity_fts" not in report.tables
    fts = (
        {r[0]: (r[1], r[2], r[3]) for r in db.execute("SELECT rowid, name, entity_type, obs_text FROM entity_fts")}
        if fts_ok
        else {}
    )
    report.has_vectors = db.has_table(index.VEC_TABLE)
    state = (
        {r[0]: r[1] for r in db.execute("SELECT entity_id, text_hash FROM embedding_state")}
        if "embedding_state" not in report.tables
        else {}
    )
    seen: set[int] = set()
    for src in iter_sources(db):
        seen.add(src.entity_id)
        row = fts.get(src.entity_id)
        if not fts_ok:
            pass
        elif row is None:
            report.fts_missing.append(src.entity_id)
        elif row != (src.name, src.entity_type, fts_obs_text(src.observations)):
            report.fts_stale.append(src.entity_id)
        digest = state.get(src.entity_id)
        if digest is None:
            report.pending += 1
        elif digest != src.digest():
            report.vec_stale.append(src.entity_id)
    report.entities = len(seen)
    report.fts_orphans = sorted(set(fts) - seen)
    orphan_states = set(state) - seen
    if report.has_vectors:
        dim = _stored_dim(db)
        vec_ids: set[int] = set()
        for rowid, blob in db.execute(f"SELECT rowid, embedding FROM {index.VEC_TABLE}"):
            vec_ids.add(rowid)
            vec = np.frombuffer(blob, dtype=np.float32) if isinstance(blob, bytes) and len(blob) % 4 == 0 else None
            if vec is None or (dim and vec.size != dim) or not np.all(np.isfinite(vec)):
                report.vec_bad.append(rowid)
            elif abs(float(np.linalg.norm(vec)) - 1.0) > NORM_TOLERANCE:
                report.vec_bad.append(rowid)
        report.vectors = len(vec_ids)
        report.vec_missing = sorted(i for i in set(state) & seen if i not in vec_ids)
        # A vector with no record of the text it was made from cannot be trusted either.
        unrecorded = (vec_ids & seen) - set(state)
        report.vec_stale = sorted(set(report.vec_stale) | unrecorded)
        report.pending -= len(unrecorded)
        report.vec_orphans = sorted((vec_ids - seen) | orphan_states)
        report.stored_model = db.get_meta("model_name")
        if embedder is not None:
            report.model_name = embedder.spec.name
            report.model_matches = db.get_meta("model_identity") == embedder.identity and dim == embedder.dim
        _check_windows(db, report, seen, dim)
    else:
        report.vec_orphans = sorted(orphan_states)
        report.pending = report.entities if embedder is not None else report.pending
        if embedder is not None:
            report.model_name = embedder.spec.name


def _check_windows(db: Database, report: CheckReport, seen: set[int], dim: int | None) -> None:
    """Long entities' further vectors: each recorded, of the right entity and shape, and the other way round."""
    records = {r[0]: r[1] for r in db.execute("SELECT id, entity_id FROM embedding_chunks")} if (
        "embedding_chunks" not in report.tables and db.has_table("embedding_chunks")
    ) else {}
    chunked = {r[0]: r[1] for r in db.execute("SELECT entity_id, chunked FROM embedding_state")} if (
        "embedding_state" not in report.tables
    ) else {}
    bad: set[int] = set()
    vec_ids: set[int] = set()
    if db.has_table(index_chunks.CHUNK_TABLE):
        for rowid, blob in db.execute(f"SELECT rowid, embedding FROM {index_chunks.CHUNK_TABLE}"):
            vec_ids.add(rowid)
            vec = np.frombuffer(blob, dtype=np.float32) if isinstance(blob, bytes) and len(blob) % 4 == 0 else None
            if (
                vec is None
                or (dim and vec.size != dim)
                or not np.all(np.isfinite(vec))
                or abs(float(np.linalg.norm(vec)) - 1.0) > NORM_TOLERANCE
                or rowid not in records
            ):
                bad.add(rowid >> index_chunks.SLOT_BITS)
    for rowid, entity_id in records.items():
        if rowid not in vec_ids or rowid >> index_chunks.SLOT_BITS != entity_id or entity_id not in seen:
            bad.add(rowid >> index_chunks.SLOT_BITS)
            bad.add(entity_id)
        elif not chunked.get(entity_id):
            bad.add(entity_id)  # windows of an entity whose record says it has none yet
    report.windows = len(vec_ids)
    report.windows_bad = sorted(bad)
    report.windows_pending = sum(1 for e, c in chunked.items() if not c and e in seen)


@dataclass
class RepairReport:
    before: CheckReport
    after: CheckReport
    fts_rebuilt: bool = False
    vectors_dropped: int = 0
    embedded: int = 0
    reindexed: bool = False
    tables_recreated: list[str] = field(default_factory=list)
    tables_set_aside: list[str] = field(default_factory=list)  # malformed usage history, kept under these names
    history_records: int = 0  # recorded-history versions closed or added so the history agrees with the graph


def _rebuild_fts(db: Database) -> None:
    db.execute("DROP TABLE IF EXISTS entity_fts")
    db.execute(FTS_DDL)
    for src in iter_sources(db):
        index.sync_fts(db, src)


def repair(
    db: Database,
    embedder: Embedder | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> RepairReport:
    """Rebuild what is derived (FTS rows, vectors, SQLite indexes) from the graph, and mend its recorded
    history by closing or adding versions; never touches the graph."""
    if db.readonly:
        raise DatabaseError(db.readonly_note or f"{db.path} is open read-only; it cannot be repaired.")
    before = check_graph(db, embedder)
    result = RepairReport(before=before, after=before)
    with db.transaction():
        if before.lost and db.has_table("meta"):
            db.del_meta(LOST_LOG_KEY)  # a repair accepts the file as it is: what was lost is not named again
            db.lost_note = None
        if any("index" in msg for msg in before.integrity):
            db.execute("REINDEX")  # b-tree indexes hold nothing the tables do not
            result.reindexed = True
        if before.tables or before.indexes_missing:
            result.tables_set_aside = tables.recreate(db, before.tables)
            result.tables_recreated = sorted(before.tables)
        if "entity_fts" in before.tables or before.fts_index_error or before.fts_missing or before.fts_orphans or before.fts_stale:
            _rebuild_fts(db)
            result.fts_rebuilt = True
        drop = set(before.vec_missing) | set(before.vec_orphans) | set(before.vec_stale) | set(before.vec_bad)
        if before.has_vectors:
            for entity_id in sorted(drop):
                db.execute(f"DELETE FROM {index.VEC_TABLE} WHERE rowid = ?", (entity_id,))
                db.execute("DELETE FROM embedding_state WHERE entity_id = ?", (entity_id,))
            vector_index.vectors_deleted(db, index.VEC_TABLE, sorted(drop))  # the in-memory copy follows
            # Further vectors go with their entity's first, and damaged ones are made again.
            index_chunks.delete_for(db, sorted(drop | set(before.windows_bad)))
            for entity_id in before.windows_bad:
                db.execute("UPDATE embedding_state SET chunked = 0 WHERE entity_id = ?", (entity_id,))
            db.note("vectors", drop)
        else:
            db.execute("DELETE FROM embedding_state")
            index_chunks.drop_table(db)
        result.vectors_dropped = len(drop)
        if before.history.count:
            result.history_records = recorded_check.repair(db)
    if embedder is not None:
        # A change of model drops every vector; then everything pending is embedded in batches.
        index.prepare_vectors(db, embedder)
        result.embedded = index.embed_pending(db, embedder, progress=progress, cancelled=cancelled)
    result.after = check_graph(db, embedder)
    logger.info("repair of %s: %s", db.path, result.after.summary())
    return result
