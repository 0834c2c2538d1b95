"""The search bar: a debounced query field, an entity-type filter and the search mode (chosen and used, in one place)."""

from __future__ import annotations

import logging

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLineEdit, QWidget
from limbic.ui.common.i18n import translate
from PySide6.QtCore import QT_TRANSLATE_NOOP

logger = logging.getLogger(__name__)

DEBOUNCE_MS = 150
ALL_TYPES = QT_TRANSLATE_NOOP("SearchBar", "All types")
MODE_TIPS = {
    "hybrid": QT_TRANSLATE_NOOP("SearchBar", "Meaning and exact words together, then ranked by how you use the graph."),
    "semantic": QT_TRANSLATE_NOOP("SearchBar", "No word of the query is in the graph, so only meaning was used."),
    "fts": QT_TRANSLATE_NOOP("SearchBar", "The model is not available, so only exact words are matched."),
}
# What a search used, as the mode switch adds it to the choice when the two differ ("Hybrid · words only").
USED_WORDS = {"hybrid": QT_TRANSLATE_NOOP("SearchBar", "meaning and words"), "semantic": QT_TRANSLATE_NOOP("SearchBar", "meaning only"), "fts": QT_TRANSLATE_NOOP("SearchBar", "words only")}
EXPECTED_MODE = {"both": "hybrid", "meaning": "semantic", "words": "fts"}  # what each choice uses when it can
SWITCH_TIP = QT_TRANSLATE_NOOP("SearchBar", "Search by meaning and words (Hybrid), by meaning only, or by words only")


# The person's choice of branches (engine.search's ``branches``), as the switch names them.
BRANCH_CHOICES = (("both", QT_TRANSLATE_NOOP("SearchBar", "Hybrid"), QT_TRANSLATE_NOOP("SearchBar", "Meaning and exact words together (the default)")),
                  ("meaning", QT_TRANSLATE_NOOP("SearchBar", "Meaning only"), QT_TRANSLATE_NOOP("SearchBar", "Only the meaning of the query (vectors); exact words do not count")),
                  ("words", QT_TRANSLATE_NOOP("SearchBar", "Words only"), QT_TRANSLATE_NOOP("SearchBar", "Only the exact words of the query (full text); meaning does not count")))


