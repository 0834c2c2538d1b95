"""The main window: search bar, result list, entity editor, menus; every engine call goes to the worker."""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QLabel,
    QListView,
    QApplication,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QSpacerItem,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from limbic import config
from limbic.service.types import ChangeSet, ORIGIN_ASSISTANT, SYNC_ORIGIN, ScoringParams
from limbic.service.catalog import CatalogDelta
from limbic.ui.shell import features
from limbic.ui.common.hooks import add_action
from limbic.ui.editor.entity_editor import EntityEditor
from limbic.ui.search.home import HomeList
from limbic.ui.search.results import ResultDelegate, ResultList, ResultModel
from limbic.ui.search.search_bar import SearchBar
from limbic.ui.shell.assembly import assemble
from limbic.ui.shell.status import StatusPanel
from limbic.ui.shell.undo import WindowKeys
from limbic.ui.common.window_state import WindowLayout, restore_layout, save_layout, saved_graph_view
from limbic.ui.workers.worker import Catalog, Engine
from limbic.ui.common.i18n import translate
from PySide6.QtCore import QT_TRANSLATE_NOOP

logger = logging.getLogger(__name__)

DEFAULT_SIZE = (1180, 760)


class MainWindow(QMainWindow):
    """One window on one graph file.

    The window owns the widgets, the open file's state (path, catalog, read-only, model) and the
    engine; each part owns its own state and is reached by name: ``search`` (queries and result
    lists), ``entities`` (the editor's entity: open, navigate, save, delete), ``undo``, ``files``
    (File and Help menus, settings), ``organise``, ``graph`` (the graph dock) and ``activity`` (what
    assistants did: the panel, its badge and the conflict dialog).
    """

    # UI-thread events (tests wait on these rather than on the worker's signals, which fire in its thread).
    results_arrived = Signal(int)  # request id of any results that reached the window, stale or not
    results_shown = Signal(int)  # request id of the results now on screen
    entity_shown = Signal(int)  # entity id now in the editor
    entity_saved = Signal(int)
    entity_deleted = Signal(str)
    job_ended = Signal(str, bool)  # job kind, finished (False: cancelled or failed)
    error_shown = Signal(str)
    changes_shown = Signal(object)  # a ChangeSet the window has refreshed for (own or another program's)
    step_done = Signal(str)  # the label of an action just undone or redone

    def __init__(self, db_path: Path | None = None) -> None:
        super().__init__()
        self.db_path = Path(db_path) if db_path else config.default_db_path()
        self.setWindowTitle(translate("MainWindow", "Limbic"))
        self.resize(*DEFAULT_SIZE)
        self.catalog: Catalog | None = None
        self.model_name = ""
        self.open_error = ""  # why the file could not be opened, while that is so
        self.readonly = False
        self._new_graph_note = config.new_graph_note(self.db_path)  # said once the file opens
        self._reopen_after_failure: int | None = None  # the entity to show again if another file fails to open

        self.engine = Engine(self)
        self._build_ui()
        assemble(self)  # the parts, each given what it works with
        self._build_actions()
        self._connect_engine()
        self._layout = WindowLayout(self, self.splitter, self.left, self.editor, self.editor.splitter)
        restore_layout(self._layout, DEFAULT_SIZE)
        self._reopen_graph = saved_graph_view()  # the graph panel comes back once the file is open
        # Undo, Export and the search box's Ctrl+Delete reach the window from any focused field.
        self.keys = WindowKeys(self, self.search_bar.edit, self.undo.has_steps)
        QApplication.instance().installEventFilter(self.keys)

    # -- construction -----------------------------------------------------------------------

    def _build_ui(self) -> None:
        self.search_bar = SearchBar(self)
        self.model = ResultModel(self)
        self.results = ResultList(self, objectName="results")
        self.results.setModel(self.model)
        self.results.setItemDelegate(ResultDelegate(self.results))
        self.results.setUniformItemSizes(True)
        self.results.setAccessibleName(translate("MainWindow", "Results"))
        self.results.setToolTip("")
        self.results.setVerticalScrollMode(QListView.ScrollMode.ScrollPerPixel)
        # Rows are as wide as the list: the branch badge and the score never scroll out of view.
        self.results.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        self.empty_hint = QWidget(self)
        hint_layout = QVBoxLayout(self.empty_hint)
        hint_layout.addStretch(1)
        label = QLabel(translate("MainWindow", "This graph is empty.\nLoad a small sample graph to try the search, or import your own notes or memory file."),
                       self.empty_hint, objectName="emptyHint", alignment=Qt.AlignmentFlag.AlignCenter)
        label.setWordWrap(True)
        self.sample_button = QPushButton(translate("MainWindow", "Load the sample graph"), self.empty_hint, objectName="sampleButton")
        self.import_button = QPushButton(translate("MainWindow", "Import…"), self.empty_hint)
        hint_layout.addWidget(label)
        hint_layout.addWidget(self.sample_button, 0, Qt.AlignmentFlag.AlignCenter)
        hint_layout.addWidget(self.import_button, 0, Qt.AlignmentFlag.AlignCenter)
        hint_layout.addStretch(2)

        self.left = QStackedWidget(self)
        self.left.addWidget(self.results)
        self.left.addWidget(self.empty_hint)
        self.home = HomeList(self)  # what an empty query shows
        self.left.addWidget(self.home)
        self.editor = EntityEditor(self)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self, objectName="mainSplitter")
        self.splitter.addWidget(self.left)
        self.splitter.addWidget(self.editor)
        self.splitter.setStretchFactor(0, 5)
        self.splitter.setStretchFactor(1, 4)
        self.splitter.setChildrenCollapsible(False)

        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(10, 10, 10, 4)
        layout.addWidget(self.search_bar)
        self.result_count = QLabel("", central, objectName="resultCount")
        self.result_count.hide()
        layout.addWidget(self.result_count)
        layout.addWidget(self.splitter, 1)
        self.setCentralWidget(central)
        self.status = StatusPanel(self)
        self.setStatusBar(self.status)
        self.status.set_model(translate("MainWindow", "Model: loading…"), translate("MainWindow", "The embedding model loads in the background"))

        self.editor.dirty_changed.connect(self.on_dirty_changed)
        self.status.cancel_clicked.connect(self.on_cancel)

    def add_action(self, menu, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        """A menu entry of this window (its shortcut works while the window has focus)."""
        return add_action(self, menu, text, slot, shortcut, tip)

    def _build_actions(self) -> None:
        bar = self.menuBar()
        self.files.build_menus(bar)
        e = bar.addMenu(translate("MainWindow", "&Edit"))
        self.new_action = self.add_action(e, translate("MainWindow", "&New entity"), self.entities.on_new_entity, QKeySequence.StandardKey.New)
        self.save_action = self.add_action(e, translate("MainWindow", "&Save entity"), self.editor.on_save, QKeySequence.StandardKey.Save)
        self.delete_action = self.add_action(e, translate("MainWindow", "&Delete entity…"), self.editor.on_delete, "Ctrl+Delete")
        self.undo.build_actions(e)
        g = bar.addMenu(translate("MainWindow", "&Go"))
        self.focus_action = self.add_action(g, translate("MainWindow", "&Search"), self.search_bar.focus, "Ctrl+K")
        self.entities.build_actions(g)
        self.organise.build_menu(bar)
        self.graph.build_menu(bar)
        self.activity.build_menu(bar)
        self.files.build_help_menu(bar)
        # "/" focuses the search too; text fields take it as a character before shortcuts see it.
        slash = QShortcut(QKeySequence("/"), self)
        slash.activated.connect(self.search_bar.focus)
        features.install(self)

    def _connect_engine(self) -> None:
        w = self.engine.worker
        w.opened.connect(self.on_opened)
        w.open_failed.connect(self.on_open_failed)
        w.catalog_changed.connect(self.on_catalog)
        w.catalog_delta.connect(self.on_catalog_delta)
        w.model_loading.connect(self.on_model_loading)
        w.model_ready.connect(self.on_model_ready)
        w.model_failed.connect(self.on_model_failed)
        w.job_started.connect(self.status.job_started)
        w.progress.connect(self.status.job_progress)
        w.job_finished.connect(self.on_job_finished)
        w.job_cancelled.connect(self.on_job_cancelled)
        w.failed.connect(self.on_failed)
        w.outside_changes.connect(self.on_outside_changes)
        self.engine.changes_applied.connect(self.on_own_changes)
        self.engine.job_done.connect(self.on_job_done)
        self.engine.reader.worker.counts_changed.connect(self.on_counts)

    def start(self) -> None:
        """Open the file, then load the model: the window is already on screen meanwhile."""
        self.engine.sig_params.emit(ScoringParams.from_overrides(self.files.settings.scoring))
        self.engine.sig_open.emit(str(self.db_path))
        self.engine.sig_load_model.emit(str(config.model_dir_override() or ""))

    # -- window state -----------------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        if self.editor.is_dirty():
            choice = self.ask_unsaved()
            if choice == QMessageBox.StandardButton.Cancel:
                event.ignore()
                return
            if choice == QMessageBox.StandardButton.Save:
                event.ignore()
                self.entities.save_then(self.close)
                return
            self.editor.clear()
        save_layout(self._layout, self.graph.open_mode())
        QApplication.instance().removeEventFilter(self.keys)
        self.engine.stop()
        event.accept()

    # -- unsaved changes --------------------------------------------------------------------

    def ask_unsaved(self) -> QMessageBox.StandardButton:
        """Save, Discard or Cancel; tests replace this method."""
        name = self.editor.draft().name or translate("MainWindow", "the new entity")
        return QMessageBox.question(
            self, translate("MainWindow", "Unsaved changes"), translate("MainWindow", "Save the changes to “{name}”?").format(name=name),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save,
        )

    def guard(self, then) -> None:
        """Run ``then`` now, or after the user saved or discarded the editor's changes."""
        if not self.editor.is_dirty():
            then()
            return
        choice = self.ask_unsaved()
        if choice == QMessageBox.StandardButton.Save:
            self.entities.save_then(then)
        elif choice == QMessageBox.StandardButton.Discard:
            self.editor.revert()
            then()

    def refused_during_job(self, what: str) -> bool:
        """True (and says why) when a long job holds the graph: a change is refused, never queued."""
        if not self.engine.busy_job:
            return False
        self.entities.after_save = None
        self.status.say(translate("MainWindow", "{what} has to wait until the running job ends (or is cancelled); "
                            "nothing was lost.").format(what=what), 10_000)
        return True

    def open_entity(self, ref: int | str, record: bool = False) -> None:
        """Show an entity in the editor (after asking about unsaved changes); ``record`` counts an access."""
        self.entities.open_entity(ref, record)

    def load_entity(self, ref: int | str, record: bool = False) -> int:
        """Load an entity into the editor now (no questions); the newest request wins."""
        return self.entities.load_entity(ref, record)

    def rerun_search(self) -> None:
        """Run the current query again."""
        self.search.rerun()

    def open_database(self, path: str) -> None:
        """Open another graph file in this window (unsaved edits already settled)."""
        # History and undo are cleared once the new file opens: a file that fails leaves them as they were.
        self._reopen_after_failure = self.editor.entity_id
        self._new_graph_note = config.new_graph_note(Path(path))
        self.editor.clear()
        self.model.clear()
        self.engine.sig_open.emit(path)

    def on_dirty_changed(self, dirty: bool) -> None:
        """The window's title marks unsaved edits."""
        self.setWindowModified(dirty)
        self.setWindowTitle(self._title())

    def _title(self) -> str:
        return (translate("MainWindow", "Limbic — {name} (read-only)[*]") if self.readonly
                else translate("MainWindow", "Limbic — {name}[*]")).format(name=self.db_path.name)

    def _enable_editing(self, enabled: bool) -> None:
        """A read-only file: every action that would write is off from the start, and says why."""
        why = "" if enabled else translate("MainWindow", " (the file is read-only)")
        for action in (self.new_action, self.save_action, self.delete_action, *self.files.writing_actions(),
                       *self.organise.writing_actions()):
            action.setEnabled(enabled)
            base = action.toolTip().split(" (the file is read-only)")[0]
            action.setToolTip(base + why)
        self.sample_button.setEnabled(enabled)
        self.import_button.setEnabled(enabled)
        self.editor.set_editable(enabled)
        self.undo.update_actions()

    # -- engine events ----------------------------------------------------------------------

    @Slot(object)
    def on_opened(self, catalog: Catalog) -> None:
        self.open_error = ""
        self._reopen_after_failure = None
        if Path(catalog.path) != self.db_path:  # another file: history and undo speak of the old one
            self.entities.clear_history()
            self.undo.clear()
        self.db_path = Path(catalog.path)
        self.files.remember_db(str(self.db_path))  # only files that opened join Open recent
        self.readonly = bool(catalog.readonly_note)
        self.setWindowTitle(self._title())
        self._enable_editing(not self.readonly)
        if self._new_graph_note:
            self.status.say(self._new_graph_note, 20_000)
        self.on_catalog(catalog)
        self.status.set_readonly(catalog.readonly_note)
        if catalog.readonly_note:
            self.status.say(catalog.readonly_note, 0)
        elif catalog.place_note:  # a cloud-synced folder or a network file system (storage_places.py)
            self.status.say(catalog.place_note, 0)
            self._new_graph_note = self._new_graph_note or catalog.place_note  # kept in view as that note is
        self.rerun_search()
        self.organise.refresh_pins()

    @Slot(str)
    def on_open_failed(self, message: str) -> None:
        if self.catalog is not None:
            # The engine keeps the graph that was open: so does the window (title, counts, search, editing).
            self.error_shown.emit(message)
            self.status.say(translate("MainWindow", "{message} {name} is still open.").format(message=message, name=self.db_path.name), 15_000)
            self._show_error(translate("MainWindow", "The database cannot be opened"), translate("MainWindow", "{message}\n\n{name} stays open.").format(message=message, name=self.db_path.name))
            self.rerun_search()
            reopen, self._reopen_after_failure = self._reopen_after_failure, None
            if reopen is not None:
                self.entities.reload(reopen)
            return
        self.open_error = message
        self.catalog = None
        self.model.clear()
        self.status.say(message, 0)
        self.error_shown.emit(message)
        self._show_error(translate("MainWindow", "The database cannot be opened"), message + translate("MainWindow", "\nUse File → Open database to choose another file."))

    @Slot(object)
    def on_catalog(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.status.set_counts(catalog.counts, catalog.pending if self.model_name else 0)
        self.search_bar.set_types(catalog.entity_types)
        self.editor.set_completions(sorted(catalog.names.values()), catalog.relation_types, catalog.entity_types,
                                    catalog.aliases, catalog.names)
        self.search.show_current_list()
        if self._reopen_graph:
            mode, self._reopen_graph = self._reopen_graph, ""
            self.graph.reopen(mode)  # its place and width as the last run left them

    @Slot(object, int)
    def on_counts(self, counts: dict, pending: int) -> None:
        """The reader saw a commit (a running import's, too): the counts follow it at once."""
        if self.catalog is not None:
            self.catalog.counts, self.catalog.pending = counts, pending
            self.status.set_counts(counts, pending if self.model_name else 0)
            self.search.show_current_list()

    @Slot(object)
    def on_catalog_delta(self, delta: CatalogDelta) -> None:
        """Apply the catalog's changes: only the names that came, went or changed are touched."""
        catalog = self.catalog
        if catalog is None:
            return
        catalog.counts, catalog.pending = delta.counts, delta.pending
        self.status.set_counts(catalog.counts, catalog.pending if self.model_name else 0)
        if delta.entity_types is not None:
            catalog.entity_types = delta.entity_types
            self.search_bar.set_types(catalog.entity_types)
        if delta.relation_types is not None:
            catalog.relation_types = delta.relation_types
        gone = [catalog.names.pop(i) for i in delta.removed if i in catalog.names]
        renamed = [catalog.names[i] for i in delta.names if i in catalog.names and catalog.names[i] != delta.names[i]]
        added = [name for i, name in delta.names.items() if catalog.names.get(i) != name]
        catalog.names.update(delta.names)
        if delta.entity_types is not None or delta.relation_types is not None or gone or renamed or added:
            self.editor.update_completions(added, gone + renamed, catalog.relation_types, catalog.entity_types)
        self.editor.update_aliases(delta.aliases, delta.names, delta.removed)
        self.search.show_current_list()

    @Slot(str)
    def on_model_loading(self, what: str) -> None:
        self.status.set_model(translate("MainWindow", "Model: loading…"), translate("MainWindow", "Loading {what}").format(what=what))
        if not self.open_error and not self._new_graph_note:  # an error about the file stays in view
            self.status.say(translate("MainWindow", "Loading {what}; full-text search works meanwhile.").format(what=what), 0)

    @Slot(str)
    def on_model_ready(self, name: str) -> None:
        self.model_name = name
        self.status.set_model(translate("MainWindow", "Model: {name}").format(name=name), translate("MainWindow", "Semantic search is on"))
        if self._new_graph_note:
            self._new_graph_note = ""  # said once; it stays in view until now
        elif not self.open_error:
            self.status.say(translate("MainWindow", "Model {name} ready.").format(name=name), 3000)
        if not self.search.settle_model() and not self.open_error:
            self.status.say(translate("MainWindow", "Model {name} ready: the next search uses meaning too.").format(name=name), 6000)

    @Slot(str)
    def on_model_failed(self, reason: str) -> None:
        if not self.model_name:
            self.status.set_model(translate("MainWindow", "Semantic search off"), reason)
        self.status.say(translate("MainWindow", "Semantic search is off: {reason}").format(reason=reason), 0)

    @Slot(str, str)
    def on_failed(self, what: str, message: str) -> None:
        """An operation failed: one sentence, and a dialog for the ones a person waits on."""
        self.entities.after_save = None
        self.status.say(message, 15_000)
        self.error_shown.emit(message)
        if what in ("saving the entity", "importing", "undoing the deletion"):
            self._show_error(translate("MainWindow", "Problem while {what}").format(what=what), message)

    def _show_error(self, title: str, message: str) -> None:
        """A non-blocking message box: the worker and the window go on meanwhile."""
        box = QMessageBox(QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, self)
        box.setObjectName("errorBox")
        # Wide enough for its title in the window frame (a message box sizes itself to its text only).
        grid = box.layout()
        width = box.fontMetrics().horizontalAdvance(title) + 160
        grid.addItem(QSpacerItem(width, 0, QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Expanding),
                     grid.rowCount(), 0, 1, grid.columnCount())
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    # -- changes, ours and other programs' -------------------------------------------------

    @Slot(object)
    def on_own_changes(self, done: ChangeSet) -> None:
        # What an exchange applied was written on another device: the open entity follows it as it follows
        # another program's writes (the exchange runs on this window's engine, so it arrives as its own).
        self._refresh_for(done, outside=any(o.startswith(SYNC_ORIGIN) for o in done.origins))

    @Slot(object)
    def on_outside_changes(self, done: ChangeSet) -> None:
        if done.graph_changed:
            self.status.say(_outside_note(done), 6000)
        self._refresh_for(done, outside=True)  # a word about the open entity, if any, comes last

    def _refresh_for(self, done: ChangeSet, outside: bool) -> None:
        """Refresh only what a change set touched: the results when they may differ, the open entity."""
        if done.graph_changed or done.vectors_reset:
            self.rerun_search()  # what matches, and how it ranks, may differ now
        if outside:
            self.entities.follow_changes(done)
        self.changes_shown.emit(done)

    @Slot(str, bool, str, bool)
    def on_job_done(self, kind: str, finished: bool, message: str, failed: bool) -> None:
        """A job run through ``Engine.run`` ended (its own callback said what it did, if it finished)."""
        self.status.job_ended()
        if not finished:
            if message:
                self.status.say(message, 15_000)
            report_shown = self.files.take_report_shown()  # the bad lines have their own dialog
            if failed:
                self.error_shown.emit(message)
                if not report_shown:
                    self._show_error(translate("MainWindow", "Problem while {job}").format(job=translate("MainWindow", _JOB_WORDS.get(kind, kind))), message)
            self.rerun_search()
        self.job_ended.emit(kind, finished)

    @Slot(str, str)
    def on_job_finished(self, kind: str, message: str) -> None:
        self.status.job_ended()
        if message:
            self.status.say(message, 15_000)
        self.rerun_search()
        self.job_ended.emit(kind, True)

    @Slot(str, str)
    def on_job_cancelled(self, kind: str, message: str) -> None:
        self.status.job_ended()
        if message:
            self.status.say(message, 15_000)
        self.rerun_search()
        self.job_ended.emit(kind, False)

    def on_cancel(self) -> None:
        self.engine.cancel()
        self.status.cancel.setEnabled(False)


_JOB_WORDS = {"import": "importing", "export": "exporting", "backup": QT_TRANSLATE_NOOP("MainWindow", "backing up"), "restore-backup": QT_TRANSLATE_NOOP("MainWindow", "restoring the backup")}


def _outside_note(done: ChangeSet) -> str:
    """A quiet sentence for the status bar, e.g. "3 entities added by an assistant"."""
    parts = []
    for origin in sorted(done.origins):
        what = done.describe(origin)
        if what:
            who = translate("MainWindow", "an assistant") if origin == ORIGIN_ASSISTANT else translate("MainWindow", "another program")
            parts.append(translate("MainWindow", "{what} by {who}").format(what=what, who=who))
    if not parts:
        return translate("MainWindow", "The graph was changed by another program; results refreshed.")
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."
