"""Import the seed memory engine's SQLite file: entities, observations with their supersede chains,
relations with context and end, reflections, and the usage history that drives ranking.

The file is opened read-only and never written. Its columns were added over the engine's life,
so each optional column is looked up and a missing one is treated as absent (NULL or default).
A Limbic graph file has the same shape and imports the same way.
"""

from __future__ import annotations

import logging
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

import apsw

from limbic.engine.errors import Cancelled, LimbicError, ValidationError
from limbic.engine.graph.graph import Graph, clean_name, clean_observation
from limbic.engine.graph.graph_history import REFLECTION_TARGETS, clean_status
from limbic.service.importers.common import ImportInputError, ImportReport, backup_before_import, count_before, finish

logger = logging.getLogger(__name__)

MAX_VALUE_BYTES = 16 * 1024 * 1024  # one text or blob read from another program's file

# Columns read from each table; the first ones of each are required, the rest optional.
REQUIRED = {
    "entities": ("id", "name"),
    "observations": ("id", "entity_id", "content"),
    "relations": ("from_entity", "to_entity", "relation_type"),
}
OPTIONAL = {
    "entities": ("entity_type", "created_at", "updated_at", "status"),
    "observations": ("created_at", "kind", "supersedes", "superseded_at", "superseded_by", "similarity_flag"),
    "relations": ("id", "created_at", "context", "active", "ended_at"),
    "entity_access": ("entity_id", "access_count", "last_access"),
    "entity_access_log": ("entity_id", "access_date", "access_count"),
    "co_occurrences": ("entity_a_id", "entity_b_id", "co_count", "last_co"),
    "reflections": ("id", "target_type", "target_id", "author", "content", "mood", "created_at"),
}


@dataclass
class SeedGraph:
    """Everything read from the file, validated, keyed by the file's own ids."""

    entities: list[tuple] = field(default_factory=list)  # (id, name, type, status, created, updated)
    observations: list[tuple] = field(default_factory=list)  # (id, entity_id, content, kind, created, sup_at, supersedes, sup_by, flag)
    relations: list[tuple] = field(default_factory=list)  # (id, from, to, type, context, active, created, ended)
    access: list[tuple] = field(default_factory=list)
    access_log: list[tuple] = field(default_factory=list)
    cooc: list[tuple] = field(default_factory=list)
    reflections: list[tuple] = field(default_factory=list)
    blank_observations: int = 0
    unknown_status: int = 0
    missing_columns: list[str] = field(default_factory=list)


