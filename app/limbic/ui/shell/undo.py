"""Edit → Undo/Redo for every edit, and the window's keys that text fields must not swallow.

The steps themselves are Qt-free service operations (``limbic.service.undo``); this module runs
them on the engine's thread, names them in the Edit menu, and makes the keys reach the window:

* Ctrl+Z / Ctrl+Shift+Z undo the last action from any focus: a text field keeps its own undo
  only while it has typing of its own to undo (the search box never does: its text is a query);
* Ctrl+E (export) works in every field (line edits take it as "end of line" on Linux);
* Ctrl+Delete in the search box deletes a word instead of asking to delete the open entity.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QLineEdit, QPlainTextEdit, QTextEdit, QWidget

from limbic.service import undo as steps
from limbic.service.undo import RevertConflict

if TYPE_CHECKING:
    from limbic.ui.shell.main_window import MainWindow

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

    def __init__(self, window: QWidget, search_edit: QLineEdit) -> None:
        super().__init__(window)
        self._window = window
        self._search = search_edit

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() != QEvent.Type.ShortcutOverride or not isinstance(event, QKeyEvent):
            return False
        if not isinstance(obj, QWidget) or obj.window() is not self._window:
            return False
        if any(event.matches(k) for k in _UNDO_KEYS):
            undo = getattr(self._window, "undo", None)
            has_steps = undo is not None and bool(undo.history.undo_steps or undo.history.redo_steps)
            if has_steps and (obj is self._search or not _undo_available(obj)):
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


class UndoController(QObject):
    """Edit → Undo/Redo: owns the window's undo history and whether a step is running."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.w = window
        self.history = steps.UndoHistory()
        self.busy = False

    def build_actions(self, edit_menu) -> None:
        """Edit → Undo and Redo, named after the step they would take."""
        self.undo_action = self.w.add_action(edit_menu, "&Undo", self.on_undo, QKeySequence.StandardKey.Undo)
        self.redo_action = self.w.add_action(edit_menu, "Re&do", self.on_redo, QKeySequence.StandardKey.Redo)
        self.undo_action.setEnabled(False)
        self.redo_action.setEnabled(False)
        self.w.status.undo_clicked.connect(self.on_undo)

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
        writable = not self.w.readonly
        self.undo_action.setText(f"&Undo {h.undo_label}" if h.undo_label else "&Undo")
        self.undo_action.setEnabled(writable and bool(h.undo_steps) and not self.busy)
        self.redo_action.setText(f"Re&do {h.redo_label}" if h.redo_label else "Re&do")
        self.redo_action.setEnabled(writable and bool(h.redo_steps) and not self.busy)
        self.w.status.offer_undo(bool(h.undo_steps))
        self.w.status.undo_button.setToolTip(f"Undo the {h.undo_label} (Ctrl+Z)" if h.undo_label else "")

    def on_undo(self) -> None:
        """Undo the last step."""
        self._step(self.history.undo_steps, self.history.redo_steps, steps.undo_step, "Undone")

    def on_redo(self) -> None:
        """Redo the last undone step."""
        self._step(self.history.redo_steps, self.history.undo_steps, steps.redo_step, "Redone")

    def _step(self, source: list, target: list, op, verb: str) -> None:
        if not source or self.busy or self.w.refused_during_job("Undo" if verb == "Undone" else "Redo"):
            return
        self.w.guard(lambda: self._run_step(source, target, op, verb))

    def _run_step(self, source: list, target: list, op, verb: str, choice: str | None = None) -> None:
        if not source:
            return
        step = source.pop()
        self.busy = True
        self.update_actions()
        w = self.w

        def done(entity_id: int | None) -> None:
            self.busy = False
            target.append(step)
            self.update_actions()
            w.status.say(f"{verb}: {step.label}.", 6000)
            w.step_done.emit(step.label)
            if entity_id is not None:
                w.entities.reload(entity_id)

        def failed(failure) -> None:
            self.busy = False
            source.append(step)  # nothing changed: the step can be tried again
            self.update_actions()
            if isinstance(failure.error, RevertConflict):  # another writer changed the same things since
                chosen = w.activity.ask_conflict(failure.error.plan, "undo" if verb == "Undone" else "redo")
                if chosen is not None:
                    self._run_step(source, target, op, verb, chosen)
                return
            w.on_failed(f"undoing the {step.label}" if verb == "Undone" else f"redoing the {step.label}",
                        failure.message)

        w.editor.clear()  # the step may change or remove the open entity; it is shown again after
        w.engine.run("undo", op, step, choice, what="undoing" if verb == "Undone" else "redoing",
                     on_done=done, on_failed=failed)
