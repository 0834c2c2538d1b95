"""Snapshots: a whole graph in the folder, so a new device need not replay every segment ever written.

A device writes its snapshot with ``VACUUM INTO`` (a consistent copy of the file at one moment)
into its own folder, named by its own sequence at that moment and its checksum; what the copy
includes is in it (its ``sync_applied`` and its device's sequence). A device that finds a
gap at the start of another device's segments (they were compacted) starts from the newest
snapshot: its rows are applied like additions (an entity of the same name merges), its field
stamps kept, and each device's sequence it includes recorded as applied.

Compaction (only ever of a device's own files): a segment is deleted once it is covered by the
device's newest snapshot and every other device's ``device.json`` says it has applied it; older
snapshots go when a newer one is written. A device that never syncs again holds compaction back
until its folder is removed (docs/sync.md).
"""

from __future__ import annotations

import contextlib
import json
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import apsw

from limbic import osfiles
from limbic.engine.store.db import Database
from limbic.engine.store.schema import SYNCED_TABLES
from limbic.engine.sync import folder as files, rows, scope_travel, state
from limbic.engine.sync.seal import MAGIC, Sealer, SealError
from limbic.engine.sync.capture import REFS, ROW_FIELD
from limbic.engine.sync.rows import COLUMNS, WAS
from limbic.engine.sync.apply import Applier

if TYPE_CHECKING:
    from limbic.engine.graph.graph import Graph

SNAPSHOT_EVERY = 100  # a device writes a snapshot after this many segments of its own since the last


def take(graph: Graph, directory: Path, seq: int, seal: Sealer | None = None) -> Path:
    """A snapshot of this graph now, in this device's folder (sealed where the folder is), as of its sequence ``seq``."""
    db = graph.db
    directory.mkdir(exist_ok=True)
    tmp = files.temp_path(directory, "snapshot.db")  # unguessable: SQLite creates it, and refuses one that exists
    try:
        if seal is None:
            db.execute("VACUUM INTO ?", (str(tmp),))
        else:  # the copy in the clear never enters the folder: made in a private folder, sealed into this one
            with tempfile.TemporaryDirectory(prefix="limbic-") as private:
                plain = Path(private) / "snapshot.db"
                db.execute("VACUUM INTO ?", (str(plain),))
                seal.seal_file(plain, tmp, "snapshot", directory.name, seq)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    import hashlib

    digest = hashlib.sha256(tmp.read_bytes()).hexdigest()[:16]
    final = directory / f"snapshot-{seq:06d}-{digest}.db"
    osfiles.fsync_path(tmp)  # opened for writing: Windows flushes no file opened only to read
    osfiles.replace(tmp, final)
    for old in directory.glob("snapshot-*.db"):
        if old != final:
            with contextlib.suppress(OSError):  # one held by another program goes with the next snapshot
                osfiles.unlink(old, missing_ok=True)
    return final


class SnapshotError(ValueError):
    """A snapshot that cannot be used: it is set aside, named with why."""


# The tables a snapshot is read by: each must be a table (a view of that name could recurse for ever).
_READ = ("meta", "entities", "observations", "relations", "reflections", "entity_aliases", "sync_applied",
         "sync_alias", "sync_stamp", "sync_tombstone", "assistant_scopes", "sync_conflicts")
COVERED_SECONDS = 10.0  # reading which sequences a snapshot covers: a few rows
IMPORT_SECONDS = 3600.0  # applying a whole snapshot (100,000 entities took 212 s on a busy machine)


@contextlib.contextmanager
def opened(path: Path, seconds: float, seal: Sealer | None = None, plain_upto: int = 0) -> Iterator[Database]:
    """``open_snapshot`` of a snapshot of the folder: a sealed one opened into a private folder first (removed
    after), one in the clear only where the folder's seal says its device wrote it before the folder was sealed."""
    match = files.SNAPSHOT_RE.match(path.name)
    seq = int(match.group(1)) if match else 0
    with open(path, "rb") as fh:
        sealed = fh.read(len(MAGIC)) == MAGIC
    if sealed and seal is None:
        raise SnapshotError("it is sealed, and this device has no key for this folder")
    if seal is None or (not sealed and seq <= plain_upto):
        snap = open_snapshot(path, seconds)
        try:
            yield snap
        finally:
            snap.close()
        return
    with tempfile.TemporaryDirectory(prefix="limbic-") as private:
        plain = Path(private) / "snapshot.db"
        try:
            seal.open_file(path, plain, "snapshot", path.parent.name, seq)
        except SealError as exc:
            raise SnapshotError(str(exc)) from None
        snap = open_snapshot(plain, seconds)
        try:
            yield snap
        finally:
            snap.close()


