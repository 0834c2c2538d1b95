"""Sealing a sync folder anew under a new recovery code: the old code opens nothing written from then on and adds
nothing, what the folder held stays readable to devices paired with the new code, a device that wrote under
its old key in between has its writing read once it is given the new code, and a stop half way loses no key."""

from __future__ import annotations

import hashlib
import json

import pytest

from limbic.cli import main
from limbic.engine.sync import folder as files, rekey, seal
from limbic.service import sync as service_sync, sync_keys
from tests.sync.replicas import Replica, synced_rows


def _graph_dir(folder):
    return next(p for p in (folder / "Limbic").iterdir() if p.is_dir())


def _paired(on, tmp_path, folder):
    on("laptop")
    a = Replica(tmp_path, "laptop")
    a.graph.upsert_entity("Ada Lovelace", "Person", ["notes on the engine"])
    code = a.sync(folder).new_code
    on("desktop")
    b = Replica(tmp_path, "desktop")
    service_sync.exchange(b.graph, folder, b.device, remember=False, code=code)
    return a, b, code


def test_the_old_code_opens_nothing_written_after_and_the_new_one_opens_everything(machines, tmp_path):
    on, folder = machines
    a, b, old_code = _paired(on, tmp_path, folder)
    c = None
    try:
        b.graph.upsert_entity("Charles Babbage", "Person", ["difference engine"])
        b.sync(folder)
        on("laptop")
        a.sync(folder)
        old_key = sync_keys.stored(_graph_dir(folder).name)[1]
        result = service_sync.seal_anew(a.graph, folder, a.device, remember=False)
        new_code = result.new_code
        assert new_code and new_code != old_code
        assert service_sync.show_code(a.graph) == new_code
        a.graph.upsert_entity("Grace Hopper", "Person", ["after the new seal"])
        a.sync(folder)
        home = _graph_dir(folder)
        newest = max((home / a.device.id).glob("*.seg"))
        old_sealer = seal.Sealer(old_key, home.name)
        with pytest.raises(seal.SealError):
            old_sealer.open(newest.read_bytes(), "segment", a.device.id, int(newest.name[:6]))
        # Whoever has the old code alone: refused with a sentence, nothing written.
        with pytest.raises(seal.SealError, match="does not open this sync folder"):
            on("phone")
            service_sync.exchange(Replica(tmp_path, "phone").graph, folder, remember=False, code=old_code)
        # The desktop, still on the old key: told to type the new code, with who sealed it anew.
        on("desktop")
        before = sorted(p.name for p in (home / b.device.id).iterdir())
        with pytest.raises(seal.SealError, match="sealed anew under a new recovery code on “laptop”"):
            b.sync(folder)
        assert sorted(p.name for p in (home / b.device.id).iterdir()) == before
        service_sync.exchange(b.graph, folder, b.device, remember=False, code=new_code)
        assert b.graph.entity_id("Grace Hopper") is not None
        assert service_sync.show_code(b.graph) == new_code
        # A new device with the new code reads what the folder held before the new seal too.
        on("phone")
        c = Replica(tmp_path, "phone2")
        service_sync.exchange(c.graph, folder, c.device, remember=False, code=new_code)
        assert synced_rows(c.graph) == synced_rows(a.graph) == synced_rows(b.graph)
        assert c.graph.entity_id("Charles Babbage") is not None
    finally:
        for r in (a, b, c):
            if r is not None:
                r.close()


def test_a_device_that_wrote_under_its_old_key_in_between_is_read_once_it_has_the_new_code(machines, tmp_path):
    on, folder = machines
    a, b, _ = _paired(on, tmp_path, folder)
    try:
        home = _graph_dir(folder)
        stale_record = (home / seal.SEAL_FILE).read_bytes()  # what the desktop's copy of the folder still holds
        on("laptop")
        new_code = service_sync.seal_anew(a.graph, folder, a.device, remember=False).new_code
        fresh_record = (home / seal.SEAL_FILE).read_bytes()
        (home / seal.SEAL_FILE).write_bytes(stale_record)
        on("desktop")
        b.graph.add_observations("Ada Lovelace", ["written on the desktop before it heard of the new code"])
        b.sync(folder)  # its sync tool has not brought the new seal yet: written under the old key
        (home / seal.SEAL_FILE).write_bytes(fresh_record)
        on("laptop")
        waiting = a.sync(folder)
        texts = a.graph.get_entity("Ada Lovelace").observation_texts
        assert "written on the desktop before it heard of the new code" not in texts
        assert any("set aside" in line for line in waiting.waiting)
        on("desktop")
        service_sync.exchange(b.graph, folder, b.device, remember=False, code=new_code)
        on("laptop")
        a.sync(folder)
        assert "written on the desktop before it heard of the new code" in a.graph.get_entity("Ada Lovelace").observation_texts
        assert synced_rows(a.graph) == synced_rows(b.graph)
    finally:
        a.close()
        b.close()


