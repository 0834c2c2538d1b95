"""Syncthing as the transport of segment files: two real daemons on 127.0.0.1 sharing one folder.

A segment is written as Limbic writes it (a hidden temporary name ``.limbic-<pid>-<final name>``,
fsync, rename to ``<sequence>-<checksum>.seg``); the other side must get it whole, and must never see a
half-written segment under its final name. What the other side does see of a segment still being
written is its temporary name, with the bytes written so far (Syncthing carries any file that has been
quiet for ``fsWatcherDelayS``): a reader there must skip it by its prefix, as it skips Syncthing's own
``.syncthing.NAME.tmp`` files, and the rename on the writer's side arrives as that name removed and the
final one added.

Then two graphs, each with its own user data folder and its own daemon's folder, edit on both sides
(one entity's type differently on each) and run ``limbic sync`` until nothing moves: only Syncthing
carries the segments, both exports end equal, and both list the conflict with the same value kept.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.sync.syncthing_harness import SyncthingError, SyncthingPair, syncthing_binary, syncthing_pair

pytestmark = pytest.mark.slow

# The transport tests' files live apart from the graphs' sync folder, which holds one graph only.
SEGMENTS = "transport/Limbic/graph-1/device-a"


@pytest.fixture(scope="module")
def pair(tmp_path_factory) -> Iterator[SyncthingPair]:
    """Two connected daemons for the whole module, stopped at its end whatever happened."""
    failure = None
    try:
        with syncthing_pair(tmp_path_factory.mktemp("syncthing")) as started:
            yield started
    except SyncthingError as exc:
        failure = str(exc)
    if failure is not None:  # outside the handler, so the sentence is shown once and without a traceback
        pytest.fail(failure, pytrace=False)


def _segment_bytes(size: int, seed: int) -> bytes:
    return b"".join(hashlib.sha256(f"{seed}:{i}".encode()).digest() for i in range(size // 32))


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _segment_name(sequence: int, data: bytes) -> str:
    # A segment names its own checksum, so a reader can tell a whole one from any other bytes.
    return f"{sequence:06d}-{hashlib.sha256(data).hexdigest()[:16]}.seg"


def _temp_name(final: Path) -> Path:
    return final.with_name(f".limbic-{os.getpid()}-{final.name}")


def test_a_missing_syncthing_fails_with_a_sentence_saying_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SyncthingError) as raised:
        syncthing_binary()
    assert "apt-get install syncthing" in str(raised.value)
    assert isinstance(raised.value, AssertionError)  # a failure, never a skip


def test_both_daemons_are_stopped_when_the_test_inside_fails(tmp_path):
    with pytest.raises(RuntimeError, match="a failing test"):
        with syncthing_pair(tmp_path) as own:
            daemons = own.a, own.b
            assert all(len(d.alive_pids()) == 2 for d in daemons)  # each a monitor and its worker
            raise RuntimeError("a failing test")
    assert [d.alive_pids() for d in daemons] == [[], []]
    assert not any(d.answers() for d in daemons)


def test_a_segment_written_then_renamed_reaches_the_other_side_intact(pair):
    folder = pair.a.folder / SEGMENTS
    folder.mkdir(parents=True, exist_ok=True)
    data = _segment_bytes(1 << 20, seed=1)
    final = folder / _segment_name(1, data)
    temp = _temp_name(final)
    with open(temp, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temp, final)
    _fsync_dir(folder)

    received = pair.wait_synced(f"{SEGMENTS}/{final.name}", timeout=20)

    got = received.read_bytes()
    assert len(got) == len(data) and got == data
    assert _segment_name(1, got) == final.name
    pair.wait_absent(f"{SEGMENTS}/{temp.name}", pair.b)


def test_a_segment_still_being_written_is_seen_only_under_its_temporary_name(pair):
    folder = pair.a.folder / SEGMENTS
    folder.mkdir(parents=True, exist_ok=True)
    data = _segment_bytes(8 << 20, seed=2)
    final = folder / _segment_name(2, data)
    temp = _temp_name(final)
    on_b = pair.b.folder / SEGMENTS / final.name
    sizes_seen: list[int] = []
    syncthing_temps_seen: set[str] = set()
    stop = threading.Event()

    def watch_b() -> None:
        # Every size the final name has on B while the segment travels: it must only ever be the whole.
        while not stop.is_set():
            try:
                sizes_seen.append(on_b.stat().st_size)
            except FileNotFoundError:
                pass
            if on_b.parent.is_dir():
                syncthing_temps_seen.update(p.name for p in on_b.parent.glob(".syncthing.*.tmp"))
            stop.wait(0.005)

    watcher = threading.Thread(target=watch_b, daemon=True)
    watcher.start()
    try:
        with open(temp, "wb") as out:
            half = len(data) // 2
            out.write(data[:half])
            out.flush()
            os.fsync(out.fileno())
            # Syncthing syncs a writer's temporary file once it has been quiet for fsWatcherDelayS.
            partial = pair.wait_synced(f"{SEGMENTS}/{temp.name}", timeout=20)
            assert partial.read_bytes() == data[:half]
            assert not on_b.exists()
            out.write(data[half:])
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, final)
        _fsync_dir(folder)
        received = pair.wait_synced(f"{SEGMENTS}/{final.name}", timeout=20)
    finally:
        stop.set()
        watcher.join(timeout=5)

    assert received.read_bytes() == data
    assert sizes_seen and set(sizes_seen) == {len(data)}, sorted(set(sizes_seen))
    pair.wait_absent(f"{SEGMENTS}/{temp.name}", pair.b)
    # Syncthing's own temporary names never stay behind once the folder is idle.
    assert not list(on_b.parent.glob(".syncthing.*.tmp")), syncthing_temps_seen


def test_the_daemons_use_loopback_only(pair):
    pair.wait_idle()
    peer_link = {f"127.0.0.1:{pair.a.listen_port}", f"127.0.0.1:{pair.b.listen_port}"}
    everything = pair.a.sockets() + pair.b.sockets()
    assert any(set(line.split()[1::2]) & peer_link and "0.0.0.0" not in line for line in everything), everything
    for daemon in (pair.a, pair.b):
        sockets = daemon.sockets()
        inet = [s for s in sockets if not s.startswith("local")]
        assert inet, sockets  # at least the listener, the GUI and the peer connection
        for line in inet:
            proto, local, _, remote = line.split()
            assert proto == "tcp", line
            assert local.startswith("127.0.0.1:"), line
            assert remote.startswith(("127.0.0.1:", "0.0.0.0:")), line


# -- two graphs synced through the two daemons ------------------------------------------------

LIMBIC = Path(sys.executable).with_name("limbic")
CONVERGE_TIMEOUT = 45.0


@dataclass
class Side:
    """One device: its own user data folder, graph file and Limbic sync folder inside its daemon's folder."""

    name: str
    home: Path
    db: Path
    folder: Path
    no_model: Path

    def limbic(self, *args: str) -> str:
        """Run ``limbic`` as a person would on this device; its standard output (a failure shows both)."""
        env = {k: v for k, v in os.environ.items() if k not in ("LIMBIC_DB", "LIMBIC_MODEL_DIR")}
        # Text only: vectors never travel, and leaving the model out keeps each command well under a second.
        env.update(LIMBIC_HOME=str(self.home), LIMBIC_MODEL_DIR=str(self.no_model))
        command, rest = args[0], list(args[1:])
        argv = [str(LIMBIC), command, *rest, "--db", str(self.db)]
        done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, f"{' '.join(argv[1:])} on {self.name}: {done.stdout}{done.stderr}"
        return done.stdout

    def export(self) -> list[dict]:
        """The graph as ``limbic export`` prints it, in an order and with fields every device agrees on.

        Two fields are this device's own and are left out of the comparison: ``updatedAt`` (when this
        device last wrote the entity, and applying another device's change is a write here) and the
        order of an entity's observations (the order they arrived here); each observation keeps its date.
        """
        records = []
        for line in self.limbic("export").splitlines():
            if line.strip():
                record = json.loads(line)
                record.pop("updatedAt", None)
                if "observations" in record:
                    pairs = sorted(zip(record["observations"], record.get("observationDates") or []))
                    record["observations"] = [text for text, _ in pairs]
                    record["observationDates"] = [date for _, date in pairs]
                records.append(record)
        return sorted(records, key=lambda r: json.dumps(r, sort_keys=True))