def open_snapshot(path: Path, seconds: float) -> Database:
    """A snapshot opened read-only, its schema not trusted, refused when a table it is read by is anything but
    a table, and every statement on it stopped once ``seconds`` have passed (SnapshotError)."""
    try:
        snap = Database(path, readonly=True)
    except Exception as exc:  # noqa: BLE001 - whatever the file is, it is not a graph this can start from
        raise SnapshotError(f"it cannot be opened as a graph ({exc})") from None
    try:
        snap.conn.execute("PRAGMA trusted_schema = OFF")
        odd = [name for name, kind in snap.execute("SELECT name, type FROM sqlite_master WHERE name IN "
                                                    f"({','.join('?' * len(_READ))})", _READ) if kind != "table"]
        if odd:
            raise SnapshotError(f"it holds a {odd[0]} that is not a table")
        deadline = time.monotonic() + seconds
        snap.conn.setprogresshandler(lambda: time.monotonic() > deadline, 10_000)
    except BaseException:
        snap.close()
        raise
    return snap


def covered(path: Path, seal: Sealer | None = None, plain_upto: int = 0) -> dict[str, int]:
    """The sequence of each device a snapshot includes (SnapshotError when it cannot say)."""
    with opened(path, COVERED_SECONDS, seal, plain_upto) as snap:
        try:
            out = state.applied(snap)
        except apsw.InterruptError:
            raise SnapshotError(f"reading it took over {COVERED_SECONDS:g} s") from None
        except (apsw.Error, ValueError, TypeError) as exc:
            raise SnapshotError(f"it cannot be read ({exc})") from None
    if not all(isinstance(d, str) and isinstance(s, int) for d, s in out.items()):
        raise SnapshotError("its record of what it covers is not device sequences")
    return out


BATCH = 2_000  # rows applied at a time: the import's memory stays the same whatever the snapshot's size


def _row_sql(snap: Database, kind: str) -> str:
    """The snapshot's rows of one kind as (global id, JSON with references as global ids), streamed in order.

    References become global ids in SQL, so no map of a table's ids is held in memory; an observation
    comes after the one that superseded it, so every reference is to a row applied already.
    """
    table = SYNCED_TABLES[kind]
    have = {r[1] for r in snap.execute(f"PRAGMA table_info({table})")}
    pairs = []
    for key, column in COLUMNS[kind].items():
        if column not in have:
            continue  # a snapshot of an older schema (valid time came with schema 8)
        ref = REFS[kind].get(key)
        value = f"(SELECT gid FROM {SYNCED_TABLES[ref]} WHERE id = t.{column})" if ref else f"t.{column}"
        pairs.append(f"'{key}', {value}")
    if kind == "entity":
        pairs.append("'updated_at', t.updated_at")  # when it was last updated, as the device that wrote it says
    select = f"SELECT t.gid, json_object({', '.join(pairs)}) FROM {table} t"
    if kind != "observation":
        return select + " ORDER BY t.id"
    return ("WITH RECURSIVE depth(id, n) AS (SELECT id, 0 FROM observations WHERE superseded_by IS NULL "
            "UNION ALL SELECT o.id, depth.n + 1 FROM observations o JOIN depth ON o.superseded_by = depth.id "
            "WHERE depth.n < 10000) "
            f"{select} LEFT JOIN depth d ON d.id = t.id ORDER BY coalesce(d.n, 1 << 30), t.id")


def _batches(cursor, size: int | None = None):
    size = size or BATCH
    batch = []
    for row in cursor:
        batch.append(row)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


