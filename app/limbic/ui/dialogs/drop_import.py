"""Drop a JSONL, CSV or Markdown file, a folder of notes or a memory .db onto the window to import it.

The drop runs the same import as File → Import (progress, cancel, the problems dialog, the status
report); what cannot be imported gets a sentence and nothing happens.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QDropEvent

from limbic.ui.common.hooks import StatusLine, WindowHooks
from limbic.ui.common.i18n import translate

logger = logging.getLogger(__name__)

IMPORTABLE = (".jsonl", ".json", ".ndjson", ".csv", ".md", ".markdown", ".db", ".sqlite", ".sqlite3")


def dropped_paths(mime) -> list[Path]:
    """The local files and folders a drag carries (web links and text are not imports)."""
    if not mime.hasUrls():
        return []
    return [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile() and url.toLocalFile()]


def refusal(paths: list[Path]) -> str:
    """Why these paths cannot be imported by a drop, or "" when they can."""
    if len(paths) != 1:
        return translate("DropImport", "Drop one file or folder at a time; nothing was imported.")
    path = paths[0]
    if path.is_dir():
        return ""
    if not path.is_file():
        return translate("DropImport", "“{name}” is not a file Limbic can read; nothing was imported.").format(name=path.name)
    if path.suffix.lower() not in IMPORTABLE:
        return (translate("DropImport", "Limbic imports memory JSONL, CSV, Markdown, a folder of notes or a "
                    "memory .db; “{name}” is none of these, so nothing was imported.").format(name=path.name))
    return ""


@dataclass(frozen=True)
class DropParts:
    """What a drop needs: the window's hooks (their parent takes the drops), the status bar, the import."""

    status: StatusLine
    hooks: WindowHooks
    readonly: Callable[[], bool]  # the open file cannot be written
    import_path: Callable[[str], None]  # the import File → Import runs


class DropImport(QObject):
    """An event filter on the main window that takes drops of files and folders."""

    def __init__(self, parts: DropParts) -> None:
        super().__init__(parts.hooks.parent)
        self.p = parts
        self._window = parts.hooks.parent
        self._window.setAcceptDrops(True)
        self._window.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if obj is not self._window:
            return False
        if event.type() in (QEvent.Type.DragEnter, QEvent.Type.DragMove) and isinstance(event, QDropEvent):
            paths = dropped_paths(event.mimeData())
            if paths:
                event.acceptProposedAction()  # a refusal is said on drop, where the person looks
                if event.type() == QEvent.Type.DragEnter and not refusal(paths):
                    self.p.status.say(translate("DropImport", "Drop to import “{name}”.").format(name=paths[0].name), 3000)
                return True
            return False
        if event.type() == QEvent.Type.Drop and isinstance(event, QDropEvent):
            paths = dropped_paths(event.mimeData())
            if not paths:
                return False
            event.acceptProposedAction()
            self.import_dropped(paths)
            return True
        return False

    def import_dropped(self, paths: list[Path]) -> bool:
        """Import what was dropped as File → Import would; returns whether an import started."""
        p = self.p
        why = refusal(paths)
        if not why and p.readonly():
            why = translate("DropImport", "The file is open read-only; nothing was imported.")
        if not why and p.hooks.catalog() is None:
            why = translate("DropImport", "No graph is open to import into; nothing was imported.")
        if why:
            p.status.say(why, 10_000)
            return False
        if p.hooks.refused_during_job(translate("DropImport", "Importing")):
            return False
        logger.info("importing dropped %s", paths[0])
        p.import_path(str(paths[0]))
        return True
