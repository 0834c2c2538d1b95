"""One exchange with the sync folder: publish this device's new changes, apply the other devices'.

Segments of a device apply in sequence order, each wholly or not at all, together with the record of
its sequence (``sync_applied``), and once; the changes of the segments met in one exchange apply in
clock order (``pulling``). A segment names what its device had applied when it was written; it waits
until those are applied here, so a change never arrives before the one it builds on. A segment of a
newer schema stops the exchange before anything is applied; one deleting a large share of the graph
waits for confirmation.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from limbic.engine.errors import Cancelled, DatabaseError, LimbicError, ValidationError
from limbic.engine.store.db import SCHEMA_VERSION
from limbic.engine.store.graph_identity import GRAPH_ID_KEY, ensure_graph_id
from limbic.engine.store.values import now_utc
from limbic.engine.sync import (capture, folder as files, own, pulling, reading, rebase, rekey, scope_travel, snapshot,
                                state)
from limbic.engine.sync.pairing import Pairing, pair
from limbic.engine.sync.seal import Sealer

if TYPE_CHECKING:
    from limbic.engine.graph.graph import Graph
    from limbic.engine.store.db import Database

logger = logging.getLogger(__name__)

MAX_CHANGES_PER_SEGMENT = 2_000
CHOICES = "resolve"  # the origin of a published change that carries the person's choices of conflicts, no rows


class SyncError(LimbicError):
    """The exchange cannot go on (a newer Limbic wrote a segment, the folder holds several graphs)."""


@dataclass
class Device:
    """This device as sync knows it: an id (in the user's settings, never in the graph file) and a name."""

    id: str
    name: str


@dataclass
class Exchange:
    """What one exchange did and what it left waiting."""

    device: Device
    sent: int = 0  # changes published
    sent_segments: int = 0
    received: int = 0  # changes applied from other devices
    received_segments: int = 0
    conflicts: int = 0
    entities: set[int] = field(default_factory=set)  # entities changed here by the apply
    waiting: list[str] = field(default_factory=list)  # sentences: a missing segment, a confirmation asked
    confirm_needed: list[str] = field(default_factory=list)
    skipped: list[files.Skipped] = field(default_factory=list)
    device_note: str | None = None  # this device got a new id (a copied or restored file), said once
    pairing: Pairing | None = None  # the folder's seal (None: this exchange wrote and read in the clear)
    new_code: str | None = None  # this exchange sealed the folder: the recovery code, shown once


def new_device_id() -> str:
    return secrets.token_hex(8)


def choose_graph_id(graph: Graph, folder: Path) -> str:
    """The graph's id in the folder: its own; on joining, the one graph the folder holds already (merged into)."""
    db = graph.db
    mine = ensure_graph_id(db) or ""
    root = Path(folder) / "Limbic"
    if state.joined(db):
        return mine
    try:
        there = sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError:
        there = []
    if not there or mine in there:
        return mine
    if len(there) > 1:
        raise SyncError(f"{root} holds {len(there)} graphs; choose a folder that holds this graph or none.")
    with db.transaction():
        db.set_meta(GRAPH_ID_KEY, there[0])  # this graph joins the folder's: the two become one
    return there[0]


def identify(graph: Graph, folder: Path, graph_id: str, device: Device,
             own: files.DeviceFiles | None = None, pairing: Pairing | None = None) -> tuple[Device, str | None]:
    """The device this file publishes as: ``device``, or a new id when the file is a copy or a restore
    (``own``: its folder, scanned)."""
    db = graph.db
    file_device = db.get_meta(state.DEVICE_KEY)
    file_seq = int(db.get_meta(state.SEQ_KEY) or 0)
    if own is None:
        known = file_seq if file_device == device.id else 0
        own = files.scan_device(files.device_dir(folder, graph_id, device.id), known, reading.seal_of(pairing))
    seg_max = max((s for s in own.segments if s <= file_seq or reading.genuine(own, device.id, s, pairing)), default=0)
    # Its segments compacted away, the folder says what it published by its snapshot (one that opens, as its own).
    own_max = max([seg_max, *(s for s in own.snapshots if s > max(seg_max, file_seq) and _own_snapshot(
        own.snapshots[s], device.id, s, pairing))])
    note = None
    if file_device == device.id and own_max <= file_seq:
        return device, None  # the file and the folder agree: nothing to write (a commit costs a flush to disk)
    with db.transaction():
        if file_device and file_device != device.id:
            # Another device published from this file: it was copied here. Its segments are that device's.
            db.execute("INSERT INTO sync_applied(device, seq) VALUES (?, ?) ON CONFLICT(device) DO UPDATE "
                       "SET seq = max(seq, excluded.seq)", (file_device, file_seq))
            db.set_meta(state.SEQ_KEY, "0")
            file_seq = 0
        elif file_device == device.id and seg_max > file_seq and _adopt(graph, device, own, file_seq, pairing):
            file_seq = int(db.get_meta(state.SEQ_KEY) or 0)
        if own_max > file_seq:
            # The folder holds this device's segments the file never published: this file is a copy
            # (or a backup restored). It goes on as a new device; the old id's segments apply to it.
            old = device
            device = Device(new_device_id(), device.name)
            db.execute("INSERT INTO sync_applied(device, seq, name) VALUES (?, ?, ?) ON CONFLICT(device) DO UPDATE "
                       "SET seq = max(seq, excluded.seq)", (old.id, file_seq, old.name))
            db.set_meta(state.SEQ_KEY, "0")
            note = (f"This graph file is a copy or a restored backup of one that synced as device {old.id}; "
                    f"it now syncs as a new device {device.id}.")
        db.set_meta(state.DEVICE_KEY, device.id)
    return device, note


def _own_snapshot(path: Path, device: str, seq: int, pairing: Pairing | None) -> bool:
    """A snapshot in this device's folder that opens and says this device had published up to ``seq``."""
    try:
        return snapshot.covered(path, reading.seal_of(pairing), reading.plain_upto(pairing, device)).get(device, 0) >= seq
    except snapshot.SnapshotError:
        return False


def _adopt(graph: Graph, device: Device, own: files.DeviceFiles, file_seq: int, pairing: Pairing | None) -> bool:
    """Segments written just before a stop, their commits lost: taken as published when they are this file's changes.

    A publish's commit is not flushed to disk at once (``publish``): after a power cut the folder can
    hold the last segments the file does not know it wrote. Each must be this file's own changes, the
    same rows under the same global ids; a restored backup's later changes are not.
    """
    db = graph.db
    chain = range(file_seq + 1, max(own.segments) + 1)
    segments = []
    for seq in chain:
        if seq not in own.segments:
            return False
        try:
            seg = files.read_segment(device.id, seq, own.segments[seq], reading.seal_of(pairing),
                                     reading.plain_upto(pairing, device.id))
        except (OSError, ValueError):
            return False
        for change in seg.changes:
            if change.get("origin") in ("join", CHOICES, scope_travel.ORIGIN):
                continue
            row = db.one("SELECT at, origin FROM change_log WHERE id = ?", (change.get("cid"),))
            if row is None or (row[0], row[1]) != (change.get("at"), change.get("origin")):
                return False
            if capture.change_gids(db, int(change["cid"])) != [i.get("gid") for i in change.get("items", [])]:
                return False
        segments.append(seg)
    for seg in segments:  # what the lost commit recorded, as ``publish`` recorded it
        for change in seg.changes:
            capture.stamp_items(db, change.get("items", []), change.get("stamp", ""), device.id)
            state.observe(db, state.Stamp.parse(change.get("stamp", "")))
            for item in change.get("items", []):
                if item.get("took"):
                    state.note_taken(db, item["took"], item["gid"], change.get("stamp", ""), device.id)
        db.set_meta(state.SEQ_KEY, str(seg.seq))
        db.set_meta(state.UPTO_KEY, str(max(state.published_upto(db), int(seg.header.get("upto") or 0))))
        if seg.header.get("joined"):
            db.set_meta(state.JOINED_KEY, str(int(seg.header.get("upto") or 0)))
    return bool(segments)


def publish(graph: Graph, folder: Path, graph_id: str, device: Device, result: Exchange) -> None:
    """Write this device's unpublished changes as segments in its own folder.

    Whatever a publish records in the graph file must be recoverable from its segment: its commit is
    not flushed at once, and ``_adopt`` records it again from the segment when a power cut lost it.
    """
    db = graph.db
    directory = files.device_dir(folder, graph_id, device.id)
    files.remove_leftovers(directory)  # a write that stopped (a disk full, a kill) left its temporary file
    seal = reading.seal_of(result.pairing)
    files.write_device_file(directory, _device_info(graph, device), seal)
    while True:
        if _nothing_to_publish(db, device):
            break  # no write transaction (and no flush to disk) for an exchange that only receives
        with _commit_unflushed(db), db.transaction():
            rebase.ensure(db)  # from the first publish on, this device's own writes are recorded (own.py)
            first = not state.joined(db)
            if first:
                changes = capture.whole_graph(db, device.id)
                upto = int(db.scalar("SELECT coalesce(max(id), 0) FROM change_log"))
                db.set_meta(state.JOINED_KEY, str(upto))  # what came before travels as the graph, not as changes
            else:
                changes, upto = capture.unpublished(db, device.id, MAX_CHANGES_PER_SEGMENT)
            _note_deletions_seen(db, changes, device.id)
            changes.extend(_choices(db, upto))
            changes.extend(scope_travel.outgoing(db, device.id, upto))
            if changes:
                seq = int(db.get_meta(state.SEQ_KEY) or 0) + 1
                deps = {d: s for d, s in state.applied(db).items() if d != device.id}
                header = {"format": state.FORMAT, "schema": SCHEMA_VERSION, "device": device.id, "name": device.name,
                          "graph": graph_id, "seq": seq, "upto": upto, "deps": deps, "at": now_utc(),
                          "joined": first}
                files.write_segment(directory, seq, header, changes, seal)  # on disk before the commit says so
                db.set_meta(state.SEQ_KEY, str(seq))
                # This device's own changes take their place in the order: kept to be taken back like any other's
                # where their writes were recorded (own.py), below the floor where they were not.
                own.published(db, changes, device.id, seq, device.name, header["at"])
                result.sent += len(changes)
                result.sent_segments += 1
            if upto > state.published_upto(db):
                db.set_meta(state.UPTO_KEY, str(upto))
            for key, value in ((state.DEVICE_KEY, device.id), (state.DEVICE_NAME_KEY, device.name)):
                if db.get_meta(key) != value:
                    db.set_meta(key, value)
        if not changes or first:
            break


@contextlib.contextmanager
def _commit_unflushed(db: Database) -> Iterator[None]:
    """A publish's commit left to the system to write out: the segment, flushed to disk before it, is the record.

    The commit records what was published (the sequence, the clock, the fields' stamps); a power cut
    that loses it leaves the segments in the folder, and the next exchange takes them back (``_adopt``).
    This saves a flush to disk on every publish (as much as the rest of a short one costs).
    """
    if db.conn.in_transaction:
        yield  # inside another transaction, whose commit decides
        return
    level = db.conn.execute("PRAGMA synchronous").fetchall()[0][0]
    db.conn.execute("PRAGMA synchronous = NORMAL")
    try:
        yield
    finally:
        db.conn.execute(f"PRAGMA synchronous = {int(level)}")


def _nothing_to_publish(db: Database, device: Device) -> bool:
    """Joined, every change of the log passed over, no choice of the person waiting, this device's id and name recorded."""
    return (state.joined(db) and int(db.scalar("SELECT coalesce(max(id), 0) FROM change_log")) <= state.published_upto(db)
            and not db.scalar("SELECT 1 FROM sync_outbox LIMIT 1") and not scope_travel.waiting(db)
            and db.get_meta(state.DEVICE_KEY) == device.id and db.get_meta(state.DEVICE_NAME_KEY) == device.name)


def _choices(db: Database, upto: int) -> list[dict]:
    """The person's choices of conflicts made here since the last publish, as one change after the writes they made
    (its own stamp; no rows): the other devices close the same conflicts with them (conflicts.receive)."""
    choices = db.execute("SELECT id, key, side FROM sync_outbox ORDER BY id").fetchall()
    if not choices:
        return []
    db.execute("DELETE FROM sync_outbox WHERE id <= ?", (choices[-1][0],))
    return [{"cid": upto, "at": now_utc(), "origin": CHOICES, "stamp": state.tick(db).text(), "items": [],
             "resolves": [{"key": key, "side": side} for _, key, side in choices]}]


def _note_deletions_seen(db: Database, changes: list[dict], device: str) -> None:
    """A creation names the stamp of each deletion of its name it had seen: a later deletion of that entity
    (after it came back) is one it had not seen (apply.py). It names too the deleted entities whose name it
    took (``took``): where one of them comes back, it is the entity under that name, and the two are one."""
    for change in changes:
        for item in change.get("items", []):
            if item.get("gone"):
                item["gone_at"] = {g: list(state.get_stamp(db, state.resolve_alias(db, g), capture.ROW_FIELD))
                                   for g in item["gone"]}
                took = [g for g in item["gone"] if state.local_id(db, "entity", g) is None]
                if took:
                    item["took"] = took
                    state.note_taken(db, took, item["gid"], change.get("stamp", ""), device)


def pull(graph: Graph, folder: Path, graph_id: str, device: Device, result: Exchange, confirm: bool = False,
         progress: Callable[[int, int], None] | None = None, cancelled: Callable[[], bool] | None = None,
         found: dict[str, files.DeviceFiles] | None = None) -> None:
    """Apply every complete segment of the other devices that can apply now (``found``: the folder, scanned),
    their changes in clock order (``pulling``)."""
    db = graph.db
    done = state.applied(db)
    found = files.scan(folder, graph_id, done, reading.seal_of(result.pairing)) if found is None else found
    queues: dict[str, list[files.Segment]] = {}
    for dev, listing in sorted(found.items()):
        result.skipped.extend(listing.skipped)
        if dev == device.id:
            continue
        have = done.get(dev, 0)
        queue = []
        for seq in sorted(s for s in listing.segments if s > have):
            if seq != have + len(queue) + 1:
                result.waiting.append(f"{reading.label(listing, dev)}: waiting for segment {have + len(queue) + 1}.")
                break
            seg = reading.read_one(result, listing, dev, seq)
            if seg is None:
                break
            queue.append(seg)
        if queue:
            queues[dev] = queue
    newer = [s for q in queues.values() for s in q if int(s.header.get("schema") or 0) > SCHEMA_VERSION
             or int(s.header.get("format") or 0) > state.FORMAT]
    if newer:
        raise SyncError(f"The device “{newer[0].header.get('name') or newer[0].device}” syncs with a newer version "
                        "of Limbic; update Limbic on this device to sync. Nothing was applied.")
    pulling.apply_queues(graph, device.id, device.name, queues, found, result, confirm=confirm, progress=progress,
                         cancelled=cancelled)


def exchange(graph: Graph, folder: Path, device: Device, confirm: bool = False,
             progress: Callable[[int, int], None] | None = None,
             cancelled: Callable[[], bool] | None = None, create: bool = True, code: str | None = None,
             keys: Callable[[str], tuple[str | None, bytes | None]] | None = None, sealed: bool = True,
             pending: Callable[[str], tuple[str | None, bytes] | None] | None = None) -> Exchange:
    """Publish, then apply; the result says what went each way and what waits.

    ``create=False``: the graph's folder in the sync folder must be there already (a graph that synced with
    this folder before); one that is gone (a share unmounted, its mount point left empty) is never made again,
    since what would be written there no other device would see. ``code``: the folder's recovery code, typed;
    ``keys``: the code and key this machine keeps for a graph id (pairing.py); ``sealed=False``: in the clear."""
    folder = Path(folder)
    if graph.db.readonly:
        raise SyncError(f"{graph.db.path} is open read-only; it cannot sync.")
    graph_id = choose_graph_id(graph, folder)
    home = files.graph_dir(folder, graph_id)
    if not create and state.joined(graph.db) and not home.is_dir():
        raise SyncError(f"The sync folder {folder} holds nothing of this graph: is it unmounted, or not synced to this "
                        "device yet? Nothing was written; sync goes on when it is back. If it was emptied on purpose, "
                        "choose it again (File → Sync…, or limbic sync --folder) to start it anew from this device.")
    home.mkdir(parents=True, exist_ok=True)  # only here: every later write makes its own folder, never a parent
    kept_code, kept_key = keys(graph_id) if keys is not None else (None, None)
    pairing = pair(home, graph_id, code or kept_code, None if code else kept_key, make=create or kept_key is None,
                   pending=pending(graph_id) if pending is not None else None) if sealed else None
    if pairing is not None and pairing.typed and kept_key is not None and kept_key != pairing.key:
        # Paired anew (the folder was sealed under a new code): what this device wrote under its old key since
        # is sealed again, so the others can read it.
        rekey.reseal_own(files.device_dir(folder, graph_id, device.id), device.id, Sealer(kept_key, graph_id),
                         pairing.sealer)
    # The folder is looked at once, and only what is new is opened: a segment this file already applied
    # (or published) is listed by name. What this exchange publishes is added to this device's own
    # folder only, which the snapshot check and the apply pass over.
    found = files.scan(folder, graph_id, state.applied(graph.db), reading.seal_of(pairing))
    device, note = identify(graph, folder, graph_id, device, found.get(device.id) or files.DeviceFiles(device.id), pairing)
    result = Exchange(device, device_note=note, pairing=pairing,
                      new_code=pairing.code if pairing is not None and pairing.made else None)
    unseen = state.published_upto(graph.db)  # what is written here after this, no other device had seen
    publish(graph, folder, graph_id, device, result)
    _start_from_snapshot(graph, folder, graph_id, device, found, unseen, result)
    pull(graph, folder, graph_id, device, result, confirm=confirm, progress=progress, cancelled=cancelled, found=found)
    directory = files.device_dir(folder, graph_id, device.id)
    own = found.get(device.id) or files.DeviceFiles(device.id)  # its snapshots: publishing writes none
    seq = int(graph.db.get_meta(state.SEQ_KEY) or 0)
    taken = bool(seq and seq - max(own.snapshots, default=0) >= snapshot.SNAPSHOT_EVERY)
    if taken:
        snapshot.take(graph, directory, seq, reading.seal_of(pairing))
    files.write_device_file(directory, _device_info(graph, device), reading.seal_of(pairing))
    if taken or own.snapshots:  # compaction removes only what a snapshot of this device covers
        snapshot.compact(folder, graph_id, device.id, seq, reading.seal_of(pairing))
    return result


def _device_info(graph: Graph, device: Device) -> dict:
    """device.json: the name, the schema, and what this device has applied (compaction reads it)."""
    applied = {d: s for d, s in state.applied(graph.db).items() if d != device.id}
    return {"id": device.id, "name": device.name, "schema": SCHEMA_VERSION, "applied": applied}


def _start_from_snapshot(graph: Graph, folder: Path, graph_id: str, device: Device,
                         found: dict[str, files.DeviceFiles] | None = None, unseen: int | None = None,
                         result: Exchange | None = None) -> bool:
    """Where another device's first segments were compacted away, start from the newest snapshot covering them."""
    done = state.applied(graph.db)
    pairing = result.pairing if result is not None else None
    found = files.scan(folder, graph_id, done, reading.seal_of(pairing)) if found is None else found
    gaps = {}  # per device, the sequence a snapshot must reach: its first segments are gone (or all of them)
    for dev, listing in found.items():
        have = done.get(dev, 0)
        if dev == device.id:
            continue
        if listing.segments and min(listing.segments) > have + 1:
            gaps[dev] = min(listing.segments) - 1
        elif not listing.segments and listing.snapshots and max(listing.snapshots) > have:
            gaps[dev] = max(listing.snapshots)  # a folder holding only a snapshot
    if not gaps:
        return False
    best = None
    for dev, listing in found.items():
        if dev == device.id or not listing.snapshots:
            continue
        path = listing.snapshots[max(listing.snapshots)]
        if path.name in listing.unchecked and not files.checksum_ok(path):
            continue  # listed by name only (its sequence was applied already) and not whole: never used
        try:
            vector = snapshot.covered(path, reading.seal_of(pairing), reading.plain_upto(pairing, dev))
        except snapshot.SnapshotError as exc:
            if result is not None:
                reading.set_aside(result, listing, dev, path, str(exc))
            continue
        if all(vector.get(d, 0) >= need for d, need in gaps.items()):
            if best is None or sum(vector.values()) > best[0]:
                best = (sum(vector.values()), dev, path, listing.name)
    if best is None:
        return False
    _, dev, path, name = best
    try:
        snapshot.import_into(graph, path, device.id, device.name, dev, name or dev[:8], unseen, reading.seal_of(pairing),
                             reading.plain_upto(pairing, dev))
    except (Cancelled, SyncError, DatabaseError):
        raise
    except Exception as exc:  # noqa: BLE001 - a snapshot that cannot be used is set aside like a segment
        logger.warning("snapshot %s set aside: %r", path, exc)
        if result is not None:
            why = str(exc) if isinstance(exc, (ValidationError, snapshot.SnapshotError)) else "it cannot be read as a graph"
            reading.set_aside(result, found[dev], dev, path, why)
        return False
    with graph.db.transaction():  # what the snapshot brought is never taken back
        rebase.forget(graph.db)
        rebase.floor(graph.db, graph.db.scalar("SELECT max(stamp) FROM sync_stamp"))
        rebase.floor(graph.db)
    return True