# A snapshot's field stamp (under the id the row goes by here), kept where it is later than what is here
# or where the import itself stamped the field with the snapshot's clock (?5, ?6; a row here that one
# of the snapshot's merged with: a row new here is not stamped by the import at all): a value the snapshot
# brought is as old as the snapshot says, not as new as the snapshot, or a change made elsewhere
# before the snapshot but arriving after it would lose on this device alone.
_STAMP_SQL = (
    "INSERT INTO sync_stamp(gid, field, stamp, device) VALUES (coalesce((SELECT b.target FROM sync_alias a "
    "JOIN sync_alias b ON b.gid = a.target WHERE a.gid = ?1), (SELECT target FROM sync_alias WHERE gid = ?1), ?1), "
    "?2, ?3, ?4) ON CONFLICT(gid, field) DO UPDATE SET stamp = excluded.stamp, device = excluded.device "
    f"WHERE substr(sync_stamp.field, 1, 5) != '{WAS}' AND ((excluded.stamp, excluded.device) > "
    "(sync_stamp.stamp, sync_stamp.device) OR (sync_stamp.stamp = ?5 AND sync_stamp.device = ?6))"
)  # a row's own value kept at a merge (rows.WAS, its JSON as the stamp) is no stamp to compare: the first one stays


def _fixed_width(row: tuple) -> tuple:
    """A snapshot's stamp row with its stamps fixed-width (a snapshot of format 1 wrote narrower ones)."""
    gid, field_name, stamp, device, *rest = row
    if field_name.startswith(WAS):
        return row  # a row's own value kept at a merge, not a stamp
    return (gid, state.norm_field(field_name), state.norm(stamp), device, *rest)


def _drop_deleted(graph: Graph, snap: Database, applier: Applier, unseen: int) -> None:
    """What the snapshot's device deleted (its tombstones) and this graph still holds: deleted here too, as the
    segments compaction removed would have done. A graph restored from an older backup, or a device back after
    its folder was removed, kept those rows: a snapshot's rows were only added. An entity changed here and not
    published before this exchange (``unseen``: an edit the deletion never saw) or stamped after the deletion
    stays, with a conflict, as where the segment arrives."""
    db = graph.db
    for kind in ("entity", "observation", "relation", "reflection", "alias"):
        table = SYNCED_TABLES[kind]
        if not snap.has_table(table) or not snap.has_table("sync_tombstone"):
            continue
        gone = [g for (g,) in snap.execute(
            f"SELECT DISTINCT t.gid FROM sync_tombstone t WHERE t.kind = ? AND NOT EXISTS "
            f"(SELECT 1 FROM {table} x WHERE x.gid = t.gid) ORDER BY t.gid", (kind,))]
        for gid in gone:
            found = rows.current(db, kind, gid)
            if found is None or snap.scalar(f"SELECT 1 FROM {table} WHERE gid = ?", (state.resolve_alias(db, gid),)):
                continue  # not here, or here as one with a row the snapshot holds under another id
            row_id, values = found
            entity = rows.entity_of(db, kind, row_id)
            deleted_at = state.norm(snap.scalar("SELECT stamp FROM sync_stamp WHERE gid = ? AND field = ?", (gid, ROW_FIELD)))
            if kind == "entity":
                held = entity is not None and (_changed_here(db, entity, unseen) or _written_after(db, entity, deleted_at))
            else:  # a text, relation, reflection or alias removed on its own: what was written to it decides
                held = _row_written_after(db, gid, deleted_at) or applier._pending_here(kind, row_id, unseen)
            if held:
                applier.conflict(kind, state.resolve_alias(db, gid), ROW_FIELD, "deleted_there", values, None, True)
                continue
            if kind == "entity":
                graph.delete_entity(row_id)
            elif db.scalar(f"SELECT 1 FROM {table} WHERE id = ?", (row_id,)):
                db.execute(f"DELETE FROM {table} WHERE id = ?", (row_id,))
                applier._touch("entity", entity) if entity is not None else None


def _written_after(db: Database, entity: int, stamp: str) -> bool:
    """A write to this entity or one of its rows stamped after ``stamp`` (a deletion): made without seeing it."""
    if not stamp:
        return False
    gids = [g for (g,) in db.execute(
        "SELECT gid FROM entities WHERE id = ?1 UNION ALL SELECT gid FROM observations WHERE entity_id = ?1 "
        "UNION ALL SELECT gid FROM relations WHERE from_entity = ?1 OR to_entity = ?1 "
        "UNION ALL SELECT gid FROM entity_aliases WHERE entity_id = ?1", (entity,)) if g]
    for start in range(0, len(gids), 500):
        chunk = gids[start:start + 500]
        if db.scalar(f"SELECT 1 FROM sync_stamp WHERE gid IN ({','.join('?' * len(chunk))}) AND stamp > ? "
                     f"AND (substr(field, 1, 1) != '_' OR field = ?) LIMIT 1", (*chunk, stamp, ROW_FIELD)):
            return True
    return False


