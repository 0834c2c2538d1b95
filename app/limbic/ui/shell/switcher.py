"""The quick switcher (Ctrl+O or Ctrl+P): jump to an entity by name, typo-tolerant, recently opened first."""

from __future__ import annotations

import logging

from PySide6.QtWidgets import QMainWindow

from limbic.service import lookup
from limbic.ui.common.picker import Picker
from limbic.ui.common.i18n import translate

logger = logging.getLogger(__name__)


class QuickSwitcher(Picker):
    """Names come from ``limbic.service.lookup`` on the reader's connection; Enter opens the entity."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window, translate("QuickSwitcher", "Jump to an entity…"), translate("QuickSwitcher", "Type a name, typos are fine · Up/Down move · Enter opens · Esc closes"))
        self.setObjectName("quickSwitcher")
        self.window_ = window
        self.empty_text = translate("QuickSwitcher", "No entity has a name like that.")
        self.chosen.connect(self.open)

    def on_text(self, text: str) -> None:
        if self.window_.catalog is None:
            self.set_rows([])
            return
        self.window_.engine.read("switcher", lookup.find_entities, text,
                                 on_done=lambda matches: self.on_matches(matches, text),
                                 what=translate("QuickSwitcher", "looking up names"))

    def on_matches(self, matches: list[lookup.NameMatch], text: str | None = None) -> None:
        self.set_rows([(m.name, _detail(m), m.entity_id, True) for m in matches], text)

    def open(self, entity_id: int) -> None:
        self.window_.open_entity(entity_id, record=True)


def _detail(m: lookup.NameMatch) -> str:
    """The second column: its type, and why it is listed when that was an alias (or it was opened lately)."""
    parts = [m.entity_type] + ([translate("Switcher", "alias “{alias}”").format(alias=m.alias)] if m.alias else []) + (["recent"] if m.recent else [])
    return " · ".join(parts)
