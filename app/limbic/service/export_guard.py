"""Before an export replaces a file: only an earlier export of the same kind is replaced without asking.

A file Limbic did not write (notes, a spreadsheet, another program's data) is never replaced by a
mistyped ``-o``: the CLI refuses unless ``--force``, the app asks. Only the first bytes are read,
and never of the open graph or of anything that is not a regular file.
"""

from __future__ import annotations

import json
import logging
import os
import stat
from pathlib import Path

from limbic.engine.store.db import is_open_graph_file
from limbic.engine.errors import LimbicError

logger = logging.getLogger(__name__)

HEAD_BYTES = 64 * 1024
KIND_WORDS = {"jsonl": "memory JSONL", "graphml": "GraphML", "svg": "SVG", "png": "PNG"}
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class OverwriteRefused(LimbicError):
    """The export would replace a file that is not an earlier export of the same kind."""


def _looks_like(head: bytes, kind: str) -> bool:
    if kind == "png":
        return head.startswith(PNG_MAGIC)
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff")
    if kind == "graphml":
        return text.lstrip().startswith("<?xml") and "<graphml" in text
    if kind == "svg":
        return "<svg" in text[:4096]
    # JSONL: the first line is a memory line (a cut-off long line still starts like one).
    first = text.lstrip().split("\n", 1)[0].strip()
    try:
        obj = json.loads(first)
    except ValueError:
        return first.startswith('{"type": "entity"') or first.startswith('{"type":"entity"')
    return isinstance(obj, dict) and obj.get("type") in ("entity", "relation", "reflection")


def overwrite_problem(path: Path | str, kind: str) -> str | None:
    """None when ``path`` may be written (no file, an empty one, or an earlier export of ``kind``), else why not."""
    path = Path(path)
    try:
        st = os.stat(path)
    except OSError:
        return None  # nothing there (the export itself reports a missing folder)
    if not stat.S_ISREG(st.st_mode) or is_open_graph_file(path):
        return None  # refused by the export itself, with its own sentence; never opened here
    if st.st_size == 0:
        return None
    try:
        with open(path, "rb") as fh:
            head = fh.read(HEAD_BYTES)
    except OSError as exc:
        return f"{path} exists and cannot be read to tell what it is ({(exc.strerror or str(exc)).lower()})"
    if _looks_like(head, kind):
        return None
    return f"{path} already exists and is not an earlier {KIND_WORDS.get(kind, kind)} export of Limbic"


def guard_overwrite(path: Path | str, kind: str, force: bool = False) -> None:
    """Raise OverwriteRefused (one sentence) unless ``path`` may be replaced by an export of ``kind``, or ``force``."""
    if force:
        return
    problem = overwrite_problem(path, kind)
    if problem:
        raise OverwriteRefused(f"{problem}; it was left as it is (choose another name, or replace it with --force).")
