"""Sync for the front ends: one exchange with the folder, its status, the conflicts and their resolution.

Plain functions a Qt worker can call from its thread: ``exchange`` takes a ``SyncJob`` to report
progress and to be stopped. This device's id and name and the folder of each graph file live in
the user's settings (``config.py``), never in the graph file.
"""

from __future__ import annotations

import hashlib
import os
import platform
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

try:  # the sync lock: flock where there is one, a byte-range lock on Windows
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt

from limbic import config, file_keys
from limbic.engine.errors import LimbicError
from limbic.engine.graph.graph import Graph
from limbic.engine.session import OpenGraph, open_graph
from limbic.engine.store.graph_identity import graph_id as _graph_id
from limbic.engine.store.values import now_utc
from limbic.engine.sync import conflicts as _conflicts, folder as _files, pairing as _pairing, rekey as _rekey, state as _state
from limbic.engine.sync.exchange import Device, Exchange, SyncError, exchange as _exchange, new_device_id
from limbic.engine.sync.seal import SealError
from limbic.service import sync_keys as _keys

__all__ = ["Device", "Exchange", "SealError", "SyncError", "SyncJob", "SyncStatus", "exchange", "exchange_if_free", "list_conflicts",
           "resolve_conflict", "status", "sync_lock", "this_device"]

KEEPS = _conflicts.KEEPS


class SyncJob:
    """A handle for one exchange run on a worker thread: progress reported to it, stopped through it."""

    def __init__(self, progress: Callable[[int, int], None] | None = None) -> None:
        self.progress = progress
        self._stop = threading.Event()

    def cancel(self) -> None:
        self._stop.set()

    def cancelled(self) -> bool:
        return self._stop.is_set()

    def report(self, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress(done, total)


def _key(db_path: Path | str) -> str:
    """The graph file's one name (file_keys.py): ``--db`` spelt with other capitals on a disk that ignores case is
    the same device."""
    return file_keys.key(db_path)


def device_name() -> str:
    """This machine's name as other devices see it (the settings' choice, else the host's name)."""
    return config.load_settings().sync_device_name or platform.node() or "this device"


def this_device(db_path: Path | str, settings: config.Settings | None = None) -> Device:
    """The device a graph file syncs as from this machine (an id is made and kept the first time)."""
    settings = settings or config.load_settings()
    key = _key(db_path)
    device_id = file_keys.find(settings.sync_devices, key)
    if settings.sync_devices.get(key) != device_id or not device_id:
        device_id = device_id or new_device_id()
        settings.sync_devices[key] = device_id
        config.save_settings(settings)
    return Device(device_id, settings.sync_device_name or platform.node() or "this device")


def set_device_name(name: str) -> None:
    """Name this machine for the other devices (shown in their activity and conflicts)."""
    settings = config.load_settings()
    settings.sync_device_name = name.strip() or None
    config.save_settings(settings)


def remembered_folder(db_path: Path | str, settings: config.Settings | None = None) -> Path | None:
    folder = file_keys.find((settings or config.load_settings()).sync_folders, _key(db_path))
    return Path(folder) if folder else None


def forget_folder(db_path: Path | str) -> None:
    """Stop syncing this graph file from this machine (the folder and the other devices keep what they have)."""
    settings = config.load_settings()
    key = _key(db_path)
    spellings = [k for k in settings.sync_folders if k == key or file_keys.find({k: k}, key)]  # older ones too
    for k in spellings:
        del settings.sync_folders[k]
    if spellings:
        config.save_settings(settings)


def _remember(db_path: Path | str, folder: Path | None = None, device: Device | None = None,
              known_settings: config.Settings | None = None) -> None:
    key = _key(db_path)
    if known_settings is not None and (folder is None or known_settings.sync_folders.get(key) == file_keys.key(folder)) \
            and (device is None or known_settings.sync_devices.get(key) == device.id):
        return  # as remembered when the exchange began: the settings file is not read again
    settings = config.load_settings()
    known = (settings.sync_folders.get(key), settings.sync_devices.get(key))
    if folder is not None:
        settings.sync_folders[key] = file_keys.key(folder)
    if device is not None:
        settings.sync_devices[key] = device.id
    if (settings.sync_folders.get(key), settings.sync_devices.get(key)) != known:
        config.save_settings(settings)  # not rewritten (and flushed to disk) on every exchange


def _folder_for(db_path: Path, folder: Path | str | None, settings: config.Settings | None = None) -> Path:
    chosen = Path(folder).expanduser() if folder else remembered_folder(db_path, settings)
    if chosen is None:
        raise LimbicError("This graph has no sync folder yet; give one with `limbic sync --folder DIR`.")
    if not chosen.is_dir():
        raise LimbicError(f"The sync folder {chosen} cannot be reached (it does not exist or is not a folder).")
    return chosen


def _with_graph(target, fn):
    if isinstance(target, OpenGraph):
        target = target.graph
    if isinstance(target, Graph):
        return fn(target)
    opened = open_graph(Path(target), load_model=False, origin="cli")
    try:
        return fn(opened.graph)
    finally:
        opened.close()


def exchange(target: Graph | OpenGraph | Path | str, folder: Path | str | None = None, device: Device | None = None,
             *, confirm: bool = False, job: SyncJob | None = None, remember: bool = True,
             create: bool | None = None, code: str | None = None) -> Exchange:
    """Publish this device's new changes to the folder and apply the other devices'; counts in the result.

    ``target``: an open graph or the path of a graph file (opened and closed here). ``folder``: the
    sync folder (None: the one remembered for this file). ``device``: None for this machine's.
    ``confirm``: apply segments that delete a large share of the graph. The first exchange with a
    folder joins the graph to it and (``remember``) remembers the folder. The folder is sealed: ``code`` is its
    recovery code, typed on a device joining it; the first device to sync a graph makes one (``new_code`` in
    the result, shown once), and this machine keeps the key (sync_keys.py).
    """

    def run(graph: Graph) -> Exchange:
        db_path = graph.db.path
        settings = config.load_settings()  # read once: an exchange after every burst of writes reads it often
        chosen = _folder_for(db_path, folder, settings)
        me = device or this_device(db_path, settings)
        # The graph's folder is made only when this folder is chosen (first, or again); syncing with the folder
        # remembered never makes it again (a share unmounted leaves an empty mount point).
        remembered = remembered_folder(db_path, settings)
        make = create if create is not None else (remembered is None
                                                  or file_keys.key(chosen) != file_keys.key(remembered))
        result = _exchange(graph, chosen, me, confirm=confirm, progress=job.report if job else None,
                           cancelled=job.cancelled if job else None, create=make, code=code, keys=_keys.stored,
                           pending=_keys.pending)
        if result.pairing is not None:
            _keys.store(result.pairing.sealer.graph_id, result.pairing.code, result.pairing.key)
        if remember:
            _remember(db_path, chosen, result.device if result.device.id != me.id or device is None else None,
                      settings)
        return result

    return _with_graph(target, run)


@dataclass
class DeviceSeen:
    id: str
    name: str
    segments: int
    applied: int  # the last sequence applied here
    last_segment_at: str  # when its newest segment was written (its own clock)


@dataclass
class SyncStatus:
    """This device, the devices seen in the folder, what waits, what was skipped, open conflicts."""

    folder: Path | None
    device: Device
    graph_id: str | None
    published: int  # this device's last sequence
    unpublished: int  # changes made here not published yet
    devices: list[DeviceSeen] = field(default_factory=list)
    pending: int = 0  # complete segments of other devices not applied yet
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, why)
    conflicts: int = 0

    def to_json(self) -> dict:
        return {
            "folder": str(self.folder) if self.folder else None, "device": {"id": self.device.id, "name": self.device.name},
            "graph_id": self.graph_id, "published": self.published, "unpublished": self.unpublished,
            "devices": [vars(d) for d in self.devices], "pending": self.pending,
            "skipped": [{"path": p, "why": w} for p, w in self.skipped], "conflicts": self.conflicts,
        }


