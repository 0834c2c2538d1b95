"""The entity editor: name, type, observations and relations, saved as one draft."""

from __future__ import annotations

import logging

from PySide6.QtCore import QEvent, QObject, QStringListModel, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QCompleter,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from limbic.service.entities import EntityDraft, EntityView
from limbic.ui.common.screen_fit import EDITOR_LEAST_HEIGHT, scrolling, tab_order_after
from limbic.ui.editor import create_target
from limbic.ui.editor.add_row import AddRow
from limbic.ui.editor.aliases import AliasBar
from limbic.ui.editor.entity_history import EntityHistoryPanel, StatusBadge
from limbic.ui.editor.name_completion import NameCompletions, TargetCompleter
from limbic.ui.editor.meta_label import MetaLabel, short_dates
from limbic.ui.editor.observation_delegate import ObservationDelegate
from limbic.ui.editor.space import ROWS_AT_LEAST, rows_height as _rows_height, shared_out
from limbic.ui.common.i18n import translate

logger = logging.getLogger(__name__)

ID_ROLE = Qt.ItemDataRole.UserRole + 1
REL_ROLE = Qt.ItemDataRole.UserRole + 2  # (relation type, other end's name)


def _completer(model: QStringListModel, parent: QWidget) -> QCompleter:
    comp = QCompleter(model, parent)
    comp.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    comp.setFilterMode(Qt.MatchFlag.MatchContains)
    comp.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
    comp.popup().setMinimumWidth(320)  # long names stay readable even beside a narrow field
    return comp


