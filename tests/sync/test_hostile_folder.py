"""No file in the sync folder can crash, hang or blind sync: a complete segment whose content is not a segment
is set aside and named, the other devices' changes still arrive, and Limbic's own writes follow no planted link."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil

import pytest

from limbic.engine.sync import folder as files
from limbic.service import sync as service_sync
from tests.sync.replicas import Replica, folder_seal, settle

HEADER = {"format": 2, "schema": 10, "seq": 1, "upto": 0, "deps": {}, "name": "mallory", "at": "", "graph": ""}


def _plant(directory, seq: int, data: bytes, suffix: str = ".seg", sealed: bool = True):
    """A file with a valid name and checksum: complete, as far as the folder can tell; sealed with the folder's key
    (as a paired device gone wrong would write it) unless ``sealed`` is False."""
    directory.mkdir(parents=True, exist_ok=True)
    seal = folder_seal(directory.parent / next(p.name for p in directory.parent.iterdir() if p.is_dir()))
    if sealed and seal is not None and suffix in (".seg", ".db"):
        data = seal.seal(data, "segment" if suffix == ".seg" else "snapshot", directory.name, seq)
    path = directory / f"{seq:06d}-{hashlib.sha256(data).hexdigest()[:16]}{suffix}"
    path.write_bytes(data)
    return path


def _lines(device: str, *changes, **header) -> bytes:
    head = {**HEADER, "device": device, **header}
    return ("\n".join(json.dumps(x) for x in (head, *changes)) + "\n").encode()


BAD = {
    "bad JSON": lambda dev: b'{"format": 2,\n{not json\n',
    "deep nesting": lambda dev: _lines(dev) + (b"[" * 100_000 + b"]" * 100_000) + b"\n",
    "a schema that is no number": lambda dev: _lines(dev, schema="nine"),
    "a bad stamp": lambda dev: _lines(dev, {"stamp": "soon", "items": []}),
    "a header that is a list": lambda dev: b"[1, 2, 3]\n",
    "invalid UTF-8": lambda dev: _lines(dev)[:-1] + b"\xff\xfe\n",
    "an item that is no row": lambda dev: _lines(dev, {"stamp": "1.0", "items": [{"k": "entity", "op": "explode"}]}),
    "values that are a string": lambda dev: _lines(dev, {"stamp": "1.0", "items": [
        {"k": "entity", "op": "add", "gid": "g" * 32, "a": "Ada"}]}),
    "another device's name": lambda dev: _lines("0123456789abcdef"),
}


@pytest.fixture
def pair(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    a, b = Replica(tmp_path, "laptop"), Replica(tmp_path, "desktop")
    a.graph.upsert_entity("Ada", "Person", ["likes tea"])
    settle([a, b], folder)
    yield a, b, folder
    a.close()
    b.close()


@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_bad_segment_is_set_aside_and_everything_else_arrives(pair, kind):
    a, b, folder = pair
    graph_dir = next((folder / "Limbic").iterdir())
    mallory = "feedfacefeedface"
    bad = _plant(graph_dir / mallory, 1, BAD[kind](mallory))
    _plant(graph_dir / mallory, 2, _lines(mallory, seq=2))  # waits behind the bad one
    a.graph.upsert_entity("Bob", "Person", ["plays chess"])
    a.sync(folder)
    result = b.sync(folder)  # no traceback: the laptop's change arrives, the bad file is named
    assert b.graph.entity_id("Bob") is not None
    assert any(s.path == bad and s.why.startswith("set aside") for s in result.skipped), result.skipped
    assert any("set aside" in w and "waits" in w for w in result.waiting), result.waiting
    assert bad.exists()  # never deleted by Limbic
    status = service_sync.status(b.graph, folder, b.device)  # and the status says what is set aside, and why
    assert status.pending >= 1
    assert any(path == str(bad) and why.startswith("set aside") for path, why in status.skipped), status.skipped
    b.sync(folder)  # again: still set aside, still no error
    assert b.graph.db.scalar("SELECT count(*) FROM entities") == 2


def test_a_compressed_segment_is_never_expanded(pair):
    a, b, folder = pair
    graph_dir = next((folder / "Limbic").iterdir())
    bomb = gzip.compress(b"\n" * (50 << 20))  # 50 MB of nothing, 50 KB on disk
    path = _plant(graph_dir / "feedfacefeedface", 1, bomb, suffix=".seg.gz")
    result = b.sync(folder)
    assert any(s.path == path and s.why == "not a file Limbic writes" for s in result.skipped)


def test_no_write_follows_a_link_planted_in_the_devices_folder(pair, tmp_path):
    a, b, folder = pair
    own = next((folder / "Limbic").glob(f"*/{a.device.id}"))
    outside = tmp_path / "precious.txt"
    outside.write_text("keep me")
    for name in (f".limbic-{os.getpid()}-device.json", f".limbic-{os.getpid()}-snapshot.db"):
        (own / name).symlink_to(outside)  # the temporary names a pid made guessable
    a.graph.set_entity_type("Ada", "Mathematician")
    a.sync(folder)
    assert outside.read_text() == "keep me"
    (own / "link").symlink_to(outside)
    with pytest.raises(FileExistsError):  # a temporary file is only ever a new one, never through a link
        files._write_new(own / "link", b"x")
    assert outside.read_text() == "keep me"


def test_a_write_that_stopped_leaves_nothing_the_next_exchange_does_not_remove(pair, monkeypatch):
    a, b, folder = pair
    own = next((folder / "Limbic").glob(f"*/{a.device.id}"))
    real = os.replace

    def disk_full(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    a.graph.upsert_entity("Bob", "Person", [])
    for _ in range(3):  # every retry fails: no temporary file is left behind by any
        with pytest.raises(OSError):
            a.sync(folder)
    assert not [p for p in own.iterdir() if p.name.startswith(".limbic-")]
    (own / ".limbic-0123456789abcdef-000009-00.seg").write_bytes(b"half")  # one a kill left
    monkeypatch.setattr(os, "replace", real)
    a.sync(folder)
    assert not [p for p in own.iterdir() if p.name.startswith(".limbic-")]
    b.sync(folder)
    assert b.graph.entity_id("Bob") is not None


HOSTILE = {
    "a name holding U+202E and NUL": {"k": "entity", "op": "add", "a": {"name": "Ada\u202e\x00", "type": "Person"}},
    "a 5,000-character type": {"k": "entity", "op": "add", "a": {"name": "Ada Two", "type": "T" * 5000}},
    "a 300,000-character observation": {"k": "observation", "op": "add", "a": {"content": "x" * 300_000}},
    "a status Limbic has not": {"k": "entity", "op": "add", "a": {"name": "Ada Three", "status": "weird-status"}},
    "a valid time that is no date": {"k": "observation", "op": "add", "a": {"content": "held", "valid_from": "not a date"}},
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_change_no_local_write_could_make_is_refused_whole(pair, kind):
    a, b, folder = pair
    graph_dir = next((folder / "Limbic").iterdir())
    mallory = "feedfacefeedface"
    ada = b.graph.db.scalar("SELECT gid FROM entities WHERE name = 'Ada'")
    item = {**HOSTILE[kind], "gid": "f" * 32, "b": None}
    if item["k"] == "observation":
        item["a"] = {**item["a"], "entity": ada}
    fine = {"k": "entity", "op": "add", "gid": "e" * 32, "b": None, "a": {"name": "Planted", "type": "Person"}}
    bad = _plant(graph_dir / mallory, 1, _lines(mallory, {"stamp": "1.0", "items": [fine, item]}))
    before = b.graph.db.scalar("SELECT count(*) FROM change_log")
    result = b.sync(folder)
    assert any(s.path == bad and s.why.startswith("set aside") for s in result.skipped)
    assert b.graph.entity_id("Planted") is None  # nothing of the change, not even its valid part
    assert b.graph.db.scalar("SELECT count(*) FROM observations") == 1
    assert b.graph.db.scalar("SELECT count(*) FROM change_log") == before


def _snapshot_of(replica, path):
    replica.graph.db.execute("VACUUM INTO ?", (str(path),))


def test_a_snapshot_with_a_recursive_view_is_set_aside_at_once(pair, tmp_path, monkeypatch):
    a, b, folder = pair
    import apsw

    from limbic.engine.sync import snapshot

    graph_dir = next((folder / "Limbic").iterdir())
    raw = tmp_path / "raw.db"
    _snapshot_of(a, raw)
    conn = apsw.Connection(str(raw))
    conn.execute("DROP TABLE sync_applied")
    conn.execute("CREATE VIEW sync_applied AS WITH RECURSIVE r(device, seq) AS (SELECT 'x', 1 UNION ALL "
                 "SELECT device, seq + 1 FROM r) SELECT device, seq FROM r")
    conn.close()
    data = raw.read_bytes()
    path = _plant(graph_dir / "feedfacefeedface", 5, data, suffix=".db")
    path = path.rename(path.with_name(f"snapshot-{path.name}"))
    result = b.sync(folder)  # a folder holding only a snapshot: the device would start from it
    assert any(s.path == path and "not a table" in s.why for s in result.skipped), result.skipped
    # Were the view not noticed, reading it would stop at the time bound, and it would be set aside all the same.
    monkeypatch.setattr(snapshot, "_READ", tuple(t for t in snapshot._READ if t != "sync_applied"))
    monkeypatch.setattr(snapshot, "COVERED_SECONDS", 0.5)
    result = b.sync(folder)
    assert any(s.path == path and "took over" in s.why for s in result.skipped), result.skipped


def test_a_folder_gone_from_under_a_joined_graph_is_never_made_again(tmp_path):
    """An unmounted share leaves its empty mount point: syncing with the remembered folder writes nothing there."""
    from limbic.engine.graph.graph import Graph
    from limbic.engine.store.db import Database

    mount = tmp_path / "share"
    mount.mkdir()
    path = tmp_path / "laptop.db"
    g = Graph(Database(path))
    g.upsert_entity("Ada", "Person", [])
    service_sync.exchange(g, mount)  # joins, remembers the folder
    shutil.rmtree(mount / "Limbic")  # the share unmounted: the mount point is there, empty
    g.upsert_entity("Bob", "Person", [])
    with pytest.raises(service_sync.SyncError, match="holds nothing of this graph"):
        service_sync.exchange(g)
    with pytest.raises(service_sync.SyncError):
        service_sync.exchange_if_free(g, mount)  # as the app and limbic mcp call it, the folder given
    assert list(mount.iterdir()) == []
    # Chosen again on purpose (limbic sync --folder): the graph starts the folder anew from this device.
    service_sync.exchange(g, mount, create=True)
    assert (mount / "Limbic").is_dir()
    g.db.close()


def test_a_folder_vanishing_in_the_middle_of_an_exchange_is_not_made_again(pair, monkeypatch):
    a, b, folder = pair
    graph_dir = next((folder / "Limbic").iterdir())
    real = files.write_device_file

    def vanish_then_write(directory, info, seal=None):
        shutil.rmtree(folder / "Limbic")  # the share goes away between two writes
        return real(directory, info, seal)

    monkeypatch.setattr(files, "write_device_file", vanish_then_write)
    a.graph.upsert_entity("Bob", "Person", [])
    with pytest.raises(OSError):
        a.sync(folder)
    assert not graph_dir.exists() and not (folder / "Limbic").exists()
