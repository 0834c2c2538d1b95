"""File → Import a folder (Markdown notes, an Obsidian vault, CSV files) and File → Export as
Markdown or CSV, run as jobs on the engine's thread; and the editor's status changes, applied at once."""

from __future__ import annotations

import logging
from pathlib import Path

from limbic.service.importers import export_job
from limbic.ui import safe_files

logger = logging.getLogger(__name__)


def set_status(graph, entity_id: int, status: str) -> int:
    graph.set_status(entity_id, status)
    return entity_id


class ImportMenuMixin:
    """Mixed into MainWindow, which provides engine, status, editor and ``import_path``."""

    def _ask_folder(self, title: str, create: bool = False) -> str:
        """A folder to read (or, with ``create``, to write: a typed new name is made); tests replace this method."""
        ask = safe_files.folder_to_write if create else safe_files.existing_folder
        path = ask(self, title, str(self.start_folder()))  # the last folder used
        if path:
            self._remember_folder(path + "/")
        return path

    def on_import_folder(self) -> None:
        path = self._ask_folder("Import a folder of Markdown notes (an Obsidian vault) or of CSV files")
        if path:
            self.import_path(path)

    def on_export_folder(self, fmt: str) -> None:
        path = self._ask_folder(f"Export as {'Markdown notes' if fmt == 'markdown' else 'CSV files'} into a folder",
                                create=True)
        if path:
            self.engine.run("export", export_job, fmt, path, what="exporting", job=f"Exporting to {Path(path).name}",
                            on_done=lambda message: self.status.say(message, 15_000))

    def on_status_requested(self, entity_id: int, status: str) -> None:
        self.engine.run("status", set_status, entity_id, status, what="changing the status",
                        on_done=self._on_status_saved)

    def _on_status_saved(self, entity_id: int) -> None:
        """Show the saved status (and the new updated time); unsaved edits in the editor are left alone."""
        if self.editor.entity_id == entity_id and not self.editor.is_dirty():
            self._navigating = True  # a reload, not a visit
            self.load_entity(entity_id)
