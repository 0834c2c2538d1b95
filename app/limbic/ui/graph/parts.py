"""What the graph menu and its panel are handed: the window's signals, the open entity, the engine."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QMainWindow

from limbic.ui.common.hooks import StatusLine, WindowHooks

if TYPE_CHECKING:  # the graph room only hands service operations to the engine it is given
    from limbic.ui.workers.worker import Engine


class OpenEntityView(Protocol):
    """The editor as the graph sees it: which entity is open, and whether it has unsaved edits."""

    entity_id: int | None

    def is_dirty(self) -> bool:
        """The person changed something not saved yet."""

    def note_relation(self, outgoing: bool, key: tuple[str, str]) -> None:
        """Show a relation just made without reloading unsaved edits."""


@dataclass(frozen=True)
class GraphParts:
    """What the graph menu and its panel work with."""

    engine: Engine
    host: QMainWindow  # docks the panel; closing it stops the layout thread
    status: StatusLine
    hooks: WindowHooks
    editor: OpenEntityView
    open_entity: Callable[[int], None]  # show an entity (after asking about unsaved edits)
    reload: Callable[[int], object]  # show the open entity again (a refresh, not a visit)
    search_hits: Callable[[], set[int]]  # the entities the search on screen found (none for an empty query)
    start_folder: Callable[[], Path]  # where file dialogs start
    remember_folder: Callable[[str], None]  # the next file dialog starts where this path is
    changes_shown: SignalInstance  # every change set the window refreshed for
    results_shown: SignalInstance  # a request's results are on screen
    entity_shown: SignalInstance  # an entity is now in the editor
