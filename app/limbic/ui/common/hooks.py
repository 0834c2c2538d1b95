"""What the window lends its parts: the few things that belong to the window itself, as callbacks.

A part (the search, the editor's entity, a menu) is handed these rather than the window, so it
can reach only what it is given and can be built, in a test, around stand-ins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget


class StatusLine(Protocol):
    """The status bar as the parts speak to it: one plain sentence at a time."""

    def say(self, text: str, timeout: int = ..., details: list[str] | None = None) -> None:
        """Show one plain sentence (``timeout`` 0: until the next one)."""


class EntityOpener(Protocol):
    """Opening an entity in the editor, as the lists that offer entities need it."""

    def open_entity(self, ref: int | str, record: bool = False) -> None:
        """Show an entity (after asking about unsaved changes); ``record`` counts an access."""

    def load_entity(self, ref: int | str, record: bool = False, together: tuple[int, ...] = ()) -> int:
        """Load an entity now (no questions); the newest request wins."""

    def navigation_pending(self) -> bool:
        """An entity the person asked for is still on its way."""


@dataclass(frozen=True)
class WindowHooks:
    """The window's own behaviour a part may ask for; the window keeps the state behind each."""

    parent: QWidget  # owns the parts' menu actions (their shortcuts work in the window) and parents dialogs
    catalog: Callable[[], Any]  # the open file's Catalog: names, types and counts (None: no file open)
    guard: Callable[[Callable[[], None]], None]  # run now, or once the editor's unsaved edits are settled
    refused_during_job: Callable[[str], bool]  # True (and says why) while a long job holds the graph
    failed: Callable[[str, str], None]  # (what was being done, the sentence): shown as the window shows failures

    def add_action(self, menu, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        """A menu entry owned by the parent (its shortcut works while the window has focus)."""
        return add_action(self.parent, menu, text, slot, shortcut, tip)


def add_action(owner: QWidget, menu, text: str, slot, shortcut=None, tip: str = "") -> QAction:
    """A menu entry owned by ``owner``, with a tooltip and status tip from its text."""
    action = QAction(text, owner)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    action.setToolTip(tip or text.replace("&", "").rstrip("…"))
    action.setStatusTip(action.toolTip())
    action.triggered.connect(slot)
    menu.addAction(action)
    return action
