"""One name per file, however it was typed: the key a graph file's sync device, folder and lock are kept under.

``os.path.realpath`` follows links but keeps the case (and, on macOS, the Unicode form) as typed, and
on a disk that ignores case (macOS and Windows by default) ``--db ~/Graphs/work.db`` and
``--db ~/graphs/Work.db`` are one file: keyed as typed they would be two devices, one of which never
syncs. Where the disk ignores case, each existing part of the path is spelt as the folder lists it.

Standard library only.
"""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path


def _folded(name: str) -> str:
    return unicodedata.normalize("NFC", name).casefold()


def ignores_case(path: Path) -> bool:
    """Whether the file system holding ``path`` (which exists) treats names differing in case as one.

    Asked of the deepest part of the path whose name has letters: its name with the case swapped
    names the same file there, and only there."""
    for part in (path, *path.parents):
        name = part.name
        if name and name.swapcase() != name:
            other = part.with_name(name.swapcase())
            try:
                return os.path.samefile(part, other)
            except OSError:  # no such file: the case matters here
                return False
    return False


def on_disk_case(real: str) -> str:
    """``real`` (an absolute path) with each existing part spelt as its folder lists it, where case is ignored."""
    path = Path(real)
    existing = next((p for p in (path, *path.parents) if p.exists()), None)
    if existing is None or not ignores_case(existing):
        return real
    out = Path(path.anchor)
    for part in path.parts[1:]:
        try:
            names = os.listdir(out)
        except OSError:  # not a folder, or not there yet: the rest stays as typed
            names = []
        if part not in names:
            same = [n for n in names if _folded(n) == _folded(part)]
            if len(same) == 1:
                part = same[0]
        out = out / part
    return str(out)


def key(path: str | os.PathLike) -> str:
    """The one name of the file ``path`` names: links followed, spelt as the disk spells it."""
    return on_disk_case(os.path.realpath(os.fspath(path)))


def find(mapping: dict[str, str], file_key: str) -> str | None:
    """The value kept under ``file_key``, or under another spelling of the same file kept before (an older
    version keyed files as typed)."""
    if file_key in mapping:
        return mapping[file_key]
    folded = _folded(file_key)
    for known, value in mapping.items():
        if _folded(known) == folded and key(known) == file_key:
            return value
    return None
