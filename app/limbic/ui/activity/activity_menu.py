"""The Activity menu, badge and panel of the main window: what assistants did, reviewed and taken back.

One part of the main window, handed what it works with (``ActivityParts``): the engine, the status
bar, the window that docks the panel, and the window's hooks. Every read and action is a service operation from ``limbic.service.activity`` run on the engine's
thread; the conflict dialog is shared with Edit → Undo (``UndoController`` asks it here).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable

from PySide6.QtCore import QObject, Qt, QTimer, SignalInstance
from PySide6.QtWidgets import QDialog, QMainWindow, QToolButton, QWidget

from limbic.service import activity, entities
from limbic.service.activity import RevertConflict
from limbic.ui.common import window_fit
from limbic.ui.common.hooks import StatusLine, WindowHooks
from limbic.ui.activity.activity_panel import ActivityDock, ActivityPanel, ConflictDialog
from limbic.ui.activity.changes_since import ChangesSince
from limbic.ui.activity.held_rows import HeldFlow, badge_counts, panel_and_held
from limbic.ui.activity.revert_preview import GO, RevertPreview
from limbic.service.undo import RevertStep
from limbic.ui.workers.worker import Engine
from limbic.ui.common.i18n import translate

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ActivityParts:
    """What the Activity menu works with."""

    engine: Engine
    host: QMainWindow  # docks the panel at its right
    status: StatusLine
    add_badge: Callable[[QWidget], None]  # puts the badge in the status bar
    changes_shown: SignalInstance  # every change set the window refreshed for: the badge follows
    open_entity: Callable[[int], object]  # show an entity in the editor now
    hooks: WindowHooks
    record_step: Callable[[object], None] = lambda _step: None  # a revert becomes the next Edit → Undo
    open_entity_id: Callable[[], int | None] = lambda: None  # the entity in the editor, if any
    reload: Callable[[int], object] = lambda _id: None  # show the editor's entity again as it is now
    editor_dirty: Callable[[], bool] = lambda: False  # the editor holds unsaved edits (they are not replaced)
    clear_editor: Callable[[], None] = lambda: None  # the open entity is gone (the revert took its creation back)


class ActivityMenu(QObject):
    """The Activity menu (Ctrl+Shift+A), the status bar's badge of unreviewed assistant changes, the panel."""

    def __init__(self, parts: ActivityParts) -> None:
        super().__init__(parts.hooks.parent)
        self.p = parts
        self.dock: ActivityDock | None = None  # made on first use
        self.conflict_dialog: ConflictDialog | None = None  # the conflict dialog on screen, if any (tests answer it)
        self.preview_dialog: RevertPreview | None = None  # the revert preview on screen, if any (tests answer it)
        self.filters: dict = {}
        self.changes = ChangesSince(parts.engine, self, parts.open_entity)
        parts.engine.worker.opened.connect(lambda catalog: self.changes.on_opened(catalog.path))
        self.held = HeldFlow(self)  # assistants' writes held for review: followed as they come, settled

    def build_menu(self, bar) -> None:
        """Activity → Activity panel, Mark all reviewed; the badge in the status bar."""
        p = self.p
        menu = bar.addMenu(translate("ActivityMenu", "A&ctivity"))
        self.panel_action = p.hooks.add_action(menu, translate("ActivityMenu", "&Activity panel"), self.show, "Ctrl+Shift+A",
                                         tip=translate("ActivityMenu", "What each assistant and program changed: review and take back"))
        self.review_all_action = p.hooks.add_action(menu, translate("ActivityMenu", "Mark all &reviewed"), lambda: self.review(("all", None)))
        self.changes_action = p.hooks.add_action(menu, translate("ActivityMenu", "What &changed since…"), self.show_changes,
                                                 tip=translate("ActivityMenu", "Per entity, what was added, changed, ended and deleted "
                                                     "since a date or since you last opened this graph"))
        self.badge = QToolButton(p.hooks.parent, objectName="activityBadge")
        self.badge.setAutoRaise(True)
        self.badge.clicked.connect(self.show)
        self.badge.setVisible(False)
        p.add_badge(self.badge)
        p.changes_shown.connect(lambda _done: self.refresh())
        # After the window has taken the newly opened file in (its own slot runs first or after this one).
        p.engine.worker.opened.connect(lambda _catalog: QTimer.singleShot(0, self.refresh))

    # -- reading -----------------------------------------------------------------------------

    def panel(self) -> ActivityPanel:
        """The panel, created in its dock on first use."""
        if self.dock is None:
            p, host = self.p, self.p.host
            self.dock = ActivityDock(host)
            size = host.size()
            host.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
            window_fit.place_dock(host, self.dock, max(460, host.width() * 2 // 5))
            if host.size() != size:
                host.resize(size)
            panel = self.dock.panel
            panel.refresh_requested.connect(self._on_filters)
            panel.open_requested.connect(lambda entity_id: p.open_entity(entity_id))
            panel.change_entity_requested.connect(self.open_changed_entity)
            panel.review_requested.connect(self.review)
            panel.revert_requested.connect(self.revert)
            panel.pause_requested.connect(self.pause_assistant)
            panel.writes_switched.connect(self.switch_assistant_writes)
            panel.held_decided.connect(self.held.decide)
            self.changes.attach(panel.changes)
            panel.session_requested.connect(
                lambda sid: p.engine.run("activity-session", activity.session_changes, sid, self.filters,
                                         on_done=panel.show_session, what=translate("ActivityMenu", "reading the activity log")))
        return self.dock.panel

    def show(self) -> None:
        """Activity → Activity panel: the dock in view, read afresh."""
        self.panel()
        self.dock.show()
        self.dock.raise_()
        self.refresh()

    def show_changes(self) -> None:
        """Activity → What changed since…: the panel's tab, since the last opening (or a week ago)."""
        self.show()
        self.dock.panel.tabs.setCurrentWidget(self.dock.panel.changes)
        self.dock.panel.changes.since.setFocus()
        self.changes.ask_default()

    def _on_filters(self, filters: dict) -> None:
        self.filters = filters
        self.refresh()

    def open_changed_entity(self, entity_id: int, at: str, named: str) -> None:
        """Open the entity a change was about, unless its id now belongs to an entity made after the change."""
        p = self.p

        def gone(_failure=None) -> None:
            p.status.say(translate("ActivityMenu", "“{named}” is no longer in the graph (deleted since).").format(named=named) if named
                         else translate("ActivityMenu", "The entity of that change is no longer in the graph."), 10_000)

        def by_name(view) -> None:  # merged away, its name is an alias of the entity kept: that one opens
            if view.entity.name != named:
                p.status.say(translate("ActivityMenu", "“{named}” is now “{name}”.").format(named=named, name=view.entity.name), 8_000)
            p.open_entity(view.entity.id)

        def find_by_name(_failure=None) -> None:
            if not named:
                gone()
                return
            p.engine.read("activity-entity", entities.load_view, named, what=translate("ActivityMenu", "opening the entity"),
                          on_done=by_name, on_failed=gone)

        def check(view) -> None:
            if view.entity.created_at <= at:
                p.open_entity(entity_id)
            else:  # the entity of the change is gone and its id was given again
                find_by_name()

        p.engine.read("activity-entity", entities.load_view, entity_id, what=translate("ActivityMenu", "opening the entity"),
                      on_done=check, on_failed=find_by_name)

    def refresh(self) -> None:
        """Read the log again: the badge always, the panel when it is open."""
        p = self.p
        if p.hooks.catalog() is None:
            return
        if self.dock is not None and self.dock.isVisible():
            p.engine.run("activity", panel_and_held, self.filters, on_done=self._show_data,
                         what=translate("ActivityMenu", "reading the activity log"))
        else:
            p.engine.run("activity-badge", badge_counts, on_done=lambda counts: self._show_badge(*counts),
                         what=translate("ActivityMenu", "reading the activity log"))

    def _show_data(self, read) -> None:
        data, waiting = read
        self._show_badge(data.unreviewed, len(waiting))
        if self.dock is not None:
            self.dock.panel.show_data(data, waiting)

    def _show_badge(self, count: int, held_count: int = 0) -> None:
        words = [translate("ActivityMenu", "Assistants: {count} unreviewed").format(count=count)] if count else []
        if held_count:
            words.append(translate("ActivityMenu", "%n held for review", "", held_count))
        self.badge.setText(", ".join(words))
        self.badge.setToolTip(translate("ActivityMenu", "Assistant changes not reviewed yet, and writes held because they "
                                        "looked like a credential: open the Activity panel (Ctrl+Shift+A)") if held_count
                              else translate("ActivityMenu", "Assistant changes not reviewed yet: open the Activity panel (Ctrl+Shift+A)"))
        self.badge.setVisible(bool(count or held_count))

    # -- acting ------------------------------------------------------------------------------

    def review(self, target) -> None:
        """Mark everything, a session, or some changes reviewed."""
        kind, value = target
        run, again = self.p.engine.run, (lambda _n: self.refresh())
        if kind == "all":
            run("review", activity.mark_reviewed, None, None, True, on_done=again)
        elif kind == "session":
            run("review", activity.mark_reviewed, None, value, on_done=again)
        else:
            run("review", activity.mark_reviewed, list(value), on_done=again)

    def revert(self, target) -> None:
        """Revert…: read what it would take back and keep, show that, and act only once the person chooses."""
        p = self.p
        kind, value = target
        ref = f"s{value}" if kind == "session" else list(value)
        what = translate("ActivityMenu", "revert of this session") if kind == "session" else translate("ActivityMenu", "revert of this change")
        p.engine.run("revert-plan", activity.plan_revert, ref, what=translate("ActivityMenu", "reading what the revert would take back"),
                     on_done=lambda plan: self._preview(target, plan, what),
                     on_failed=lambda failure: p.hooks.failed(what, failure.message))

    def _preview(self, target, plan, what: str) -> None:
        if plan.empty:
            self.p.status.say(translate("ActivityMenu", "Nothing to take back: it is as it was already."), 8000)
            return
        dialog = RevertPreview(plan, what, self.p.hooks.parent)
        self.preview_dialog = dialog

        def finished(_result: int) -> None:
            self.preview_dialog = None
            dialog.deleteLater()
            if dialog.choice is not None:
                self._take_back(target, None if dialog.choice == GO else dialog.choice, what)

        dialog.finished.connect(finished)
        dialog.open()

    def _take_back(self, target, choice: str | None, what: str) -> None:
        """Take back as chosen; something changed since the preview opens the conflict dialog."""
        p = self.p
        kind, value = target
        ref = f"s{value}" if kind == "session" else list(value)
        shown = p.open_entity_id()
        label = translate("ActivityMenu", "revert of session {value}").format(value=value) if kind == "session" else \
            translate("ActivityMenu", "revert of change ") + ", ".join(f"#{i}" for i in value)

        def done(plan) -> None:
            taken = activity.taken_count(plan)  # as the preview counted them
            p.status.say(translate("ActivityMenu", "Reverted: %n pieces taken back (Ctrl+Z brings them back).", "", taken) if taken
                         else translate("ActivityMenu", "Nothing to take back: it is as it was already."), 8000)
            if plan.change_id is not None:
                p.record_step(RevertStep(label, shown, live=[plan.change_id]))
            removed = {x.row_id for x in plan.pieces if x.kind == "entity" and x.before is None}
            if shown is not None and shown in removed:
                p.clear_editor()
                p.status.say(translate("ActivityMenu", "Reverted: %n pieces taken back, with the entity you had open (Ctrl+Z "
                                           "brings it back).", "", taken), 8000)
            elif shown is not None and not p.editor_dirty():
                p.reload(shown)  # the editor shows the entity as the revert left it
            elif shown is not None:
                p.status.say(translate("ActivityMenu", "Reverted; your unsaved edits are kept: saving applies only them."), 8000)
            self.refresh()

        def failed(failure) -> None:
            if isinstance(failure.error, RevertConflict):
                chosen = self.ask_conflict(failure.error.plan, what)
                if chosen is not None:
                    self._take_back(target, chosen, what)
                return
            p.hooks.failed(what, failure.message)

        p.engine.run("revert", activity.revert_changes, ref, choice, on_done=done, on_failed=failed, what="reverting")

    def ask_conflict(self, plan, what: str) -> str | None:
        """Show what blocks an undo or revert and return the person's choice (None: leave it all)."""
        dialog = ConflictDialog(plan, what, self.p.hooks.parent)
        self.conflict_dialog = dialog
        try:
            return dialog.choice if dialog.exec() == QDialog.DialogCode.Accepted else None
        finally:
            self.conflict_dialog = None
            dialog.deleteLater()

    def pause_assistant(self, client: str, paused: bool) -> None:
        """Pause or resume one assistant's writing (its reads go on)."""
        self.p.engine.run("pause", activity.set_paused, client, paused, on_done=lambda _v: self.refresh())
        self.p.status.say(translate("ActivityMenu", "Writing by “{client}” is paused; its reads still work.").format(client=client) if paused
                          else translate("ActivityMenu", "“{client}” may write again.").format(client=client), 8000)

    def switch_assistant_writes(self, allowed: bool) -> None:
        """The switch letting every assistant write, or none."""
        self.p.engine.run("writes-switch", activity.set_assistants_may_write, allowed,
                          on_done=lambda _v: self.refresh())
