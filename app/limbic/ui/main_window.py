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
from limbic.engine.scoring import ScoringParams
from limbic.engine.changes import ORIGIN_ASSISTANT, ChangeSet
from limbic.service import entities as ops
from limbic.service.catalog import CatalogDelta
from limbic.service.entities import ConflictError, EntityDraft, EntityView
from limbic.ui import features
from limbic.ui.create_target import CreateTargetMixin
from limbic.ui.entity_editor import EntityEditor
from limbic.ui.file_menu import FileMenuMixin
from limbic.ui.graph.menu import GraphMenuMixin
from limbic.service import organise
from limbic.ui.history import NavigationHistory
from limbic.ui.home import HomeList
from limbic.ui.import_menu import ImportMenuMixin
from limbic.ui.organise_menu import OrganiseMenuMixin
from limbic.ui.results import ResultDelegate, ResultList, ResultModel
from limbic.ui.search_bar import SearchBar
from limbic.service import undo as undo_ops
from limbic.ui.status import StatusPanel
from limbic.ui.undo import UndoMixin, WindowKeys
from limbic.ui.window_state import restore_dock, restore_layout, save_layout, saved_graph_view
from limbic.ui.worker import Catalog, Engine, Failure

logger = logging.getLogger(__name__)

DEFAULT_SIZE = (1180, 760)
# How many of the top hits count as having come up together when one of them is opened.
COOC_HITS = 10