def _side(base: Path, name: str, sync_root: Path) -> Side:
    home, no_model = base / name / "home", base / name / "no-model"
    home.mkdir(parents=True)
    no_model.mkdir()
    (sync_root / "graphs").mkdir(exist_ok=True)
    return Side(name, home, base / name / "graph.db", sync_root / "graphs", no_model)


def _import(side: Side, tmp: Path, *records: dict) -> None:
    path = tmp / f"{side.name}-{len(list(tmp.glob('*.jsonl')))}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    side.limbic("import", str(path))


def _entity(name: str, entity_type: str, *observations: str) -> dict:
    return {"type": "entity", "name": name, "entityType": entity_type, "observations": list(observations)}


def _sent_received(output: str) -> tuple[int, int]:
    match = re.search(r"Sent (\d+) changes?, received (\d+)", output)
    assert match, output
    return int(match.group(1)), int(match.group(2))


def test_two_graphs_converge_through_syncthing_with_the_conflict_shown_on_both(pair, tmp_path):
    laptop = _side(tmp_path, "laptop", pair.a.folder)
    desktop = _side(tmp_path, "desktop", pair.b.folder)
    _import(laptop, tmp_path, _entity("Ada Lovelace", "person", "wrote the first program"),
            _entity("Charles Babbage", "person", "designed the Difference Engine"),
            {"type": "relation", "from": "Ada Lovelace", "to": "Charles Babbage", "relationType": "worked with"})

    said = laptop.limbic("sync", "--folder", str(laptop.folder), "--name", "laptop")
    code = re.search(r"Recovery code: ([A-Z2-7-]+)", said).group(1)  # the laptop sealed the folder
    pair.wait_same()  # only Syncthing carries the laptop's segments (and the seal) to the desktop's folder
    # Syncthing carries sealed files: nothing of the graph reads in the clear in the desktop's copy of the folder.
    assert not any(b"Lovelace" in p.read_bytes() for p in desktop.folder.rglob("*") if p.is_file())
    joined = desktop.limbic("sync", "--folder", str(desktop.folder), "--name", "desktop", "--code", code.lower())
    assert _sent_received(joined)[1] > 0
    pair.wait_same()
    laptop.limbic("sync")

    # Edits on both sides without either seeing the other's: the type of one entity differs.
    _import(laptop, tmp_path, _entity("Ada Lovelace", "mathematician", "translated Menabrea's paper"),
            _entity("Analytical Engine", "machine", "never built"))
    _import(desktop, tmp_path, _entity("Ada Lovelace", "countess", "daughter of Lord Byron"),
            _entity("Difference Engine", "machine", "built in 1991 by the Science Museum"))

    deadline, said = time.monotonic() + CONVERGE_TIMEOUT, []
    while True:
        moved, said = 0, []
        for side in (laptop, desktop):
            output = side.limbic("sync")
            said.append(f"{side.name}: {output.strip()}")
            moved += sum(_sent_received(output))
            pair.wait_same(timeout=max(1.0, deadline - time.monotonic()))
        if moved == 0:
            # Nothing went either way and both folders are alike: nothing more will change, so the graphs
            # must read the same now.
            exports = laptop.export(), desktop.export()
            differing = [r for r in exports[0] if r not in exports[1]] + [r for r in exports[1] if r not in exports[0]]
            assert not differing, f"the graphs settled apart; last syncs: {said}; records on one side only: {differing}"
            break
        assert time.monotonic() < deadline, f"changes still moving after {CONVERGE_TIMEOUT:.0f} s; last syncs: {said}"

    by_name = {r["name"]: r for r in exports[0] if r["type"] == "entity"}
    assert set(by_name) == {"Ada Lovelace", "Charles Babbage", "Analytical Engine", "Difference Engine"}
    assert set(by_name["Ada Lovelace"]["observations"]) == {
        "wrote the first program", "translated Menabrea's paper", "daughter of Lord Byron"}
    assert [(r["from"], r["to"]) for r in exports[0] if r["type"] == "relation"] == [("Ada Lovelace", "Charles Babbage")]
    winner = by_name["Ada Lovelace"]["entityType"]
    for side, mine, theirs, other in ((laptop, "mathematician", "countess", "desktop"),
                                      (desktop, "countess", "mathematician", "laptop")):
        (conflict,) = json.loads(side.limbic("conflicts", "--json"))
        assert (conflict["entity"], conflict["field"]) == ("Ada Lovelace", "type"), conflict
        assert (conflict["mine"], conflict["theirs"], conflict["their_device"]["name"]) == (mine, theirs, other), conflict
        # The value kept is the one both graphs hold: the same decision on each device.
        assert conflict[conflict["kept"]] == winner, conflict
