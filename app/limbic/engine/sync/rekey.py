"""Sealing a folder anew under a new recovery code (after a code leaked, or was lost on every device but one).

A paired device makes a new code and key and replaces the folder's seal record. The record keeps every earlier
key, sealed with the new one, with the last segment or snapshot each device had written under it: what the
folder held stays readable to a device paired with the new code (losing a code loses no data), while a file
written later under an earlier key is refused — whoever holds the old code can neither read what is written
from then on nor add to the graph. Each earlier key also seals a short note (which device sealed the folder
anew, and when), so a device still on that key is told to type the new code rather than that its code is wrong.

A device that wrote under its old key before it learnt of the new one seals those files again itself, once it
is given the new code (``reseal_own``): only it could, and until then the others wait for them, as for any
segment not arrived yet.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import secrets
import tempfile
from collections.abc import Callable
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from limbic import osfiles
from limbic.engine.sync import folder as files
from limbic.engine.sync.seal import (
    MAGIC, SCRYPT, SEAL_FILE, Record, Sealer, SealError, _b64, _check_aad, derive, new_code,
)


def _wrap_aad(graph_id: str, upto: dict) -> bytes:
    return json.dumps(["limbic-earlier-key", graph_id, upto], sort_keys=True).encode()


def _proof_aad(graph_id: str, salt: bytes) -> bytes:
    return json.dumps(["limbic-sealed-anew", graph_id, _b64(salt)]).encode()


def earlier_keys(record: Record, key: bytes, graph_id: str) -> tuple:
    """The record's earlier keys as (key, upto), newest first, opened with the folder's current ``key``."""
    out = []
    for entry in record.earlier:
        blob = base64.b64decode(entry["key"])
        try:
            out.append((AESGCM(key).decrypt(blob[:12], blob[12:], _wrap_aad(graph_id, entry["upto"])), entry["upto"]))
        except (InvalidTag, ValueError):
            raise SealError("The sync folder's seal record (seal.json) was altered: its earlier keys do not open. "
                            "A device that syncs with this folder already can start it anew (docs/sync.md).") from None
    return tuple(out)


def sealed_anew_by(record: Record, old_key: bytes, graph_id: str) -> dict | None:
    """Where ``old_key`` is one of the record's earlier keys: who sealed the folder anew, and when (else None)."""
    for entry in record.earlier:
        blob = base64.b64decode(entry["proof"])
        try:
            note = json.loads(AESGCM(old_key).decrypt(blob[:12], blob[12:], _proof_aad(graph_id, record.salt)))
        except (InvalidTag, ValueError):
            continue
        return note if isinstance(note, dict) else {}
    return None


def new_record(old: Record, old_sealer: Sealer, graph_id: str, upto: dict, by: str, at: str,
               code: str | None = None) -> tuple[Record, bytes, str]:
    """The record of the folder sealed anew: (record, new key, new code). ``upto``: the last file of each device
    under the folder's current key (its listing now)."""
    code = code or new_code()
    salt = secrets.token_bytes(16)
    key = derive(code, salt)
    chain = [(old_sealer.key, {d: int(s) for d, s in upto.items()}), *old_sealer.earlier]
    earlier = []
    for old_key, old_upto in chain:
        nonce = secrets.token_bytes(12)
        wrapped = nonce + AESGCM(key).encrypt(nonce, old_key, _wrap_aad(graph_id, old_upto))
        nonce = secrets.token_bytes(12)
        note = json.dumps({"by": by, "at": at}).encode()
        proof = nonce + AESGCM(old_key).encrypt(nonce, note, _proof_aad(graph_id, salt))
        earlier.append({"key": _b64(wrapped), "proof": _b64(proof), "upto": old_upto})
    check = AESGCM(key).encrypt(bytes(12), b"limbic-seal-check", _check_aad(graph_id, old.plain, tuple(earlier)))
    return Record(salt, dict(SCRYPT), check, dict(old.plain), tuple(earlier)), key, code


