"""Opening a graph for a command that only reads: a path with no graph is said, never created."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from limbic.engine.errors import LimbicError
from limbic.engine.session import OpenGraph, open_graph

logger = logging.getLogger(__name__)


class NoGraphError(LimbicError):
    """The path names no graph file; nothing was created there."""


def require_existing_graph(path: Path | str) -> Path:
    """The path if a graph file is there; raises NoGraphError (one sentence) otherwise, creating nothing.

    Only ``os.stat`` is used: the file may be open in SQLite elsewhere in this process.
    """
    path = Path(path).expanduser()
    try:
        st = os.stat(path)
    except FileNotFoundError:
        folder = path.parent if str(path.parent) else Path(".")
        where = "" if folder.is_dir() else f" (the folder {folder} does not exist either)"
        raise NoGraphError(
            f"There is no graph at {path}{where}; nothing was created (check the path, or create a graph "
            "with a command that writes, such as `limbic import`, or with the app's File → New database)."
        ) from None
    except OSError as exc:
        raise NoGraphError(f"{path} cannot be read ({(exc.strerror or str(exc)).lower()}).") from None
    if os.path.isdir(path):
        raise NoGraphError(f"{path} is a folder, not a graph file.")
    if st.st_size == 0:
        raise NoGraphError(f"{path} is an empty file, not a graph yet; nothing was changed.")
    return path


def open_existing_graph(
    path: Path | str, model_dir: Path | None = None, load_model: bool = True, readonly: bool = False,
    origin: str | None = None,
) -> OpenGraph:
    """``open_graph`` for commands that only read: refuses (NoGraphError) a path with no graph instead of creating one."""
    return open_graph(require_existing_graph(path), model_dir, load_model=load_model, readonly=readonly, origin=origin)
