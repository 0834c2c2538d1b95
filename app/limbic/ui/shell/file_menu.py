"""The File and Help menus of the main window: files and folders in and out, databases, settings, about."""

from __future__ import annotations

import logging
import re
from pathlib import Path

from dataclasses import dataclass
from typing import Callable

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QAbstractButton, QMenu, QMessageBox

from limbic import config
from limbic.engine.errors import OtherGraphError
from limbic.service.types import ScoringParams
from limbic.service import files, importers
from limbic.ui.common import safe_files
from limbic.ui.common.hooks import StatusLine, WindowHooks
from limbic.ui.dialogs.dialogs import SettingsDialog, ShortcutsDialog
from limbic.ui.editor.entity_editor import EntityEditor
from limbic.ui.shell import sample
from limbic.ui.workers.worker import Engine
from limbic.ui.common.i18n import translate
from limbic.ui.shell.import_words import import_words
from PySide6.QtCore import QT_TRANSLATE_NOOP

logger = logging.getLogger(__name__)

JSONL_FILTER = QT_TRANSLATE_NOOP("FileMenu", "Memory JSONL (*.jsonl *.json);;All files (*)")
IMPORT_FILTER = (
    QT_TRANSLATE_NOOP("FileMenu", "Everything Limbic imports (*.jsonl *.json *.db *.sqlite *.sqlite3 *.csv);;"
    "Memory JSONL (*.jsonl *.json);;Memory engine database (*.db *.sqlite *.sqlite3);;"
    "CSV: entities.csv and relations.csv (*.csv);;All files (*)")
)


@dataclass(frozen=True)
class FileParts:
    """What the File and Help menus work with."""

    engine: Engine
    editor: EntityEditor  # emptied before a backup replaces the graph under it
    status: StatusLine
    hooks: WindowHooks
    sample_button: QAbstractButton  # the empty graph's "Load the sample graph"
    import_button: QAbstractButton  # and its "Import…"
    db_path: Callable[[], Path]  # the open graph file
    open_database: Callable[[str], None]  # open another file in the window (unsaved edits settled)
    rerun_search: Callable[[], None]
    clear_undo: Callable[[], None]  # the undo steps speak of a graph that is no longer there
    quit: Callable[[], object]  # File → Quit
    sync: Callable[[], object] | None = None  # File → Sync… (choose the folder and this device's name)
    conflicts: Callable[[], object] | None = None  # File → Sync conflicts… (the Conflicts view)
    record_step: Callable[[object], None] | None = None  # an import joins Edit → Undo


def importable_kind(path: str) -> str | None:
    """What a file chosen to open as a graph is when it is something to import instead (in words), else None."""
    file = Path(path)
    suffix = file.suffix.lower()
    if file.is_dir():
        return translate("FileMenu", "a folder")
    if not file.is_file():
        return None  # a new name: opening makes a new graph there
    try:
        with open(file, "rb") as fh:
            head = fh.read(len(importers.SQLITE_MAGIC))
    except OSError:
        return None  # opening says why it cannot be read
    if head.startswith(importers.SQLITE_MAGIC) or not head:
        return None
    if suffix in (".jsonl", ".json"):
        return translate("FileMenu", "a memory JSONL file")
    if suffix == ".csv":
        return translate("FileMenu", "a CSV file")
    return None


