"""Graphs on several simulated devices sharing one sync folder, and what must be equal between them."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta, timezone
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service import sync

_SYNCED = {
    "entities": "SELECT gid, name, entity_type, status, private, created_at, updated_at FROM entities",
    "observations": "SELECT o.gid, e.gid, o.content, o.kind, o.created_at, s.gid, o.superseded_at, o.valid_from, "
                    "o.valid_until FROM observations o JOIN entities e ON e.id = o.entity_id "
                    "LEFT JOIN observations s ON s.id = o.superseded_by",
    "relations": "SELECT r.gid, a.gid, b.gid, r.relation_type, r.context, r.active, r.created_at, r.ended_at, "
                 "r.valid_from, r.valid_until FROM relations r JOIN entities a ON a.id = r.from_entity "
                 "JOIN entities b ON b.id = r.to_entity",
    "reflections": "SELECT f.gid, f.target_type, e.gid, r.gid, f.target_ref, f.author, f.content, f.mood, f.created_at "
                   "FROM reflections f LEFT JOIN entities e ON e.id = f.entity_id LEFT JOIN relations r ON r.id = f.relation_id",
    "aliases": "SELECT a.gid, e.gid, a.alias, a.created_at FROM entity_aliases a JOIN entities e ON e.id = a.entity_id",
}


class Replica:
    """One device: its graph file and its device id and name."""

    def __init__(self, root: Path, name: str) -> None:
        self.path = root / f"{name}.db"
        self.graph = Graph(Database(self.path))
        self.device = sync.Device(hashlib.sha256(name.encode()).hexdigest()[:16], name)
        self.ids = [self.device.id]  # every id it has synced under (a restored file goes on under a new one)

    def sync(self, folder: Path, confirm: bool = False) -> sync.Exchange:
        result = sync.exchange(self.graph, folder, self.device, confirm=confirm, remember=False)
        self.device = result.device
        if self.device.id not in self.ids:
            self.ids.append(self.device.id)
        return result

    def close(self) -> None:
        self.graph.db.close()


def synced_rows(graph: Graph, updated: bool = False) -> dict[str, list]:
    """The synced tables by global id, sorted: equal on devices that converged. ``updated=True`` compares when
    each entity was last updated too (docs/sync.md, Limits: long random runs can leave it a second apart)."""
    out = {table: sorted(tuple(r) for r in graph.db.execute(sql)) for table, sql in _SYNCED.items()}
    if not updated:
        out["entities"] = [row[:-1] for row in out["entities"]]
    return out


def synced_hash(graph: Graph, updated: bool = False) -> str:
    return hashlib.sha256(json.dumps(synced_rows(graph, updated), sort_keys=True).encode()).hexdigest()


@contextmanager
def two_devices(root: Path, seed: Callable[[Graph], object] | None = None,
                settled: bool = True) -> Iterator[tuple[Replica, Replica, Path]]:
    """A laptop and a desktop sharing a new folder under ``root`` (``seed`` writes on the laptop, then both
    settle unless ``settled`` is False); both graphs are closed afterwards."""
    folder = root / "folder"
    folder.mkdir()
    a, b = Replica(root, "laptop"), Replica(root, "desktop")
    try:
        if seed is not None:
            seed(a.graph)
        if settled:
            settle([a, b], folder)
        yield a, b, folder
    finally:
        a.close()
        b.close()


@contextmanager
def devices(root: Path, *names: str) -> Iterator[tuple[list[Replica], Path]]:
    """Devices of these names sharing a new folder under ``root``; every graph is closed afterwards."""
    folder = root / "folder"
    folder.mkdir()
    replicas = [Replica(root, n) for n in names]
    try:
        yield replicas, folder
    finally:
        for r in replicas:
            r.close()


def settle(replicas: list[Replica], folder: Path, rounds: int = 3, confirm: bool = True) -> None:
    """Exchange until nothing more moves (each device publishes, then every device applies)."""
    for _ in range(rounds):
        for r in replicas:
            r.sync(folder, confirm=confirm)


def folder_seal(path: Path):
    """The sealer of the graph folder holding ``path`` (a device's folder, or a file in one), with this machine's key."""
    device_dir = path if path.is_dir() else path.parent
    pairing = sync.folder_pairing(device_dir.parent.parent.parent, device_dir.parent.name)
    return pairing.sealer if pairing is not None else None


def segment_text(path: Path) -> str:
    """A segment's JSON lines, opened with this machine's key where its folder is sealed."""
    seal = folder_seal(path)
    data = path.read_bytes()
    if seal is not None:
        data = seal.open(data, "segment", path.parent.name, int(path.name[:6]))
    return data.decode("utf-8")


_ahead = [0.0]  # how far the sync tests' clock runs ahead of the real one (tests/sync/conftest.py)


def moved_wall() -> datetime:
    """The clock the sync tests give Limbic: the real one, moved ahead by every ``next_second``."""
    return datetime.now(timezone.utc) + timedelta(seconds=_ahead[0])


def next_second() -> None:
    """Move the clock to the start of the next second (without waiting for it): creation times are kept to
    the second, so what a scenario makes now and within the next few hundred milliseconds has one creation
    time. Stamps and stored times both read that clock, so their order is the one a wait would give."""
    _ahead[0] += 1.02 - moved_wall().timestamp() % 1
