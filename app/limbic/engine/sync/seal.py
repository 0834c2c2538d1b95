"""The sealed sync folder: what Limbic writes there is encrypted and authenticated with a key only the person's
devices hold, so the folder's provider (or anyone who can read it) reads nothing, and anyone who can write to it
adds nothing: a file altered, replayed, truncated or moved to another name, device or graph does not open.

The key comes from a **recovery code** the first device makes (160 random bits, written as eight groups of
four letters and digits); the others pair by typing it. The key is derived from the code with scrypt (n 2^15,
r 8, p 1, a salt of the graph's own) and kept in this machine's settings with the code, never in the graph
file or the folder. Files are sealed with AES-256-GCM in chunks of 1 MiB: each chunk's nonce is the file's
random prefix and the chunk's number, and its associated data names the graph, what the file is (a segment,
a snapshot, a device's note), the device, the sequence, the chunk and whether it is the last, so a chunk
moved, dropped or a file cut short is refused. ``seal.json`` beside the devices' folders holds the salt, the
parameters and a check that tells a wrong code at once.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from limbic.engine.errors import LimbicError, ValidationError

MAGIC = b"LIMBIC-SEALED\x01"
CHUNK = 1 << 20
SCRYPT = {"n": 1 << 15, "r": 8, "p": 1}
SEAL_FILE = "seal.json"
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"  # base32: no 0, 1, 8 or 9 to mistake for letters
_LOOKS_LIKE = str.maketrans({"0": "O", "1": "I", "8": "B", "9": "G"})


class SealError(LimbicError):
    """A sealed file that does not open with this graph's key, or a code that does not open the folder."""


def new_code() -> str:
    """A new recovery code: 160 random bits as eight groups of four (ABCD-EFGH-…)."""
    text = base64.b32encode(secrets.token_bytes(20)).decode()
    return "-".join(text[i:i + 4] for i in range(0, 32, 4))


def clean_code(text: object) -> str:
    """A code as typed (any case, spaces or dashes, 0 for O) in its one written form; a sentence when it is none."""
    if not isinstance(text, str):
        raise ValidationError("A recovery code is text: eight groups of four letters and digits.")
    plain = "".join(ch for ch in text.upper().translate(_LOOKS_LIKE) if ch not in " -\t\n")
    if len(plain) != 32 or any(ch not in _ALPHABET for ch in plain):
        raise ValidationError("That is not a recovery code: it has eight groups of four letters and digits "
                              "(ABCD-EFGH-…), as the first device showed it.")
    return "-".join(plain[i:i + 4] for i in range(0, 32, 4))


def derive(code: str, salt: bytes, params: dict | None = None) -> bytes:
    p = params or SCRYPT
    return Scrypt(salt=salt, length=32, n=int(p["n"]), r=int(p["r"]), p=int(p["p"])).derive(clean_code(code).encode())


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


@dataclass(frozen=True)
class Record:
    """seal.json: how a key is derived from the code, a check that a key is the folder's, the segments each device
    had written in the clear before the folder was sealed (read as they are, the check vouching for them), and,
    after the folder was sealed anew under a new code, the earlier keys (each sealed with the newest key) with the
    last file each device had written under it (``earlier``, newest first, rekey.py)."""

    salt: bytes
    params: dict
    check: bytes
    plain: dict
    earlier: tuple = ()

    def to_json(self) -> bytes:
        raw = {"version": 2 if self.earlier else 1, "salt": _b64(self.salt), "scrypt": self.params,
               "check": _b64(self.check), "plain": self.plain}
        if self.earlier:
            raw["earlier"] = list(self.earlier)
        return json.dumps(raw, sort_keys=True).encode()

    @classmethod
    def parse(cls, data: bytes) -> Record:
        try:
            raw = json.loads(data[:65536])
            params = {k: int(raw["scrypt"][k]) for k in ("n", "r", "p")}
            if not (1 << 10 <= params["n"] <= 1 << 20 and 1 <= params["r"] <= 32 and 1 <= params["p"] <= 16):
                raise ValueError
            plain = raw.get("plain") or {}
            if not _seq_map(plain):
                raise ValueError
            earlier = raw.get("earlier") or []
            if not isinstance(earlier, list) or len(earlier) > 64 or not all(
                    isinstance(e, dict) and isinstance(e.get("key"), str) and isinstance(e.get("proof"), str)
                    and _seq_map(e.get("upto")) for e in earlier):
                raise ValueError
            return cls(base64.b64decode(raw["salt"]), params, base64.b64decode(raw["check"]), plain, tuple(earlier))
        except (ValueError, KeyError, TypeError, AttributeError):
            raise SealError("The sync folder's seal record (seal.json) cannot be read: it was damaged or replaced. "
                            "A device that syncs with this folder already can start it anew (docs/sync.md).") from None


def _seq_map(value: object) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                                           for k, v in value.items())


def _check_aad(graph_id: str, plain: dict, earlier: tuple = ()) -> bytes:
    return json.dumps([graph_id, plain, list(earlier)] if earlier else [graph_id, plain], sort_keys=True).encode()


def salt_for(graph_id: str) -> bytes:
    """The salt of a graph's key: its own, and the same on every device, so two devices that seal the folder at
    once with one code (the seal of the first not arrived yet) seal it alike."""
    return hashlib.sha256(b"limbic-seal:" + graph_id.encode()).digest()[:16]


