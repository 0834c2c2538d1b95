"""The window's assembly: each part is made with the collaborators it uses and the window's hooks.

The parts never see the window: what one part does for another (the editor's entity highlighting
its search hit, a save joining the Undo menu) is wired here, where the window is put together.
"""

from __future__ import annotations

from typing import Any

from limbic.ui.activity.activity_menu import ActivityMenu, ActivityParts
from limbic.ui.common.hooks import WindowHooks
from limbic.ui.editor.entity_flow import EntityFlow, EntityParts
from limbic.ui.editor.timeline_flow import TimelineFlow, TimelineParts
from limbic.ui.graph.menu import GraphMenu
from limbic.ui.graph.parts import GraphParts
from limbic.ui.search.search_flow import SearchFlow, SearchParts
from limbic.ui.shell.file_menu import FileMenu, FileParts
from limbic.ui.shell.organise_menu import OrganiseMenu, OrganiseParts
from limbic.ui.shell.undo import UndoController, UndoParts
from limbic.ui.sync.sync_flow import SyncFlow, SyncParts


def window_hooks(window: Any) -> WindowHooks:
    """What belongs to the window itself, lent to its parts as callbacks."""
    return WindowHooks(parent=window, catalog=lambda: window.catalog, guard=window.guard,
                       refused_during_job=window.refused_during_job, failed=window.on_failed)


def _highlight_only(window: Any, entity_id: int) -> None:
    """The left lists highlight the open entity or nothing: after following a relation, never the one before."""
    window.home.highlight(entity_id)
    current = window.results.currentIndex()
    if current.isValid() and window.model.result(current.row()).entity_id != entity_id:
        window.results.clearSelection()


def assemble(window: Any) -> None:
    """Make the window's parts (``window`` is the MainWindow whose widgets and engine exist already)."""
    hooks = window_hooks(window)
    engine, editor, status = window.engine, window.editor, window.status
    window.files = FileMenu(FileParts(
        engine=engine, editor=editor, status=status, hooks=hooks, sample_button=window.sample_button,
        import_button=window.import_button, db_path=lambda: window.db_path, open_database=window.open_database,
        rerun_search=lambda: window.search.rerun(), clear_undo=lambda: window.undo.clear(), quit=window.close,
        sync=lambda: window.sync.choose(), conflicts=lambda: window.sync.show_conflicts(), record_step=lambda step: window.undo.push_step(step)))

    def entity_shown(entity_id: int) -> None:
        # The pin action and the highlighted hit follow the open entity before anyone hears of it.
        window.organise.update_pin_action()
        window.search.select_result(entity_id)
        _highlight_only(window, entity_id)
        window.entity_shown.emit(entity_id)

    window.entities = entities = EntityFlow(EntityParts(
        engine=engine, editor=editor, status=status, hooks=hooks,
        record_step=lambda step: window.undo.push_step(step), shown=entity_shown,
        saved=window.entity_saved.emit, deleted=window.entity_deleted.emit))
    window.timeline = TimelineFlow(TimelineParts(
        engine=engine, editor=editor, status=status, hooks=hooks, entity_shown=window.entity_shown,
        record_step=lambda step: window.undo.push_step(step), reload=entities.reload,
        readonly=lambda: window.readonly))
    window.activity = ActivityMenu(ActivityParts(
        engine=engine, host=window, status=status, add_badge=status.addPermanentWidget,
        changes_shown=window.changes_shown, open_entity=entities.load_entity, hooks=hooks,
        record_step=lambda step: window.undo.push_step(step), open_entity_id=lambda: editor.entity_id,
        reload=entities.reload, editor_dirty=editor.is_dirty, clear_editor=editor.clear))
    window.undo = UndoController(UndoParts(
        engine=engine, editor=editor, status=status, hooks=hooks, readonly=lambda: window.readonly,
        reload=entities.reload, ask_conflict=window.activity.ask_conflict, step_done=window.step_done.emit))
    window.search = SearchFlow(SearchParts(
        engine=engine, bar=window.search_bar, results=window.results, model=window.model,
        home=window.home, lists=window.left, empty_hint=window.empty_hint, count=window.result_count, status=status,
        entities=entities, hooks=hooks, open_entity_id=lambda: editor.entity_id,
        semantic_on=lambda: bool(window.model_name), arrived=window.results_arrived.emit,
        shown=window.results_shown.emit))
    window.organise = OrganiseMenu(OrganiseParts(
        engine=engine, editor=editor, status=status, hooks=hooks, open_entity=entities.open_entity,
        reload=entities.reload, record_step=window.undo.push_step, rerun_search=window.search.rerun,
        focus_search=window.search_bar.focus))
    window.graph = GraphMenu(GraphParts(
        engine=engine, host=window, status=status, hooks=hooks, editor=editor, open_entity=entities.open_entity,
        reload=entities.reload, search_hits=window.search.hit_ids, start_folder=window.files.start_folder,
        remember_folder=window.files.remember_folder, changes_shown=window.changes_shown,
        results_shown=window.results_shown, entity_shown=window.entity_shown))
    window.sync = SyncFlow(SyncParts(
        engine=engine, status=status, hooks=hooks, add_badge=status.addPermanentWidget,
        open_entity=entities.open_entity, open_entity_id=lambda: editor.entity_id, editor_dirty=editor.is_dirty,
        reload=entities.reload, clear_editor=editor.clear, follow_changes=entities.follow_changes))
