"""A sealed sync folder: nothing in it is readable without the graph's key, a device joins by its recovery code,
and a file altered, moved or planted is refused while everything genuine still arrives."""

from __future__ import annotations

import os
import shutil

import pytest

from limbic.engine.sync import folder as files, seal
from limbic.service import sync as service_sync
from tests.sync.replicas import Replica, settle

SECRET = "Lovelace's engine notes, volume two"


def test_the_first_device_seals_the_folder_and_nothing_in_it_reads_in_the_clear(machines, tmp_path):
    on, folder = machines
    on("laptop")
    a = Replica(tmp_path, "laptop")
    try:
        a.graph.upsert_entity("Ada Lovelace", "Person", [SECRET])
        result = a.sync(folder)
        assert result.new_code and seal.clean_code(result.new_code) == result.new_code
        assert service_sync.show_code(a.graph) == result.new_code
        a.graph.upsert_entity("Charles Babbage", "Person", ["Difference engine"])
        assert a.sync(folder).new_code is None  # shown once
        written = [p for p in folder.rglob("*") if p.is_file()]
        assert any(p.name == seal.SEAL_FILE for p in written) and any(p.suffix == ".seg" for p in written)
        for path in written:
            data = path.read_bytes()
            for text in ("Lovelace", "Babbage", "engine", "Person", "laptop"):
                assert text.encode() not in data, (path.name, text)
    finally:
        a.close()


def test_another_device_joins_with_the_code_and_only_with_it(machines, tmp_path):
    on, folder = machines
    on("laptop")
    a = Replica(tmp_path, "laptop")
    b = None
    try:
        a.graph.upsert_entity("Ada Lovelace", "Person", [SECRET])
        code = a.sync(folder).new_code
        on("desktop")
        b = Replica(tmp_path, "desktop")
        with pytest.raises(seal.SealError, match="sealed: only your own devices"):
            b.sync(folder)
        wrong = seal.new_code()
        with pytest.raises(seal.SealError, match="does not open this sync folder"):
            service_sync.exchange(b.graph, folder, b.device, remember=False, code=wrong)
        typed = code.lower().replace("-", " ")  # as a person types it
        service_sync.exchange(b.graph, folder, b.device, remember=False, code=typed)
        assert b.graph.entity_id("Ada Lovelace") is not None
        b.graph.add_observations("Ada Lovelace", ["wrote the first program"])
        b.sync(folder)  # the key is kept on this machine now: no code again
        on("laptop")
        a.sync(folder)
        assert "wrote the first program" in a.graph.get_entity("Ada Lovelace").observation_texts
    finally:
        a.close()
        if b is not None:
            b.close()


def test_a_file_moved_renamed_altered_or_written_in_the_clear_is_refused(machines, tmp_path):
    on, folder = machines
    on("laptop")
    a, b = Replica(tmp_path, "laptop"), Replica(tmp_path, "desktop")  # one machine: both hold the key
    try:
        a.graph.upsert_entity("Ada", "Person", ["one"])
        settle([a, b], folder)
        a.graph.upsert_entity("Bob", "Person", ["two"])
        a.sync(folder)
        graph_dir = next((folder / "Limbic").iterdir())
        own = graph_dir / a.device.id
        newest = sorted(own.glob("*.seg"))[-1]
        data = newest.read_bytes()
        mallory = graph_dir / "feedfacefeedface"
        mallory.mkdir()
        cases = {
            "moved to another device": (mallory, 1, data),
            "altered": (graph_dir / "0123456789abcdef", 1, data[:-20] + bytes(20)),
            "in the clear": (graph_dir / "1123456789abcdef", 1, b'{"format": 2}\n'),
        }
        planted = []
        for directory, seq, payload in cases.values():
            directory.mkdir(exist_ok=True)
            path = directory / f"{seq:06d}-{__import__('hashlib').sha256(payload).hexdigest()[:16]}.seg"
            path.write_bytes(payload)
            planted.append(path)
        result = b.sync(folder)
        assert b.graph.entity_id("Bob") is not None  # the genuine change arrived
        aside = {s.path for s in result.skipped if s.why.startswith("set aside")}
        assert set(planted) <= aside, result.skipped
        # The same segment renamed to a later sequence of its own device is refused too (replayed).
        replay = own / f"{int(newest.name[:6]) + 5:06d}-{newest.name.split('-')[1]}"
        shutil.copyfile(newest, replay)
        with pytest.raises(files.SegmentError, match="does not open"):
            files.read_segment(a.device.id, int(replay.name[:6]), replay, service_sync.folder_pairing(
                folder, graph_dir.name).sealer)
    finally:
        a.close()
        b.close()


