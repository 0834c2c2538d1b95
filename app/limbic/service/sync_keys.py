"""The keys of sealed sync folders on this machine: per graph id, its recovery code and the key derived from it,
in a file of Limbic's data folder only this user can read (never the graph file, never the sync folder)."""

from __future__ import annotations

import base64
import contextlib
import json
import os
from pathlib import Path

from limbic import config

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


def store(graph_id: str, code: str | None, key: bytes) -> None:
    """Keep this graph folder's code and key (the file written whole, readable by this user only)."""
    keys = _read()
    entry = {"key": base64.b64encode(key).decode()}
    if code:
        entry["code"] = code
    elif isinstance(keys.get(graph_id), dict) and keys[graph_id].get("code"):
        entry["code"] = keys[graph_id]["code"]
    if keys.get(graph_id) == entry:
        return
    keys[graph_id] = entry
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
    os.replace(tmp, path)