class SearchBar(QWidget):
    """Emits ``query_changed`` after a short pause in typing; Up/Down/Enter/Esc drive the result list."""

    query_changed = Signal(str, str)  # query, entity type ("" for all)
    move_requested = Signal(int)  # +1 down, -1 up
    open_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = QLineEdit(self)
        self.edit.setObjectName("searchField")
        self.edit.setPlaceholderText(translate("SearchBar", "Search the graph…  (Ctrl+K or /)"))
        self.edit.setClearButtonEnabled(True)
        self.edit.setToolTip(translate("SearchBar", "Type words, a phrase or an exact identifier. Up/Down to move, Enter to open, Esc to clear."))
        self.edit.setAccessibleName(translate("SearchBar", "Search"))
        self.types = QComboBox(self)
        self.types.setObjectName("typeFilter")
        self.types.addItem(translate("SearchBar", ALL_TYPES), "")
        self.types.setToolTip(translate("SearchBar", "Only show entities of this type"))
        self.types.setAccessibleName(translate("SearchBar", "Entity type filter"))
        self.types.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.branches = QComboBox(self)
        self.branches.setObjectName("branchSwitch")
        self.branches.setAccessibleName(translate("SearchBar", "Search mode"))
        for value, label, tip in BRANCH_CHOICES:
            self.branches.addItem(translate("SearchBar", label), value)
            self.branches.setItemData(self.branches.count() - 1, translate("SearchBar", tip), Qt.ItemDataRole.ToolTipRole)
        self.branches.setToolTip(translate("SearchBar", SWITCH_TIP))
        # The one place the mode is shown: the choice, and what a search used when it could not follow
        # it. One width for every text it can show, so the bar does not shift when the mode changes.
        metrics = self.branches.fontMetrics()
        widest = max(metrics.horizontalAdvance(f"{translate('SearchBar', label)} · {translate('SearchBar', USED_WORDS[used])}") for value, label, _ in BRANCH_CHOICES
                     for used in ("semantic", "fts") if used != EXPECTED_MODE[value])
        self.branches.setMinimumContentsLength(0)
        self.branches.setMinimumWidth(widest + 36)
        self.used_mode = ""
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.types)
        layout.addWidget(self.branches)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.on_debounced)
        self.edit.textChanged.connect(self.on_text_changed)
        self.types.currentIndexChanged.connect(self.on_debounced)
        self.branches.currentIndexChanged.connect(self.on_branch_chosen)
        self.edit.installEventFilter(self)

    def text(self) -> str:
        return self.edit.text()

    def entity_type(self) -> str:
        return self.types.currentData() or ""

    def branch_choice(self) -> str:
        return self.branches.currentData() or "both"

    def set_types(self, types: list[str]) -> None:
        """Refresh the type filter, keeping the current choice when it still exists."""
        current = self.entity_type()
        self.types.blockSignals(True)
        self.types.clear()
        self.types.addItem(translate("SearchBar", ALL_TYPES), "")
        for t in types:
            self.types.addItem(t, t)
        at = self.types.findData(current) if current else 0
        self.types.setCurrentIndex(max(0, at))
        self.types.blockSignals(False)
        if current and at < 0:
            self.on_debounced()

    def set_mode(self, mode: str) -> None:
        """Show the mode a search used: the choice alone when it was followed, else the choice and what was used."""
        self.used_mode = mode
        for i, (_, label, _) in enumerate(BRANCH_CHOICES):
            self.branches.setItemText(i, translate("SearchBar", label))
        at = self.branches.currentIndex()
        if at < 0:
            return
        differs = mode != EXPECTED_MODE.get(self.branch_choice(), "hybrid")
        if differs:
            self.branches.setItemText(at, f"{translate('SearchBar', BRANCH_CHOICES[at][1])} · "
                                         f"{translate('SearchBar', USED_WORDS.get(mode, mode))}")
        self.branches.setToolTip(translate("SearchBar", MODE_TIPS.get(mode, SWITCH_TIP) if differs else SWITCH_TIP))

    def mode_text(self) -> str:
        """What the mode switch shows (the choice, and what was used when it differs)."""
        return self.branches.currentText()

    def on_branch_chosen(self, _index: int) -> None:
        """A new choice shows alone until a search says what it used."""
        self.set_mode(EXPECTED_MODE.get(self.branch_choice(), "hybrid"))
        self.on_debounced()

    def show_expected_mode(self, model_ready: bool) -> None:
        """With no query, the badge says what the next search will use (not what an empty one did)."""
        if not model_ready:
            self.set_mode("fts")
        else:
            self.set_mode({"both": "hybrid", "meaning": "semantic", "words": "fts"}.get(self.branch_choice(), "hybrid"))

    def focus(self) -> None:
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edit.selectAll()

    def on_text_changed(self, _text: str) -> None:
        self._timer.start()

    def on_debounced(self) -> None:
        self._timer.stop()
        self.query_changed.emit(self.edit.text(), self.entity_type())

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if obj is self.edit and event.type() == QEvent.Type.KeyPress:
            key = QKeyEvent(event).key() if not isinstance(event, QKeyEvent) else event.key()
            if key == Qt.Key.Key_Down:
                self.move_requested.emit(1)
                return True
            if key == Qt.Key.Key_Up:
                self.move_requested.emit(-1)
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                if self._timer.isActive():
                    self.on_debounced()
                self.open_requested.emit()
                return True
            if key == Qt.Key.Key_Escape:
                self.edit.clear()
                return True
        return super().eventFilter(obj, event)