def test_a_folder_written_in_the_clear_is_sealed_and_what_it_held_still_arrives(machines, tmp_path, monkeypatch):
    on, folder = machines
    on("laptop")
    from limbic.engine.sync import exchange as engine_exchange

    real = engine_exchange.exchange
    monkeypatch.setattr(service_sync, "_exchange", lambda *args, **kw: real(*args, **{**kw, "sealed": False}))
    a = Replica(tmp_path, "laptop")
    b = None
    try:
        a.graph.upsert_entity("Ada", "Person", ["written before sealing"])
        a.sync(folder)  # an earlier Limbic: in the clear
        assert b"written before sealing" in b"".join(p.read_bytes() for p in folder.rglob("*.seg"))
        monkeypatch.setattr(service_sync, "_exchange", real)
        a.graph.upsert_entity("Bob", "Person", ["written after"])
        code = a.sync(folder).new_code  # this version seals the folder on its first exchange
        assert code
        on("desktop")
        b = Replica(tmp_path, "desktop")
        service_sync.exchange(b.graph, folder, b.device, remember=False, code=code)
        assert b.graph.entity_id("Ada") is not None and b.graph.entity_id("Bob") is not None
    finally:
        a.close()
        if b is not None:
            b.close()


def test_a_file_planted_in_this_devices_own_folder_changes_nothing_about_it(machines, tmp_path):
    on, folder = machines
    on("laptop")
    a = Replica(tmp_path, "laptop")
    try:
        a.graph.upsert_entity("Ada", "Person", ["one"])
        a.sync(folder)
        own = next((folder / "Limbic").glob(f"*/{a.device.id}"))
        data = b'{"format": 2, "device": "' + a.device.id.encode() + b'", "seq": 9}\n'
        (own / f"000009-{__import__('hashlib').sha256(data).hexdigest()[:16]}.seg").write_bytes(data)
        before = a.device.id
        result = a.sync(folder)
        assert result.device_note is None and result.device.id == before  # no false "copy or restored backup"
        assert a.graph.db.scalar("SELECT count(*) FROM entities") == 1
    finally:
        a.close()


def test_a_huge_seal_record_is_read_within_a_bound_and_refused(machines, tmp_path):
    on, folder = machines
    on("laptop")
    a = Replica(tmp_path, "laptop")
    try:
        a.graph.upsert_entity("Ada", "Person", [])
        a.sync(folder)
        record = next((folder / "Limbic").iterdir()) / seal.SEAL_FILE
        record.write_bytes(b"{" + b" " * (8 << 20))  # 8 MB that is no record
        on("desktop")
        b = Replica(tmp_path, "desktop")
        try:
            with pytest.raises(seal.SealError, match="seal record"):
                b.sync(folder)
        finally:
            b.close()
    finally:
        a.close()


def test_a_file_moved_into_another_graphs_folder_does_not_open_there():
    """Each graph's key comes from its own salt, and the graph's id is bound to every chunk: a segment copied
    from one graph's folder into another's opens in neither as the other's, even under one code."""
    code = seal.new_code()
    record_a, key_a = seal.make_record(code, "a" * 32)
    record_b, key_b = seal.make_record(code, "b" * 32)
    assert key_a != key_b
    blob = seal.Sealer(key_a, "a" * 32).seal(b'{"format": 2}\n', "segment", "feedfacefeedface", 1)
    for key in (key_a, key_b):
        with pytest.raises(seal.SealError):
            seal.Sealer(key, "b" * 32).open(blob, "segment", "feedfacefeedface", 1)
    assert seal.Sealer(key_a, "a" * 32).open(blob, "segment", "feedfacefeedface", 1) == b'{"format": 2}\n'
