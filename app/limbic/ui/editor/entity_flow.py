"""The entity in the editor: opening it, Back/Forward, saving (with conflicts), deleting, its status.

Owns what only this flow needs: the navigation history, whether a load is a Back/Forward step, the
load the editor shows, and what to do once a pending save succeeds. It is handed the editor, the
engine, the status bar and the window's hooks (``EntityParts``), never the window.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMessageBox

from limbic.service.types import ChangeSet
from limbic.service import entities as ops
from limbic.service import undo as undo_ops
from limbic.service.entity_keys import EntityKey, Reopened, reopen
from limbic.service.save_conflicts import changed_by_person
from limbic.service.entities import ConflictError, EntityDraft, EntityView, set_status
from limbic.ui.common.hooks import StatusLine, WindowHooks
from limbic.ui.common.words import SYNC_PREFIX, who_words
from limbic.ui.editor.aliases import AliasFlow
from limbic.ui.editor.entity_editor import EntityEditor
from limbic.ui.editor.history import NavigationHistory
from limbic.ui.workers.worker import Engine, Failure
from limbic.ui.common.i18n import translate

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class EntityParts:
    """What the editor's entity flow works with; what follows an entity on screen is the window's to wire."""

    engine: Engine
    editor: EntityEditor
    status: StatusLine
    hooks: WindowHooks
    record_step: Callable[[undo_ops.Step], None]  # a change the person made becomes the next Undo
    shown: Callable[[int], None]  # an entity is now in the editor
    saved: Callable[[int], None]
    deleted: Callable[[str], None]  # the deleted entity's name


class EntityFlow(QObject):
    """Open, navigate, save and delete the editor's entity; one per window."""

    def __init__(self, parts: EntityParts) -> None:
        super().__init__(parts.hooks.parent)
        self.p = parts
        self.history = NavigationHistory()
        self.navigating = False  # a Back/Forward (or reload) must not push history
        self.after_save: Callable[[], None] | None = None  # what to do once the pending save succeeds
        self._entity_ticket = 0  # the load whose entity the editor shows
        self.conflict_by_person = False  # the save's conflict is with the person's own edits elsewhere
        editor = parts.editor
        editor.save_requested.connect(self.save_draft)
        editor.delete_requested.connect(self.on_delete_requested)
        editor.navigate_requested.connect(self.open_entity)
        editor.status_requested.connect(self.on_status_requested)
        editor.create_requested.connect(self.on_create_target)
        self.alias_flow = AliasFlow(parts, editor.aliases, self.reload)

    def build_actions(self, go_menu) -> None:
        """Go → Back and Forward."""
        self.back_action = self.p.hooks.add_action(go_menu, translate("EntityFlow", "&Back"), self.on_back, "Alt+Left")
        self.forward_action = self.p.hooks.add_action(go_menu, translate("EntityFlow", "&Forward"), self.on_forward, "Alt+Right")
        self.update_history_actions()

    # -- opening ----------------------------------------------------------------------------

    def open_entity(self, ref: int | str, record: bool = False) -> None:
        """Show an entity in the editor (after asking about unsaved changes); ``record`` counts an access."""
        self.p.hooks.guard(lambda: self.load_entity(ref, record))

    def reload(self, entity_id: int) -> int:
        """Show the entity again (a refresh, not a visit: no history entry)."""
        self.navigating = True
        return self.load_entity(entity_id)

    def load_entity(self, ref: int | str, record: bool = False, together: tuple[int, ...] = ()) -> int:
        """Load an entity into the editor now (no questions); the newest request wins."""
        engine = self.p.engine
        if engine.busy_job:  # the engine's thread is busy: show what is committed now (no access counted)
            return engine.read("entity", ops.load_view, ref, what=translate("EntityFlow", "opening the entity"),
                               on_done=self.on_entity_loaded, on_failed=self.on_entity_missing)
        return engine.run("entity", ops.open_view, ref, record, tuple(together), what=translate("EntityFlow", "opening the entity"),
                          on_done=self._entity_arrived, on_failed=self.on_entity_missing, with_ticket=True)

    def _entity_arrived(self, ticket: int, view: EntityView) -> None:
        self._entity_ticket = ticket
        self.on_entity_loaded(view)

    def navigation_pending(self) -> bool:
        """An entity the person asked for is still on its way (a refresh must not replace it)."""
        return self.p.engine.entities.latest != self._entity_ticket

    def on_entity_loaded(self, view: EntityView) -> None:
        """Show a loaded entity; the history, the pin action and the highlighted result follow it."""
        self.p.editor.show_view(view)
        entity_id = view.entity.id
        if not self.navigating:
            self.history.visit(EntityKey.of(view))
        self.navigating = False
        self.update_history_actions()
        self.p.shown(entity_id)

    def on_entity_missing(self, failure: Failure) -> None:
        """The entity asked for is gone (or could not be read): say so."""
        self.navigating = False
        self.p.status.say(failure.message)

    # -- back and forward -------------------------------------------------------------------

    def update_history_actions(self) -> None:
        """Back and Forward are on only when there is somewhere to go."""
        self.back_action.setEnabled(self.history.can_back)
        self.forward_action.setEnabled(self.history.can_forward)

    def clear_history(self) -> None:
        """Another file opened: the history spoke of the old one."""
        self.history.clear()
        self.update_history_actions()

    def _go(self, delta: int) -> None:
        def go() -> None:
            key = self.history.step(delta)
            if key is None:
                return
            self.navigating = True
            self.update_history_actions()
            # By its gid: the id it had may belong to an entity made since; a merged-away one opens its survivor.
            engine = self.p.engine
            if engine.busy_job:
                engine.read("entity", reopen, key, what=translate("EntityFlow", "opening the entity"), on_done=self._reopened,
                            on_failed=lambda failure: self._gone(delta, failure))
            else:
                engine.run("entity", reopen, key, what=translate("EntityFlow", "opening the entity"), with_ticket=True,
                           on_done=self._reopened_ticket, on_failed=lambda failure: self._gone(delta, failure))
        self.p.hooks.guard(go)

    def _reopened_ticket(self, ticket: int, found: Reopened) -> None:
        self._entity_ticket = ticket
        self._reopened(found)

    def _reopened(self, found: Reopened) -> None:
        self.history.arrived(EntityKey.of(found.view))  # its name now (renamed since), or the survivor's
        if found.was is not None:
            self.p.status.say(translate("EntityFlow", "“{was}” was merged into “{name}”; its name is an alias of it now.").format(was=found.was, name=found.view.entity.name), 8000)
        self.on_entity_loaded(found.view)

    def _gone(self, delta: int, failure: Failure) -> None:
        self.history.forget(delta)
        self.update_history_actions()
        self.on_entity_missing(failure)

    def on_back(self) -> None:
        """Go → Back."""
        self._go(-1)

    def on_forward(self) -> None:
        """Go → Forward."""
        self._go(+1)

    def on_new_entity(self) -> None:
        """Edit → New entity."""
        self.p.hooks.guard(self.p.editor.new_entity)

    # -- saving -----------------------------------------------------------------------------

    def save_then(self, then: Callable[[], None]) -> None:
        """Save the editor's draft, then run ``then`` if the save succeeded."""
        self.after_save = then
        self.save_draft(self.p.editor.draft())

    def save_draft(self, draft: EntityDraft, resolve: str | None = None) -> int:
        """Save the editor's draft; only the person's own changes since loading are applied."""
        if self.p.hooks.refused_during_job(translate("EntityFlow", "Saving")):
            return 0
        return self.p.engine.run("save", undo_ops.save_draft, draft, resolve, what=translate("EntityFlow", "saving the entity"),
                                 on_done=self._on_saved_step, on_failed=self.on_save_failed)

    def _on_saved_step(self, saved: undo_ops.Saved) -> None:
        self.p.record_step(saved.step)
        self.on_saved(saved.entity_id)

    def on_saved(self, entity_id: int) -> None:
        """Saved: run what waited for the save, else show the entity as saved."""
        self.p.status.say(translate("EntityFlow", "Saved."), 3000)
        self.p.saved(entity_id)
        then, self.after_save = self.after_save, None
        if then is not None:
            self.p.editor.clear()
            then()
        else:
            # The same entity again: no new history entry, unless it was just created (Back returns to it).
            self.navigating = self.p.editor.entity_id is not None
            self.load_entity(entity_id)

    def on_save_failed(self, failure: Failure) -> None:
        """A conflict asks the person what to keep (once it is known whose the other side is); anything
        else is a failure to show."""
        if isinstance(failure.error, ConflictError):
            error = failure.error
            self.p.engine.read("conflict-who", changed_by_person, error.draft, what=translate("EntityFlow", "reading who changed it"),
                               on_done=lambda yours: self._resolve(error, bool(yours)),
                               on_failed=lambda _f: self._resolve(error, False))
            return
        self.p.hooks.failed(translate("EntityFlow", "saving the entity"), failure.message)

    def _resolve(self, error: ConflictError, yours: bool) -> None:
        self.conflict_by_person = yours
        choice = self.ask_conflict(error)
        if choice in (ops.MINE, ops.THEIRS):
            self.save_draft(error.draft, choice)
            return
        self.after_save = None
        self.p.status.say(translate("EntityFlow", "Not saved: the conflict is waiting for your decision; your edits are still here."), 0)

    def conflict_box(self, error: ConflictError, yours: bool) -> tuple[QMessageBox, object, object]:
        """The question, its "keep this" and "keep the other" buttons; ``yours``: the other side is the person's."""
        here, there = ("here", "elsewhere") if yours else ("yours", "theirs")
        other = translate("EntityFlow", "you, elsewhere") if yours else translate("EntityFlow", "another program")
        lines = "\n".join(f"• {c.describe().replace('another program', other)}"
                          + (f"\n   {here}: {c.mine}\n   {there}: {c.theirs}"
                             if c.what == "observation" and c.mine and c.theirs else "")
                          for c in error.conflicts[:8])
        who = (translate("EntityFlow", "you changed the same things elsewhere (in another Limbic window or on the command line)") if yours
               else translate("EntityFlow", "another program changed the same things"))
        box = QMessageBox(QMessageBox.Icon.Question, translate("EntityFlow", "Changed by you elsewhere") if yours else translate("EntityFlow", "Changed in another program"),
                          translate("EntityFlow", "While you edited “{name}”, {who}:\n\n{lines}\n\nEverything else from both "
                              "sides is kept either way.").format(name=error.draft.name, who=who, lines=lines), parent=self.p.hooks.parent)
        mine = box.addButton(translate("EntityFlow", "Keep this version") if yours else translate("EntityFlow", "Keep my version"), QMessageBox.ButtonRole.AcceptRole)
        theirs = box.addButton(translate("EntityFlow", "Keep yours from elsewhere") if yours else translate("EntityFlow", "Keep theirs"),
                               QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(translate("EntityFlow", "Go back to editing"), QMessageBox.ButtonRole.RejectRole)
        return box, mine, theirs

    def ask_conflict(self, error: ConflictError) -> str | None:
        """Show what both sides changed and let the person choose; tests replace this method."""
        box, mine, theirs = self.conflict_box(error, self.conflict_by_person)
        box.exec()
        clicked = box.clickedButton()
        return ops.MINE if clicked is mine else ops.THEIRS if clicked is theirs else None

    # -- deleting and status ----------------------------------------------------------------

    def on_delete_requested(self, entity_id: int, name: str) -> None:
        """Delete the entity after asking (undoable)."""
        if self.p.hooks.refused_during_job(translate("EntityFlow", "Deleting")):
            return
        if self.confirm_delete(name):
            self.p.engine.run("delete", undo_ops.delete_entity, entity_id, what=translate("EntityFlow", "deleting the entity"),
                              on_done=self.on_deleted)

    def confirm_delete(self, name: str) -> bool:
        """Ask before deleting; tests replace this method."""
        answer = QMessageBox.question(
            self.p.hooks.parent, translate("EntityFlow", "Delete entity"), translate("EntityFlow", "Delete “{name}” with its observations and relations?\nYou can undo "
                                                      "this with Ctrl+Z.").format(name=name),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def on_deleted(self, step: undo_ops.DeleteStep) -> None:
        """Deleted: the step joins the Edit menu and the editor empties."""
        self.p.record_step(step)
        self.p.editor.clear()
        self.p.status.say(translate("EntityFlow", "Deleted “{name}”. Press Ctrl+Z to undo.").format(name=step.snap.name), 15_000)
        self.p.deleted(step.snap.name)

    def on_status_requested(self, entity_id: int, status: str) -> None:
        """The editor's status badge: applied at once."""
        self.p.engine.run("status", set_status, entity_id, status, what=translate("EntityFlow", "changing the status"),
                          on_done=self._on_status_saved)

    def _on_status_saved(self, entity_id: int) -> None:
        """Show the saved status (and the new updated time); unsaved edits in the editor are left alone."""
        editor = self.p.editor
        if editor.entity_id == entity_id and not editor.is_dirty():
            self.reload(entity_id)

    def on_create_target(self, name: str, entity_type: str) -> None:
        """A new relation points to an entity that does not exist: create it, as one undoable step."""
        p = self.p
        if p.hooks.refused_during_job(translate("EntityFlow", "Creating an entity")):
            return

        def done(saved: undo_ops.Saved) -> None:
            p.record_step(saved.step)
            p.status.say(translate("EntityFlow", "Created “{name}” ({entity_type}); the relation to it is saved with "
                             "this entity.").format(name=name, entity_type=entity_type), 8000)

        p.engine.run("create-target", undo_ops.save_draft, EntityDraft(None, name, entity_type), None,
                     what=translate("EntityFlow", "creating the entity"), on_done=done,
                     on_failed=lambda f: p.hooks.failed(translate("EntityFlow", "creating the entity"), f.message))

    # -- other programs' changes ------------------------------------------------------------

    def _note_outside(self, view: EntityView) -> None:
        """While the person edits: “2 new observations from beta since you started editing”."""
        editor = self.p.editor
        base = editor.loaded_draft
        if base is None or base.entity_id != view.entity.id or not editor.is_dirty():
            return
        editor.show_outside_note(outside_words(base, view))

    def follow_changes(self, done: ChangeSet) -> None:
        """Another program changed or deleted the open entity: show it again, or say what happened."""
        editor, status = self.p.editor, self.p.status
        entity_id = editor.entity_id
        if entity_id is None or not done.touches(entity_id) or self.navigation_pending():
            return
        where = _from_devices(done)  # a sync: the device it came from, not "another program"
        if editor.is_dirty():
            if entity_id in done.removed:
                status.say(translate("EntityFlow", "This entity was deleted on {where}; saving will ask what to keep.").format(
                    where=where) if where else translate(
                    "EntityFlow", "This entity was deleted by another program; saving will ask what to keep."), 0)
            else:
                status.say(translate("EntityFlow", "This entity was changed on {where}; when you save, only your own "
                           "changes are applied.").format(where=where) if where else translate(
                    "EntityFlow", "This entity was changed by another program; when you save, only your own "
                    "changes are applied."), 0)
                # The edits stay on screen; what arrived meanwhile is said in the editor, where the person looks.
                self.p.engine.read("entity-outside", ops.open_view, entity_id, what=translate("EntityFlow", "reading the entity"),
                                   on_done=self._note_outside)
        elif entity_id in done.removed:
            editor.clear()
            status.say(translate("EntityFlow", "The entity you had open was deleted on {where}.").format(where=where) if where
                       else translate("EntityFlow", "The entity you had open was deleted by another program."), 0)
        else:
            self.reload(entity_id)


def _from_devices(done: ChangeSet) -> str:
    """The devices a batch of outside changes came from, when all came by sync ("desktop (another device)")."""
    devices = sorted(o for o in done.origins if o.startswith(SYNC_PREFIX))
    return ", ".join(who_words(o) for o in devices) if devices and len(devices) == len(done.origins) else ""


def outside_words(base: EntityDraft, view: EntityView) -> str:
    """What the stored entity holds that the editor's draft began without, and from whom, in one sentence."""
    had = {text for _, text in base.observations}
    new = [o.content for o in view.entity.observations if o.current and o.content not in had]
    if not new:
        return translate("EntityFlow", "Another program changed this entity since you started editing; saving keeps both.")
    who = []
    for c in reversed(view.changes):  # newest first: the writer of each new observation
        for it in c.items:
            if it.kind == "observation" and it.op == "add" and (it.after or {}).get("content") in new \
                    and who_words(c.who) not in who:
                who.append(who_words(c.who))  # a device by its name ("desktop (another device)"), never "sync:desktop"
    source = " and ".join(who) if who else translate("EntityFlow", "another program")
    n = len(new)
    return translate("EntityFlow", "%n new observations from {source} since you started editing; saving keeps "
                     "them and your edits.", "", n).format(source=source)