def make_record(code: str, graph_id: str, plain: dict | None = None) -> tuple[Record, bytes]:
    """A new folder's seal: the record to write beside the devices' folders, and the key."""
    salt, plain = salt_for(graph_id), dict(plain or {})
    key = derive(code, salt)
    check = AESGCM(key).encrypt(bytes(12), b"limbic-seal-check", _check_aad(graph_id, plain))  # one message a key
    return Record(salt, dict(SCRYPT), check, plain), key


def opens(record: Record, key: bytes, graph_id: str) -> bool:
    """Whether this key is the folder's (and the record as its first device wrote it)."""
    try:
        AESGCM(key).decrypt(bytes(12), record.check, _check_aad(graph_id, record.plain, record.earlier))
        return True
    except InvalidTag:
        return False


def key_for(record: Record, code: str, graph_id: str) -> bytes:
    """The key a code gives for this folder; SealError with a sentence when the code is not this folder's."""
    key = derive(code, record.salt, record.params)
    if not opens(record, key, graph_id):
        raise SealError("That recovery code does not open this sync folder: check it on a device that syncs "
                        "already (limbic sync --show-code).")
    return key


class Sealer:
    """Seals and opens the files of one graph's folder with its key."""

    def __init__(self, key: bytes, graph_id: str, earlier: tuple = ()) -> None:
        """``earlier``: (key, upto) of the keys the folder was sealed with before its newest code, newest first; a
        segment or snapshot a device wrote under one (its sequence at most that key's ``upto`` for the device) still
        opens. A device's note opens with the newest key only: each device writes its own again."""
        self.aead, self.graph_id = AESGCM(key), graph_id
        self.key = key
        self.earlier = tuple((k, dict(upto)) for k, upto in earlier)
        self._earlier = [(AESGCM(k), upto) for k, upto in self.earlier]

    def _keys(self, what: str, device: str, seq: int) -> list:
        older = [aead for aead, upto in self._earlier if what != "device" and 0 < seq <= int(upto.get(device, 0))]
        return [self.aead, *older]

    def _aad(self, what: str, device: str, seq: int, index: int, last: bool) -> bytes:
        return json.dumps([1, self.graph_id, what, device, seq, index, last]).encode()

    def seal(self, data: bytes, what: str, device: str, seq: int) -> bytes:
        out = io.BytesIO()
        self._seal_stream(io.BytesIO(data), out, len(data), what, device, seq)
        return out.getvalue()

    def open(self, blob: bytes, what: str, device: str, seq: int) -> bytes:
        """The plain bytes of a sealed file; SealError when it is not sealed, or not by this key, or not as named."""
        out = io.BytesIO()
        self._open_stream(io.BytesIO(blob), out, len(blob), what, device, seq)
        return out.getvalue()

    def seal_file(self, src: Path, dst: Path, what: str, device: str, seq: int) -> None:
        """A sealed copy of a file (a snapshot), chunk by chunk: memory stays one chunk whatever its size."""
        with open(src, "rb") as fin, open(dst, "xb") as fout:
            self._seal_stream(fin, fout, os.fstat(fin.fileno()).st_size, what, device, seq)
            fout.flush()
            os.fsync(fout.fileno())

    def open_file(self, src: Path, dst: Path, what: str, device: str, seq: int) -> None:
        """The plain copy of a sealed file, chunk by chunk (SealError as ``open``)."""
        with open(src, "rb") as fin, open(dst, "xb") as fout:
            self._open_stream(fin, fout, os.fstat(fin.fileno()).st_size, what, device, seq)

    def _seal_stream(self, fin, fout, size: int, what: str, device: str, seq: int) -> None:
        prefix = secrets.token_bytes(8)
        fout.write(MAGIC + prefix)
        index, done = 0, 0
        while True:
            chunk = fin.read(CHUNK)
            done += len(chunk)
            last = done >= size
            sealed = self.aead.encrypt(prefix + index.to_bytes(4, "big"), chunk, self._aad(what, device, seq, index, last))
            fout.write(len(sealed).to_bytes(4, "big") + sealed)
            if last:
                return
            index += 1

    def _open_stream(self, fin, fout, size: int, what: str, device: str, seq: int) -> None:
        head = fin.read(len(MAGIC) + 8)
        if not head.startswith(MAGIC) or len(head) != len(MAGIC) + 8:
            raise SealError("it is not sealed, and this folder is")
        prefix, index, pos = head[len(MAGIC):], 0, len(head)
        keys = self._keys(what, device, seq)  # the first chunk tells which key sealed the file
        while True:
            length = int.from_bytes(fin.read(4), "big")
            sealed = fin.read(length) if length <= CHUNK + 16 else b""
            if length > CHUNK + 16 or len(sealed) != length:
                raise SealError("it is cut short or altered")
            pos += 4 + length
            last = pos >= size
            nonce, aad = prefix + index.to_bytes(4, "big"), self._aad(what, device, seq, index, last)
            for aead in keys:
                try:
                    plain = aead.decrypt(nonce, sealed, aad)
                except InvalidTag:
                    continue
                keys = [aead]
                break
            else:
                raise SealError("it does not open with this graph's key as what its name says: altered, moved "
                                "or not written by one of your devices")
            fout.write(plain)
            if last:
                return
            index += 1
