"""The Organise menu: browse entities, pin, merge into another entity, rename a type.

One part of the main window, handed what it works with (``OrganiseParts``): the engine, the editor,
the status bar, the window's hooks and callbacks into the undo history. Every change is a service
operation from ``limbic.service.organise`` whose undo step
joins the Edit menu; reads go to the reader's connection.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from PySide6.QtCore import QObject, QStringListModel
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
)

from limbic.service import organise
from limbic.ui.common.hooks import StatusLine, WindowHooks
from limbic.ui.editor.entity_editor import EntityEditor
from limbic.ui.search.browser import EntityBrowser
from limbic.ui.shell.privacy import PrivacyControl
from limbic.ui.workers.worker import Engine
from limbic.ui.common.i18n import translate


class MergeDialog(QDialog):
    """Which entity the open one goes into (name completion over every other name)."""

    def __init__(self, source: str, names_model, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("MergeDialog", "Merge entity"))
        from limbic.ui.editor.entity_editor import _completer

        self.source = source
        # The entity being merged is not a place to merge it into.
        self.others = QStringListModel([n for n in names_model.stringList() if n != source], self)
        self.target = QLineEdit(self, objectName="mergeTarget")
        self.target.setAccessibleName(translate("MergeDialog", "Entity to merge into"))
        self.target.setCompleter(_completer(self.others, self.target))
        self.target.setPlaceholderText(translate("MergeDialog", "Name of the entity to keep"))
        text = QLabel(translate("MergeDialog", "Merge “{source}” into another entity: its observations and relations "
                          "move there, duplicates are kept once, and “{source}” becomes an alias "
                          "of the entity kept (the quick switcher, search and assistants still "
                          "find it by that name). Edit → Undo takes it back.").format(source=source), self)
        text.setWordWrap(True)
        self.error = QLabel(self, objectName="dialogError")
        self.error.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(translate("MergeDialog", "Merge"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(self.target)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        layout.addStretch(1)  # room to spare goes under the buttons, not around the sentence (a blank band above it)
        self.resize(480, 160)

    def accept(self) -> None:
        target = self.target.text().strip()
        problem = (translate("MergeDialog", "Type the name of the entity to merge into.") if not target else
                   translate("MergeDialog", "“{target}” is the entity being merged; choose another one.").format(target=target) if target.casefold() == self.source.casefold()
                   else "")
        if problem:
            _say(self.error, problem)
            self.target.setFocus()
            return
        super().accept()


class TypeRenameDialog(QDialog):
    """A type and its new name; the new name's field has the focus, so typing never changes the type chosen."""

    def __init__(self, types: list[str], current: str, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("TypeRenameDialog", "Rename entity type"))
        self.old = QComboBox(self, objectName="oldType")
        self.old.addItems(types)
        if current in types:
            self.old.setCurrentText(current)
        self.new = QLineEdit(self, objectName="newType")
        self.new.setPlaceholderText(translate("TypeRenameDialog", "New name (an existing type merges the two)"))
        form = QFormLayout()
        form.addRow(translate("TypeRenameDialog", "&Type"), self.old)
        form.addRow(translate("TypeRenameDialog", "&New name"), self.new)
        self.error = QLabel(self, objectName="dialogError")
        self.error.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(translate("TypeRenameDialog", "Rename"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(QLabel(translate("TypeRenameDialog", "Every entity of the type gets the new name; Edit → Undo takes it back."), self))
        layout.addWidget(buttons)
        self.setTabOrder(self.new, self.old)
        self.new.setFocus()
        self.resize(440, 150)

    def accept(self) -> None:
        """Enter with nothing to do says why and keeps the dialog open."""
        old, new = self.old.currentText(), self.new.text().strip()
        problem = (translate("TypeRenameDialog", "There is no type to rename.") if not old else
                   translate("TypeRenameDialog", "Type the new name for “{old}”.").format(old=old) if not new else
                   translate("TypeRenameDialog", "“{old}” already has that name.").format(old=old) if new == old else "")
        if problem:
            _say(self.error, problem)
            self.new.setFocus()
            return
        super().accept()


def _say(label: QLabel, text: str) -> None:
    """A dialog's own one-line problem, in view until the input changes."""
    label.setText(text)
    label.setWordWrap(True)
    label.show()


@dataclass(frozen=True)
class OrganiseParts:
    """What the Organise menu works with."""

    engine: Engine
    editor: EntityEditor  # the open entity is what gets pinned, merged or whose type is renamed
    status: StatusLine
    hooks: WindowHooks
    open_entity: Callable[..., None]  # (entity id, record=True): show an entity, after asking about unsaved edits
    reload: Callable[[int], object]  # show an entity again after a change
    record_step: Callable[[object], None]  # a change the person made becomes the next Undo
    rerun_search: Callable[[], None]
    focus_search: Callable[[], None] = lambda: None  # Esc in the Health panel gives the keys back to the search


class OrganiseMenu(QObject):
    """The Organise menu; owns the browser window and the set of pinned entities."""

    def __init__(self, parts: OrganiseParts) -> None:
        super().__init__(parts.hooks.parent)
        self.p = parts
        self.browser: EntityBrowser | None = None
        self.health_view = None  # HealthView, made on first use
        self.health_dock = None  # HealthDock, its side panel
        self.pinned: set[int] = set()
        self.privacy = PrivacyControl(parts.engine, parts.editor, parts.status, parts.hooks)  # the lock, assistants
        self.privacy.watch()

    def build_menu(self, bar) -> None:
        """Organise → Browse, Pin, Merge into, Rename type."""
        o = bar.addMenu(translate("OrganiseMenu", "&Organise"))
        add = self.p.hooks.add_action
        self.browse_action = add(o, translate("OrganiseMenu", "&Browse entities…"), self.on_browse, "Ctrl+B",
                                 tip=translate("OrganiseMenu", "Every entity by type, sorted by name, last change or use"))
        self.pin_action = add(o, translate("OrganiseMenu", "&Pin entity"), self.on_toggle_pin, "Ctrl+D",
                              tip=translate("OrganiseMenu", "Keep the open entity listed when the search box is empty"))
        self.private_action = self.privacy.build(o)
        self.merge_action = add(o, translate("OrganiseMenu", "&Merge into…"), self.on_merge, "Ctrl+M",
                                tip=translate("OrganiseMenu", "Move the open entity's observations and relations into another, then delete it"))
        self.rename_type_action = add(o, translate("OrganiseMenu", "Rename &type…"), self.on_rename_type,
                                      tip=translate("OrganiseMenu", "Give every entity of a type another type name"))
        self.health_action = add(o, translate("OrganiseMenu", "Memory &health…"), self.on_health, "Ctrl+Shift+H",
                                 tip=translate("OrganiseMenu", "Possible duplicates, repeated observations, orphans, stale and oversized entities"))

    def writing_actions(self) -> tuple:
        """The actions a read-only file turns off."""
        return self.pin_action, self.private_action, self.merge_action, self.rename_type_action

    # -- browse -------------------------------------------------------------------------

    def on_browse(self) -> None:
        """Organise → Browse entities."""
        if self.browser is None:
            self.browser = EntityBrowser(self.p.engine, self.p.hooks.parent)
            self.browser.open_requested.connect(self.on_browser_open)
        catalog = self.p.hooks.catalog()
        self.browser.set_relation_types(catalog.relation_types if catalog else [])
        self.browser.show()
        self.browser.raise_()
        self.browser.refresh()

    def on_browser_open(self, entity_id: int) -> None:
        """An entity opened from the browser (an access)."""
        self.p.open_entity(entity_id, record=True)

    def on_health(self) -> None:
        """Organise → Memory health: the side panel, a tab beside Activity and Graph."""
        # Loaded on first use: the checks bring numpy and rapidfuzz, which the window must not wait for at start-up.
        from limbic.ui.health.health_dock import HealthDock
        from limbic.ui.health.health_view import HealthView

        p, catalog = self.p, self.p.hooks.catalog()
        if catalog is None:
            p.status.say(translate("OrganiseMenu", "Open a graph to check its health."), 4000)
            return
        if self.health_dock is None:
            self.health_dock = HealthDock(p.hooks.parent)
        if self.health_view is None or self.health_view.path != catalog.path:
            self.health_view = HealthView(p.engine, catalog.path, self.health_dock)
            self.health_view.open_requested.connect(self.on_browser_open)
            self.health_view.merged.connect(self.on_merged)
            self.health_view.escaped.connect(p.focus_search)
            self.health_dock.set_view(self.health_view)
        self.health_view.ensure_checked()
        self.health_dock.bring_forward()

    # -- pins ---------------------------------------------------------------------------

    def refresh_pins(self) -> None:
        """Read the pinned entities again (another file opened)."""
        self.p.engine.read("pins", organise.pinned_ids, on_done=self.on_pins)

    def on_pins(self, ids: list[int]) -> None:
        """The pinned entities, as read."""
        self.pinned = set(ids)
        self.update_pin_action()

    def update_pin_action(self) -> None:
        """Pin or Unpin, for the open entity."""
        entity_id = self.p.editor.entity_id
        self.privacy.update()
        self.pin_action.setText(translate("OrganiseMenu", "Un&pin entity") if entity_id in self.pinned else translate("OrganiseMenu", "&Pin entity"))

    def on_toggle_pin(self) -> None:
        """Organise → Pin / Unpin the open entity."""
        p = self.p
        entity_id = p.editor.entity_id
        if entity_id is None:
            p.status.say(translate("OrganiseMenu", "Open an entity to pin it."), 4000)
            return
        if p.hooks.refused_during_job(translate("OrganiseMenu", "Pinning")):
            return
        pin = entity_id not in self.pinned
        name = p.editor.name_edit.text()

        def done(pinned: bool) -> None:
            (self.pinned.add if pinned else self.pinned.discard)(entity_id)
            self.update_pin_action()
            p.status.say(translate("OrganiseMenu", "Pinned “{name}”.").format(name=name) if pinned else translate("OrganiseMenu", "Unpinned “{name}”.").format(name=name), 4000)
            p.rerun_search()  # the empty-query lists show pins

        p.engine.run("pin", organise.set_pinned, entity_id, pin, what="pinning", on_done=done)

    # -- merge and type rename ----------------------------------------------------------

    def ask_merge_target(self, source: str) -> str:
        """The name of the entity to merge into ("" for none); tests replace this method."""
        dialog = MergeDialog(source, self.p.editor.names_model, self.p.hooks.parent)
        return dialog.target.text().strip() if dialog.exec() == QDialog.DialogCode.Accepted else ""

    def on_merge(self) -> None:
        """Organise → Merge into: the open entity goes into another one (undoable)."""
        p = self.p
        entity_id = p.editor.entity_id
        if entity_id is None:
            p.status.say(translate("OrganiseMenu", "Open the entity to merge into another one first."), 4000)
            return
        if p.hooks.refused_during_job(translate("OrganiseMenu", "Merging")):
            return

        def merge() -> None:
            source = p.editor.name_edit.text()
            target = self.ask_merge_target(source)
            if not target:
                return
            p.editor.clear()
            p.engine.run("merge", organise.merge_entities, entity_id, target, what="merging",
                         on_done=self.on_merged, on_failed=lambda f: p.hooks.failed("merging", f.message))

        p.hooks.guard(merge)

    def on_merged(self, step) -> None:
        """Merged: the step joins the Edit menu and the kept entity opens."""
        self.p.record_step(step)
        self.p.status.say(translate("OrganiseMenu", "Merged: {value}. Press Ctrl+Z to undo.").format(value=step.label[len('merge of '):]), 15_000)
        self.p.reload(step.target_after.entity.id)

    def ask_type_rename(self, current: str) -> tuple[str, str]:
        """(old type, new type), or ("", "") when cancelled; tests replace this method."""
        catalog = self.p.hooks.catalog()
        types = catalog.entity_types if catalog else []
        dialog = TypeRenameDialog(types, current, self.p.hooks.parent)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return "", ""
        return dialog.old.currentText(), dialog.new.text().strip()

    def on_rename_type(self) -> None:
        """Organise → Rename type (undoable)."""
        p = self.p
        if p.hooks.refused_during_job(translate("OrganiseMenu", "Renaming a type")):
            return
        current = p.editor.type_edit.currentText() if p.editor.entity_id is not None else ""
        old, new = self.ask_type_rename(current)
        if not old or not new:
            return

        def done(step) -> None:
            p.record_step(step)
            count = len(step.ids)
            p.status.say(translate("OrganiseMenu", "Renamed the type “{old}” to “{new}” on %n entities. Press Ctrl+Z to "
                                   "undo.", "", count).format(old=old, new=new),
                         15_000)
            if p.editor.entity_id is not None and not p.editor.is_dirty():
                p.reload(p.editor.entity_id)

        p.engine.run("rename-type", organise.rename_type, old, new, what=translate("OrganiseMenu", "renaming the type"), on_done=done,
                     on_failed=lambda f: p.hooks.failed(translate("OrganiseMenu", "renaming the type"), f.message))