def _seen_by(db: Database, vector: dict[str, int], me: str) -> set[str]:
    """The devices every write of which this graph holds the snapshot covers: what it holds of theirs, the
    snapshot's device had seen when it wrote its rows (its own published segments, for this device)."""
    seen = {device for device, seq in state.applied(db).items() if vector.get(device, 0) >= seq}
    if vector.get(me, 0) >= int(db.get_meta(state.SEQ_KEY) or 0):
        seen.add(me)
    return seen


def _row_written_after(db: Database, gid: str, stamp: str) -> bool:
    """A write to this row stamped after ``stamp`` (its removal): made without seeing it."""
    return bool(stamp) and db.scalar(
        "SELECT 1 FROM sync_stamp WHERE gid = ? AND stamp > ? AND substr(field, 1, 1) != '_' LIMIT 1",
        (state.resolve_alias(db, gid), stamp)) is not None


def _changed_here(db: Database, entity: int, upto: int) -> bool:
    """A write to this entity or its rows made here and not published yet."""
    return db.scalar(
        "SELECT 1 FROM change_item ci JOIN change_log cl ON cl.id = ci.change_id WHERE ci.entity_id = ? "
        "AND ci.change_id > ? AND cl.origin NOT LIKE 'sync:%' LIMIT 1", (entity, upto)) is not None


def import_into(graph: Graph, path: Path, me: str, my_name: str, source: str, source_name: str,
                unseen: int | None = None, seal: Sealer | None = None, plain_upto: int = 0) -> dict[str, int]:
    """Apply a snapshot's rows here (in one transaction, under the device that wrote it); what it covered.

    The rows are read and applied a batch at a time, so memory does not grow with the graph; the one
    transaction keeps the import whole or absent. Vectors are not computed here: the graph is
    searchable by text when this returns, and its entities wait to be embedded like any others.
    """
    with opened(path, IMPORT_SECONDS, seal, plain_upto) as snap:
        return _import(graph, snap, me, my_name, source, source_name, unseen)


def _import(graph: Graph, snap: Database, me: str, my_name: str, source: str, source_name: str,
            unseen: int | None) -> dict[str, int]:
    db = graph.db
    vector = state.applied(snap)
    stamp = state.clock(snap).text()
    with db.activity.session_as(f"{state.SYNC_ORIGIN}{source_name}"), db.activity.using("sync snapshot"), \
            graph.write(embed=False):
        db.conn.executemany("INSERT OR IGNORE INTO sync_alias(gid, target) VALUES (?, ?)",
                            snap.execute("SELECT gid, target FROM sync_alias"))
        applier = Applier(graph, me, my_name, source, source_name)
        applier.stamp_added = False  # a row new here takes its stamps from the snapshot, below, once
        applier.seen = _seen_by(db, vector, me)
        for kind, table in SYNCED_TABLES.items():
            if not snap.has_table(table):
                continue  # a snapshot written before schema 9 holds no aliases
            for batch in _batches(snap.execute(_row_sql(snap, kind))):
                items = [{"k": kind, "op": "add", "gid": gid, "b": None, "a": json.loads(text)}
                         for gid, text in batch]
                applier.apply_change({"stamp": stamp, "items": items})
        for batch in _batches(snap.execute("SELECT gid, field, stamp, device, ?, ? FROM sync_stamp",
                                           (stamp, source)), 10 * BATCH):
            db.conn.executemany(_STAMP_SQL, [_fixed_width(row) for row in batch])
        _drop_deleted(graph, snap, applier, applier.upto if unseen is None else min(unseen, applier.upto))
        scope_travel.from_snapshot(db, snap)
        _carry_conflicts(db, snap)
        for device, seq in vector.items():
            if device != me:
                db.execute("INSERT INTO sync_applied(device, seq) VALUES (?, ?) ON CONFLICT(device) DO UPDATE "
                           "SET seq = max(seq, excluded.seq)", (device, seq))
    return vector