def folder_pairing(folder: Path | str, graph_id: str) -> _pairing.Pairing | None:
    """How this machine reads a graph's sealed folder (its key kept here), or None."""
    return _pairing.reader(_files.graph_dir(Path(folder), graph_id), graph_id, _keys.stored(graph_id)[1])


def seal_anew(target: Graph | OpenGraph | Path | str, folder: Path | str | None = None, device: Device | None = None,
              *, remember: bool = True) -> Exchange:
    """Seal this graph's sync folder anew under a new recovery code (``new_code`` in the result, shown once): what
    the folder holds stays readable to devices paired with the new code; the old code opens nothing written from
    now on. An exchange runs first (so nothing of this device waits under the old key); the other devices type
    the new code at their next sync. Under this file's sync lock (SyncError when another program syncs it)."""

    def run(graph: Graph) -> Exchange:
        with sync_lock(graph.db.path) as held:
            if not held:
                raise SyncError("Another program is syncing this graph right now; try again in a moment.")
            first = exchange(graph, folder, device, remember=remember)
            pairing = first.pairing
            if pairing is None:
                raise SyncError("This graph's sync folder is not sealed; nothing to seal anew.")
            graph_id = pairing.sealer.graph_id
            home = _files.graph_dir(_folder_for(graph.db.path, folder), graph_id)
            code, key = _rekey.seal_anew(home, graph_id, pairing.record, pairing.sealer, first.device.name, now_utc(),
                                         lambda c, k: _keys.store_pending(graph_id, c, k))
            _keys.store(graph_id, code, key)
            result = exchange(graph, folder, first.device, remember=remember)  # its note, under the new key
            result.new_code = code
            return result

    return _with_graph(target, run)


def show_code(target: Graph | OpenGraph | Path | str) -> str | None:
    """The recovery code of this graph's sealed folder, as this machine keeps it (None: not sealed or not known)."""
    return _with_graph(target, lambda graph: _keys.stored(_graph_id(graph.db) or "")[0])