def listing_upto(home: Path) -> dict[str, int]:
    """Each device's last segment or snapshot in the graph's folder (listed by name, none opened)."""
    out = {}
    for dev in files.devices(home.parent.parent, home.name):
        listing = files.scan_device(home / dev, known=1 << 62)
        if listing.segments or listing.snapshots:
            out[dev] = max([*listing.segments, *listing.snapshots])
    return out


def seal_anew(home: Path, graph_id: str, record: Record, sealer: Sealer, by: str, at: str,
              keep: Callable[[str, bytes], None]) -> tuple[str, bytes]:
    """Seal the graph's folder ``home`` anew under a new code: (code, key). ``record`` and ``sealer``: the folder's
    seal as this device opened it; ``keep`` keeps the new code and key on this machine before the record is
    replaced, so a stop between the two loses neither."""
    new, key, code = new_record(record, sealer, graph_id, listing_upto(home), by, at)
    keep(code, key)
    replace_record(home, new)
    return code, key


def replace_record(home: Path, record: Record) -> None:
    """seal.json replaced whole: written to a new private name, flushed, renamed over the old one."""
    tmp = files.temp_path(home, SEAL_FILE)
    files._write_new(tmp, record.to_json())
    try:
        osfiles.replace(tmp, home / SEAL_FILE)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    files._fsync_dir(home)


def reseal_own(directory: Path, device: str, old: Sealer, new: Sealer) -> int:
    """This device's segments and snapshots written under its old key after the folder was sealed anew, sealed
    again with the new key under their own sequences (the old file removed once the new one is in place)."""
    done = 0
    floor = max((int(upto.get(device, 0)) for _, upto in new.earlier[:1]), default=0)
    listing = files.scan_device(directory, known=0)
    for what, found in (("segment", listing.segments), ("snapshot", listing.snapshots)):
        for seq, path in sorted(found.items()):
            if seq <= floor:
                continue
            try:
                with open(path, "rb") as fh:
                    if fh.read(len(MAGIC)) != MAGIC:
                        continue
                if what == "segment":
                    if path.stat().st_size > files.MAX_SEGMENT_BYTES:
                        continue  # no segment of this device's: a reader sets it aside, named
                    data = path.read_bytes()
                    with contextlib.suppress(SealError):
                        new.open(data, what, device, seq)
                        continue  # sealed with the new key already
                    plain = old.open(data, what, device, seq)
                    files.write_atomic(directory, lambda digest, s=seq: f"{s:06d}-{digest}.seg",
                                       new.seal(plain, what, device, seq))
                else:
                    if not _reseal_snapshot(directory, path, device, seq, old, new):
                        continue
            except (OSError, SealError):
                continue  # not this device's writing under either key: left as it is, set aside by readers
            path.unlink()
            done += 1
    return done


def _reseal_snapshot(directory: Path, path: Path, device: str, seq: int, old: Sealer, new: Sealer) -> bool:
    """A snapshot sealed again, chunk by chunk through a private plain copy; False when the new key opens it."""
    with tempfile.TemporaryDirectory(prefix="limbic-") as private:
        plain = Path(private) / "snapshot.db"
        try:
            new.open_file(path, plain, "snapshot", device, seq)
            return False
        except SealError:
            plain.unlink(missing_ok=True)
        old.open_file(path, plain, "snapshot", device, seq)
        tmp = files.temp_path(directory, "snapshot.db")
        try:
            new.seal_file(plain, tmp, "snapshot", device, seq)
            sha = hashlib.sha256()
            with open(tmp, "rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    sha.update(block)
            osfiles.replace(tmp, directory / f"snapshot-{seq:06d}-{sha.hexdigest()[:16]}.db")
        finally:
            tmp.unlink(missing_ok=True)
    files._fsync_dir(directory)
    return True
