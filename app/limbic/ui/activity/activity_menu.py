"""The Activity menu, badge and panel of the main window: what assistants did, reviewed and taken back.

One part of the main window (which provides engine, status, catalog and the editor's entities).
Every read and action is a service operation from ``limbic.service.activity`` run on the engine's
thread; the conflict dialog is shared with Edit → Undo (``UndoController`` asks it here).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QDialog, QToolButton

from limbic.service import activity
from limbic.service.activity import RevertConflict
from limbic.ui.common import window_fit
from limbic.ui.activity.activity_panel import ActivityDock, ActivityPanel, ConflictDialog

if TYPE_CHECKING:
    from limbic.ui.shell.main_window import MainWindow

logger = logging.getLogger(__name__)


class ActivityMenu(QObject):
    """The Activity menu (Ctrl+Shift+A), the status bar's badge of unreviewed assistant changes, the panel."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.w = window
        self.dock: ActivityDock | None = None  # made on first use
        self.conflict_dialog: ConflictDialog | None = None  # the conflict dialog on screen, if any (tests answer it)
        self.filters: dict = {}

    def build_menu(self, bar) -> None:
        """Activity → Activity panel, Mark all reviewed; the badge in the status bar."""
        w = self.w
        menu = bar.addMenu("A&ctivity")
        self.panel_action = w.add_action(menu, "&Activity panel", self.show, "Ctrl+Shift+A",
                                         tip="What each assistant and program changed: review and take back")
        self.review_all_action = w.add_action(menu, "Mark all &reviewed", lambda: self.review(("all", None)))
        self.badge = QToolButton(w, objectName="activityBadge")
        self.badge.setAutoRaise(True)
        self.badge.clicked.connect(self.show)
        self.badge.setVisible(False)
        w.status.addPermanentWidget(self.badge)
        w.changes_shown.connect(lambda _done: self.refresh())
        # After the window has taken the newly opened file in (its own slot runs first or after this one).
        w.engine.worker.opened.connect(lambda _catalog: QTimer.singleShot(0, self.refresh))

    # -- reading -----------------------------------------------------------------------------

    def panel(self) -> ActivityPanel:
        """The panel, created in its dock on first use."""
        if self.dock is None:
            w = self.w
            self.dock = ActivityDock(w)
            size = w.size()
            w.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
            window_fit.place_dock(w, self.dock, max(460, w.width() * 2 // 5))
            if w.size() != size:
                w.resize(size)
            panel = self.dock.panel
            panel.refresh_requested.connect(self._on_filters)
            panel.open_requested.connect(lambda entity_id: w.load_entity(entity_id))
            panel.review_requested.connect(self.review)
            panel.revert_requested.connect(self.revert)
            panel.pause_requested.connect(self.pause_assistant)
            panel.writes_switched.connect(self.switch_assistant_writes)
            panel.session_requested.connect(
                lambda sid: w.engine.run("activity-session", activity.session_changes, sid, self.filters,
                                         on_done=panel.show_session, what="reading the activity log"))
        return self.dock.panel

    def show(self) -> None:
        """Activity → Activity panel: the dock in view, read afresh."""
        self.panel()
        self.dock.show()
        self.dock.raise_()
        self.refresh()

    def _on_filters(self, filters: dict) -> None:
        self.filters = filters
        self.refresh()

    def refresh(self) -> None:
        """Read the log again: the badge always, the panel when it is open."""
        w = self.w
        if w.catalog is None:
            return
        if self.dock is not None and self.dock.isVisible():
            w.engine.run("activity", activity.panel_data, self.filters, on_done=self._show_data,
                         what="reading the activity log")
        else:
            w.engine.run("activity-badge", activity.unreviewed_count, on_done=self._show_badge,
                         what="reading the activity log")

    def _show_data(self, data) -> None:
        self._show_badge(data.unreviewed)
        if self.dock is not None:
            self.dock.panel.show_data(data)

    def _show_badge(self, count: int) -> None:
        self.badge.setText(f"Assistants: {count} unreviewed" if count else "")
        self.badge.setToolTip("Assistant changes not reviewed yet: open the Activity panel (Ctrl+Shift+A)")
        self.badge.setVisible(bool(count))

    # -- acting ------------------------------------------------------------------------------

    def review(self, target) -> None:
        """Mark everything, a session, or some changes reviewed."""
        kind, value = target
        run, again = self.w.engine.run, (lambda _n: self.refresh())
        if kind == "all":
            run("review", activity.mark_reviewed, None, None, True, on_done=again)
        elif kind == "session":
            run("review", activity.mark_reviewed, None, value, on_done=again)
        else:
            run("review", activity.mark_reviewed, list(value), on_done=again)

    def revert(self, target, choice: str | None = None) -> None:
        """Take back a change or a session; a conflict opens the dialog, whose choice runs it again."""
        w = self.w
        kind, value = target
        ref = f"s{value}" if kind == "session" else list(value)
        what = "revert of this session" if kind == "session" else "revert of this change"

        def done(plan) -> None:
            taken = len(plan.pieces)
            w.status.say(f"Reverted: {taken} piece{'s' if taken != 1 else ''} taken back." if taken
                         else "Nothing to take back: it is as it was already.", 8000)
            self.refresh()

        def failed(failure) -> None:
            if isinstance(failure.error, RevertConflict):
                choice = self.ask_conflict(failure.error.plan, what)
                if choice is not None:
                    self.revert(target, choice)
                return
            w.on_failed(what, failure.message)

        w.engine.run("revert", activity.revert_changes, ref, choice, on_done=done, on_failed=failed, what="reverting")

    def ask_conflict(self, plan, what: str) -> str | None:
        """Show what blocks an undo or revert and return the person's choice (None: leave it all)."""
        dialog = ConflictDialog(plan, what, self.w)
        self.conflict_dialog = dialog
        try:
            return dialog.choice if dialog.exec() == QDialog.DialogCode.Accepted else None
        finally:
            self.conflict_dialog = None
            dialog.deleteLater()

    def pause_assistant(self, client: str, paused: bool) -> None:
        """Pause or resume one assistant's writing (its reads go on)."""
        self.w.engine.run("pause", activity.set_paused, client, paused, on_done=lambda _v: self.refresh())
        self.w.status.say(f"Writing by “{client}” is paused; its reads still work." if paused
                          else f"“{client}” may write again.", 8000)

    def switch_assistant_writes(self, allowed: bool) -> None:
        """The switch letting every assistant write, or none."""
        self.w.engine.run("writes-switch", activity.set_assistants_may_write, allowed,
                          on_done=lambda _v: self.refresh())
