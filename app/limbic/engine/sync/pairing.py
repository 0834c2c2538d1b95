"""Which key seals this graph's folder: the one this machine keeps, the one a typed recovery code gives, or a new
one made by the first device to sync the graph (which then shows its code). A folder written in the clear by an
earlier Limbic is sealed on its first exchange by a device that has (or makes) the code; what each device had
written before then stays readable, the seal naming it (seal.py)."""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

from limbic.engine.sync import folder as files
from limbic.engine.sync.rekey import earlier_keys, listing_upto, sealed_anew_by
from limbic.engine.sync.seal import SEAL_FILE, Record, Sealer, SealError, clean_code, key_for, make_record, new_code, opens


@dataclass
class Pairing:
    """The folder's seal as this exchange uses it."""

    sealer: Sealer
    record: Record
    code: str | None  # the recovery code, where this exchange was given it or made it
    key: bytes
    made: bool = False  # this exchange sealed the folder: its code is shown once
    typed: bool = False  # paired now by a code given (not by the key kept on this machine)

    def plain_upto(self, device: str) -> int:
        return int(self.record.plain.get(device, 0))


NEEDS_CODE = ("This sync folder is sealed: only your own devices can read it. Give its recovery code to join it "
              "(limbic sync --code, or File → Sync…); a device that syncs already shows it with limbic sync --show-code.")


def _paired(record: Record, key: bytes, graph_id: str, code: str | None, **kw) -> Pairing:
    return Pairing(Sealer(key, graph_id, earlier_keys(record, key, graph_id)), record, code, key, **kw)


def pair(home: Path, graph_id: str, code: str | None = None, key: bytes | None = None, make: bool = True,
         pending: tuple[str | None, bytes] | None = None) -> Pairing:
    """The seal of the graph's folder ``home``, made when there is none yet (SealError: no code, or a wrong one).

    ``make=False``: this machine synced the folder already (it keeps its key), so a folder without its seal is one
    the sync tool has not brought whole yet; it waits rather than seal the folder a second time. ``pending``: the
    code and key of a sealing anew this machine began (kept before the record was replaced, rekey.py)."""
    path = home / SEAL_FILE
    for _ in range(2):  # a second device sealing the same folder at the same moment: its seal is read instead
        try:
            data = _read_record(path)
        except FileNotFoundError:
            data = None
        if data is not None:
            record = Record.parse(data)
            if key is not None and opens(record, key, graph_id):
                return _paired(record, key, graph_id, code)
            if pending is not None and opens(record, pending[1], graph_id):
                return _paired(record, pending[1], graph_id, pending[0])
            if key is not None:
                _said_anew(record, key, graph_id)
            if code is None:
                raise SealError(NEEDS_CODE)
            code = clean_code(code)
            key = key_for(record, code, graph_id)
            return _paired(record, key, graph_id, code, typed=True)
        if not make:
            raise SealError("The sync folder's seal (seal.json) is not there yet: the folder may still be arriving "
                            "from your other devices. Nothing was written; sync goes on when it is there.")
        made = clean_code(code) if code else new_code()
        record, new_key = make_record(made, graph_id, listing_upto(home))  # what was written in the clear
        tmp = files.temp_path(home, SEAL_FILE)
        files._write_new(tmp, record.to_json())
        try:
            os.link(tmp, path)  # never replaces a seal another device wrote meanwhile
        except FileExistsError:
            continue
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()
        files._fsync_dir(home)
        return Pairing(Sealer(new_key, graph_id), record, made, new_key, made=True, typed=code is not None)
    raise SealError("The sync folder's seal could not be read or made; try again.")


def reader(home: Path, graph_id: str, key: bytes | None) -> Pairing | None:
    """The folder's seal for reading only (nothing made): None when the folder is not sealed or the key not its."""
    try:
        record = Record.parse(_read_record(home / SEAL_FILE))
    except (OSError, SealError):
        return None
    if key is None or not opens(record, key, graph_id):
        return None
    try:
        return _paired(record, key, graph_id, None)
    except SealError:
        return None


def _said_anew(record: Record, kept: bytes, graph_id: str) -> None:
    """A device still on the key the folder had before it was sealed anew: told to type the new code, with who
    sealed it anew and when (the old key reads that much, nothing more)."""
    note = sealed_anew_by(record, kept, graph_id)
    if note is None:
        return
    who = f" on “{note['by']}”" if isinstance(note.get("by"), str) and note["by"] else ""
    when = f" ({str(note['at'])[:16].replace('T', ' ')})" if isinstance(note.get("at"), str) else ""
    raise SealError(f"This sync folder was sealed anew under a new recovery code{who}{when}. Type the new code "
                    "to go on syncing (limbic sync --code, or File → Sync…); nothing was written.")


def _read_record(path: Path) -> bytes:
    """seal.json's bytes, at most 64 KiB (a record is a few hundred bytes; a larger file is not one)."""
    with open(path, "rb") as fh:
        return fh.read(1 << 16)