def _open_readonly(path: Path) -> apsw.Connection:
    uri = "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro"
    conn = apsw.Connection(uri, flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    conn.setbusytimeout(2000)
    # No value Limbic takes is near this size; a larger one (stored, or made by an expression) is refused, not built.
    conn.limit(apsw.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
    try:  # its vector tables are in the schema; loading the module lets SQLite parse them
        import sqlite_vec

        conn.enable_load_extension(True)
        conn.load_extension(sqlite_vec.loadable_path())
        conn.enable_load_extension(False)
    except Exception:  # noqa: BLE001 - the plain tables read fine without it
        logger.debug("sqlite-vec not loaded for %s", path)
    return conn


def _columns(conn: apsw.Connection, table: str) -> set[str]:
    return {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}


def _select(conn, table: str, have: set[str], wanted: tuple[str, ...], order: str = "") -> list[tuple]:
    cols = ", ".join(c if c in have else "NULL" for c in wanted)
    return conn.execute(f"SELECT {cols} FROM {table}{order}").fetchall()


def read_seed(path: Path) -> SeedGraph:
    """Read and validate the whole file; raises ImportInputError with one sentence."""
    path = Path(path)
    try:
        conn = _open_readonly(path)
    except apsw.Error as exc:
        raise ImportInputError(f"{path} cannot be opened as a database ({exc.__class__.__name__}).") from None
    try:
        return _read(conn, path)
    except (apsw.NotADBError, apsw.CorruptError):
        raise ImportInputError(
            f"{path} is neither a Limbic graph nor a memory engine database (it starts like an SQLite file "
            "but cannot be read as one: it is damaged or not a database)."
        ) from None
    except apsw.TooBigError:
        raise ImportInputError(
            f"{path} holds a value larger than {MAX_VALUE_BYTES // (1024 * 1024)} MB, far more than any text Limbic "
            "keeps; nothing was imported.") from None
    except apsw.Error as exc:
        raise ImportInputError(f"{path} cannot be read: {exc}.") from None
    finally:
        conn.close()


def _plain_tables(conn: apsw.Connection, path: Path) -> set[str]:
    """The file's plain tables; one Limbic reads that is a view or a virtual table is refused with a sentence.

    Reading a view runs its query, which another program's file can make endless (a recursive view
    over nothing); a virtual table runs a module's code; a virtual generated column computes its
    value on every read. Only stored rows are read (triggers run on writes, and nothing is written).
    """
    tables: set[str] = set()
    for name, kind, sql in conn.execute("SELECT name, type, coalesce(sql, '') FROM sqlite_master "
                                        "WHERE type IN ('table', 'view')"):
        virtual = kind == "table" and sql.lstrip().upper().startswith("CREATE VIRTUAL")
        if name in REQUIRED or name in OPTIONAL:
            if kind == "view" or virtual:
                raise ImportInputError(
                    f"{path} is not a memory engine database Limbic can read: its {name} is "
                    f"{'a view' if kind == 'view' else 'a virtual table'}, not a table of stored rows; "
                    "nothing was imported.")
        if kind == "table":
            tables.add(name)
    for name in sorted(tables & (set(REQUIRED) | set(OPTIONAL))):
        computed = [r[1] for r in conn.execute(f"PRAGMA table_xinfo({name})") if r[6] == 2]
        if computed:
            raise ImportInputError(
                f"{path} is not a memory engine database Limbic can read: its {name}.{computed[0]} is computed "
                "when read, not stored; nothing was imported.")
    return tables


def _read(conn: apsw.Connection, path: Path) -> SeedGraph:
    tables = _plain_tables(conn, path)
    cols = {t: _columns(conn, t) for t in tables if t in REQUIRED or t in OPTIONAL}
    for table, needed in REQUIRED.items():
        if table not in tables or not set(needed) <= cols[table]:
            shown_tables = ", ".join(sorted(t for t in tables if not t.startswith("sqlite_"))[:8]) or "none"
            raise ImportInputError(
                f"{path} is neither a Limbic graph nor a memory engine database: it is an SQLite database of "
                f"another program, with no {table} table holding {', '.join(needed)} (its tables: {shown_tables})."
            )
    out = SeedGraph()
    for table, wanted in OPTIONAL.items():
        if table in cols:
            out.missing_columns += [f"{table}.{c}" for c in wanted if c not in cols[table]]

    def bad(what: str, exc: LimbicError):
        return ImportInputError(f"{path}: {what}: {str(exc).rstrip('.')}.")

    c = cols["entities"]
    for eid, name, etype, created, updated, status in _select(
        conn, "entities", c, ("id", "name", "entity_type", "created_at", "updated_at", "status"), " ORDER BY id"
    ):
        try:
            name = clean_name(name)
            etype = clean_name(etype, "type", 128) if etype else None
        except ValidationError as exc:
            raise bad(f"entity {eid}", exc) from None
        try:
            status = clean_status(status) if status else None
        except ValidationError:
            out.unknown_status += 1
            status = None
        out.entities.append((eid, name, etype, status, created, updated))
    known = {e[0] for e in out.entities}

    c = cols["observations"]
    for row in _select(
        conn, "observations", c,
        ("id", "entity_id", "content", "kind", "created_at", "superseded_at", "supersedes", "superseded_by", "similarity_flag"),
        " ORDER BY id",
    ):
        oid, eid, content = row[0], row[1], row[2]
        if eid not in known:
            continue  # an orphan left by a delete without foreign keys
        if not isinstance(content, str) or not content.strip():
            out.blank_observations += 1
            continue
        try:
            content = clean_observation(content)
        except ValidationError as exc:
            raise bad(f"observation {oid}", exc) from None
        kind = row[3] if isinstance(row[3], str) and row[3].strip() else None
        out.observations.append((oid, eid, content, kind, *row[4:]))

    c = cols["relations"]
    for rid, a, b, rtype, created, context, active, ended in _select(
        conn, "relations", c, ("id", "from_entity", "to_entity", "relation_type", "created_at", "context", "active", "ended_at"),
    ):
        if a not in known or b not in known:
            continue
        try:
            rtype = clean_name(rtype, "relation type", 128)
        except ValidationError as exc:
            raise bad(f"relation {rid}", exc) from None
        out.relations.append((rid, a, b, rtype, context, 1 if active is None else active, created, ended))

    if "entity_access" in cols:
        out.access = [r for r in _select(conn, "entity_access", cols["entity_access"], OPTIONAL["entity_access"]) if r[0] in known]
    if "entity_access_log" in cols:
        out.access_log = [
            r for r in _select(conn, "entity_access_log", cols["entity_access_log"], OPTIONAL["entity_access_log"])
            if r[0] in known and isinstance(r[1], str)
        ]
    if "co_occurrences" in cols:
        out.cooc = [
            r for r in _select(conn, "co_occurrences", cols["co_occurrences"], OPTIONAL["co_occurrences"])
            if r[0] in known and r[1] in known
        ]
    if "reflections" in cols and "content" in cols["reflections"]:
        for row in _select(conn, "reflections", cols["reflections"], OPTIONAL["reflections"], " ORDER BY 1"):
            if not isinstance(row[4], str) or not row[4].strip():
                continue
            try:
                clean_observation(row[4], "A reflection")
            except ValidationError as exc:
                raise bad(f"reflection {row[0]}", exc) from None
            target = row[1] if row[1] in REFLECTION_TARGETS else "global"
            out.reflections.append((row[0], target, *row[2:]))
    return out


def import_seed_db(graph: Graph, path, progress=None, cancelled=None, embed: bool = True) -> ImportReport:
    """Import a seed engine database into ``graph``; idempotent; all of the graph part or nothing."""
    path = Path(path)
    seed = read_seed(path)
    report = ImportReport("seed", str(path), entities_read=len(seed.entities))
    report.notes += backup_before_import(graph)
    before = count_before(graph)
    total = len(seed.entities) + len(seed.observations) + len(seed.relations) + len(seed.reflections)
    step = max(1, total // 200)
    done = 0

    def tick():
        nonlocal done
        done += 1
        if done % step == 0:
            if cancelled and cancelled():
                raise Cancelled("The import was cancelled; nothing was changed.")
            if progress:
                progress("graph", done, total)

    with graph.write(embed=False):
        ents: dict[int, int] = {}
        for eid, name, etype, status, created, updated in seed.entities:
            ents[eid], _ = graph.merge_entity(name, etype, status, created, updated)
            tick()
        obs: dict[int, int] = {}
        for oid, eid, content, kind, created, sup_at, _sup, _by, flag in seed.observations:
            obs[oid], _ = graph.merge_observation(ents[eid], content, kind, created, sup_at, flag)
            tick()
        replaced_at = {o[0]: o[5] for o in seed.observations}
        for oid, _eid, _c, _k, _cr, sup_at, supersedes, sup_by, _f in seed.observations:
            # The engine points from the newer observation at the one it replaced; Limbic the other way.
            if supersedes in obs and obs[supersedes] != obs[oid]:
                graph.link_superseded(obs[supersedes], obs[oid], replaced_at.get(supersedes))
            if sup_by in obs and obs[sup_by] != obs[oid]:
                graph.link_superseded(obs[oid], obs[sup_by], sup_at)
        rels: dict[int, int] = {}
        for rid, a, b, rtype, context, active, created, ended in seed.relations:
            rels[rid], _ = graph.merge_relation(ents[a], ents[b], rtype, context, bool(active), created, ended)
            tick()
        skipped_reflections = 0
        for _fid, target, target_id, author, content, mood, created in seed.reflections:
            entity_id = relation_id = target_ref = None
            if target == "entity":
                entity_id = ents.get(target_id)
            elif target == "relation":
                relation_id = rels.get(target_id)
            else:
                target_ref = target_id
            if target in ("entity", "relation") and entity_id is None and relation_id is None:
                skipped_reflections += 1
                continue
            graph.merge_reflection(target, content, author or "", entity_id, relation_id, target_ref, mood, created)
            tick()
        for eid, count, last in seed.access:
            graph.merge_usage(ents[eid], count, last)
        for eid, day, count in seed.access_log:
            graph.merge_access_day(ents[eid], day, count)
        for a, b, count, last in seed.cooc:
            graph.merge_cooccurrence(ents[a], ents[b], count, last)
        report.usage_rows = len(seed.access) + len(seed.access_log) + len(seed.cooc)
    if progress:
        progress("graph", total, total)
    if seed.blank_observations:
        report.notes.append(f"{seed.blank_observations} empty observations left out")
    if seed.unknown_status:
        report.notes.append(f"{seed.unknown_status} unknown statuses read as active")
    if skipped_reflections:
        report.notes.append(f"{skipped_reflections} reflections about entities or relations no longer there left out")
    return finish(graph, report, before, progress, cancelled, embed)
