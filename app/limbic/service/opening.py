"""Opening a graph: for a command that only reads (a path with no graph is said, never created), and
for the desktop app's two connections."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from limbic.engine.store import changes
from limbic.engine.store.db import Database
from limbic.engine.errors import DatabaseError, LimbicError
from limbic.engine.graph.graph import Graph
from limbic.engine.store.open_files import kind_of
# Opening, and loading the model, are the engine's; front ends reach them here.
from limbic.engine.session import OpenGraph, attach_model, open_graph, try_load_model  # noqa: F401

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
    what = kind_of(st.st_mode)
    if what:
        raise NoGraphError(f"{path} is {what}, not a graph file; nothing was changed.")
    if st.st_size == 0:
        raise NoGraphError(f"{path} is an empty file, not a graph yet; nothing was changed.")
    return path


def open_existing_graph(
    path: Path | str, model_dir: Path | None = None, load_model: bool = True, readonly: bool = False,
    origin: str | None = None,
) -> OpenGraph:
    """``open_graph`` for commands that only read: refuses (NoGraphError) a path with no graph instead of creating one."""
    return open_graph(require_existing_graph(path), model_dir, load_model=load_model, readonly=readonly, origin=origin)


def refuse_damaged(db: Database) -> None:
    """A damaged file is refused when it opens, before embedding or anything else writes into it."""
    # Imported here: the checker brings numpy, which must not load before the window shows.
    from limbic.engine.check import damage

    found = damage(db)
    if found:
        logger.error("%s is damaged: %s", db.path, found)
        raise DatabaseError(f"{db.path} is damaged and was not opened (SQLite reports: {found[:120]}); "
                            "`limbic check --repair` can rebuild what is derived, or restore a backup.")


def open_app_graph(path: Path | str) -> tuple[Graph, changes.Cursor, int]:
    """Open (or create) the desktop app's graph file: (graph, change-log cursor, data version).

    A damaged file is refused before anything writes into it; on any failure the file is closed.
    """
    db = Database(Path(path))
    try:
        refuse_damaged(db)
        graph = Graph(db)
        db.origin = changes.ORIGIN_APP
        cursor = changes.start_cursor(db)
        version = db.data_version()
    except BaseException:
        db.close()
        raise
    return graph, cursor, version


def open_read_only_graph(path: Path | str) -> Graph:
    """A second, read-only connection to a graph file already open in this process."""
    db = Database(Path(path), readonly=True)
    try:
        return Graph(db)
    except BaseException:
        db.close()
        raise
