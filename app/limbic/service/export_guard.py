"""Before an export replaces a file: only an earlier export of the same kind is replaced without asking.

A file Limbic did not write (notes, a spreadsheet, another program's data, the reference memory
server's own JSONL) is never replaced by a mistyped ``-o``: the CLI refuses unless ``--force``, the
app asks. Limbic knows its own memory exports by a marker it writes, never by their shape (the
reference server's file has the very same shape): the last line of a JSONL export, a small marker
file in a folder of Markdown notes or CSV files. Pictures and GraphML are told by their kind. Only
the first or last bytes are read, and never of the open graph or of anything not a regular file.
"""

from __future__ import annotations

import json
import logging
import os
import stat
from pathlib import Path

from limbic import osfiles
from limbic.engine.errors import LimbicError
from limbic.engine.formats.jsonl_records import EXPORT_MARKER_TYPE
from limbic.engine.store.db import is_open_graph_file

logger = logging.getLogger(__name__)

HEAD_BYTES = 64 * 1024
TAIL_BYTES = 4096  # the marker line is short and last
KIND_WORDS = {"jsonl": "memory JSONL", "graphml": "GraphML", "svg": "SVG", "png": "PNG"}
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class OverwriteRefused(LimbicError):
    """The export would replace a file that is not an earlier export of the same kind."""


def _is_jsonl_export(tail: bytes) -> bool:
    """The file's last line is the marker a JSONL export of Limbic ends with."""
    lines = [line for line in tail.decode("utf-8", errors="replace").splitlines() if line.strip()]
    if not lines:
        return False
    try:
        obj = json.loads(lines[-1])
    except ValueError:
        return False
    return isinstance(obj, dict) and obj.get("type") == EXPORT_MARKER_TYPE


def _looks_like(head: bytes, kind: str) -> bool:
    if kind == "png":
        return head.startswith(PNG_MAGIC)
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff")
    if kind == "graphml":
        return text.lstrip().startswith("<?xml") and "<graphml" in text
    return kind == "svg" and "<svg" in text[:4096]


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
            if kind == "jsonl":
                fh.seek(max(0, st.st_size - TAIL_BYTES))
                if _is_jsonl_export(fh.read(TAIL_BYTES)):
                    return None
            else:
                if _looks_like(fh.read(HEAD_BYTES), kind):
                    return None
    except OSError as exc:
        return f"{path} exists and cannot be read to tell what it is ({(exc.strerror or str(exc)).lower()})"
    return f"{path} already exists and is not an earlier {KIND_WORDS.get(kind, kind)} export of Limbic"


def guard_overwrite(path: Path | str, kind: str, force: bool = False) -> None:
    """Raise OverwriteRefused (one sentence) unless ``path`` may be replaced by an export of ``kind``, or ``force``."""
    if force:
        return
    problem = overwrite_problem(path, kind)
    if problem:
        raise OverwriteRefused(f"{problem}; it was left as it is (choose another name, or replace it with --force).")


# A folder of Markdown notes or CSV files that Limbic exported holds this small file naming its kind
# and the files it wrote, so that a later export of the same kind may replace them.
FOLDER_MARKER = ".limbic-export"
FOLDER_WORDS = {"markdown": "Markdown", "csv": "CSV"}


def _folder_marker(folder: Path) -> dict | None:
    """The marker an earlier folder export left (a regular, small JSON file), or None."""
    marker = folder / FOLDER_MARKER
    try:
        st = os.stat(marker)
        if not stat.S_ISREG(st.st_mode) or st.st_size > 4 * 1024 * 1024:
            return None
        obj = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return obj if isinstance(obj, dict) and obj.get("type") == EXPORT_MARKER_TYPE else None


def folder_problem(folder: Path | str, kind: str) -> str | None:
    """None when an export of ``kind`` may write into ``folder`` (new, empty, or an earlier export of
    ``kind``), else why not."""
    folder = Path(folder)
    if not folder.is_dir():
        return None  # a new folder, or a file the export itself refuses with its own sentence
    marker = _folder_marker(folder)
    if marker is not None and marker.get("format") == kind:
        return None
    try:
        entries = [p.name for p in folder.iterdir()]
    except OSError as exc:
        return f"{folder} cannot be read to tell what it holds ({(exc.strerror or str(exc)).lower()})"
    if not entries:
        return None
    return (f"{folder} already holds files and is not an earlier {FOLDER_WORDS.get(kind, kind)} export of Limbic; "
            "nothing was exported (choose a new or empty folder)")


def guard_folder(folder: Path | str, kind: str, force: bool = False) -> list[str]:
    """Raise OverwriteRefused unless an export of ``kind`` may write into ``folder`` (or ``force``);
    returns the files an earlier export of ``kind`` wrote there (its own, to replace or remove)."""
    folder = Path(folder)
    if not force:
        problem = folder_problem(folder, kind)
        if problem:
            raise OverwriteRefused(f"{problem}.")
    marker = _folder_marker(folder) if folder.is_dir() else None
    if marker is None or marker.get("format") != kind:
        return []
    files = marker.get("files")
    # Only plain names inside the folder: a marker never sends a removal elsewhere.
    return [f for f in files if isinstance(f, str) and f and Path(f).name == f and f not in (".", "..")] \
        if isinstance(files, list) else []


def mark_folder(folder: Path | str, kind: str, files: list[str]) -> None:
    """Write the marker of a folder export of ``kind`` that writes ``files`` (before them: a cut-off
    export is still recognised as Limbic's own and replaced by the next one)."""
    folder = Path(folder)
    text = json.dumps({"type": EXPORT_MARKER_TYPE, "format": kind, "note": "written by Limbic", "files": sorted(files)},
                      ensure_ascii=False, indent=1)
    tmp = folder / (FOLDER_MARKER + ".part")
    with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text + "\n")
    osfiles.replace(tmp, folder / FOLDER_MARKER)