def _first_set_aside(listing: _files.DeviceFiles, dev: str, seq: int, seal, pairing) -> tuple[str, str] | None:
    """(path, why) when a device's next segment is one no exchange can read (so its later ones wait), else None."""
    if seq not in listing.segments:
        return None
    why = ""
    for path in (listing.segments[seq], *listing.others.get(seq, ())):
        try:
            _files.read_segment(dev, seq, path, seal, pairing.plain_upto(dev) if pairing else 0)
            return None
        except (OSError, _files.SegmentError) as exc:
            why = why or str(exc) or "unreadable"
    return str(listing.segments[seq]), f"set aside: {why}; that device's later segments wait"


def status(target: Graph | OpenGraph | Path | str, folder: Path | str | None = None,
           device: Device | None = None) -> SyncStatus:
    """Where sync stands for this graph, read from the file and the folder (nothing is written)."""

    def run(graph: Graph) -> SyncStatus:
        db = graph.db
        chosen = Path(folder).expanduser() if folder else remembered_folder(db.path)
        me = device or this_device(db.path)
        gid = _graph_id(db)
        upto = _state.published_upto(db) if db.has_table("meta") else 0
        unpublished = int(db.scalar(
            "SELECT count(*) FROM change_log WHERE id > ? AND origin NOT LIKE 'sync:%' AND reviewed_at IS NOT ''",
            (upto,))) if _state.joined(db) else int(db.scalar("SELECT count(*) FROM entities"))
        out = SyncStatus(chosen, me, gid, int(db.get_meta(_state.SEQ_KEY) or 0), unpublished,
                         conflicts=_conflicts.open_count(graph))
        if chosen is None or gid is None or not chosen.is_dir():
            return out
        applied = _state.applied(db)
        pairing = folder_pairing(chosen, gid)
        seal = pairing.sealer if pairing is not None else None
        for dev, listing in sorted(_files.scan(chosen, gid, applied, seal).items()):  # applied: not opened again
            out.skipped.extend((str(s.path), s.why) for s in listing.skipped)
            if dev == me.id:
                continue
            newest = max(listing.segments, default=0)
            at = ""
            if newest:
                try:
                    at = str(_files.read_segment(dev, newest, listing.segments[newest], seal,
                                                 pairing.plain_upto(dev) if pairing else 0).header.get("at") or "")
                except (OSError, ValueError):
                    at = ""
            out.devices.append(DeviceSeen(dev, listing.name, len(listing.segments), applied.get(dev, 0), at))
            out.pending += sum(1 for s in listing.segments if s > applied.get(dev, 0))
            blocked = _first_set_aside(listing, dev, applied.get(dev, 0) + 1, seal, pairing)
            if blocked is not None:  # what the next exchange sets aside, and so why that device's changes wait
                out.skipped.append(blocked)
        return out

    return _with_graph(target, run)


def list_conflicts(target: Graph | OpenGraph | Path | str, resolved: bool = False) -> list[_conflicts.SyncConflict]:
    """The sync conflicts waiting for the person (``resolved``: all)."""
    return _with_graph(target, lambda g: _conflicts.list_conflicts(g, resolved))


def resolve_conflict(target: Graph | OpenGraph | Path | str, conflict_id: int, keep: str) -> _conflicts.SyncConflict:
    """Keep mine, theirs or both for one conflict; the choice is published at the next exchange."""
    return _with_graph(target, lambda g: _conflicts.resolve(g, conflict_id, keep))


def lock_path(db_path: Path | str) -> Path:
    """The lock file that lets one program at a time sync this graph file (in the user's folder, never the sync folder)."""
    digest = hashlib.sha1(_key(db_path).encode("utf-8")).hexdigest()[:16]
    return config.data_dir() / "sync-locks" / f"{digest}.lock"


@contextmanager
def sync_lock(db_path: Path | str) -> Iterator[bool]:
    """Hold this file's sync lock while the block runs; yields False (and holds nothing) when another program has it."""
    path = lock_path(db_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            _lock_fd(fd)
        except OSError:
            yield False
            return
        try:
            yield True
        finally:
            _unlock_fd(fd)
    finally:
        os.close(fd)


def _lock_fd(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    else:  # Windows: a byte-range lock on the first byte
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)


def _unlock_fd(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
    else:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


def exchange_if_free(target: Graph | OpenGraph | Path | str, folder: Path | str | None = None,
                     *, confirm: bool = False, job: SyncJob | None = None, code: str | None = None) -> Exchange | None:
    """``exchange`` under this file's sync lock; None when another program is syncing it right now."""
    path = target.graph.db.path if isinstance(target, OpenGraph) else (
        target.db.path if isinstance(target, Graph) else Path(target))
    with sync_lock(path) as held:
        if not held:
            return None
        return exchange(target, folder, confirm=confirm, job=job, code=code)
