"""The main window: search bar, result list, entity editor, menus; every engine call goes to the worker."""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QLabel,
    QListView,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from limbic import config
from limbic.engine.scoring import ScoringParams
from limbic.ui.editing import EntityDraft, EntitySnapshot, EntityView
from limbic.ui.entity_editor import EntityEditor
from limbic.ui.file_menu import FileMenuMixin
from limbic.ui.history import NavigationHistory
from limbic.ui.results import ResultDelegate, ResultList, ResultModel
from limbic.ui.search_bar import SearchBar
from limbic.ui.status import StatusPanel
from limbic.ui.window_state import restore_layout, save_layout
from limbic.ui.worker import Catalog, Engine

logger = logging.getLogger(__name__)

DEFAULT_SIZE = (1180, 760)
# How many of the top hits count as having come up together when one of them is opened.
COOC_HITS = 10


class MainWindow(FileMenuMixin, QMainWindow):
    """One window on one graph file."""

    # UI-thread events (tests wait on these rather than on the worker's signals, which fire in its thread).
    results_arrived = Signal(int)  # request id of any results that reached the window, stale or not
    results_shown = Signal(int)  # request id of the results now on screen
    entity_shown = Signal(int)  # entity id now in the editor
    entity_saved = Signal(int)
    entity_deleted = Signal(str)
    job_ended = Signal(str, bool)  # job kind, finished (False: cancelled or failed)
    error_shown = Signal(str)

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
        self._undo: list[EntitySnapshot] = []
        self._shown_request = 0
        self._committed_request = 0  # the result list whose co-occurrence was recorded
        self.open_error = ""  # why the file could not be opened, while that is so

        self.engine = Engine(self)
        self._build_ui()
        self._build_actions()
        self._connect_engine()
        restore_layout(self, DEFAULT_SIZE[0])

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

        self.empty_hint = QWidget(self)
        hint_layout = QVBoxLayout(self.empty_hint)
        hint_layout.addStretch(1)
        label = QLabel("This graph is empty.\nLoad a small sample graph to try the search, or import your own JSONL file.",
                       self.empty_hint, objectName="emptyHint", alignment=Qt.AlignmentFlag.AlignCenter)
        label.setWordWrap(True)
        self.sample_button = QPushButton("Load the sample graph", self.empty_hint, objectName="sampleButton")
        self.import_button = QPushButton("Import JSONL…", self.empty_hint)
        hint_layout.addWidget(label)
        hint_layout.addWidget(self.sample_button, 0, Qt.AlignmentFlag.AlignCenter)
        hint_layout.addWidget(self.import_button, 0, Qt.AlignmentFlag.AlignCenter)
        hint_layout.addStretch(2)

        self.left = QStackedWidget(self)
        self.left.addWidget(self.results)
        self.left.addWidget(self.empty_hint)
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
        self.editor.save_requested.connect(self.on_save_requested)
        self.editor.delete_requested.connect(self.on_delete_requested)
        self.editor.navigate_requested.connect(self.on_navigate)
        self.editor.dirty_changed.connect(self.on_dirty_changed)
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
        self.open_db_action = self._action(f, "&Open database…", self.on_open_database, QKeySequence.StandardKey.Open)
        self.recent_menu = f.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(self.fill_recent_menu)
        f.addSeparator()
        self.import_action = self._action(f, "&Import JSONL…", self.on_import, "Ctrl+I")
        self.export_action = self._action(f, "&Export JSONL…", self.on_export, "Ctrl+E")
        self.backup_action = self._action(f, "&Back up now", self.on_backup, tip="Copy the graph into its backup folder")
        self.sample_action = self._action(f, "Load the &sample graph", self.load_sample)
        f.addSeparator()
        self.settings_action = self._action(f, "Se&ttings…", self.on_settings, "Ctrl+,")
        f.addSeparator()
        self._action(f, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        e = bar.addMenu("&Edit")
        self.new_action = self._action(e, "&New entity", self.on_new_entity, QKeySequence.StandardKey.New)
        self.save_action = self._action(e, "&Save entity", self.editor.on_save, QKeySequence.StandardKey.Save)
        self.delete_action = self._action(e, "&Delete entity…", self.editor.on_delete, "Ctrl+Delete")
        self.undo_action = self._action(e, "&Undo delete", self.on_undo, QKeySequence.StandardKey.Undo)
        self.undo_action.setEnabled(False)
        g = bar.addMenu("&Go")
        self.focus_action = self._action(g, "&Search", self.search_bar.focus, "Ctrl+K")
        self.back_action = self._action(g, "&Back", self.on_back, "Alt+Left")
        self.forward_action = self._action(g, "&Forward", self.on_forward, "Alt+Right")
        h = bar.addMenu("&Help")
        self._action(h, "&Keyboard shortcuts", self.on_shortcuts, QKeySequence.StandardKey.HelpContents)
        self._action(h, "&About Limbic", self.on_about)
        # "/" focuses the search too; text fields take it as a character before shortcuts see it.
        slash = QShortcut(QKeySequence("/"), self)
        slash.activated.connect(self.search_bar.focus)
        self._update_history_actions()

    def _connect_engine(self) -> None:
        w = self.engine.worker
        w.opened.connect(self.on_opened)
        w.open_failed.connect(self.on_open_failed)
        w.catalog_changed.connect(self.on_catalog)
        w.model_loading.connect(self.on_model_loading)
        w.model_ready.connect(self.on_model_ready)
        w.model_failed.connect(self.on_model_failed)
        w.results_ready.connect(self.on_results_ready)
        w.entity_loaded.connect(self.on_entity_loaded)
        w.entity_missing.connect(self.on_entity_missing)
        w.saved.connect(self.on_saved)
        w.deleted.connect(self.on_deleted)
        w.restored.connect(self.on_restored)
        w.job_started.connect(self.status.job_started)
        w.progress.connect(self.status.job_progress)
        w.job_finished.connect(self.on_job_finished)
        w.job_cancelled.connect(self.on_job_cancelled)
        w.failed.connect(self.on_failed)
        w.external_change.connect(self.on_external_change)

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
        self.engine.save(self.editor.draft())

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
        self.setWindowTitle(f"Limbic — {self.db_path.name}[*]")

    # -- search -----------------------------------------------------------------------------

    def on_query_changed(self, text: str, entity_type: str) -> None:
        self.engine.search(text, entity_type)

    def rerun_search(self) -> None:
        self.engine.search(self.search_bar.text(), self.search_bar.entity_type())

    @Slot(int, object)
    def on_results_ready(self, request_id: int, response) -> None:
        self.results_arrived.emit(request_id)
        if request_id != self.engine.searches.latest:
            return  # a newer query is on its way: never show stale results
        self._shown_request = request_id
        self.model.set_response(response)
        self.search_bar.set_mode(response.mode)
        if self.model.rowCount():
            self.results.setCurrentIndex(self.model.index(0, 0))
        elif response.query.strip():
            sentence = response.no_match_sentence if response.no_match else f"No results for “{response.query.strip()}”."
            self.status.say(sentence, 4000)
        self.results.viewport().update()
        self.results_shown.emit(request_id)
        if self._pending_open:
            self._pending_open = False
            self.on_open_requested()

    def on_move(self, step: int) -> None:
        rows = self.model.rowCount()
        if not rows:
            return
        row = min(rows - 1, max(0, self.results.currentIndex().row() + step))
        self.results.setCurrentIndex(self.model.index(row, 0))

    def on_open_requested(self) -> None:
        if self._shown_request != self.engine.searches.latest:
            self._pending_open = True  # open once the latest query's results arrive
            return
        index = self.results.currentIndex()
        if not index.isValid() and self.model.rowCount():
            index = self.model.index(0, 0)
        if index.isValid():
            self.on_result_activated(index)

    def on_result_activated(self, index) -> None:
        result = self.model.result(index.row())
        if result is None:
            return
        # The first hit opened from a result list makes those hits count as having come up
        # together (co-occurrence); typing alone records nothing, so keystrokes inflate nothing.
        together: tuple[int, ...] = ()
        if self._committed_request != self._shown_request:
            self._committed_request = self._shown_request
            together = tuple(self.model.result(i).entity_id for i in range(min(self.model.rowCount(), COOC_HITS)))
        self._guard(lambda: self.engine.load_entity(result.entity_id, True, together))

    # -- entities ---------------------------------------------------------------------------

    def open_entity(self, ref: int | str, record: bool = False) -> None:
        """Show an entity in the editor (after asking about unsaved changes); ``record`` counts an access."""
        self._guard(lambda: self.engine.load_entity(ref, record))

    @Slot(int, object)
    def on_entity_loaded(self, request_id: int, view: EntityView) -> None:
        if request_id != self.engine.entities.latest:
            return
        self.editor.show_view(view)
        entity_id = view.entity.id
        if not self._navigating:
            self.history.visit(entity_id)
        self._navigating = False
        self._update_history_actions()
        self.entity_shown.emit(entity_id)

    @Slot(int, str)
    def on_entity_missing(self, request_id: int, message: str) -> None:
        if request_id == self.engine.entities.latest:
            self._navigating = False
            self.status.say(message)

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
            self.engine.load_entity(entity_id)
        self._guard(go)

    def on_back(self) -> None:
        self._go(-1)

    def on_forward(self) -> None:
        self._go(+1)

    def on_new_entity(self) -> None:
        self._guard(self.editor.new_entity)

    def on_save_requested(self, draft: EntityDraft) -> None:
        self.engine.save(draft)

    @Slot(int, int)
    def on_saved(self, request_id: int, entity_id: int) -> None:
        self.status.say("Saved.", 3000)
        self.entity_saved.emit(entity_id)
        then, self._after_save = self._after_save, None
        self.rerun_search()
        if then is not None:
            self.editor.clear()
            then()
        else:
            self.engine.load_entity(entity_id)

    def on_delete_requested(self, entity_id: int, name: str) -> None:
        if self._confirm_delete(name):
            self.engine.sig_delete.emit(entity_id)

    def _confirm_delete(self, name: str) -> bool:
        """Ask before deleting; tests replace this method."""
        answer = QMessageBox.question(
            self, "Delete entity", f"Delete “{name}” with its observations and relations?\nYou can undo this with Ctrl+Z.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    @Slot(object)
    def on_deleted(self, snap: EntitySnapshot) -> None:
        self._undo.append(snap)
        self.undo_action.setEnabled(True)
        self.editor.clear()
        self.status.offer_undo(True)
        self.status.say(f"Deleted “{snap.name}”. Press Ctrl+Z to undo.", 15_000)
        self.rerun_search()
        self.entity_deleted.emit(snap.name)

    def on_undo(self) -> None:
        if self._undo:
            self.engine.sig_restore.emit(self._undo.pop())
        self.undo_action.setEnabled(bool(self._undo))
        self.status.offer_undo(bool(self._undo))

    @Slot(int, str)
    def on_restored(self, entity_id: int, note: str) -> None:
        self.status.say(f"Restored{note}.")
        self.rerun_search()
        self.engine.load_entity(entity_id)

    # -- engine events ----------------------------------------------------------------------

    @Slot(object)
    def on_opened(self, catalog: Catalog) -> None:
        self.open_error = ""
        self.db_path = Path(catalog.path)
        self._remember_db(str(self.db_path))  # only files that opened join Open recent
        readonly = " (read-only)" if catalog.readonly_note else ""
        self.setWindowTitle(f"Limbic — {self.db_path.name}{readonly}[*]")
        self.on_catalog(catalog)
        self.status.set_readonly(catalog.readonly_note)
        if catalog.readonly_note:
            self.status.say(catalog.readonly_note, 0)
        self.rerun_search()

    @Slot(str)
    def on_open_failed(self, message: str) -> None:
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
        self.editor.set_completions(catalog.names, catalog.relation_types, catalog.entity_types)
        empty = catalog.counts.get("entities", 0) == 0
        self.left.setCurrentWidget(self.empty_hint if empty else self.results)

    @Slot(str)
    def on_model_loading(self, what: str) -> None:
        self.status.set_model("Model: loading…", f"Loading {what}")
        if not self.open_error:  # an error about the file stays in view
            self.status.say(f"Loading {what}; full-text search works meanwhile.", 0)

    @Slot(str)
    def on_model_ready(self, name: str) -> None:
        self.model_name = name
        self.status.set_model(f"Model: {name}", "Semantic search is on")
        if not self.open_error:
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
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    @Slot()
    def on_external_change(self) -> None:
        self.status.say("The file was changed by another program; results refreshed.", 4000)
        self.rerun_search()
        if self.editor.entity_id is not None:
            if self.editor.is_dirty():
                self.status.say("This entity may have changed in another program; saving will apply your version.")
            else:
                self._navigating = True
                self.engine.load_entity(self.editor.entity_id)

    @Slot(str, str)
    def on_job_finished(self, kind: str, message: str) -> None:
        self.status.job_ended()
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