_CONFLICT_COLS = ("kind", "gid", "entity_gid", "field", "rule", "kept", "lost", "kept_device", "lost_device",
                  "kept_stamp", "lost_stamp", "mine_kept", "at", "resolved_at", "resolution", "key")


def _carry_conflicts(db: Database, snap: Database) -> None:
    """The conflicts the snapshot's device listed: met by the changes the snapshot covers, which this device will
    never apply one by one, so it lists them as every device that applied those changes does (open, or settled
    as the snapshot's device settled them: a choice the snapshot covers does not arrive again)."""
    if not snap.has_table("sync_conflicts"):
        return
    have = {r[1] for r in snap.execute("PRAGMA table_info(sync_conflicts)")}
    if not set(_CONFLICT_COLS) <= have:
        return  # a snapshot written before conflicts had keys: nothing names them alike
    for row in snap.execute(f"SELECT {', '.join(_CONFLICT_COLS)} FROM sync_conflicts ORDER BY id LIMIT 100000"):
        values = dict(zip(_CONFLICT_COLS, row))
        if not _conflict_row_ok(values):
            continue  # not a conflict this Limbic wrote: passed over, as the listing could not read it
        values["gid"] = state.resolve_alias(db, values["gid"]) or values["gid"]
        here = db.one("SELECT id, resolved_at FROM sync_conflicts WHERE key = ? ORDER BY resolved_at IS NULL LIMIT 1",
                      (values["key"],))
        if here is None:
            db.execute(f"INSERT INTO sync_conflicts({', '.join(_CONFLICT_COLS)}) VALUES "
                       f"({', '.join('?' * len(_CONFLICT_COLS))})", tuple(values[k] for k in _CONFLICT_COLS))
        elif here[1] is None and values["resolved_at"] is not None:
            db.execute("UPDATE sync_conflicts SET resolved_at = ?, resolution = ? WHERE id = ?",
                       (values["resolved_at"], values["resolution"], here[0]))


def _conflict_row_ok(values: dict) -> bool:
    """A snapshot's conflict row of the shape this Limbic writes: a synced kind, names, devices, stamps and time as
    text, each value as JSON text (or none; an alias's entity a global id), which side was kept as 0 or 1."""
    if values["kind"] not in SYNCED_TABLES or not all(isinstance(values[k], str) for k in (
            "key", "gid", "field", "rule", "kept_device", "lost_device", "kept_stamp", "lost_stamp", "at")):
        return False
    if not all(values[k] is None or isinstance(values[k], str) for k in ("entity_gid", "resolved_at", "resolution")):
        return False
    if values["mine_kept"] not in (0, 1) or isinstance(values["mine_kept"], float):
        return False
    for side in ("kept", "lost"):
        if values[side] is None:
            continue
        if not isinstance(values[side], str):
            return False
        try:
            value = json.loads(values[side])
        except (ValueError, RecursionError):
            return False
        if values["kind"] == "alias" and values["field"] == "entity" and not isinstance(value, (str, type(None))):
            return False
    return True


def compact(folder: Path, graph_id: str, device: str, known: int = 0, seal: Sealer | None = None) -> int:
    """Delete this device's segments every other device has applied and its newest snapshot covers.

    ``known``: the sequence this device has published, up to which its own files are listed by name, unread;
    the other devices' folders are not looked into, only their ``device.json``."""
    mine = files.scan_device(files.device_dir(folder, graph_id, device), known, seal)
    if not mine.snapshots:
        return 0
    upto = max(mine.snapshots)
    others = [d for d in files.devices(folder, graph_id) if d != device]
    for other in others:
        info = files.read_device_info(files.device_dir(folder, graph_id, other) / files.DEVICE_FILE, other, seal)
        try:
            seen = int((info.get("applied") or {}).get(device, 0))
        except (ValueError, AttributeError, TypeError):
            seen = 0
        upto = min(upto, seen)
    removed = 0
    for seq, path in mine.segments.items():
        if seq <= upto:
            with contextlib.suppress(OSError):
                path.unlink()
                removed += 1
    return removed
