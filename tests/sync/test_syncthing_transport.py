"""Syncthing as the transport of segment files: two real daemons on 127.0.0.1 sharing one folder.

A segment is written as Limbic writes it (a hidden temporary name ``.limbic-<pid>-<final name>``,
fsync, rename to ``<sequence>-<checksum>.seg``); the other side must get it whole, and must never see a
half-written segment under its final name. What the other side does see of a segment still being
written is its temporary name, with the bytes written so far (Syncthing carries any file that has been
quiet for ``fsWatcherDelayS``): a reader there must skip it by its prefix, as it skips Syncthing's own
``.syncthing.NAME.tmp`` files, and the rename on the writer's side arrives as that name removed and the
final one added.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.sync.syncthing_harness import SyncthingError, SyncthingPair, syncthing_binary, syncthing_pair

pytestmark = pytest.mark.slow

SEGMENTS = "Limbic/graph-1/device-a"


@pytest.fixture(scope="module")
def pair(tmp_path_factory) -> Iterator[SyncthingPair]:
    """Two connected daemons for the whole module, stopped at its end whatever happened."""
    try:
        with syncthing_pair(tmp_path_factory.mktemp("syncthing")) as started:
            yield started
    except SyncthingError as exc:
        pytest.fail(str(exc), pytrace=False)


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
