"""A file's checksum is read once: the folder is looked at on every exchange, and a snapshot is hundreds of MB."""

from __future__ import annotations

import hashlib
import os

from limbic.engine.sync import folder as files


def _segment(directory, seq: int, text: str):
    return files.write_segment(directory, seq, {"seq": seq}, [{"text": text}])


def test_a_verified_file_is_not_read_again_until_it_changes(tmp_path, monkeypatch):
    tmp_path = tmp_path / "device"
    _segment(tmp_path, 1, "first")
    _segment(tmp_path, 2, "second")
    assert sorted(files.scan_device(tmp_path).segments) == [1, 2]
    hashed = []
    real = hashlib.sha256
    monkeypatch.setattr(files.hashlib, "sha256", lambda *a: hashed.append(1) or real(*a))
    assert sorted(files.scan_device(tmp_path).segments) == [1, 2]
    assert hashed == []  # nothing changed: nothing read
    path = _segment(tmp_path, 3, "third")
    assert sorted(files.scan_device(tmp_path).segments) == [1, 2, 3] and len(hashed) >= 1
    assert path.exists()


def test_a_file_replaced_by_other_bytes_of_the_same_size_and_time_is_checked_again(tmp_path):
    tmp_path = tmp_path / "device"
    path = _segment(tmp_path, 1, "first")
    assert list(files.scan_device(tmp_path).segments) == [1]
    stat = path.stat()
    damaged = path.read_bytes().replace(b"first", b"FIRST")
    other = tmp_path.parent / "elsewhere"
    other.write_bytes(damaged)
    os.utime(other, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    os.replace(other, path)  # as a sync tool brings a damaged copy with the original's time
    listing = files.scan_device(tmp_path)
    assert listing.segments == {} and [s.path for s in listing.skipped] == [path]
