"""The keys of sealed sync folders on this machine: per graph id, its recovery code and the key derived from it,
in a file of Limbic's data folder only this user can read (never the graph file, never the sync folder)."""

from __future__ import annotations

import base64
import contextlib
import json
import os
from pathlib import Path

from limbic import config, osfiles

FILE = "sync-keys.json"


def _path() -> Path:
    return config.data_dir() / FILE


def _read() -> dict:
    try:
        raw = json.loads(_path().read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return raw if isinstance(raw, dict) else {}


def stored(graph_id: str) -> tuple[str | None, bytes | None]:
    """(code, key) kept for this graph's folder, or (None, None)."""
    entry = _read().get(graph_id)
    if not isinstance(entry, dict):
        return None, None
    code = entry.get("code") if isinstance(entry.get("code"), str) else None
    try:
        key = base64.b64decode(entry["key"]) if isinstance(entry.get("key"), str) else None
    except ValueError:
        key = None
    return code, key if key is None or len(key) == 32 else None


def pending(graph_id: str) -> tuple[str | None, bytes] | None:
    """The code and key of a sealing anew this machine began and may not have finished (None: none)."""
    entry = _read().get(graph_id)
    nxt = entry.get("next") if isinstance(entry, dict) else None
    if not isinstance(nxt, dict) or not isinstance(nxt.get("key"), str):
        return None
    try:
        key = base64.b64decode(nxt["key"])
    except ValueError:
        return None
    if len(key) != 32:
        return None
    return (nxt.get("code") if isinstance(nxt.get("code"), str) else None), key


def store_pending(graph_id: str, code: str, key: bytes) -> None:
    """Keep the code and key of the folder's new seal before the seal is replaced: a stop between the two loses
    neither (the next exchange takes whichever opens the folder)."""
    keys = _read()
    entry = dict(keys.get(graph_id) or {}) if isinstance(keys.get(graph_id), dict) else {}
    entry["next"] = {"code": code, "key": base64.b64encode(key).decode()}
    keys[graph_id] = entry
    _write(keys)


def store(graph_id: str, code: str | None, key: bytes) -> None:
    """Keep this graph folder's code and key (the file written whole, readable by this user only); a sealing anew
    begun here is over once a key is kept (the new one, or the old one still opening the folder)."""
    keys = _read()
    entry = {"key": base64.b64encode(key).decode()}
    if code:
        entry["code"] = code
    elif isinstance(keys.get(graph_id), dict) and keys[graph_id].get("code"):
        entry["code"] = keys[graph_id]["code"]
    if keys.get(graph_id) == entry:
        return
    keys[graph_id] = entry
    _write(keys)


def _write(keys: dict) -> None:
    path = _path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{FILE}.{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(keys, fh, indent=2, sort_keys=True)
        fh.flush()
        os.fsync(fh.fileno())
    osfiles.replace(tmp, path)
