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
import os
from pathlib import Path
from typing import TYPE_CHECKING

from limbic.engine.store.db import Database
from limbic.engine.store.schema import SYNCED_TABLES
from limbic.engine.sync import folder as files, state
from limbic.engine.sync.capture import REFS, _ROWS
from limbic.engine.sync.apply import Applier

if TYPE_CHECKING:
    from limbic.engine.graph.graph import Graph

SNAPSHOT_EVERY = 100  # a device writes a snapshot after this many segments of its own since the last


def take(graph: Graph, directory: Path, seq: int) -> Path:
    """A snapshot of this graph now, in this device's folder, as of its own sequence ``seq``."""
    db = graph.db
    directory.mkdir(parents=True, exist_ok=True)
    tmp = directory / f"{files.TEMP_PREFIX}{os.getpid()}-snapshot.db"
    tmp.unlink(missing_ok=True)
    db.execute("VACUUM INTO ?", (str(tmp),))
    import hashlib

    digest = hashlib.sha256(tmp.read_bytes()).hexdigest()[:16]
    final = directory / f"snapshot-{seq:06d}-{digest}.db"
    with open(tmp, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, final)
    for old in directory.glob("snapshot-*.db"):
        if old != final:
            old.unlink(missing_ok=True)
    return final


def covered(path: Path) -> dict[str, int]:
    """The sequence of each device a snapshot includes."""
    snap = Database(path, readonly=True)
    try:
        out = state.applied(snap)
    finally:
        snap.close()
    return out


def import_into(graph: Graph, path: Path, me: str, my_name: str, source: str, source_name: str) -> dict[str, int]:
    """Apply a snapshot's rows here (in one transaction, under the device that wrote it); what it covered."""
    snap = Database(path, readonly=True)
    try:
        vector = state.applied(snap)
        stamp = state.clock(snap).text()
        items = []
        for kind, table in SYNCED_TABLES.items():
            if not snap.has_table(table):
                continue  # a snapshot written before schema 9 holds no aliases
            gids = {r[0]: r[1] for r in snap.execute(f"SELECT id, gid FROM {table}")}
            ref_gids = {k: {r[0]: r[1] for r in snap.execute(f"SELECT id, gid FROM {SYNCED_TABLES[k]}")}
                        for k in set(REFS[kind].values())}
            for row_id, text in snap.execute(_ROWS[kind]):
                values = json.loads(text)
                for key, ref_kind in REFS[kind].items():
                    if values.get(key) is not None:
                        values[key] = ref_gids[ref_kind].get(values[key])
                items.append({"k": kind, "op": "add", "gid": gids[row_id], "b": None, "a": values})
        stamps = snap.execute("SELECT gid, field, stamp, device FROM sync_stamp").fetchall()
        aliases = snap.execute("SELECT gid, target FROM sync_alias").fetchall()
    finally:
        snap.close()
    db = graph.db
    with db.activity.session_as(f"{state.SYNC_ORIGIN}{source_name}"), db.activity.using("sync snapshot"), graph.write():
        for gid, target in aliases:
            db.execute("INSERT OR IGNORE INTO sync_alias(gid, target) VALUES (?, ?)", (gid, target))
        applier = Applier(graph, me, my_name, source, source_name)
        applier.apply_change({"stamp": stamp, "items": items})
        for gid, field_name, stamp_text, device in stamps:
            gid = state.resolve_alias(db, gid)
            if (stamp_text, device) > state.get_stamp(db, gid, field_name):
                state.set_stamp(db, gid, field_name, stamp_text, device)
        for device, seq in vector.items():
            if device != me:
                db.execute("INSERT INTO sync_applied(device, seq) VALUES (?, ?) ON CONFLICT(device) DO UPDATE "
                           "SET seq = max(seq, excluded.seq)", (device, seq))
    return vector


def compact(folder: Path, graph_id: str, device: str) -> int:
    """Delete this device's segments every other device has applied and its newest snapshot covers."""
    mine = files.scan_device(files.device_dir(folder, graph_id, device))
    if not mine.snapshots:
        return 0
    upto = max(mine.snapshots)
    others = [d for d in files.scan(folder, graph_id) if d != device]
    for other in others:
        info = files.device_dir(folder, graph_id, other) / files.DEVICE_FILE
        try:
            seen = int((json.loads(info.read_text("utf-8")).get("applied") or {}).get(device, 0))
        except (OSError, ValueError, AttributeError, TypeError):
            seen = 0
        upto = min(upto, seen)
    removed = 0
    for seq, path in mine.segments.items():
        if seq <= upto:
            with contextlib.suppress(OSError):
                path.unlink()
                removed += 1
    return removed
