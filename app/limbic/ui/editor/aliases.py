"""The editor's "Also known as" line: an entity's aliases as small chips, one field to add another.

An alias is written at once (like the status), not with the draft: it names the stored entity, and
a merged-away name must keep finding it even while the person's other edits wait for Save. Adding
and removing are each one step on Edit → Undo. ``AliasFlow`` runs them on the engine's thread.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget

from limbic.service.aliases import AliasStep, change_alias
from limbic.ui.common.flow_layout import FlowLayout
from limbic.ui.common.i18n import translate
from PySide6.QtCore import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from limbic.ui.editor.entity_flow import EntityParts


ADD_HINT = QT_TRANSLATE_NOOP("Aliases", "Add an alias")  # short: beside the status it must show whole at the editor's narrowest
SAVE_FIRST_HINT = QT_TRANSLATE_NOOP("Aliases", "Save first")  # a new entity gets aliases once saved (the tooltip says why)


class AliasBar(QWidget):
    """The entity's aliases, each with a × that takes it off, and a field that adds one (Enter)."""

    alias_requested = Signal(int, str, bool)  # entity id, alias, True to add (False: remove)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("aliasBar")
        self.entity_id: int | None = None
        self._aliases: list[str] = []
        self._editable = True
        self.chips_box = QWidget(self)
        self.chips = FlowLayout(self.chips_box, spacing=4)
        self.none_label = QLabel(translate("AliasesRow", "none"), self, objectName="aliasNone")
        self.none_label.setEnabled(False)
        self.field = QLineEdit(self, objectName="newAlias", placeholderText=translate("Aliases", ADD_HINT))
        self.field.setAccessibleName(translate("AliasBar", "New alias"))
        self.field.setToolTip(translate("AliasBar", "Another name this entity goes by (a nickname, an abbreviation, a merged-away name), "
                              "added with Enter: the quick switcher, search and assistants find the entity by it"))
        self.field.setMinimumWidth(self._hint_width())
        self.field.returnPressed.connect(self._add)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.chips_box, 0)
        row.addWidget(self.none_label, 0)
        row.addWidget(self.field, 1)

    def set_aliases(self, entity_id: int | None, aliases: list[str]) -> None:
        """Show this entity's aliases (``entity_id`` None: a new entity, which gets aliases once saved)."""
        self.entity_id, self._aliases = entity_id, list(aliases)
        while self.chips.count():
            item = self.chips.takeAt(0)
            if item is not None and item.widget() is not None:
                item.widget().deleteLater()
        for alias in aliases:
            chip = QToolButton(self.chips_box, objectName="aliasChip")
            chip.setText(f"{alias}  ×")
            chip.setToolTip(translate("AliasBar", "Remove the alias “{alias}” (Edit → Undo brings it back)").format(alias=alias))
            chip.setAccessibleName(translate("AliasBar", "Remove alias {alias}").format(alias=alias))
            chip.setEnabled(self._editable)
            chip.clicked.connect(lambda _=False, a=alias: self._remove(a))
            self.chips.addWidget(chip)
        self.chips_box.setVisible(bool(aliases))
        self.none_label.setVisible(not aliases)
        self.field.setEnabled(self._editable and entity_id is not None)
        self.field.setPlaceholderText(translate("Aliases", ADD_HINT if entity_id is not None else SAVE_FIRST_HINT))
        self.field.setMinimumWidth(self._hint_width())  # at the editor's narrowest the hint is still whole

    def _hint_width(self) -> int:
        """The field's width that shows its hint whole: the text, its margins and the frame's."""
        metrics, margins = self.field.fontMetrics(), self.field.textMargins()
        return metrics.horizontalAdvance(self.field.placeholderText()) + margins.left() + margins.right() + 12

    def aliases(self) -> list[str]:
        """The aliases shown (tests and screenshots read them)."""
        return list(self._aliases)

    def set_editable(self, editable: bool) -> None:
        """A read-only file: the aliases are shown, not changed."""
        self._editable = editable
        self.set_aliases(self.entity_id, self._aliases)

    def _add(self) -> None:
        text = self.field.text().strip()
        if text and self.entity_id is not None:
            self.alias_requested.emit(self.entity_id, text, True)

    def _remove(self, alias: str) -> None:
        if self.entity_id is not None:
            self.alias_requested.emit(self.entity_id, alias, False)


class AliasFlow(QObject):
    """Writes the editor's alias requests, each an undoable step, and shows the result."""

    _keys = itertools.count()

    def __init__(self, parts: EntityParts, bar: AliasBar, reload: Callable[[int], object]) -> None:
        super().__init__(parts.hooks.parent)
        self.p, self.bar, self.reload = parts, bar, reload
        bar.alias_requested.connect(self.on_requested)

    def on_requested(self, entity_id: int, alias: str, add: bool) -> None:
        p = self.p
        if p.hooks.refused_during_job(translate("AliasFlow", "Changing an alias")):
            return
        what = translate("AliasFlow", "adding the alias") if add else translate("AliasFlow", "removing the alias")
        # Each request its own key: a second alias typed at once must not supersede the first.
        p.engine.run(f"alias-{next(self._keys)}", change_alias, entity_id, alias, add, what=what,
                     on_done=lambda step: self.on_done(step, alias, add),
                     on_failed=lambda f: p.hooks.failed(what, f.message))

    def on_done(self, step: AliasStep, alias: str, add: bool) -> None:
        if step.live:
            self.p.record_step(step)
        if self.bar.entity_id == step.entity_id:
            if add:
                self.bar.field.clear()
            self.bar.set_aliases(step.entity_id, step.aliases)
            if step.live and not self.p.editor.is_dirty():
                self.reload(step.entity_id)  # its history lists the change too; a draft being edited is left alone
        name = alias.strip()
        if not step.live:
            self.p.status.say((translate("AliasFlow", "“{name}” was already an alias of this entity.") if add
                               else translate("AliasFlow", "“{name}” was already not an alias of this entity.")).format(name=name), 5000)
        else:
            self.p.status.say(translate("AliasFlow", "Added the alias “{name}”.").format(name=name) if add else
                              translate("AliasFlow", "Removed the alias “{name}”. Press Ctrl+Z to undo.").format(name=name), 8000)
