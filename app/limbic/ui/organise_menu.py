"""The Organise menu: browse entities, pin, merge into another entity, rename a type.

Mixed into the main window (which provides engine, editor, status, catalog and the undo
history). Every change is a service operation from ``limbic.service.organise`` whose undo step
joins the Edit menu; reads go to the reader's connection.
"""

from __future__ import annotations

from PySide6.QtCore import QStringListModel
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
from limbic.ui.browser import EntityBrowser
from limbic.engine.wording import counted


class MergeDialog(QDialog):
    """Which entity the open one goes into (name completion over every other name)."""

    def __init__(self, source: str, names_model, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Merge entity")
        from limbic.ui.entity_editor import _completer

        self.source = source
        # The entity being merged is not a place to merge it into.
        self.others = QStringListModel([n for n in names_model.stringList() if n != source], self)
        self.target = QLineEdit(self, objectName="mergeTarget")
        self.target.setCompleter(_completer(self.others, self.target))
        self.target.setPlaceholderText("Name of the entity to keep")
        text = QLabel(f"Merge “{source}” into another entity: its observations and relations move there, "
                      "duplicates are kept once, and “" + source + "” is deleted. Edit → Undo takes it back.", self)
        text.setWordWrap(True)
        self.error = QLabel(self, objectName="dialogError")
        self.error.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Merge")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(self.target)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.resize(480, 160)

    def accept(self) -> None:
        target = self.target.text().strip()
        problem = ("Type the name of the entity to merge into." if not target else
                   f"“{target}” is the entity being merged; choose another one." if target.casefold() == self.source.casefold()
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
        self.setWindowTitle("Rename entity type")
        self.old = QComboBox(self, objectName="oldType")
        self.old.addItems(types)
        if current in types:
            self.old.setCurrentText(current)
        self.new = QLineEdit(self, objectName="newType")
        self.new.setPlaceholderText("New name (an existing type merges the two)")
        form = QFormLayout()
        form.addRow("&Type", self.old)
        form.addRow("&New name", self.new)
        self.error = QLabel(self, objectName="dialogError")
        self.error.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Rename")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(QLabel("Every entity of the type gets the new name; Edit → Undo takes it back.", self))
        layout.addWidget(buttons)
        self.setTabOrder(self.new, self.old)
        self.new.setFocus()
        self.resize(440, 150)

    def accept(self) -> None:
        """Enter with nothing to do says why and keeps the dialog open."""
        old, new = self.old.currentText(), self.new.text().strip()
        problem = ("There is no type to rename." if not old else
                   f"Type the new name for “{old}”." if not new else
                   f"“{old}” already has that name." if new == old else "")
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


class OrganiseMenuMixin:
    """Handlers of the Organise menu."""

    def _build_organise_menu(self) -> None:
        o = self.menuBar().addMenu("&Organise")
        self.browse_action = self._action(o, "&Browse entities…", self.on_browse, "Ctrl+B",
                                          tip="Every entity by type, sorted by name, last change or use")
        self.pin_action = self._action(o, "&Pin entity", self.on_toggle_pin, "Ctrl+D",
                                       tip="Keep the open entity listed when the search box is empty")
        self.merge_action = self._action(o, "&Merge into…", self.on_merge, "Ctrl+M",
                                         tip="Move the open entity's observations and relations into another, then delete it")
        self.rename_type_action = self._action(o, "Rename &type…", self.on_rename_type,
                                               tip="Give every entity of a type another type name")
        self.health_action = self._action(o, "Memory &health…", self.on_health, "Ctrl+Shift+H",
                                          tip="Possible duplicates, repeated observations, orphans, stale and oversized entities")
        self.health_view = None  # HealthView, made on first use
        self.browser: EntityBrowser | None = None
        self.pinned: set[int] = set()

    # -- browse -------------------------------------------------------------------------

    def on_browse(self) -> None:
        if self.browser is None:
            self.browser = EntityBrowser(self.engine, self)
            self.browser.open_requested.connect(self.on_browser_open)
        self.browser.set_relation_types(self.catalog.relation_types if self.catalog else [])
        self.browser.show()
        self.browser.raise_()
        self.browser.refresh()

    def on_browser_open(self, entity_id: int) -> None:
        self.open_entity(entity_id, record=True)

    def on_health(self) -> None:
        # Loaded on first use: the checks bring numpy and rapidfuzz, which the window must not wait for at start-up.
        from limbic.ui.health_view import HealthView

        if self.catalog is None:
            self.status.say("Open a graph to check its health.", 4000)
            return
        if self.health_view is None or self.health_view.path != self.catalog.path:
            if self.health_view is not None:
                self.health_view.close()
            self.health_view = HealthView(self.engine, self.catalog.path, self)
            self.health_view.open_requested.connect(self.on_browser_open)
            self.health_view.merged.connect(self.on_merged)
            self.health_view.start_scan()
        self.health_view.show()
        self.health_view.raise_()

    # -- pins ---------------------------------------------------------------------------

    def refresh_pins(self) -> None:
        self.engine.read("pins", organise.pinned_ids, on_done=self.on_pins)

    def on_pins(self, ids: list[int]) -> None:
        self.pinned = set(ids)
        self._update_pin_action()

    def _update_pin_action(self) -> None:
        entity_id = self.editor.entity_id
        self.pin_action.setText("Un&pin entity" if entity_id in self.pinned else "&Pin entity")

    def on_toggle_pin(self) -> None:
        entity_id = self.editor.entity_id
        if entity_id is None:
            self.status.say("Open an entity to pin it.", 4000)
            return
        if self.refused_during_job("Pinning"):
            return
        pin = entity_id not in self.pinned
        name = self.editor.name_edit.text()

        def done(pinned: bool) -> None:
            (self.pinned.add if pinned else self.pinned.discard)(entity_id)
            self._update_pin_action()
            self.status.say(f"Pinned “{name}”." if pinned else f"Unpinned “{name}”.", 4000)
            self.rerun_search()  # the empty-query lists show pins

        self.engine.run("pin", organise.set_pinned, entity_id, pin, what="pinning", on_done=done)

    # -- merge and type rename ----------------------------------------------------------

    def _ask_merge_target(self, source: str) -> str:
        """The name of the entity to merge into ("" for none); tests replace this method."""
        dialog = MergeDialog(source, self.editor.names_model, self)
        return dialog.target.text().strip() if dialog.exec() == QDialog.DialogCode.Accepted else ""

    def on_merge(self) -> None:
        entity_id = self.editor.entity_id
        if entity_id is None:
            self.status.say("Open the entity to merge into another one first.", 4000)
            return
        if self.refused_during_job("Merging"):
            return

        def merge() -> None:
            source = self.editor.name_edit.text()
            target = self._ask_merge_target(source)
            if not target:
                return
            self.editor.clear()
            self.engine.run("merge", organise.merge_entities, entity_id, target, what="merging",
                            on_done=self.on_merged, on_failed=lambda f: self.on_failed("merging", f.message))

        self._guard(merge)

    def on_merged(self, step) -> None:
        self.push_step(step)
        self.status.say(f"Merged: {step.label[len('merge of '):]}. Press Ctrl+Z to undo.", 15_000)
        self._navigating = True
        self.load_entity(step.target_after.entity.id)

    def _ask_type_rename(self, current: str) -> tuple[str, str]:
        """(old type, new type), or ("", "") when cancelled; tests replace this method."""
        types = self.catalog.entity_types if self.catalog else []
        dialog = TypeRenameDialog(types, current, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return "", ""
        return dialog.old.currentText(), dialog.new.text().strip()

    def on_rename_type(self) -> None:
        if self.refused_during_job("Renaming a type"):
            return
        current = self.editor.type_edit.currentText() if self.editor.entity_id is not None else ""
        old, new = self._ask_type_rename(current)
        if not old or not new:
            return

        def done(step) -> None:
            self.push_step(step)
            self.status.say(f"Renamed the type “{old}” to “{new}” on {counted(len(step.ids), 'entity')}. Press Ctrl+Z to undo.",
                            15_000)
            if self.editor.entity_id is not None and not self.editor.is_dirty():
                self._navigating = True
                self.load_entity(self.editor.entity_id)

        self.engine.run("rename-type", organise.rename_type, old, new, what="renaming the type", on_done=done,
                        on_failed=lambda f: self.on_failed("renaming the type", f.message))

