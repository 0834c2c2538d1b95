"""Edit → Undo/Redo for every edit, and the window's keys that text fields must not swallow.

The steps themselves are Qt-free service operations (``limbic.service.undo``); this module runs
them on the engine's thread, names them in the Edit menu, and makes the keys reach the window:

* Ctrl+Z / Ctrl+Shift+Z undo the last action from any focus: a text field keeps its own undo
  only while it has typing of its own to undo (the search box never does: its text is a query);
* Ctrl+E (export) works in every field (line edits take it as "end of line" on Linux);
* Ctrl+Delete in the search box deletes a word instead of asking to delete the open entity.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QLineEdit, QPlainTextEdit, QTextEdit, QWidget

from limbic.service import undo as steps
from limbic.service.undo import RevertConflict
from limbic.ui.common.hooks import WindowHooks
from limbic.ui.editor.entity_editor import EntityEditor
from limbic.ui.shell.status import StatusPanel
from limbic.ui.workers.worker import Engine
from limbic.ui.common.i18n import translate
from limbic.ui.shell.undo_words import said

_UNDO_KEYS = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo)


def _undo_available(widget: QObject) -> bool:
    if isinstance(widget, QLineEdit):
        return widget.isUndoAvailable() or widget.isRedoAvailable()
    if isinstance(widget, (QPlainTextEdit, QTextEdit)):
        doc = widget.document()
        return doc.isUndoAvailable() or doc.isRedoAvailable()
    return False


class WindowKeys(QObject):
    """An application event filter deciding which keys a focused field may keep for itself."""

    def __init__(self, window: QWidget, search_edit: QLineEdit, has_steps: Callable[[], bool]) -> None:
        super().__init__(window)
        self._window = window
        self._search = search_edit
        self._has_steps = has_steps  # the window's Undo or Redo has a step to take

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() != QEvent.Type.ShortcutOverride or not isinstance(event, QKeyEvent):
            return False
        if not isinstance(obj, QWidget) or obj.window() is not self._window:
            return False
        if any(event.matches(k) for k in _UNDO_KEYS):
            if self._has_steps() and (obj is self._search or not _undo_available(obj)):
                event.ignore()
                return True  # not overridden: the window's Undo/Redo action gets the key
            return False
        combo = event.keyCombination()
        ctrl_only = event.modifiers() == _ctrl()
        if ctrl_only and combo.key() == _key("Key_E") and isinstance(obj, (QLineEdit, QPlainTextEdit, QTextEdit)):
            event.ignore()
            return True  # Export, not "end of line"
        if obj is self._search and ctrl_only and combo.key() == _key("Key_Delete"):
            event.accept()
            return True  # delivered to the field as a key press: it deletes the next word
        return False


def _ctrl():
    from PySide6.QtCore import Qt

    return Qt.KeyboardModifier.ControlModifier


def _key(name: str):
    from PySide6.QtCore import Qt

    return getattr(Qt.Key, name)


@dataclass(frozen=True)
class UndoParts:
    """What Edit → Undo/Redo works with."""

    engine: Engine
    editor: EntityEditor  # emptied while a step runs: the step may change or remove its entity
    status: StatusPanel  # says what was undone and offers Undo after a change
    hooks: WindowHooks
    readonly: Callable[[], bool]  # the open file cannot be written
    reload: Callable[[int], object]  # show an entity again once a step changed it
    ask_conflict: Callable[[object, str], str | None]  # another writer changed the same things: the choice
    step_done: Callable[[str], None]  # the label of the step just undone or redone


class UndoController(QObject):
    """Edit → Undo/Redo: owns the window's undo history and whether a step is running."""

    def __init__(self, parts: UndoParts) -> None:
        super().__init__(parts.hooks.parent)
        self.p = parts
        self.history = steps.UndoHistory()
        self.busy = False

    def build_actions(self, edit_menu) -> None:
        """Edit → Undo and Redo, named after the step they would take."""
        add = self.p.hooks.add_action
        self.undo_action = add(edit_menu, translate("UndoController", "&Undo"), self.on_undo, QKeySequence.StandardKey.Undo)
        self.redo_action = add(edit_menu, translate("UndoController", "Re&do"), self.on_redo, QKeySequence.StandardKey.Redo)
        self.undo_action.setEnabled(False)
        self.redo_action.setEnabled(False)
        self.p.status.undo_clicked.connect(self.on_undo)

    def has_steps(self) -> bool:
        """There is a step to undo or redo."""
        return bool(self.history.undo_steps or self.history.redo_steps)

    def push_step(self, step: steps.Step) -> None:
        """A change the person made: it becomes the next Undo."""
        self.history.push(step)
        self.update_actions()

    def clear(self) -> None:
        """The steps speak of a graph that is no longer there (another file, a restored backup)."""
        self.history.clear()
        self.update_actions()

    def update_actions(self) -> None:
        """Name the next Undo and Redo, and enable them when there is one and the file is writable."""
        h = self.history
        writable = not self.p.readonly()
        self.undo_action.setText(translate("UndoController", "&Undo {undo_label}").format(undo_label=said(h.undo_label)) if h.undo_label else translate("UndoController", "&Undo"))
        self.undo_action.setEnabled(writable and bool(h.undo_steps) and not self.busy)
        self.redo_action.setText(translate("UndoController", "Re&do {redo_label}").format(redo_label=said(h.redo_label)) if h.redo_label else translate("UndoController", "Re&do"))
        self.redo_action.setEnabled(writable and bool(h.redo_steps) and not self.busy)
        self.p.status.offer_undo(bool(h.undo_steps))
        self.p.status.undo_button.setToolTip(translate("UndoController", "Undo the {undo_label} (Ctrl+Z)").format(undo_label=said(h.undo_label)) if h.undo_label else "")

    def on_undo(self) -> None:
        """Undo the last step."""
        self._step(self.history.undo_steps, self.history.redo_steps, steps.undo_step, "Undone")

    def on_redo(self) -> None:
        """Redo the last undone step."""
        self._step(self.history.redo_steps, self.history.undo_steps, steps.redo_step, "Redone")

    def _step(self, source: list, target: list, op, verb: str) -> None:
        if not source or self.busy or self.p.hooks.refused_during_job(translate("UndoController", "Undo") if verb == "Undone" else translate("UndoController", "Redo")):
            return
        self.p.hooks.guard(lambda: self._run_step(source, target, op, verb))

    def _run_step(self, source: list, target: list, op, verb: str, choice: str | None = None) -> None:
        if not source:
            return
        step = source.pop()
        self.busy = True
        self.update_actions()
        p = self.p

        def done(entity_id: int | None) -> None:
            self.busy = False
            target.append(step)
            self.update_actions()
            verb_said = translate("UndoController", "Undone") if verb == "Undone" else translate("UndoController", "Redone")
            p.status.say(f"{verb_said}: {said(step.label)}.", 6000)
            p.step_done(step.label)
            if entity_id is not None:
                p.reload(entity_id)

        def failed(failure) -> None:
            self.busy = False
            source.append(step)  # nothing changed: the step can be tried again
            self.update_actions()
            if isinstance(failure.error, RevertConflict):  # another writer changed the same things since
                chosen = p.ask_conflict(failure.error.plan, translate("UndoController", "undo") if verb == "Undone"
                                           else translate("UndoController", "redo"))
                if chosen is not None:
                    self._run_step(source, target, op, verb, chosen)
                return
            p.hooks.failed(translate("UndoController", "undoing the {label}").format(label=said(step.label)) if verb == "Undone" else translate("UndoController", "redoing the {label}").format(label=said(step.label)),
                           failure.message)

        p.editor.clear()  # the step may change or remove the open entity; it is shown again after
        p.engine.run("undo", op, step, choice, what="undoing" if verb == "Undone" else "redoing",
                     on_done=done, on_failed=failed)
