"""The editor's sense of time: the open entity's timeline, the entity as it was at one of its events,
and when its observations and relations held in the world (shown beside them, set or cleared).

Handed the editor, the engine and the window's hooks (``TimelineParts``), never the window. Every
read runs on the reader's connection, every write on the engine's thread through the service, and
a change of dates joins Edit → Undo like the editor's other writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from PySide6.QtCore import QObject, Qt, SignalInstance
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QListWidget, QListWidgetItem, QMenu

from limbic.service import timeline
from limbic.service.timeline import Dates, TimelineEvent
from limbic.ui.common.hooks import StatusLine, WindowHooks
from limbic.ui.editor.entity_editor import ID_ROLE, REL_ROLE, EntityEditor
from limbic.ui.editor.observation_delegate import DATES_ROLE
from limbic.ui.editor.timeline import EVENT_ROLE, PastEntityView
from limbic.ui.editor.valid_time import DatesDialog
from limbic.ui.workers.worker import Engine, Failure
from limbic.ui.common.i18n import translate

_LABEL_ROLE = Qt.ItemDataRole.UserRole + 32  # a relation's label without its dates


@dataclass(frozen=True)
class TimelineParts:
    """What the timeline and the dates work with."""

    engine: Engine
    editor: EntityEditor
    status: StatusLine
    hooks: WindowHooks
    entity_shown: SignalInstance  # an entity is now in the editor (its id)
    record_step: Callable[[object], None]  # a change of dates becomes the next Undo
    reload: Callable[[int], object]  # show the editor's entity again as it is now
    readonly: Callable[[], bool] = lambda: False  # the open file cannot be written


class TimelineFlow(QObject):
    """Reads the open entity's timeline and dates, shows a past moment, sets dates; one per window."""

    def __init__(self, parts: TimelineParts) -> None:
        super().__init__(parts.hooks.parent)
        self.p = parts
        editor = parts.editor
        self.panel = editor.history_panel
        self.timeline_view = self.panel.timeline
        self.past = PastEntityView(editor.stack)
        editor.stack.addWidget(self.past)  # a third page of the editor: the form stays as the person left it
        self.dates = Dates()
        self._timeline_of: int | None = None  # the entity whose events the list shows
        self.panel.timeline_wanted.connect(self.read_timeline)
        self.timeline_view.event_chosen.connect(self.show_moment)
        self.past.back_requested.connect(self.back_to_now)
        self.past.step_requested.connect(self.step)
        self._shown_row = -1  # the timeline row whose moment the past view shows
        parts.entity_shown.connect(self.on_entity_shown)
        self.dates_action = QAction(translate("TimelineFlow", "When it &held…"), editor)
        self.dates_action.setToolTip(translate("TimelineFlow", "Say when this observation or relation held in the world, or clear it"))
        self.dates_action.triggered.connect(lambda: self.ask_dates(self._menu_for))
        self._menu_for: QListWidget | None = None  # the list whose menu is open
        self._keep: tuple[int, QListWidget, tuple] | None = None  # the row given dates, current again after the reload
        for lst in (editor.obs_list, editor.out_list, editor.in_list):
            lst.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            lst.customContextMenuRequested.connect(lambda pos, lst=lst: self._menu(lst, pos))

    # -- the open entity ---------------------------------------------------------------------------

    def on_entity_shown(self, entity_id: int) -> None:
        """An entity was (re)loaded: its dates beside its rows, its timeline if the tab is in view."""
        self._timeline_of = None
        keep, self._keep = self._keep, None
        if keep is not None and keep[0] == entity_id:
            self._make_current(*keep[1:])
        self.p.engine.read("entity-dates", timeline.entity_dates, entity_id, what=translate("TimelineFlow", "reading the dates"),
                           on_done=lambda dates: self._show_dates(entity_id, dates))
        if self.panel.timeline_shown():
            self.read_timeline()

    def read_timeline(self) -> None:
        """Read the open entity's events (once per loading of it)."""
        entity_id = self.p.editor.entity_id
        if entity_id is None or self._timeline_of == entity_id:
            return
        self._timeline_of = entity_id
        self.p.engine.read("entity-timeline", timeline.entity_timeline, entity_id, what=translate("TimelineFlow", "reading the timeline"),
                           on_done=lambda events: self._show_events(entity_id, events),
                           on_failed=self._timeline_failed)

    def _show_events(self, entity_id: int, events: list[TimelineEvent]) -> None:
        if self.p.editor.entity_id == entity_id:
            self.timeline_view.show_events(events)

    def _timeline_failed(self, failure: Failure) -> None:
        self._timeline_of = None
        self.timeline_view.show_events([])
        self.timeline_view.show_note(failure.message)

    # -- a past moment -----------------------------------------------------------------------------

    def show_moment(self, event: TimelineEvent) -> None:
        """Show the open entity as it was just after ``event`` (read-only, in place of the form)."""
        entity_id = self.p.editor.entity_id
        if entity_id is None:
            return
        self.p.engine.read("entity-then", timeline.entity_then, entity_id, event.view_at,
                           what=translate("TimelineFlow", "reading the entity as it was"),
                           on_done=lambda page: self._show_page(entity_id, page, event),
                           on_failed=lambda f: self.p.status.say(f.message))

    def step(self, delta: int) -> None:
        """From the moment shown, the one of the event before (-1) or after (+1) it."""
        rows = self.timeline_view.list
        if not 0 <= self._shown_row < rows.count():
            return
        at = rows.item(self._shown_row).data(EVENT_ROLE).view_at
        row = self._shown_row - delta  # the list is newest first
        # Events of one commit share a moment (and a picture): a step goes to the next moment.
        while 0 <= row < rows.count() and rows.item(row).data(EVENT_ROLE).view_at == at:
            row -= delta
        if 0 <= row < rows.count():
            rows.setCurrentRow(row)
            self.show_moment(rows.item(row).data(EVENT_ROLE))

    def _show_page(self, entity_id: int, page: dict, event: TimelineEvent) -> None:
        editor = self.p.editor
        if editor.entity_id != entity_id:
            return
        rows = self.timeline_view.list
        self._shown_row = next((i for i in range(rows.count()) if rows.item(i).data(EVENT_ROLE) is event), -1)
        moments = [rows.item(i).data(EVENT_ROLE).view_at for i in range(rows.count())]
        shown = self._shown_row
        self.past.show_page(page, event.view_at, event,
                            earlier=shown >= 0 and any(m != event.view_at for m in moments[shown + 1:]),
                            later=shown >= 0 and any(m != event.view_at for m in moments[:shown]))
        editor.stack.setCurrentWidget(self.past)
        self.past.back.setFocus()

    def back_to_now(self) -> None:
        """Back to the entity as it is now (the form, with any unsaved edits kept)."""
        editor = self.p.editor
        editor.stack.setCurrentIndex(1 if editor.has_entity else 0)

    def showing_past(self) -> bool:
        """True while the editor shows a past moment."""
        return self.p.editor.stack.currentWidget() is self.past

    # -- dates in the world ------------------------------------------------------------------------

    def _show_dates(self, entity_id: int, dates: Dates) -> None:
        editor = self.p.editor
        if editor.entity_id != entity_id:
            return
        self.dates = dates
        for i in range(editor.obs_list.count()):
            item = editor.obs_list.item(i)
            words = dates.observations.get(item.data(ID_ROLE)) if item.data(ID_ROLE) is not None else None
            if item.data(DATES_ROLE) != words:
                item.setData(DATES_ROLE, words)
        for lst, table in ((editor.out_list, dates.outgoing), (editor.in_list, dates.incoming)):
            for i in range(lst.count()):
                item = lst.item(i)
                label = item.data(_LABEL_ROLE) or item.text()
                item.setData(_LABEL_ROLE, label)
                words = table.get(tuple(item.data(REL_ROLE)))
                item.setText(f"{label}   ({words})" if words else label)

    def _menu(self, lst: QListWidget, pos) -> None:
        # A right-click has made its row current already; the menu key asks at the list's middle: the current row.
        item = lst.currentItem() or lst.itemAt(pos)
        if item is None:
            return
        lst.setCurrentItem(item)
        self._menu_for = lst
        menu = QMenu(lst)
        menu.addAction(self.dates_action)
        menu.exec(lst.viewport().mapToGlobal(pos))

    def _row(self, lst: QListWidget, item: QListWidgetItem, base) -> tuple[str, tuple, dict] | None:
        editor = self.p.editor
        if lst is editor.obs_list:
            obs_id = item.data(ID_ROLE)
            stored = {oid: text for oid, text in base.observations}
            if obs_id is None or stored.get(obs_id) != item.text():
                return None
            return f"“{item.text()}”", ("observation", obs_id), {"obs_id": obs_id}
        key = tuple(item.data(REL_ROLE))
        outgoing = lst is editor.out_list
        if key not in (base.outgoing if outgoing else base.incoming):
            return None
        relation = (base.name, key[1], key[0]) if outgoing else (key[0], base.name, key[1])
        words = f"{relation[0]} —{relation[2]}→ {relation[1]}"
        return words, ("out", *key) if outgoing else ("in", *key), {"relation": relation}

    def ask_dates(self, lst: QListWidget | None) -> None:
        """Set or clear when the current row of ``lst`` held; a bad date is said in the dialog."""
        editor = self.p.editor
        base = editor.loaded_draft
        if base is None or base.entity_id is None or lst is None or self.p.hooks.refused_during_job(translate("TimelineFlow", "Setting dates")):
            return
        if self.p.readonly():
            self.p.status.say(translate("TimelineFlow", "This graph file is open read-only: dates cannot be set."))
            return
        item = lst.currentItem()
        target = self._row(lst, item, base) if item is not None else None
        if target is None:
            self.p.status.say(translate("TimelineFlow", "Choose a saved observation or relation first: dates are set on what is stored."))
            return
        words, key, args = target
        start, until = self.dates.raw.get(key, (None, None))
        dialog = self.make_dialog(words, start, until)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        self._keep = (base.entity_id, lst, key)
        self.save_dates(*dialog.values(), **args)

    def _make_current(self, lst: QListWidget, key: tuple) -> None:
        """The reloaded row of ``key`` is current again, so the next key acts on the row the person chose."""
        editor = self.p.editor
        for i in range(lst.count()):
            item = lst.item(i)
            found = (item.data(ID_ROLE) == key[1] if lst is editor.obs_list
                     else item.data(REL_ROLE) is not None and tuple(item.data(REL_ROLE)) == tuple(key[1:]))
            if found:
                lst.setCurrentItem(item)
                return

    def make_dialog(self, words: str, start: str | None, until: str | None) -> DatesDialog:
        """The dates dialog (tests answer it instead of a person)."""
        return DatesDialog(words, start, until, self.p.hooks.parent)

    def save_dates(self, valid_from: str, valid_until: str, obs_id: int | None = None,
                   relation: tuple[str, str, str] | None = None) -> None:
        """Write the dates through the service (one undoable step), then show them."""
        entity_id = self.p.editor.entity_id
        if entity_id is None:
            return
        self.p.engine.run("dates", timeline.set_dates, entity_id, valid_from, valid_until, obs_id, relation,
                          what=translate("TimelineFlow", "setting the dates"), on_done=lambda step: self._saved(entity_id, step),
                          on_failed=lambda f: self.p.status.say(f.message))

    def _saved(self, entity_id: int, step) -> None:
        self.p.record_step(step)
        self.p.status.say(translate("TimelineFlow", "Dates saved. Press Ctrl+Z to undo."), 5000)
        editor = self.p.editor
        if editor.entity_id != entity_id:
            return
        if editor.is_dirty():  # the person's edits stay: only the dates beside the rows are read again
            self._keep = None  # nothing is reloaded: the row is still the current one
            self.p.engine.read("entity-dates", timeline.entity_dates, entity_id, what=translate("TimelineFlow", "reading the dates"),
                               on_done=lambda dates: self._show_dates(entity_id, dates))
        else:
            self.p.reload(entity_id)