class FileMenu(QObject):
    """The File and Help menus; owns the settings, the recent files and the file dialogs' last folder."""

    def __init__(self, parts: FileParts) -> None:
        super().__init__(parts.hooks.parent)
        self.p = parts
        self.settings = config.load_settings()
        self.report_shown = False  # an import's bad lines have their own dialog: its end shows no second box
        self.import_problems = None
        self.backups_dialog = None
        self.csv_preview = None  # the preview of a CSV import while it is open

    def build_menus(self, bar) -> QMenu:
        """The File menu (Help comes last: ``build_help_menu``)."""
        add = self.p.hooks.add_action
        f = bar.addMenu(translate("FileMenu", "&File"))
        self.new_db_action = add(f, translate("FileMenu", "&New database…"), self.on_new_database, "Ctrl+Shift+N")
        self.open_db_action = add(f, translate("FileMenu", "&Open database…"), self.on_open_database, "Ctrl+Shift+O")
        self.recent_menu = f.addMenu(translate("FileMenu", "Open &recent"))
        self.recent_menu.aboutToShow.connect(self.fill_recent_menu)
        f.addSeparator()
        self.import_action = add(f, translate("FileMenu", "&Import…"), self.on_import, "Ctrl+I",
                                 tip=translate("FileMenu", "Import memory JSONL, a memory engine database or CSV"))
        self.import_folder_action = add(f, translate("FileMenu", "Import a &folder of notes…"), self.on_import_folder, "Ctrl+Shift+I",
                                        tip=translate("FileMenu", "Import a folder of Markdown notes (an Obsidian vault) or CSV files"))
        self.export_action = add(f, translate("FileMenu", "&Export JSONL…"), self.on_export, "Ctrl+E")
        self.export_md_action = add(f, translate("FileMenu", "Export as &Markdown…"), lambda: self.on_export_folder("markdown"))
        self.export_csv_action = add(f, translate("FileMenu", "Export as &CSV…"), lambda: self.on_export_folder("csv"))
        self.backup_action = add(f, translate("FileMenu", "&Back up now"), self.on_backup, tip=translate("FileMenu", "Copy the graph into its backup folder"))
        self.restore_backup_action = add(f, translate("FileMenu", "Restore from bac&kup…"), self.on_restore_backup,
                                         tip=translate("FileMenu", "Replace the graph with one of its backups, listed with their dates"))
        self.sample_action = add(f, translate("FileMenu", "Load the &sample graph"), self.load_sample)
        if self.p.sync is not None:
            self.sync_action = add(f, translate("FileMenu", "S&ync…"), self.p.sync,
                                   tip=translate("FileMenu", "Keep this graph the same on every device through a folder they all sync"))
        if self.p.conflicts is not None:
            self.conflicts_action = add(f, translate("FileMenu", "Sync &conflicts…"), self.p.conflicts, "Ctrl+Shift+Y",
                                        tip=translate("FileMenu", "What two devices changed alike, to choose for each what to keep"))
        f.addSeparator()
        self.settings_action = add(f, translate("FileMenu", "Se&ttings…"), self.on_settings, "Ctrl+,")
        self.assistants_action = add(f, translate("FileMenu", "&Assistants…"), self.on_assistants,
                                     tip=translate("FileMenu", "What each assistant may read and write; writes held for review"))
        f.addSeparator()
        add(f, translate("FileMenu", "&Quit"), self.p.quit, QKeySequence.StandardKey.Quit)
        self.p.sample_button.clicked.connect(self.load_sample)
        self.p.import_button.clicked.connect(self.on_import)
        return f

    def build_help_menu(self, bar) -> None:
        """Help → Keyboard shortcuts, About."""
        h = bar.addMenu(translate("FileMenu", "&Help"))
        self.p.hooks.add_action(h, translate("FileMenu", "&Keyboard shortcuts"), self.on_shortcuts, QKeySequence.StandardKey.HelpContents)
        self.p.hooks.add_action(h, translate("FileMenu", "&About Limbic"), self.on_about)

    def writing_actions(self) -> tuple:
        """The actions a read-only file turns off."""
        return (self.import_action, self.sample_action, self.import_folder_action, self.restore_backup_action,
                self.backup_action)

    def take_report_shown(self) -> bool:
        """Whether an import's bad lines got their own dialog (asked once, when its job ends)."""
        shown, self.report_shown = self.report_shown, False
        return shown

    def start_folder(self) -> Path:
        """Where file dialogs start: the folder used last, else the open graph's."""
        last = Path(self.settings.last_folder) if getattr(self.settings, "last_folder", None) else None
        return last if last is not None and last.is_dir() else self.p.db_path().parent

    def remember_folder(self, path: str) -> None:
        """The next file dialog starts where this path is."""
        folder = str(Path(path).parent)
        if getattr(self.settings, "last_folder", None) != folder:
            self.settings.last_folder = folder
            config.save_settings(self.settings)

    def ask_open_path(self, title: str, file_filter: str) -> str:
        """A file to read; tests replace this method."""
        path = safe_files.open_file(self.p.hooks.parent, title, str(self.start_folder()), file_filter)
        if path:
            self.remember_folder(path)
        return path

    def ask_save_path(self, title: str, suggested: str, file_filter: str) -> str:
        """A file to write (the filter's first extension is added when the name has none); tests replace this."""
        match = re.search(r"\*\.(\w+)", file_filter)
        path = safe_files.save_file(self.p.hooks.parent, title, suggested, file_filter,
                                    default_suffix=match.group(1) if match else "")
        if path:
            self.remember_folder(path)
        return path

    def on_import(self) -> None:
        """File → Import."""
        path = self.ask_open_path(translate("FileMenu", "Import a file"), translate("FileMenu", IMPORT_FILTER))
        if path:
            self.import_path(path)

    def import_path(self, path: str) -> None:
        """Import a file or folder of any kind Limbic reads as a long job (progress, cancel); the results
        and counts follow its commits. CSV is previewed first: its columns are the person's own."""
        try:
            csv = importers.detect_kind(Path(path)) == "csv"
        except importers.ImportInputError:
            csv = False  # the import itself says why in a sentence
        if csv:
            self.p.engine.read("csv-preview", importers.preview_csv, path, what=translate("FileMenu", "reading the CSV files"),
                               on_done=self.show_csv_preview)
            return
        self.run_import(path, importers.import_any)

    def run_import(self, path: str, fn, *args: object) -> None:
        """The import job of ``fn(graph, path, *args)``, its sentence when it ends; it joins Edit → Undo."""
        name = Path(path).name

        def done(summary) -> None:
            from limbic.service.importers.import_undo import import_step

            step = import_step(name, summary)
            if step is not None and self.p.record_step is not None:
                self.p.record_step(step)
            self.p.status.say(translate("FileMenu", "Imported {name}: {describe}").format(name=name, describe=import_words(summary)), 15_000, details=summary.details())

        self.p.engine.run("import", fn, path, *args, what="importing", job=translate("FileMenu", "Importing {name}").format(name=name),
                          on_done=done, on_failed=self.on_import_failed)

    def show_csv_preview(self, preview) -> None:
        """What a CSV import would bring; it runs only after Import (never when nothing maps to a name)."""
        from limbic.ui.dialogs.csv_preview import CsvPreviewDialog

        dialog = CsvPreviewDialog(preview, self.p.hooks.parent)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.csv_preview = dialog
        dialog.accepted.connect(lambda: self.run_import(preview.path, importers.import_csv_job, dialog.keep_columns()))
        dialog.rejected.connect(lambda: self.p.status.say(
            translate("FileMenu", "{name} was not imported.").format(name=Path(preview.path).name) if preview.problem is None else preview.problem))
        dialog.open()

    def on_import_failed(self, failure) -> None:
        """Bad lines get a dialog listing each (it stays until dismissed); other failures a sentence."""
        from limbic.engine.errors import ImportFileError

        error = failure.error
        if isinstance(error, ImportFileError) and error.line > 0:
            from limbic.ui.dialogs.import_report import ImportProblemsDialog

            dialog = ImportProblemsDialog(error.path, error.problems, error.total, self.p.hooks.parent)
            dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            self.import_problems = dialog
            self.report_shown = True  # the job's end shows no second box
            dialog.show()

    def load_sample(self) -> None:
        """Import the bundled sample graph (a graph with entities asks first)."""
        sample.load_sample(self)

    def ask_sample(self, entities: int) -> bool:
        """Load or Cancel, before the sample joins a graph with entities; tests replace this method."""
        return sample.ask_sample(self.p.hooks.parent, entities, self.p.db_path().name)

    def on_export(self) -> None:
        """File → Export JSONL."""
        suggested = str(self.start_folder() / f"{self.p.db_path().stem}.jsonl")
        path = self.ask_save_path(translate("FileMenu", "Export memory JSONL"), suggested, translate("FileMenu", JSONL_FILTER))
        if not path:
            return
        if not Path(path).suffix:
            path += ".jsonl"  # exported files get their extension
        force = self._confirm_replacing(path, "jsonl")
        if force is None:
            return
        catalog = self.p.hooks.catalog()
        counts = dict(catalog.counts) if catalog else {}

        def done(_lines: int) -> None:
            entities, relations = counts.get("entities", 0), counts.get("relations", 0)
            what = translate("FileMenu", "{entities} and {relations}").format(
                entities=translate("FileMenu", "%n entities", "", entities),
                relations=translate("FileMenu", "%n relations", "", relations)) if counts else translate("FileMenu", "the graph")
            self.p.status.say(translate("FileMenu", "Exported {what} to {path}.").format(what=what, path=path), 15_000)

        self.p.engine.run("export", files.export_jsonl, path, force, what="exporting",
                        job=translate("FileMenu", "Exporting to {name}").format(name=Path(path).name), on_done=done)

    def _confirm_replacing(self, path: str, kind: str) -> bool | None:
        """False: nothing to replace; True: the person agreed to replace a file that is not an earlier
        export; None: they did not. Tests replace ``ask_replace``."""
        from limbic.service.export_guard import overwrite_problem

        problem = overwrite_problem(path, kind)
        if problem is None:
            return False
        return True if self.ask_replace(translate("FileMenu", "{problem}. Replace it with the export?").format(problem=problem)) else None

    def ask_replace(self, question: str) -> bool:
        """Yes or Cancel to replacing a file; tests replace this method."""
        answer = QMessageBox.question(self.p.hooks.parent, translate("FileMenu", "Replace a file"), question,
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                                      QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Yes

    def on_backup(self) -> None:
        """File → Back up now."""
        self.p.engine.run("backup", files.backup_sentence, what=translate("FileMenu", "backing up"), job=translate("FileMenu", "Backing up"),
                          on_done=lambda sentence: self.p.status.say(sentence, 15_000))

    def on_restore_backup(self) -> None:
        """File → Restore from backup: list the backups (read on the reader's connection), then offer them."""
        from limbic.service import backups

        self.p.engine.read("backups", backups.list_backups, what=translate("FileMenu", "listing the backups"), on_done=self.show_backups)

    def show_backups(self, rows) -> None:
        """The backups, listed with their dates, each one to restore."""
        from limbic.ui.dialogs.backups_dialog import BackupsDialog

        dialog = BackupsDialog(rows, self.p.db_path().name, self.p.hooks.parent)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.restore_requested.connect(self.restore_backup)
        self.backups_dialog = dialog
        dialog.open()

    def restore_backup(self, path: str, force: bool = False) -> None:
        """Replace the open graph with a backup, as a job; the window re-reads everything after.
        A file of another graph is restored only after the person says so."""
        from limbic.service import backups

        if self.p.hooks.refused_during_job(translate("FileMenu", "Restoring a backup")):
            return

        def restore() -> None:
            self.p.editor.clear()
            self.p.engine.run("restore-backup", backups.restore_backup, path, force, what=translate("FileMenu", "restoring the backup"),
                              job=translate("FileMenu", "Restoring a backup"), on_done=restored, on_failed=failed)

        def failed(failure) -> None:
            if isinstance(failure.error, OtherGraphError):
                self.report_shown = True  # the question below replaces the error box
                QTimer.singleShot(0, lambda: self.ask_replace(f"{failure.message.split('. To replace')[0]}. "
                                                              "Replace the open graph with it anyway? The graph as "
                                                              "it is now is backed up first.")
                                  and self.restore_backup(path, force=True))

        def restored(before: str) -> None:
            self.p.clear_undo()  # the steps speak of a graph that is no longer there
            self.p.status.say(translate("FileMenu", "Restored the backup; the graph as it was is kept in {before}.").format(before=before), 15_000)

        self.p.hooks.guard(restore)

    def switch_database(self, path: str) -> None:
        """Open another graph file in this window."""
        self.p.hooks.guard(lambda: self.p.open_database(path))

    def remember_db(self, path: str) -> None:
        """A file that opened joins Open recent."""
        # Read again first: sync keeps this device's id and each file's folder in the same settings, and
        # saving a copy read at start would forget them (the next sync would take the file for a clone).
        self.settings = config.load_settings()
        recent = [p for p in self.settings.recent_dbs if p != path]
        self.settings.recent_dbs = [path, *recent][:10]
        config.save_settings(self.settings)

    def on_new_database(self) -> None:
        """File → New database."""
        path = self.ask_save_path(translate("FileMenu", "New database"), str(self.start_folder() / "new.db"), translate("FileMenu", "Limbic database (*.db)"))
        if path:
            if not Path(path).suffix:
                path += ".db"
            if Path(path).exists():
                self.p.status.say(translate("FileMenu", "{path} already exists; use File → Open database to open it.").format(path=path))
                return
            self.switch_database(path)

    def on_open_database(self) -> None:
        """File → Open database."""
        path = self.ask_open_path(translate("FileMenu", "Open database"), translate("FileMenu", "Limbic database (*.db);;All files (*)"))
        if not path:
            return
        kind = importable_kind(path)
        if kind is not None:
            # Memory JSONL, CSV or notes are not a graph file: opening one would make a new, empty graph
            # beside it (or fail); what the person wants is its contents, so offer to import them.
            if self.ask_import(translate("FileMenu", "{name} is {kind}, not a Limbic graph. Import it into the open graph "
                                   "({name2})?").format(name=Path(path).name, kind=kind, name2=self.p.db_path().name)):
                self.import_path(path)
            return
        self.switch_database(path)

    def ask_import(self, question: str) -> bool:
        """Import or Cancel, for a file chosen to open that is not a graph; tests replace this method."""
        box = QMessageBox(QMessageBox.Icon.Question, translate("FileMenu", "Not a graph file"), question,
                          QMessageBox.StandardButton.Cancel, self.p.hooks.parent)
        do = box.addButton(translate("FileMenu", "Import"), QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(do)
        box.exec()
        return box.clickedButton() is do

    def recent_databases(self) -> list[str]:
        """Recently opened graph files that still exist, newest first, without the open one."""
        current = str(self.p.db_path())
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
            menu.addAction(translate("FileMenu", "No other recent databases")).setEnabled(False)

    def on_recent_triggered(self) -> None:
        """File → Open recent → a file."""
        action = self.sender()
        if action is not None and action.data():
            self.switch_database(str(action.data()))

    def on_settings(self) -> None:
        """File → Settings."""
        dialog = SettingsDialog(self.settings, str(self.p.db_path()), self.p.hooks.parent, assistants=self.on_assistants)
        if dialog.exec() != SettingsDialog.DialogCode.Accepted:
            return
        self.apply_settings(dialog.result_settings())

    def on_assistants(self) -> None:
        """File → Assistants (the Assistants page of the settings that live in the graph)."""
        from limbic.ui.dialogs.assistants_dialog import AssistantsDialog

        if self.p.hooks.catalog() is None:
            self.p.status.say(translate("FileMenu", "Open a graph to see its assistants."), 4000)
            return
        AssistantsDialog(self.p.engine, self.p.hooks.parent).exec()

    def apply_settings(self, new: config.Settings) -> None:
        """Save the settings and apply what changed: file, model, scoring constants."""
        old = self.settings
        current = config.load_settings()  # sync's own entries may have changed since the dialog was filled
        new.sync_folders, new.sync_devices = current.sync_folders, current.sync_devices
        new.sync_device_name = current.sync_device_name
        self.settings = new
        config.save_settings(new)
        self.p.engine.set_params(ScoringParams.from_overrides(new.scoring))
        if new.theme != old.theme:
            from PySide6.QtWidgets import QApplication

            from limbic.ui.common import theme

            theme.set_scheme(QApplication.instance(), new.theme)
        if new.language != old.language:
            self.p.status.say(translate("FileMenu", "The window's language changes when Limbic starts again."), 8000)
        if new.model_dir != old.model_dir:
            self.p.engine.sig_load_model.emit(str(config.model_dir_override() or ""))
        if new.db_path and Path(new.db_path) != self.p.db_path():
            self.switch_database(new.db_path)
        self.p.rerun_search()

    def on_shortcuts(self) -> None:
        """Help → Keyboard shortcuts."""
        ShortcutsDialog(self.p.hooks.parent).exec()

    def on_about(self) -> None:
        """Help → About Limbic."""
        from limbic import __version__

        QMessageBox.about(
            self.p.hooks.parent, translate("FileMenu", "About Limbic"),
            translate("FileMenu", "<b>Limbic {version}</b><p>A personal knowledge graph with local "
                "hybrid search: meaning and exact words, re-ranked by how you use the "
                "graph. Everything stays on this computer.</p>").format(version=__version__),
        )

    def ask_folder(self, title: str, create: bool = False) -> str:
        """A folder to read (or, with ``create``, to write: a typed new name is made); tests replace this method."""
        ask = safe_files.folder_to_write if create else safe_files.existing_folder
        path = ask(self.p.hooks.parent, title, str(self.start_folder()))  # the last folder used
        if path:
            self.remember_folder(path + "/")
        return path

    def on_import_folder(self) -> None:
        """File → Import a folder of notes (Markdown, an Obsidian vault, CSV files)."""
        path = self.ask_folder(translate("FileMenu", "Import a folder of Markdown notes (an Obsidian vault) or of CSV files"))
        if path:
            self.import_path(path)

    def on_export_folder(self, fmt: str) -> None:
        """File → Export as Markdown or CSV, into a folder."""
        path = self.ask_folder(translate("FileMenu", "Export as Markdown notes into a folder") if fmt == "markdown"
                               else translate("FileMenu", "Export as CSV files into a folder"),
                               create=True)
        if not path:
            return
        from limbic.service.export_guard import folder_problem

        # A folder that is not an earlier export of this kind (a vault, a Markdown export) is written
        # into only when the person says so: its own files stay, the export's are added beside them.
        problem = folder_problem(path, fmt)
        force = False
        if problem is not None:
            problem = problem.split("; nothing was exported")[0]
            if not self.ask_replace((translate("FileMenu", "{problem}. Write the notes into it anyway, beside what it holds?") if fmt == "markdown"
                                    else translate("FileMenu", "{problem}. Write the CSV files into it anyway, beside what it "
                                                   "holds?")).format(problem=problem)):
                self.p.status.say(translate("FileMenu", "Nothing was exported; {name} was left as it is.").format(name=Path(path).name))
                return
            force = True
        self.p.engine.run("export", importers.export_job, fmt, path, force, what="exporting",
                          job=translate("FileMenu", "Exporting to {name}").format(name=Path(path).name),
                          on_done=lambda message: self.p.status.say(message, 15_000))