class EntityEditor(QWidget):
    """Edits one entity at a time; nothing reaches the file until Save."""

    save_requested = Signal(object)  # EntityDraft
    delete_requested = Signal(int, str)  # entity id, name
    navigate_requested = Signal(str)  # entity name
    status_requested = Signal(int, str)  # entity id, status: applied at once, not part of the draft
    dirty_changed = Signal(bool)
    create_requested = Signal(str, str)  # name, entity type: a relation's target to create now

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._original: EntityDraft | None = None
        self._dirty = False
        self._loading = False
        self.completions = NameCompletions(self)  # the target field's names and aliases
        self.rel_types_model = QStringListModel(self)

        self.stack = QStackedWidget(self)
        self.placeholder = QLabel(
            translate("EntityEditor", "Open a search result (Enter) or create a new entity (Ctrl+N)."), self, alignment=Qt.AlignmentFlag.AlignCenter
        )
        self.placeholder.setObjectName("placeholder")
        self.placeholder.setWordWrap(True)
        self.stack.addWidget(self.placeholder)
        # Short of height (a scaled laptop) the form scrolls inside the editor instead of growing the window.
        self.stack.addWidget(scrolling(self._build_form(), self, EDITOR_LEAST_HEIGHT))
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.stack)
        self.stack.setCurrentIndex(0)

    # -- construction -----------------------------------------------------------------------

    def _build_form(self) -> QWidget:
        form = QWidget(self)
        self.name_edit = QLineEdit(form, objectName="nameEdit", toolTip=translate("EntityEditor", "The entity's unique name"))
        self.name_edit.setAccessibleName(translate("EntityEditor", "Name"))
        self.type_edit = QComboBox(form, objectName="typeEdit", editable=True, toolTip=translate("EntityEditor", "The entity's type (free text)"))
        self.type_edit.setAccessibleName(translate("EntityEditor", "Type"))
        self.type_edit.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.meta = MetaLabel(form)  # one line: a narrow editor shows the dates to the minute
        head = QFormLayout()
        head.addRow(translate("EntityEditor", "&Name"), self.name_edit)
        head.addRow(translate("EntityEditor", "T&ype"), self.type_edit)
        self.status_badge = StatusBadge(form)
        self.aliases = AliasBar(form)  # written at once, not with the draft (aliases.py); beside the status
        # so the editor is no taller on a wide screen; under it when the editor is narrow (the hint stays whole).
        aka = QLabel(translate("EntityEditor", "Also &known as"), form, buddy=self.aliases.field)
        status_row = AddRow([(self.status_badge, 0)], [aka, self.aliases], form, push_right=False)
        head.addRow(QLabel(translate("EntityEditor", "Stat&us"), form, buddy=self.status_badge), status_row)
        head.addRow("", self.meta)

        self.obs_list = QListWidget(form, objectName="observations")
        self.obs_list.setWordWrap(True)
        self.obs_list.setAlternatingRowColors(True)
        self.obs_list.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.obs_list.setItemDelegate(ObservationDelegate(self.obs_list))
        self.obs_list.setToolTip(translate("EntityEditor", "Double-click or F2 to edit (Enter keeps it), Delete to remove"))
        self.obs_new = QLineEdit(form, objectName="newObservation", placeholderText=translate("EntityEditor", "Add an observation and press Enter"))
        self.obs_add = QPushButton(translate("EntityEditor", "&Add"), form, toolTip=translate("EntityEditor", "Add this observation"))
        self.obs_remove = QPushButton(translate("EntityEditor", "Remove"), form, toolTip=translate("EntityEditor", "Remove the selected observation (Delete)"))
        row = QHBoxLayout()
        row.addWidget(self.obs_new, 1)
        row.addWidget(self.obs_add)
        row.addWidget(self.obs_remove)
        obs_box = QGroupBox(translate("EntityEditor", "Observations"), form)
        obs_layout = QVBoxLayout(obs_box)
        obs_layout.setContentsMargins(6, 4, 6, 6)  # narrow margins: on a laptop's screen every row of a list counts
        obs_layout.addWidget(self.obs_list)
        obs_layout.addLayout(row)

        self.out_list = QListWidget(form, objectName="outgoing", toolTip=translate("EntityEditor", "Enter or double-click to open the target"))
        self.in_list = QListWidget(form, objectName="incoming", toolTip=translate("EntityEditor", "Enter or double-click to open the source"))
        self.out_list.setAccessibleName(translate("EntityEditor", "Outgoing relations"))
        self.in_list.setAccessibleName(translate("EntityEditor", "Incoming relations"))
        for rel_list in (self.out_list, self.in_list):
            rel_list.setWordWrap(True)  # long relation names wrap instead of being cut
            rel_list.setTextElideMode(Qt.TextElideMode.ElideNone)
        # Lists show at least two rows; the window stays usable down to a small laptop's height. Wrapped rows
        # are laid out again when the list's width changes (else a widened list keeps the narrow wrapping).
        for lst in (self.obs_list, self.out_list, self.in_list):
            lst.setMinimumHeight(44)
            lst.setResizeMode(QListView.ResizeMode.Adjust)
        self.rel_type = QLineEdit(form, objectName="relationType", placeholderText=translate("EntityEditor", "relation type"))
        self.rel_type.setCompleter(_completer(self.rel_types_model, self.rel_type))
        self.rel_target = QLineEdit(form, objectName="relationTarget", placeholderText=translate("EntityEditor", "target entity"))
        self.rel_type.setAccessibleName(translate("EntityEditor", "New relation's type"))
        self.rel_target.setAccessibleName(translate("EntityEditor", "New relation's target entity"))
        self.rel_target.setAccessibleDescription(translate("EntityEditor", "Names and aliases complete as you type; "
                                                                            "Enter adds the relation"))
        self.rel_target.setCompleter(TargetCompleter(self.completions, self.rel_target))
        self.rel_add = QPushButton(translate("EntityEditor", "Add &relation"), form, toolTip=translate("EntityEditor", "Relate this entity to the target"))
        self.rel_remove = QPushButton(translate("EntityEditor", "Remove"), form, toolTip=translate("EntityEditor", "Remove the selected relation (Delete)"))
        rel_box = QGroupBox(form)  # untitled: its columns' titles say it, a row less on a laptop's screen
        rel_box.setAccessibleName(translate("EntityEditor", "Relations"))
        rel_layout = QVBoxLayout(rel_box)
        rel_layout.setContentsMargins(6, 4, 6, 6)
        lists = QHBoxLayout()
        for title, widget in ((translate("EntityEditor", "Outgoing relations"), self.out_list), (translate("EntityEditor", "Incoming relations"), self.in_list)):
            col = QVBoxLayout()
            col.setSpacing(2)  # the title sits on its list
            col.addWidget(QLabel(title, form))
            col.addWidget(widget)
            lists.addLayout(col)
        rel_layout.addLayout(lists)
        # The buttons beside the two fields when there is room (no row lost), under them in a narrow editor.
        arrow = QLabel("→", form)
        self.rel_row = AddRow([(self.rel_type, 2), (arrow, 0), (self.rel_target, 3)], [self.rel_add, self.rel_remove], form)
        rel_layout.addWidget(self.rel_row)

        self.save_button = QPushButton(translate("EntityEditor", "&Save"), form, objectName="saveButton", toolTip=translate("EntityEditor", "Save the changes (Ctrl+S)"))
        self.save_button.setDefault(True)
        self.revert_button = QPushButton(translate("EntityEditor", "Re&vert"), form, toolTip=translate("EntityEditor", "Drop the unsaved changes"))
        self.delete_button = QPushButton(translate("EntityEditor", "&Delete…"), form, objectName="deleteButton", toolTip=translate("EntityEditor", "Delete this entity (Ctrl+Delete)"))
        buttons = QHBoxLayout()
        buttons.addWidget(self.delete_button)
        buttons.addStretch(1)
        buttons.addWidget(self.revert_button)
        buttons.addWidget(self.save_button)

        self.splitter = QSplitter(Qt.Orientation.Vertical, form)
        self.splitter.setObjectName("editorSplitter")
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(obs_box)
        self.splitter.addWidget(rel_box)
        self.history_panel = EntityHistoryPanel(form)
        self.splitter.addWidget(self.history_panel)
        tab_order_after(self.rel_remove, self.history_panel, [self.delete_button, self.revert_button, self.save_button])
        self.splitter.setCollapsible(2, True)  # dragged to the bottom, the history gives the lists its room
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setStretchFactor(2, 1)
        self._shares_kept = False  # once the person drags a handle, their sizes stay
        self.splitter.splitterMoved.connect(lambda *_: setattr(self, "_shares_kept", True))
        self.splitter.installEventFilter(self)
        # Another program's additions while the person edits: said here, where the edits are.
        self.outside_note = QLabel("", form, objectName="outsideNote", wordWrap=True)
        self.outside_note.setVisible(False)
        layout = QVBoxLayout(form)
        layout.addLayout(head)
        layout.addWidget(self.outside_note)
        layout.addWidget(self.splitter, 1)
        layout.addLayout(buttons)

        self.name_edit.textEdited.connect(self.on_edited)
        self.type_edit.editTextChanged.connect(self.on_edited)
        self.obs_list.itemChanged.connect(self.on_edited)
        self.obs_new.returnPressed.connect(self.on_add_observation)
        self.obs_add.clicked.connect(self.on_add_observation)
        self.obs_remove.clicked.connect(self.on_remove_observation)
        self.rel_add.clicked.connect(self.on_add_relation)
        self.rel_target.returnPressed.connect(self.on_add_relation)
        self.rel_remove.clicked.connect(self.on_remove_relation)
        self.status_badge.status_chosen.connect(self.on_status_chosen)
        self.out_list.itemActivated.connect(self.on_follow)
        self.in_list.itemActivated.connect(self.on_follow)
        self.save_button.clicked.connect(self.on_save)
        self.revert_button.clicked.connect(self.revert)
        self.delete_button.clicked.connect(self.on_delete)
        for widget, slot in ((self.obs_list, self.on_remove_observation), (self.out_list, self.on_remove_relation),
                             (self.in_list, self.on_remove_relation)):
            sc = QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), widget)
            sc.setContext(Qt.ShortcutContext.WidgetShortcut)
            sc.activated.connect(slot)
        return form

    # -- state ------------------------------------------------------------------------------

    @property
    def entity_id(self) -> int | None:
        return self._original.entity_id if self._original else None

    @property
    def loaded_draft(self) -> EntityDraft | None:
        """The entity as it was loaded, before the person's edits."""
        return self._original

    @property
    def has_entity(self) -> bool:
        return self._original is not None

    def is_dirty(self) -> bool:
        return self._dirty

    def set_editable(self, editable: bool) -> None:
        """A read-only file: the entity can be read and followed, nothing can be changed."""
        self._editable = editable
        self.name_edit.setReadOnly(not editable)
        self.type_edit.setEnabled(editable)
        self.obs_list.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
            if editable else QAbstractItemView.EditTrigger.NoEditTriggers)
        for widget in (self.obs_new, self.obs_add, self.obs_remove, self.rel_type, self.rel_target, self.rel_add,
                       self.rel_remove):
            widget.setEnabled(editable)
        self.delete_button.setEnabled(editable and self.entity_id is not None)
        self.status_badge.setEnabled(editable and self.entity_id is not None)
        self.aliases.set_editable(editable)

    @property
    def names_model(self) -> QStringListModel:
        """The entities' names alone (the merge dialog's choices), without their aliases."""
        return QStringListModel(self.completions.names)

    def set_completions(self, names: list[str], relation_types: list[str], entity_types: list[str],
                        aliases: dict[int, list[str]] | None = None, id_names: dict[int, str] | None = None) -> None:
        """Refresh what the name, relation type and entity type fields can complete (aliases: id -> its aliases)."""
        self.completions.set_all(names, aliases, id_names)
        self._set_types(relation_types, entity_types)

    def update_completions(self, added: list[str], removed: list[str], relation_types: list[str],
                           entity_types: list[str]) -> None:
        """Insert and remove single names in the sorted completion list instead of rebuilding it."""
        self.completions.update_names(added, removed)
        self._set_types(relation_types, entity_types)

    def update_aliases(self, changed: dict[int, list[str]], id_names: dict[int, str], removed: list[int]) -> None:
        """The aliases of changed entities (each list whole) and of deleted ones (gone) in the target's completion."""
        if changed or removed:
            self.completions.update_aliases(changed, id_names, removed)

    def _set_types(self, relation_types: list[str], entity_types: list[str]) -> None:
        self.rel_types_model.setStringList(relation_types)
        current = self.type_edit.currentText()
        self._loading = True
        self.type_edit.clear()
        self.type_edit.addItems(entity_types)
        self.type_edit.setEditText(current)
        self._loading = False

    def show_view(self, view: EntityView) -> None:
        """Show a stored entity; the editor becomes clean."""
        self._load(EntityDraft.from_view(view))
        e = view.entity
        self.meta.set_forms(translate("EntityEditor", "created {created_at} · updated {updated_at} UTC · id {id}").format(created_at=e.created_at, updated_at=e.updated_at, id=e.id),
                            *short_dates(e.created_at, e.updated_at))
        self.delete_button.setEnabled(getattr(self, "_editable", True))
        self.status_badge.set_status(e.status)
        self.status_badge.setEnabled(getattr(self, "_editable", True))
        self.history_panel.show_view(view)
        self.aliases.set_aliases(e.id, view.aliases)
        self._share_space()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        # The room follows the splitter's size (the window's, or the lines the dates above it wrap to),
        # shared again once the new size is laid out.
        if watched is self.splitter and event.type() == QEvent.Type.Resize and self._original is not None:
            QTimer.singleShot(0, self._share_space)
        return super().eventFilter(watched, event)

    def show_outside_note(self, text: str) -> None:
        """Say what another program added while the person edits (empty: say nothing)."""
        self.outside_note.setText(text)
        self.outside_note.setVisible(bool(text))

    def _share_space(self) -> None:
        """Each part gets the rows it holds when they fit, the rest in 3 : 3 : 2; short of room, by need."""
        sizes = self.splitter.sizes()
        if self._shares_kept or sum(sizes) <= 0:
            return
        history = self.history_panel.isVisible()
        parts = ((self.splitter.widget(0), (self.obs_list,)), (self.splitter.widget(1), (self.out_list, self.in_list)),
                 (self.splitter.widget(2), (self.history_panel.shown_list(),)))
        need, least, floor = [], [], []
        for i, (box, lists) in enumerate(parts):
            floor.append(box.minimumSizeHint().height() if i < 2 or history else 0)
            if i == 2 and not history:
                need.append(0)
                least.append(0)
                continue
            laid_out = box.height() > lists[0].height() > 0  # measured as laid out; else as the hints say
            chrome = (box.height() - lists[0].height() if laid_out
                      else max(0, box.sizeHint().height() - max(lst.sizeHint().height() for lst in lists)))
            rows = max(_rows_height(lst) for lst in lists)
            need.append(chrome + rows)
            least.append(chrome + max(_rows_height(lst, ROWS_AT_LEAST) for lst in lists))
        self.splitter.setSizes(shared_out(sum(sizes), need, least, (3, 3, 2 if history else 0), floor))

    def new_entity(self) -> None:
        """Start a new, empty entity."""
        self._load(EntityDraft(None, "", translate("EntityEditor", "Generic")))
        self.meta.setText(translate("EntityEditor", "New entity: not saved yet"))
        self.aliases.set_aliases(None, [])
        self.delete_button.setEnabled(False)
        self.status_badge.set_status("active")
        self.status_badge.setEnabled(False)  # a status is set once the entity exists
        self.history_panel.show_view(None)
        self.name_edit.setFocus()

    def clear(self) -> None:
        self._original = None
        self.show_outside_note("")
        self._set_dirty(False)
        self.stack.setCurrentIndex(0)

    def revert(self) -> None:
        if self._original is not None:
            self._load(self._original)

    def _load(self, draft: EntityDraft) -> None:
        self._loading = True
        self._original = draft
        self.show_outside_note("")
        self.name_edit.setText(draft.name)
        self.type_edit.setEditText(draft.entity_type)
        self.obs_list.clear()
        for oid, text in draft.observations:
            self._add_obs_item(oid, text)
        self.out_list.clear()
        for rtype, target in draft.outgoing:
            self._add_rel_item(self.out_list, (rtype, target), f"{rtype} → {target}")
        self.in_list.clear()
        for source, rtype in draft.incoming:
            self._add_rel_item(self.in_list, (source, rtype), f"{rtype} ← {source}")
        self.obs_new.clear()
        # A half-typed relation belongs to the entity it was typed for, not to the next one.
        self.rel_type.clear()
        self.rel_target.clear()
        self._loading = False
        self.stack.setCurrentIndex(1)
        self._set_dirty(False)

    def _add_obs_item(self, oid: int | None, text: str) -> None:
        item = QListWidgetItem(text)
        item.setData(ID_ROLE, oid)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        self.obs_list.addItem(item)

    def _add_rel_item(self, widget: QListWidget, key: tuple[str, str], label: str) -> None:
        item = QListWidgetItem(label)
        item.setToolTip(label)
        item.setData(REL_ROLE, key)
        widget.addItem(item)

    def note_relation(self, outgoing: bool, key: tuple[str, str]) -> None:
        """A relation stored meanwhile (not an edit): listed at once, unsaved edits left as they are."""
        if self._original is None:
            return
        stored = self._original.outgoing if outgoing else self._original.incoming
        if key in stored:
            return
        stored.append(key)
        widget = self.out_list if outgoing else self.in_list
        label = f"{key[0]} → {key[1]}" if outgoing else f"{key[1]} ← {key[0]}"
        self._add_rel_item(widget, key, label)
        self.on_edited()

    def draft(self) -> EntityDraft:
        """The editor's current content as a draft to save."""
        obs = [(self.obs_list.item(i).data(ID_ROLE), self.obs_list.item(i).text()) for i in range(self.obs_list.count())]
        return EntityDraft(
            self.entity_id,
            self.name_edit.text(),
            self.type_edit.currentText(),
            obs,
            [tuple(self.out_list.item(i).data(REL_ROLE)) for i in range(self.out_list.count())],
            [tuple(self.in_list.item(i).data(REL_ROLE)) for i in range(self.in_list.count())],
            self._original.base if self._original is not None else None,
        )

    def _set_dirty(self, dirty: bool) -> None:
        self.save_button.setEnabled(dirty)
        self.revert_button.setEnabled(dirty and self.entity_id is not None)
        if dirty != self._dirty:
            self._dirty = dirty
            self.dirty_changed.emit(dirty)

    # -- handlers ---------------------------------------------------------------------------

    def on_edited(self, *_args) -> None:
        if not self._loading and self._original is not None:
            self._set_dirty(self.draft() != self._original)

    def on_add_observation(self) -> None:
        text = self.obs_new.text().strip()
        if text:
            self._add_obs_item(None, text)
            self.obs_new.setText("")  # and its typing history: Ctrl+Z next undoes the edit, not the field's clearing
            self.on_edited()

    def on_remove_observation(self) -> None:
        row = self.obs_list.currentRow()
        if row >= 0:
            self.obs_list.takeItem(row)
            self.on_edited()

    def on_add_relation(self) -> None:
        rtype, target = self.rel_type.text().strip(), self.rel_target.text().strip()
        if not rtype or not target:
            self.rel_target.setFocus() if rtype else self.rel_type.setFocus()
            return
        target = self.completions.target(target)  # "NYC", typed whole: the entity it names, never a new one
        existing = {tuple(self.out_list.item(i).data(REL_ROLE)) for i in range(self.out_list.count())}
        if (rtype, target) not in existing and not self._target_exists(target):
            entity_type = self._ask_create(target)
            if entity_type is None:
                self.rel_target.setFocus()
                self.rel_target.selectAll()
                return
            self.create_requested.emit(target, entity_type)
        if (rtype, target) not in existing:
            self._add_rel_item(self.out_list, (rtype, target), f"{rtype} → {target}")
        self.rel_target.setText("")  # and its typing history, as for an observation
        self.on_edited()

    def _target_exists(self, name: str) -> bool:
        """Whether ``name`` is an entity (names match ignoring case, as the graph does), or this one."""
        return name.casefold() == self.name_edit.text().strip().casefold() or self.completions.is_name(name)

    def _ask_create(self, name: str) -> str | None:
        """The type to create a missing target with, None to correct the name; tests replace this method."""
        return create_target.ask_create(self, name)

    def on_remove_relation(self) -> None:
        for widget in (self.out_list, self.in_list):
            if widget.hasFocus() or (widget.currentRow() >= 0 and widget.currentItem().isSelected()):
                row = widget.currentRow()
                if row >= 0:
                    widget.takeItem(row)
                    self.on_edited()
                    return

    def on_follow(self, item: QListWidgetItem) -> None:
        key = item.data(REL_ROLE)
        target = key[1] if item.listWidget() is self.out_list else key[0]
        self.navigate_requested.emit(target)

    def on_save(self) -> None:
        if self._original is not None and (self._dirty or self.entity_id is None):
            self.save_requested.emit(self.draft())

    def on_status_chosen(self, status: str) -> None:
        if self.entity_id is not None:
            self.status_requested.emit(self.entity_id, status)

    def on_delete(self) -> None:
        if self.entity_id is not None and self._original is not None:
            self.delete_requested.emit(self.entity_id, self._original.name)