def test_a_segment_forged_with_the_old_key_after_the_new_seal_is_refused(machines, tmp_path):
    on, folder = machines
    a, b, _ = _paired(on, tmp_path, folder)
    try:
        home = _graph_dir(folder)
        old_key = sync_keys.stored(home.name)[1]
        on("laptop")
        service_sync.seal_anew(a.graph, folder, a.device, remember=False)
        forged = json.dumps({"format": 2, "schema": 10, "device": b.device.id, "seq": 99, "upto": 0}).encode() + b"\n"
        blob = seal.Sealer(old_key, home.name).seal(forged, "segment", "feedfacefeedface", 1)
        path = home / "feedfacefeedface" / f"000001-{hashlib.sha256(blob).hexdigest()[:16]}.seg"
        path.parent.mkdir()
        path.write_bytes(blob)
        result = a.sync(folder)
        assert path in {s.path for s in result.skipped}
    finally:
        a.close()
        b.close()


def test_the_record_cannot_be_altered_to_let_an_old_key_write_more(machines, tmp_path):
    on, folder = machines
    a, b, _ = _paired(on, tmp_path, folder)
    try:
        on("laptop")
        service_sync.seal_anew(a.graph, folder, a.device, remember=False)
        path = _graph_dir(folder) / seal.SEAL_FILE
        raw = json.loads(path.read_bytes())
        raw["earlier"][0]["upto"] = {d: 10**6 for d in raw["earlier"][0]["upto"]}
        path.write_text(json.dumps(raw))
        with pytest.raises(seal.SealError):
            a.sync(folder)
    finally:
        a.close()
        b.close()


def test_a_stop_half_way_through_sealing_anew_loses_no_key(machines, tmp_path, monkeypatch):
    on, folder = machines
    a, b, old_code = _paired(on, tmp_path, folder)
    try:
        on("laptop")
        home = _graph_dir(folder)
        graph_id = home.name
        # Stopped before the record was replaced: the old code goes on, the begun one is dropped.
        monkeypatch.setattr(rekey, "replace_record", lambda *args: (_ for _ in ()).throw(OSError("power cut")))
        with pytest.raises(OSError):
            service_sync.seal_anew(a.graph, folder, a.device, remember=False)
        monkeypatch.undo()
        on("laptop")
        assert sync_keys.pending(graph_id) is not None
        a.sync(folder)
        assert service_sync.show_code(a.graph) == old_code and sync_keys.pending(graph_id) is None
        # Stopped after the record was replaced, before the new key was kept: the next exchange takes it.
        pairing = service_sync.folder_pairing(folder, graph_id)
        code, _ = rekey.seal_anew(home, graph_id, pairing.record, pairing.sealer, "laptop", "2026-12-07T10:00:00Z",
                                  lambda c, k: sync_keys.store_pending(graph_id, c, k))
        a.graph.upsert_entity("Grace Hopper", "Person", ["after"])
        a.sync(folder)
        assert service_sync.show_code(a.graph) == code
        on("desktop")
        service_sync.exchange(b.graph, folder, b.device, remember=False, code=code)
        assert b.graph.entity_id("Grace Hopper") is not None
    finally:
        a.close()
        b.close()


def test_limbic_sync_new_code_prints_the_new_code_once(machines, tmp_path, capsys):
    on, folder = machines
    on("laptop")
    db = tmp_path / "cli.db"
    assert main(["sync", "--db", str(db), "--folder", str(folder), "--name", "laptop"]) == 0
    first = capsys.readouterr().out
    old = next(line.split(": ", 1)[1] for line in first.splitlines() if line.startswith("Recovery code:"))
    assert main(["sync", "--db", str(db), "--new-code"]) == 0
    out = capsys.readouterr().out
    new = next(line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("Recovery code:"))
    assert new != old and "sealed anew" in out
    assert main(["sync", "--db", str(db), "--show-code"]) == 0
    assert capsys.readouterr().out.strip() == new
    assert files.graph_dir(folder, _graph_dir(folder).name).is_dir()
