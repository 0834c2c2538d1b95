"""An exchange opens only what is new: segments already applied, and this device's own, are listed, not read.

On a cloud or network folder opening a file can mean fetching it, and checking every segment on
every exchange made each one cost more as the folder's history grew. Each test starts the
checksum memory afresh (``_VERIFIED``), as the short-lived exchange process of ``limbic mcp`` does.
"""

from __future__ import annotations

import builtins
import io

import pytest

from limbic.engine.sync import folder as files, snapshot
from limbic.service import sync
from tests.sync.replicas import Replica, two_devices


@pytest.fixture
def pair(tmp_path):
    with two_devices(tmp_path, settled=False) as devices:
        yield devices


@pytest.fixture
def opened(monkeypatch):
    """The segment and snapshot files opened from now on, by name (a new process: nothing remembered)."""
    names: list[str] = []
    real_builtin, real_io = builtins.open, io.open

    def spy(real):
        def open_(file, *args, **kwargs):
            name = str(getattr(file, "name", file)).rsplit("/", 1)[-1]
            if files.SEGMENT_RE.match(name) or files.SNAPSHOT_RE.match(name):
                names.append(name)
            return real(file, *args, **kwargs)
        return open_

    monkeypatch.setattr(builtins, "open", spy(real_builtin))
    monkeypatch.setattr(io, "open", spy(real_io))
    monkeypatch.setattr(files, "_VERIFIED", {})
    return names


def _own(folder, replica):
    (directory,) = (folder / "Limbic").glob(f"*/{replica.device.id}")
    return directory


def _write_and_sync(replica, folder, name):
    replica.graph.upsert_entity(name)
    return replica.sync(folder)


def _corrupt(path):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))  # the same name and size, other bytes: its checksum no longer matches


def test_an_exchange_opens_only_the_segments_it_has_not_applied_yet(pair, opened):
    a, b, folder = pair
    for name in ("One", "Two", "Three"):
        _write_and_sync(a, folder, name)
    assert b.sync(folder).received == 3
    first = set(opened)
    assert len(first) == 3  # each of a's segments, checked and read once it is new to b
    opened.clear()
    files._VERIFIED.clear()
    assert b.sync(folder).received == 0
    assert opened == []  # nothing new: a's three segments are not opened again
    _write_and_sync(a, folder, "Four")
    opened.clear()
    files._VERIFIED.clear()
    assert b.sync(folder).received == 1
    assert set(opened) == {p.name for p in _own(folder, a).glob("000004-*.seg")}  # the new one only


def test_a_device_does_not_read_back_its_own_published_segments(pair, opened):
    a, _, folder = pair
    for name in ("One", "Two", "Three"):
        _write_and_sync(a, folder, name)
    opened.clear()
    files._VERIFIED.clear()
    a.graph.upsert_entity("Four")
    assert a.sync(folder).sent == 1
    assert opened == []  # its fourth segment written, none of its first three read


def test_a_damaged_applied_segment_is_neither_read_nor_reported_while_a_damaged_new_one_is(pair, opened):
    a, b, folder = pair
    for name in ("One", "Two"):
        _write_and_sync(a, folder, name)
    assert b.sync(folder).received == 2
    old = sorted(_own(folder, a).glob("*.seg"))[0]
    _corrupt(old)  # a sync tool damages a segment both devices have already taken in
    files._VERIFIED.clear()
    opened.clear()
    result = b.sync(folder)
    assert (result.received, result.skipped, opened) == (0, [], [])
    assert _write_and_sync(a, folder, "Three").skipped == []  # its own first segment: not read, no complaint
    new = next(_own(folder, a).glob("000003-*.seg"))
    intact = new.read_bytes()
    _corrupt(new)  # still arriving, or damaged: under its final name, other bytes
    result = b.sync(folder)
    assert result.received == 0 and [s.path.name for s in result.skipped] == [new.name]
    assert "incomplete" in result.skipped[0].why
    seen = sync.status(b.graph, folder, b.device)
    assert [name.rsplit("/", 1)[-1] for name, _ in seen.skipped] == [new.name]  # limbic sync --status names it
    assert sorted(n for (n,) in b.graph.db.execute("SELECT name FROM entities")) == ["One", "Two"]
    new.write_bytes(intact)  # it arrives whole
    result = b.sync(folder)
    assert (result.received, result.skipped) == (1, [])
    assert sorted(n for (n,) in b.graph.db.execute("SELECT name FROM entities")) == ["One", "Three", "Two"]


def test_a_scan_lists_known_files_by_name_and_checks_the_rest(tmp_path, opened):
    directory = tmp_path / "device"
    paths = [files.write_segment(directory, seq, {"seq": seq}, [{"n": seq}]) for seq in (1, 2, 3)]
    _corrupt(paths[0])
    _corrupt(paths[2])
    opened.clear()
    listing = files.scan_device(directory, known=2)
    assert sorted(listing.segments) == [1, 2]  # 1 and 2 known: listed, unopened, whatever their bytes
    assert listing.unchecked == {paths[0].name, paths[1].name}
    assert [s.path for s in listing.skipped] == [paths[2]]
    assert opened == [paths[2].name]
    assert not files.checksum_ok(paths[0]) and files.checksum_ok(paths[1])


def test_a_snapshot_listed_by_name_is_checked_before_a_new_start_is_made_from_it(tmp_path, monkeypatch):
    folder = tmp_path / "folder"
    folder.mkdir()
    a, b, c = (Replica(tmp_path, n) for n in ("laptop", "desktop", "tablet"))
    try:
        _write_and_sync(a, folder, "From laptop")
        assert b.sync(folder).received == 1  # the desktop has the laptop's segment 1
        _write_and_sync(c, folder, "Tablet one")
        _write_and_sync(c, folder, "Tablet two")
        monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 1)
        a.sync(folder)  # the laptop takes in the tablet's two segments, then a snapshot as of its own segment 1
        monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 100)
        (snap,) = _own(folder, a).glob("snapshot-000001-*.db")
        next(_own(folder, c).glob("000001-*.seg")).unlink()  # the tablet's first segment is gone (compacted)
        intact = snap.read_bytes()
        _corrupt(snap)  # damaged; its sequence is one the desktop already applied, so a scan lists it unread
        files._VERIFIED.clear()
        result = b.sync(folder)
        assert any("waiting for segment 1" in w for w in result.waiting)  # not started from the damaged snapshot
        assert sorted(n for (n,) in b.graph.db.execute("SELECT name FROM entities")) == ["From laptop"]
        snap.write_bytes(intact)
        b.sync(folder)
        assert sorted(n for (n,) in b.graph.db.execute("SELECT name FROM entities")) == [
            "From laptop", "Tablet one", "Tablet two"]
    finally:
        for r in (a, b, c):
            r.close()
