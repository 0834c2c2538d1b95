"""File → Assistants: each assistant seen on this graph, when, what it may read and write, its pause; the default
for assistants not seen before; and the writes held because they looked like a credential, to accept or discard."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from limbic.service import activity, held, scope
from limbic.ui.common.i18n import translate
from limbic.ui.common.words import plain

def _columns() -> list[str]:
    return [translate("AssistantsDialog", "Assistant"), translate("AssistantsDialog", "Last seen (UTC)"),
            translate("AssistantsDialog", "May read"), translate("AssistantsDialog", "May write"),
            translate("AssistantsDialog", "Paused")]


def _default_labels() -> dict[str, str]:
    return {"read-write": translate("AssistantsDialog", "may read and write"),
            "read-only": translate("AssistantsDialog", "read only until I allow"),
            "nothing": translate("AssistantsDialog", "nothing until I allow")}


def _words(value) -> str:
    if value == scope.ALL:
        return translate("AssistantsDialog", "everything")
    if value == scope.NONE:
        return translate("AssistantsDialog", "nothing")
    return ", ".join(value)


class AssistantsDialog(QDialog):
    """The Assistants page: changes are saved with Save (each an ordinary write of the graph, synced)."""

    def __init__(self, engine, parent=None) -> None:
        super().__init__(parent)
        self.engine = engine
        self.setWindowTitle(translate("AssistantsDialog", "Assistants"))
        intro = QLabel(translate(
            "AssistantsDialog", "What each assistant connected through limbic mcp may read and write. Entities marked "
            "private (Organise → Private to assistants, Ctrl+Shift+L) are never shown to any of them. Type "
            "“everything”, “nothing” or entity types separated by commas."), self)
        intro.setWordWrap(True)
        self.default = QComboBox(self, objectName="assistantsDefault")
        for key, label in _default_labels().items():
            self.default.addItem(label, key)
        self.default.setAccessibleName(translate("AssistantsDialog", "Default for a new assistant"))
        form = QFormLayout()
        form.addRow(translate("AssistantsDialog", "A &new assistant"), self.default)
        self.table = QTableWidget(0, 5, self, objectName="assistantsTable")
        self.table.setHorizontalHeaderLabels(_columns())
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.setAccessibleName(translate("AssistantsDialog", "Assistants and their scopes"))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.AllEditTriggers)
        self.held_table = QTableWidget(0, 4, self, objectName="heldTable")
        self.held_table.setHorizontalHeaderLabels([translate("AssistantsDialog", "When (UTC)"),
                                                   translate("AssistantsDialog", "Assistant"),
                                                   translate("AssistantsDialog", "Tool"),
                                                   translate("AssistantsDialog", "Held because")])
        self.held_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.held_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.held_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.held_table.setAccessibleName(translate("AssistantsDialog", "Writes held for review"))
        held_buttons = QHBoxLayout()
        for text, slot in ((translate("AssistantsDialog", "&Accept"), lambda: self.decide("accept")),
                           (translate("AssistantsDialog", "Accept as &private"), lambda: self.decide("private")),
                           (translate("AssistantsDialog", "&Discard"), lambda: self.decide("discard"))):
            button = QPushButton(text, self)
            button.clicked.connect(slot)
            held_buttons.addWidget(button)
        held_buttons.addStretch(1)
        self.message = QLabel(self, objectName="dialogError")
        self.message.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Close, self)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.table, 2)
        layout.addWidget(QLabel(translate("AssistantsDialog", "Held for review: what an assistant sent that looks like "
                                                              "a key, a password or a card number (never stored)."), self))
        layout.addWidget(self.held_table, 1)
        layout.addLayout(held_buttons)
        layout.addWidget(self.message)
        layout.addWidget(buttons)
        self.rows: list = []
        self.held_rows: list = []
        self.resize(760, 520)
        self.load()

    # -- reading --------------------------------------------------------------------------

    def load(self) -> None:
        self.engine.read("assistants", _page, on_done=self.show_page)

    def show_page(self, page) -> None:
        default, rows, waiting = page
        self.default.setCurrentIndex(max(0, self.default.findData(default)))
        self.rows = rows
        self.table.setRowCount(len(rows))
        for r, a in enumerate(rows):
            cells = [a.client, a.last_seen or translate("AssistantsDialog", "not seen yet"), _words(a.read),
                     _words(a.write)]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c < 2:
                    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                elif not a.own:
                    item.setToolTip(translate("AssistantsDialog", "The default applies until you give it its own"))
                self.table.setItem(r, c, item)
            pause = QTableWidgetItem()
            pause.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled)
            pause.setCheckState(Qt.CheckState.Checked if a.paused else Qt.CheckState.Unchecked)
            self.table.setItem(r, 4, pause)
        self.held_rows = waiting
        self.held_table.setRowCount(len(waiting))
        for r, h in enumerate(waiting):
            for c, text in enumerate((h.at, h.client, plain(h.tool), "; ".join(h.reasons))):
                self.held_table.setItem(r, c, QTableWidgetItem(text))

    # -- writing --------------------------------------------------------------------------

    def changes(self) -> tuple[str, list[tuple[str, object, object, bool | None]]]:
        """(default, [(client, read, write, paused or None)]) for what differs from what was read."""
        out = []
        for r, a in enumerate(self.rows):
            read = scope.parse(self.table.item(r, 2).text())
            write = scope.parse(self.table.item(r, 3).text())
            paused = self.table.item(r, 4).checkState() == Qt.CheckState.Checked
            if (read, write) != (a.read, a.write) or paused != a.paused:
                out.append((a.client, read, write, paused if paused != a.paused else None))
        return self.default.currentData(), out

    def save(self) -> None:
        default, changed = self.changes()
        self.engine.run("assistants-save", _save, default, changed, on_done=lambda _n: self._saved(),
                        on_failed=lambda f: self.message.setText(f.message),
                        what=translate("AssistantsDialog", "saving what assistants may do"))

    def _saved(self) -> None:
        self.message.setText(translate("AssistantsDialog", "Saved: a running assistant follows at its next call."))
        self.load()

    def decide(self, how: str) -> None:
        row = self.held_table.currentRow()
        if row < 0 or row >= len(self.held_rows):
            self.message.setText(translate("AssistantsDialog", "Choose a held write first."))
            return
        held_id = self.held_rows[row].id
        fn = (held.discard, (held_id,)) if how == "discard" else (held.accept, (held_id, how == "private"))
        self.engine.run("held-decide", fn[0], *fn[1], on_done=lambda _v: self.load(),
                        on_failed=lambda f: self.message.setText(f.message),
                        what=translate("AssistantsDialog", "deciding on a held write"))


def _page(graph):
    return scope.default_choice(graph), scope.assistants(graph), held.held(graph)


def _save(graph, default: str, changed: list) -> int:
    if default != scope.default_choice(graph):
        scope.set_default(graph, default)
    for client, read, write, paused in changed:
        scope.set_access(graph, client, read, write)
        if paused is not None:
            activity.set_paused(graph, client, paused)
    return len(changed)
