"""The File and Help menus of the main window: files in and out, databases, settings, about."""

from __future__ import annotations

import logging
import re
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QMessageBox

from limbic import config
from limbic.engine.backup import OtherGraphError
from limbic.engine.scoring import ScoringParams
from limbic.service import files, importers
from limbic.ui import safe_files
from limbic.ui.dialogs import SettingsDialog, ShortcutsDialog
from limbic.engine.wording import counted

logger = logging.getLogger(__name__)

SAMPLE_FILE = "sample_graph.jsonl"
JSONL_FILTER = "Memory JSONL (*.jsonl *.json);;All files (*)"
IMPORT_FILTER = (
    "Everything Limbic imports (*.jsonl *.json *.db *.sqlite *.sqlite3 *.csv);;"
    "Memory JSONL (*.jsonl *.json);;Memory engine database (*.db *.sqlite *.sqlite3);;"
    "CSV: entities.csv and relations.csv (*.csv);;All files (*)"
)


class FileMenuMixin:
    """Handlers of the File and Help menus; mixed into MainWindow, which provides engine, status and editor."""

    def start_folder(self) -> Path:
        """Where file dialogs start: the folder used last, else the open graph's."""
        last = Path(self.settings.last_folder) if getattr(self.settings, "last_folder", None) else None
        return last if last is not None and last.is_dir() else self.db_path.parent

    def _remember_folder(self, path: str) -> None:
        folder = str(Path(path).parent)
        if getattr(self.settings, "last_folder", None) != folder:
            self.settings.last_folder = folder
            config.save_settings(self.settings)

    def _ask_open_path(self, title: str, file_filter: str) -> str:
        """A file to read; tests replace this method."""
        path = safe_files.open_file(self, title, str(self.start_folder()), file_filter)
        if path:
            self._remember_folder(path)
        return path

    def _ask_save_path(self, title: str, suggested: str, file_filter: str) -> str:
        """A file to write (the filter's first extension is added when the name has none); tests replace this."""
        match = re.search(r"\*\.(\w+)", file_filter)
        path = safe_files.save_file(self, title, suggested, file_filter, default_suffix=match.group(1) if match else "")
        if path:
            self._remember_folder(path)
        return path

    def on_import(self) -> None:
        path = self._ask_open_path("Import a file", IMPORT_FILTER)
        if path:
            self.import_path(path)

    def import_path(self, path: str) -> None:
        """Import a file or folder of any kind Limbic reads as a long job (progress, cancel); the results
        and counts follow its commits."""
        name = Path(path).name
        self.engine.run("import", importers.import_any, path, what="importing", job=f"Importing {name}",
                        on_done=lambda summary: self.status.say(f"Imported {name}: {summary.describe()}", 15_000,
                                                                details=summary.details()),
                        on_failed=self.on_import_failed)

    def on_import_failed(self, failure) -> None:
        """Bad lines get a dialog listing each (it stays until dismissed); other failures a sentence."""
        from limbic.engine.errors import ImportFileError

        error = failure.error
        if isinstance(error, ImportFileError) and error.line > 0:
            from limbic.ui.import_report import ImportProblemsDialog

            dialog = ImportProblemsDialog(error.path, error.problems, error.total, self)
            dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            self.import_problems = dialog
            self._import_report_shown = True  # the job's end shows no second box
            dialog.show()

    def load_sample(self) -> None:
        """Import the bundled sample graph."""
        path = config.resources_dir() / SAMPLE_FILE
        if not path.is_file():
            self.status.say(f"The sample graph is missing from this installation ({path}).")
            return
        self.import_path(str(path))

    def on_export(self) -> None:
        suggested = str(self.start_folder() / f"{self.db_path.stem}.jsonl")
        path = self._ask_save_path("Export memory JSONL", suggested, JSONL_FILTER)
        if not path:
            return
        if not Path(path).suffix:
            path += ".jsonl"  # exported files get their extension
        force = self._confirm_replacing(path, "jsonl")
        if force is None:
            return
        counts = dict(self.catalog.counts) if self.catalog else {}

        def done(_lines: int) -> None:
            what = f"{counted(counts.get('entities', 0), 'entity')} and {counted(counts.get('relations', 0), 'relation')}" if counts else "the graph"
            self.status.say(f"Exported {what} to {path}.", 15_000)

        self.engine.run("export", files.export_jsonl, path, force, what="exporting",
                        job=f"Exporting to {Path(path).name}", on_done=done)

    def _confirm_replacing(self, path: str, kind: str) -> bool | None:
        """False: nothing to replace; True: the person agreed to replace a file that is not an earlier
        export; None: they did not. Tests replace ``_ask_replace``."""
        from limbic.service.export_guard import overwrite_problem

        problem = overwrite_problem(path, kind)
        if problem is None:
            return False
        return True if self._ask_replace(f"{problem}. Replace it with the export?") else None

    def _ask_replace(self, question: str) -> bool:
        answer = QMessageBox.question(self, "Replace a file", question,
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                                      QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Yes

    def on_backup(self) -> None:
        self.engine.run("backup", files.backup_sentence, what="backing up", job="Backing up",
                        on_done=lambda sentence: self.status.say(sentence, 15_000))

    def on_restore_backup(self) -> None:
        """File → Restore from backup: list the backups (read on the reader's connection), then offer them."""
        from limbic.service import backups

        self.engine.read("backups", backups.list_backups, what="listing the backups", on_done=self.show_backups)

    def show_backups(self, rows) -> None:
        from limbic.ui.backups_dialog import BackupsDialog

        dialog = BackupsDialog(rows, self.db_path.name, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.restore_requested.connect(self.restore_backup)
        self.backups_dialog = dialog
        dialog.open()

    def restore_backup(self, path: str, force: bool = False) -> None:
        """Replace the open graph with a backup, as a job; the window re-reads everything after.
        A file of another graph is restored only after the person says so."""
        from limbic.service import backups

        if self.refused_during_job("Restoring a backup"):
            return

        def restore() -> None:
            self.editor.clear()
            self.engine.run("restore-backup", backups.restore_backup, path, force, what="restoring the backup",
                            job="Restoring a backup", on_done=restored, on_failed=failed)

        def failed(failure) -> None:
            if isinstance(failure.error, OtherGraphError):
                self._import_report_shown = True  # the question below replaces the error box
                QTimer.singleShot(0, lambda: self._ask_replace(f"{failure.message.split('. To replace')[0]}. "
                                                               "Replace the open graph with it anyway? The graph as "
                                                               "it is now is backed up first.")
                                  and self.restore_backup(path, force=True))

        def restored(before: str) -> None:
            self.undo_history.clear()  # the steps speak of a graph that is no longer there
            self._update_undo_actions()
            self.status.say(f"Restored the backup; the graph as it was is kept in {before}.", 15_000)

        self._guard(restore)

    def switch_database(self, path: str) -> None:
        """Open another graph file in this window."""
        def switch() -> None:
            # History and undo are cleared once the new file opens: a file that fails leaves them as they were.
            self._reopen_after_failure = self.editor.entity_id
            self._new_graph_note = config.new_graph_note(Path(path))
            self.editor.clear()
            self.model.clear()
            self.engine.sig_open.emit(path)
        self._guard(switch)

    def _remember_db(self, path: str) -> None:
        recent = [p for p in self.settings.recent_dbs if p != path]
        self.settings.recent_dbs = [path, *recent][:10]
        config.save_settings(self.settings)

    def on_new_database(self) -> None:
        path = self._ask_save_path("New database", str(self.start_folder() / "new.db"), "Limbic database (*.db)")
        if path:
            if not Path(path).suffix:
                path += ".db"
            if Path(path).exists():
                self.status.say(f"{path} already exists; use File → Open database to open it.")
                return
            self.switch_database(path)

    def on_open_database(self) -> None:
        path = self._ask_open_path("Open database", "Limbic database (*.db);;All files (*)")
        if path:
            self.switch_database(path)

    def recent_databases(self) -> list[str]:
        """Recently opened graph files that still exist, newest first, without the open one."""
        current = str(self.db_path)
        return [p for p in self.settings.recent_dbs if p != current and Path(p).is_file()]

    def fill_recent_menu(self) -> None:
        """Rebuilt each time the menu opens, so it never offers a file that is gone."""
        menu = self.recent_menu
        menu.clear()
        paths = self.recent_databases()
        for i, path in enumerate(paths, start=1):
            action = menu.addAction(f"&{i % 10} {Path(path).name}  —  {Path(path).parent}")
            action.setToolTip(path)
            action.setData(path)
            action.triggered.connect(self.on_recent_triggered)
        if not paths:
            menu.addAction("No other recent databases").setEnabled(False)

    def on_recent_triggered(self) -> None:
        action = self.sender()
        if action is not None and action.data():
            self.switch_database(str(action.data()))

    def on_settings(self) -> None:
        dialog = SettingsDialog(self.settings, str(self.db_path), self)
        if dialog.exec() != SettingsDialog.DialogCode.Accepted:
            return
        self.apply_settings(dialog.result_settings())

    def apply_settings(self, new: config.Settings) -> None:
        """Save the settings and apply what changed: file, model, scoring constants."""
        old = self.settings
        self.settings = new
        config.save_settings(new)
        self.engine.set_params(ScoringParams.from_overrides(new.scoring))
        if new.theme != old.theme:
            from PySide6.QtWidgets import QApplication

            from limbic.ui import theme

            theme.set_scheme(QApplication.instance(), new.theme)
        if new.model_dir != old.model_dir:
            self.engine.sig_load_model.emit(str(config.model_dir_override() or ""))
        if new.db_path and Path(new.db_path) != self.db_path:
            self.switch_database(new.db_path)
        self.rerun_search()

    def on_shortcuts(self) -> None:
        ShortcutsDialog(self).exec()

    def on_about(self) -> None:
        from limbic import __version__

        QMessageBox.about(
            self, "About Limbic",
            f"<b>Limbic {__version__}</b><p>A personal knowledge graph with local hybrid search: "
            "meaning and exact words, re-ranked by how you use the graph. Everything stays on this computer.</p>",
        )