class MainWindow(UndoMixin, CreateTargetMixin, OrganiseMenuMixin, FileMenuMixin, ImportMenuMixin, GraphMenuMixin,
                 QMainWindow):
    """One window on one graph file."""

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
        self.settings = config.load_settings()
        self.setWindowTitle("Limbic")
        self.resize(*DEFAULT_SIZE)
        self.catalog: Catalog | None = None
        self.model_name = ""
        self.history = NavigationHistory()
        self._navigating = False  # a Back/Forward load must not push history
        self._pending_open = False  # Enter pressed before the results of the latest query arrived
        self._after_save = None  # what to do once the pending save succeeds
        self._init_undo()
        self._shown_request = 0
        self._committed_request = 0  # the result list whose co-occurrence was recorded
        self.open_error = ""  # why the file could not be opened, while that is so
        self._entity_ticket = 0  # the load whose entity the editor shows
        self._import_report_shown = False
        self.readonly = False
        self._new_graph_note = config.new_graph_note(self.db_path)  # said once the file opens
        self._reopen_after_failure: int | None = None  # the entity to show again if another file fails to open

        self.engine = Engine(self)
        self._build_ui()
        self._build_actions()
        self._connect_engine()
        restore_layout(self, DEFAULT_SIZE)
        self._reopen_graph = saved_graph_view()  # the graph panel comes back once the file is open
        # Undo, Export and the search box's Ctrl+Delete reach the window from any focused field.
        self.keys = WindowKeys(self, self.search_bar.edit)
        QApplication.instance().installEventFilter(self.keys)

    # -- construction -----------------------------------------------------------------------

    def _build_ui(self) -> None:
        self.search_bar = SearchBar(self)
        self.model = ResultModel(self)
        self.results = ResultList(self, objectName="results")
        self.results.setModel(self.model)
        self.results.setItemDelegate(ResultDelegate(self.results))
        self.results.setUniformItemSizes(True)
        self.results.setAccessibleName("Results")
        self.results.setToolTip("")
        self.results.setVerticalScrollMode(QListView.ScrollMode.ScrollPerPixel)
        # Rows are as wide as the list: the branch badge and the score never scroll out of view.
        self.results.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        self.empty_hint = QWidget(self)
        hint_layout = QVBoxLayout(self.empty_hint)
        hint_layout.addStretch(1)
        label = QLabel("This graph is empty.\nLoad a small sample graph to try the search, or import your own notes or memory file.",
                       self.empty_hint, objectName="emptyHint", alignment=Qt.AlignmentFlag.AlignCenter)
        label.setWordWrap(True)
        self.sample_button = QPushButton("Load the sample graph", self.empty_hint, objectName="sampleButton")
        self.import_button = QPushButton("Import…", self.empty_hint)
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
        layout.addWidget(self.splitter, 1)
        self.setCentralWidget(central)
        self.status = StatusPanel(self)
        self.setStatusBar(self.status)
        self.status.set_model("Model: loading…", "The embedding model loads in the background")

        self.search_bar.query_changed.connect(self.on_query_changed)
        self.search_bar.move_requested.connect(self.on_move)
        self.search_bar.open_requested.connect(self.on_open_requested)
        self.results.activated.connect(self.on_result_activated)
        self.results.clicked.connect(self.on_result_activated)  # one click opens, as in a note list
        self.home.open_requested.connect(self.on_home_open)
        self.editor.save_requested.connect(self.on_save_requested)
        self.editor.delete_requested.connect(self.on_delete_requested)
        self.editor.navigate_requested.connect(self.on_navigate)
        self.editor.status_requested.connect(self.on_status_requested)
        self.editor.dirty_changed.connect(self.on_dirty_changed)
        self.editor.create_requested.connect(self.on_create_target)
        self.sample_button.clicked.connect(self.load_sample)
        self.import_button.clicked.connect(self.on_import)
        self.status.cancel_clicked.connect(self.on_cancel)
        self.status.undo_clicked.connect(self.on_undo)

    def _action(self, menu, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.setToolTip(tip or text.replace("&", "").rstrip("…"))
        action.setStatusTip(action.toolTip())
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _build_actions(self) -> None:
        bar = self.menuBar()
        f = bar.addMenu("&File")
        self.new_db_action = self._action(f, "&New database…", self.on_new_database, "Ctrl+Shift+N")
        self.open_db_action = self._action(f, "&Open database…", self.on_open_database, "Ctrl+Shift+O")
        self.recent_menu = f.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(self.fill_recent_menu)
        f.addSeparator()
        self.import_action = self._action(f, "&Import…", self.on_import, "Ctrl+I",
                                          tip="Import memory JSONL, a memory engine database or CSV")
        self.import_folder_action = self._action(f, "Import a &folder of notes…", self.on_import_folder, "Ctrl+Shift+I",
                                                 tip="Import a folder of Markdown notes (an Obsidian vault) or CSV files")
        self.export_action = self._action(f, "&Export JSONL…", self.on_export, "Ctrl+E")
        self.export_md_action = self._action(f, "Export as &Markdown…", lambda: self.on_export_folder("markdown"))
        self.export_csv_action = self._action(f, "Export as &CSV…", lambda: self.on_export_folder("csv"))
        self.backup_action = self._action(f, "&Back up now", self.on_backup, tip="Copy the graph into its backup folder")
        self.restore_backup_action = self._action(f, "Restore from bac&kup…", self.on_restore_backup,
                                                  tip="Replace the graph with one of its backups, listed with their dates")
        self.sample_action = self._action(f, "Load the &sample graph", self.load_sample)
        f.addSeparator()
        self.settings_action = self._action(f, "Se&ttings…", self.on_settings, "Ctrl+,")
        f.addSeparator()
        self._action(f, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        e = bar.addMenu("&Edit")
        self.new_action = self._action(e, "&New entity", self.on_new_entity, QKeySequence.StandardKey.New)
        self.save_action = self._action(e, "&Save entity", self.editor.on_save, QKeySequence.StandardKey.Save)
        self.delete_action = self._action(e, "&Delete entity…", self.editor.on_delete, "Ctrl+Delete")
        self.undo_action = self._action(e, "&Undo", self.on_undo, QKeySequence.StandardKey.Undo)
        self.redo_action = self._action(e, "Re&do", self.on_redo, QKeySequence.StandardKey.Redo)
        self.undo_action.setEnabled(False)
        self.redo_action.setEnabled(False)
        g = bar.addMenu("&Go")
        self.focus_action = self._action(g, "&Search", self.search_bar.focus, "Ctrl+K")
        self.back_action = self._action(g, "&Back", self.on_back, "Alt+Left")
        self.forward_action = self._action(g, "&Forward", self.on_forward, "Alt+Right")
        self._build_organise_menu()
        self._build_graph_menu(bar)
        h = bar.addMenu("&Help")
        self._action(h, "&Keyboard shortcuts", self.on_shortcuts, QKeySequence.StandardKey.HelpContents)
        self._action(h, "&About Limbic", self.on_about)
        # "/" focuses the search too; text fields take it as a character before shortcuts see it.
        slash = QShortcut(QKeySequence("/"), self)
        slash.activated.connect(self.search_bar.focus)
        features.install(self)
        self._update_history_actions()

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
        self.engine.results_ready.connect(self.on_results_ready)
        self.engine.changes_applied.connect(self.on_own_changes)
        self.engine.job_done.connect(self.on_job_done)
        self.engine.reader.worker.counts_changed.connect(self.on_counts)

    def start(self) -> None:
        """Open the file, then load the model: the window is already on screen meanwhile."""
        self.engine.sig_params.emit(ScoringParams.from_overrides(self.settings.scoring))
        self.engine.sig_open.emit(str(self.db_path))
        self.engine.sig_load_model.emit(str(config.model_dir_override() or ""))

    # -- window state -----------------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        if self.editor.is_dirty():
            choice = self._ask_unsaved()
            if choice == QMessageBox.StandardButton.Cancel:
                event.ignore()
                return
            if choice == QMessageBox.StandardButton.Save:
                event.ignore()
                self._save_then(self.close)
                return
            self.editor.clear()
        save_layout(self)
        QApplication.instance().removeEventFilter(self.keys)
        self.engine.stop()
        event.accept()

    # -- unsaved changes --------------------------------------------------------------------

    def _ask_unsaved(self) -> QMessageBox.StandardButton:
        """Save, Discard or Cancel; tests replace this method."""
        name = self.editor.draft().name or "the new entity"
        return QMessageBox.question(
            self, "Unsaved changes", f"Save the changes to “{name}”?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save,
        )

    def _save_then(self, then) -> None:
        self._after_save = then
        self.save_draft(self.editor.draft())

    def _guard(self, then) -> None:
        """Run ``then`` now, or after the user saved or discarded the editor's changes."""
        if not self.editor.is_dirty():
            then()
            return
        choice = self._ask_unsaved()
        if choice == QMessageBox.StandardButton.Save:
            self._save_then(then)
        elif choice == QMessageBox.StandardButton.Discard:
            self.editor.revert()
            then()

    def on_dirty_changed(self, dirty: bool) -> None:
        self.setWindowModified(dirty)
        self.setWindowTitle(self._title())

    def _title(self) -> str:
        return f"Limbic — {self.db_path.name}{' (read-only)' if self.readonly else ''}[*]"

    def _enable_editing(self, enabled: bool) -> None:
        """A read-only file: every action that would write is off from the start, and says why."""
        why = "" if enabled else " (the file is read-only)"
        for action in (self.new_action, self.save_action, self.delete_action, self.import_action, self.sample_action,
                       self.import_folder_action,
                       self.restore_backup_action, self.pin_action, self.merge_action, self.rename_type_action,
                       self.backup_action):
            action.setEnabled(enabled)
            base = action.toolTip().split(" (the file is read-only)")[0]
            action.setToolTip(base + why)
        self.sample_button.setEnabled(enabled)
        self.import_button.setEnabled(enabled)
        self.editor.set_editable(enabled)
        if enabled:
            self._update_undo_actions()
        else:
            self.undo_action.setEnabled(False)
            self.redo_action.setEnabled(False)

    # -- search -----------------------------------------------------------------------------

    def on_query_changed(self, text: str, entity_type: str) -> None:
        self.engine.search(text, entity_type, self.search_bar.branch_choice())

    def rerun_search(self) -> None:
        self.engine.search(self.search_bar.text(), self.search_bar.entity_type(), self.search_bar.branch_choice())

    @Slot(int, object)
    def on_results_ready(self, request_id: int, response) -> None:
        self.results_arrived.emit(request_id)
        if request_id != self.engine.searches.latest:
            return  # a newer query is on its way: never show stale results
        self._shown_request = request_id
        if not response.query.strip():
            self.engine.read("home", organise.home, on_done=self.on_home)
        self.model.set_response(response)
        if response.query.strip():
            self.search_bar.set_mode(response.mode)
        else:
            self.search_bar.show_expected_mode(bool(self.model_name))
        if self.model.rowCount():
            self.results.setCurrentIndex(self.model.index(0, 0))
        elif response.query.strip():
            sentence = response.no_match_sentence if response.no_match else f"No results for “{response.query.strip()}”."
            self.status.say(sentence, 4000)
        self.results.viewport().update()
        self._show_empty_hint()
        self.results_shown.emit(request_id)
        if self._pending_open:
            self._pending_open = False
            self.on_open_requested()

    def on_home(self, home: organise.Home) -> None:
        self.home.set_home(home)

    def on_home_open(self, entity_id: int) -> None:
        self.open_entity(entity_id, record=True)

    def on_move(self, step: int) -> None:
        if self.left.currentWidget() is self.home:
            self.home.step_selection(step)
            return
        rows = self.model.rowCount()
        if not rows:
            return
        row = min(rows - 1, max(0, self.results.currentIndex().row() + step))
        self.results.setCurrentIndex(self.model.index(row, 0))

    def on_open_requested(self) -> None:
        if self._shown_request != self.engine.searches.latest:
            self._pending_open = True  # open once the latest query's results arrive
            return
        if self.left.currentWidget() is self.home:
            self.home.open_current()
            return
        index = self.results.currentIndex()
        if not index.isValid() and self.model.rowCount():
            index = self.model.index(0, 0)
        if index.isValid():
            self.on_result_activated(index)

    def on_result_activated(self, index) -> None:
        result = self.model.result(index.row())
        if result is None or (result.entity_id == self.editor.entity_id and not self._navigation_pending()
                              and self._committed_request == self._shown_request):
            return  # already open and counted (the second click of a double click)
        # The first hit opened from a result list makes those hits count as having come up
        # together (co-occurrence); typing alone records nothing, so keystrokes inflate nothing.
        together: tuple[int, ...] = ()
        if self._committed_request != self._shown_request:
            self._committed_request = self._shown_request
            together = tuple(self.model.result(i).entity_id for i in range(min(self.model.rowCount(), COOC_HITS)))
        self._guard(lambda: self.load_entity(result.entity_id, True, together))

    # -- entities ---------------------------------------------------------------------------

    def open_entity(self, ref: int | str, record: bool = False) -> None:
        """Show an entity in the editor (after asking about unsaved changes); ``record`` counts an access."""
        self._guard(lambda: self.load_entity(ref, record))

    def load_entity(self, ref: int | str, record: bool = False, together: tuple[int, ...] = ()) -> int:
        """Load an entity into the editor now (no questions); the newest request wins."""
        if self.engine.busy_job:  # the engine's thread is busy: show what is committed now (no access counted)
            return self.engine.read("entity", ops.load_view, ref, what="opening the entity",
                                    on_done=self.on_entity_loaded, on_failed=self.on_entity_missing)
        return self.engine.run("entity", ops.open_view, ref, record, tuple(together), what="opening the entity",
                               on_done=self._entity_arrived, on_failed=self.on_entity_missing, with_ticket=True)

    def _entity_arrived(self, ticket: int, view: EntityView) -> None:
        self._entity_ticket = ticket
        self.on_entity_loaded(view)

    def _navigation_pending(self) -> bool:
        """An entity the person asked for is still on its way (a refresh must not replace it)."""
        return self.engine.entities.latest != self._entity_ticket

    def on_entity_loaded(self, view: EntityView) -> None:
        self.editor.show_view(view)
        entity_id = view.entity.id
        if not self._navigating:
            self.history.visit(entity_id)
        self._navigating = False
        self._update_history_actions()
        self._update_pin_action()
        self._select_result(entity_id)
        self.entity_shown.emit(entity_id)

    def _select_result(self, entity_id: int) -> None:
        """The highlighted result follows the open entity (after a relation was followed, Back, a save...)."""
        for row in range(self.model.rowCount()):
            if self.model.result(row).entity_id == entity_id:
                if self.results.currentIndex().row() != row:
                    self.results.setCurrentIndex(self.model.index(row, 0))
                return

    def on_entity_missing(self, failure: Failure) -> None:
        self._navigating = False
        self.status.say(failure.message)

    def on_navigate(self, name: str) -> None:
        self.open_entity(name)

    def _update_history_actions(self) -> None:
        self.back_action.setEnabled(self.history.can_back)
        self.forward_action.setEnabled(self.history.can_forward)

    def _go(self, delta: int) -> None:
        def go() -> None:
            entity_id = self.history.step(delta)
            if entity_id is None:
                return
            self._navigating = True
            self._update_history_actions()
            self.load_entity(entity_id)
        self._guard(go)

    def on_back(self) -> None:
        self._go(-1)

    def on_forward(self) -> None:
        self._go(+1)

    def on_new_entity(self) -> None:
        self._guard(self.editor.new_entity)

    def on_save_requested(self, draft: EntityDraft) -> None:
        self.save_draft(draft)

    def refused_during_job(self, what: str) -> bool:
        """True (and says why) when a long job holds the graph: a change is refused, never queued."""
        if not self.engine.busy_job:
            return False
        self._after_save = None
        self.status.say(f"{what} has to wait until the running job ends (or is cancelled); nothing was lost.", 10_000)
        return True

    def save_draft(self, draft: EntityDraft, resolve: str | None = None) -> int:
        """Save the editor's draft; only the person's own changes since loading are applied."""
        if self.refused_during_job("Saving"):
            return 0
        return self.engine.run("save", undo_ops.save_draft, draft, resolve, what="saving the entity",
                               on_done=self._on_saved_step, on_failed=self.on_save_failed)

    def _on_saved_step(self, saved: undo_ops.Saved) -> None:
        self.push_step(saved.step)
        self.on_saved(saved.entity_id)

    def on_saved(self, entity_id: int) -> None:
        self.status.say("Saved.", 3000)
        self.entity_saved.emit(entity_id)
        then, self._after_save = self._after_save, None
        if then is not None:
            self.editor.clear()
            then()
        else:
            # The same entity again: no new history entry, unless it was just created (Back returns to it).
            self._navigating = self.editor.entity_id is not None
            self.load_entity(entity_id)

    def on_save_failed(self, failure: Failure) -> None:
        if isinstance(failure.error, ConflictError):
            choice = self._ask_conflict(failure.error)
            if choice in (ops.MINE, ops.THEIRS):
                self.save_draft(failure.error.draft, choice)
                return
            self._after_save = None
            self.status.say("Not saved: the conflict is waiting for your decision; your edits are still here.", 0)
            return
        self.on_failed("saving the entity", failure.message)

    def _ask_conflict(self, error: ConflictError) -> str | None:
        """Show what both sides changed and let the person choose; tests replace this method."""
        lines = "\n".join(f"• {c.describe()}" + (f"\n   yours: {c.mine}\n   theirs: {c.theirs}" if c.what == "observation" and c.mine and c.theirs else "")
                          for c in error.conflicts[:8])
        box = QMessageBox(QMessageBox.Icon.Question, "Changed in another program",
                          f"While you edited “{error.draft.name}”, another program changed the same things:\n\n{lines}\n\n"
                          "Everything else from both sides is kept either way.", parent=self)
        mine = box.addButton("Keep my version", QMessageBox.ButtonRole.AcceptRole)
        theirs = box.addButton("Keep theirs", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton("Go back to editing", QMessageBox.ButtonRole.RejectRole)
        box.exec()
        clicked = box.clickedButton()
        return ops.MINE if clicked is mine else ops.THEIRS if clicked is theirs else None

    def on_delete_requested(self, entity_id: int, name: str) -> None:
        if self.refused_during_job("Deleting"):
            return
        if self._confirm_delete(name):
            self.engine.run("delete", undo_ops.delete_entity, entity_id, what="deleting the entity",
                            on_done=self.on_deleted)

    def _confirm_delete(self, name: str) -> bool:
        """Ask before deleting; tests replace this method."""
        answer = QMessageBox.question(
            self, "Delete entity", f"Delete “{name}” with its observations and relations?\nYou can undo this with Ctrl+Z.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    @Slot(object)
    def on_deleted(self, step: undo_ops.DeleteStep) -> None:
        self.push_step(step)
        self.editor.clear()
        self.status.say(f"Deleted “{step.snap.name}”. Press Ctrl+Z to undo.", 15_000)
        self.entity_deleted.emit(step.snap.name)

    # -- engine events ----------------------------------------------------------------------

    @Slot(object)
    def on_opened(self, catalog: Catalog) -> None:
        self.open_error = ""
        self._reopen_after_failure = None
        if Path(catalog.path) != self.db_path:  # another file: history and undo speak of the old one
            self.history.clear()
            self._update_history_actions()
            self.undo_history.clear()
            self._update_undo_actions()
        self.db_path = Path(catalog.path)
        self._remember_db(str(self.db_path))  # only files that opened join Open recent
        self.readonly = bool(catalog.readonly_note)
        self.setWindowTitle(self._title())
        self._enable_editing(not self.readonly)
        if self._new_graph_note:
            self.status.say(self._new_graph_note, 20_000)
        self.on_catalog(catalog)
        self.status.set_readonly(catalog.readonly_note)
        if catalog.readonly_note:
            self.status.say(catalog.readonly_note, 0)
        self.rerun_search()
        self.refresh_pins()

    @Slot(str)
    def on_open_failed(self, message: str) -> None:
        if self.catalog is not None:
            # The engine keeps the graph that was open: so does the window (title, counts, search, editing).
            self.error_shown.emit(message)
            self.status.say(f"{message} {self.db_path.name} is still open.", 15_000)
            self._show_error("The database cannot be opened", f"{message}\n\n{self.db_path.name} stays open.")
            self.rerun_search()
            reopen, self._reopen_after_failure = self._reopen_after_failure, None
            if reopen is not None:
                self._navigating = True
                self.load_entity(reopen)
            return
        self.open_error = message
        self.catalog = None
        self.model.clear()
        self.status.say(message, 0)
        self.error_shown.emit(message)
        self._show_error("The database cannot be opened", message + "\nUse File → Open database to choose another file.")

    @Slot(object)
    def on_catalog(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.status.set_counts(catalog.counts)
        self.search_bar.set_types(catalog.entity_types)
        self.editor.set_completions(sorted(catalog.names.values()), catalog.relation_types, catalog.entity_types)
        self._show_empty_hint()
        if self._reopen_graph:
            mode, self._reopen_graph = self._reopen_graph, ""
            panel = self.graph_panel()
            restore_dock(self)  # its place and width as the last run left them
            if mode == "whole":
                panel.show_whole()
            else:
                panel.show_local()

    @Slot(object, int)
    def on_counts(self, counts: dict, pending: int) -> None:
        """The reader saw a commit (a running import's, too): the counts follow it at once."""
        if self.catalog is not None:
            self.catalog.counts, self.catalog.pending = counts, pending
            self.status.set_counts(counts)
            self._show_empty_hint()

    @Slot(object)
    def on_catalog_delta(self, delta: CatalogDelta) -> None:
        """Apply the catalog's changes: only the names that came, went or changed are touched."""
        catalog = self.catalog
        if catalog is None:
            return
        catalog.counts, catalog.pending = delta.counts, delta.pending
        self.status.set_counts(catalog.counts)
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
        self._show_empty_hint()

    def _show_empty_hint(self) -> None:
        empty = self.catalog is not None and self.catalog.counts.get("entities", 0) == 0
        home = not self.model.query.strip()
        self.left.setCurrentWidget(self.empty_hint if empty else self.home if home else self.results)

    @Slot(str)
    def on_model_loading(self, what: str) -> None:
        self.status.set_model("Model: loading…", f"Loading {what}")
        if not self.open_error and not self._new_graph_note:  # an error about the file stays in view
            self.status.say(f"Loading {what}; full-text search works meanwhile.", 0)

    @Slot(str)
    def on_model_ready(self, name: str) -> None:
        self.model_name = name
        self.status.set_model(f"Model: {name}", "Semantic search is on")
        if self._new_graph_note:
            self._new_graph_note = ""  # said once; it stays in view until now
        elif not self.open_error:
            self.status.say(f"Model {name} ready.", 3000)
        self.rerun_search()

    @Slot(str)
    def on_model_failed(self, reason: str) -> None:
        if not self.model_name:
            self.status.set_model("Semantic search off", reason)
        self.status.say(f"Semantic search is off: {reason}", 0)

    @Slot(str, str)
    def on_failed(self, what: str, message: str) -> None:
        self._after_save = None
        self.status.say(message, 15_000)
        self.error_shown.emit(message)
        if what in ("saving the entity", "importing", "undoing the deletion"):
            self._show_error(f"Problem while {what}", message)

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
        self._refresh_for(done, outside=False)

    @Slot(object)
    def on_outside_changes(self, done: ChangeSet) -> None:
        if done.graph_changed:
            self.status.say(_outside_note(done), 6000)
        self._refresh_for(done, outside=True)  # a word about the open entity, if any, comes last

    def _refresh_for(self, done: ChangeSet, outside: bool) -> None:
        """Refresh only what a change set touched: the results when they may differ, the open entity."""
        if done.graph_changed or done.vectors_reset:
            self.rerun_search()  # what matches, and how it ranks, may differ now
        entity_id = self.editor.entity_id
        if outside and done.touches(entity_id) and entity_id is not None and not self._navigation_pending():
            if self.editor.is_dirty():
                if entity_id in done.removed:
                    self.status.say("This entity was deleted by another program; saving will ask what to keep.", 0)
                else:
                    self.status.say("This entity was changed by another program; when you save, only your own "
                                    "changes are applied.", 0)
            elif entity_id in done.removed:
                self.editor.clear()
                self.status.say("The entity you had open was deleted by another program.", 0)
            else:
                self._navigating = True
                self.load_entity(entity_id)
        self.changes_shown.emit(done)

    @Slot(str, bool, str, bool)
    def on_job_done(self, kind: str, finished: bool, message: str, failed: bool) -> None:
        """A job run through ``Engine.run`` ended (its own callback said what it did, if it finished)."""
        self.status.job_ended()
        if not finished:
            if message:
                self.status.say(message, 15_000)
            if failed:
                self.error_shown.emit(message)
                if not self._import_report_shown:  # the bad lines have their own dialog
                    self._show_error(f"Problem while {_JOB_WORDS.get(kind, kind)}", message)
            self._import_report_shown = False
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


_JOB_WORDS = {"import": "importing", "export": "exporting", "backup": "backing up", "restore-backup": "restoring the backup"}


def _outside_note(done: ChangeSet) -> str:
    """A quiet sentence for the status bar, e.g. "3 entities added by an assistant"."""
    parts = []
    for origin in sorted(done.origins):
        what = done.describe(origin)
        if what:
            who = "an assistant" if origin == ORIGIN_ASSISTANT else "another program"
            parts.append(f"{what} by {who}")
    if not parts:
        return "The graph was changed by another program; results refreshed."
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."
