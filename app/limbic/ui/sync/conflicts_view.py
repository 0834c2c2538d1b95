"""The Conflicts view: each sync conflict with both sides side by side, kept by one key (M, T or B).

The keys mean the same on every conflict: M keeps this device's version, T the other device's, B both
where both can stand (two texts). A deletion is one of the sides ("Deleted on desktop"), shown beside
the entity as the other side kept it, never a key whose meaning changes; the line above the sides
says what each key does for the conflict shown, and a key that means nothing there is off."""

from __future__ import annotations

import json
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (QDialog, QGridLayout, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPlainTextEdit,
                               QPushButton, QVBoxLayout, QWidget)
from limbic.ui.common import window_fit
from limbic.ui.common.i18n import translate
from PySide6.QtCore import QT_TRANSLATE_NOOP

KEYS = {"M": "mine", "T": "theirs", "B": "both"}
_LABELS = {"mine": QT_TRANSLATE_NOOP("ConflictsView", "Keep this device's"), "theirs": QT_TRANSLATE_NOOP("ConflictsView", "Keep the other's"), "both": QT_TRANSLATE_NOOP("ConflictsView", "Keep both")}


def labels(c) -> dict[str, str]:
    """The three buttons' words: the same meaning on every conflict, the other device named."""
    # A long device name is shortened on the button (the side's title says it whole): the row of buttons
    # stays within the view on a 1366-pixel screen at 150 %.
    their = _short(c.their_device_name or c.their_device[:8], 16) if c is not None else ""
    return {"mine": translate("ConflictsView", "Keep this device's"), "theirs": translate("ConflictsView", "Keep {their}'s").format(their=their) if their else translate("ConflictsView", _LABELS["theirs"]),
            "both": translate("ConflictsView", "Keep both")}


def choices(c) -> dict[str, str]:
    """The keys that do something of their own for this conflict (``SyncConflict.choices``), and what each
    does there, for the line above the sides: a deletion is deleted again or kept; only two texts can both be kept."""
    if c.rule == "missing":  # changed there, nowhere here: nothing to choose but to let it go
        return {"mine": translate("ConflictsView", "let it go")}
    if c.deleter is not None:
        return {keep: translate("ConflictsView", "delete it again") if keep == c.deleter else translate("ConflictsView", "keep it") for keep in c.choices()}
    their = c.their_device_name or c.their_device[:8] or translate("ConflictsView", "the other device")
    return {keep: translate("ConflictsView", "keep both texts") if keep == "both" else (translate("ConflictsView", "keep this device's value") if keep == "mine"
                                                                   else translate("ConflictsView", "keep {their}'s value").format(their=their))
            for keep in c.choices()}


def _hint(offered: dict[str, str]) -> str:
    """What the keys do for this conflict, in one line."""
    return "  ·  ".join(f"{key}: {offered[keep]}" for key, keep in KEYS.items() if keep in offered)


def side_text(c, side: str) -> str:
    """One side as the person reads it: a deletion says where it was made; a kept entity shows its texts too."""
    value = c.mine if side == "mine" else c.theirs
    if value is None and c.deleter == side:
        where = translate("ConflictsView", "on this device") if side == "mine" else translate("ConflictsView", "on {value}").format(value=c.their_device_name or c.their_device[:8])
        return translate("ConflictsView", "Deleted {where}.").format(where=where)
    return shown_value(value)


# A row's fields as the person knows them; the others (when it was made, links by id) say nothing to them.
_FIELDS = {"name": QT_TRANSLATE_NOOP("ConflictsView", "Name"), "type": QT_TRANSLATE_NOOP("ConflictsView", "Type"),
           "status": QT_TRANSLATE_NOOP("ConflictsView", "Status"), "content": QT_TRANSLATE_NOOP("ConflictsView", "Text"),
           "alias": QT_TRANSLATE_NOOP("ConflictsView", "Other name"), "context": QT_TRANSLATE_NOOP("ConflictsView", "Context"),
           "mood": QT_TRANSLATE_NOOP("ConflictsView", "Mood"), "valid_from": QT_TRANSLATE_NOOP("ConflictsView", "Valid from"),
           "valid_until": QT_TRANSLATE_NOOP("ConflictsView", "Valid until"), "ended_at": QT_TRANSLATE_NOOP("ConflictsView", "Ended"),
           "observations": QT_TRANSLATE_NOOP("ConflictsView", "Observations"),
           "unseen": QT_TRANSLATE_NOOP("ConflictsView", "Written where the deletion did not see it"),
           "entity": QT_TRANSLATE_NOOP("ConflictsView", "Entity")}  # an alias's entity; in a row, an id: not shown
_STATUSES = {"active": QT_TRANSLATE_NOOP("ConflictsView", "active"), "paused": QT_TRANSLATE_NOOP("ConflictsView", "paused"),
             "done": QT_TRANSLATE_NOOP("ConflictsView", "done"), "archived": QT_TRANSLATE_NOOP("ConflictsView", "archived")}
_KINDS = {"observation": QT_TRANSLATE_NOOP("ConflictsView", "An observation of “{name}”"),
          "relation": QT_TRANSLATE_NOOP("ConflictsView", "A relation of “{name}”"),
          "reflection": QT_TRANSLATE_NOOP("ConflictsView", "A reflection on “{name}”"),
          "alias": QT_TRANSLATE_NOOP("ConflictsView", "Another name of “{name}”")}


def field_words(field: str) -> str:
    """A field's name in the window's language ("content" is the text)."""
    return translate("ConflictsView", _FIELDS[field]).lower() if field in _FIELDS else field.replace("_", " ")


def _short(value: object, width: int = 40) -> str:
    text = " ".join(str(value).split()) if value is not None else ""
    return text if len(text) <= width else text[:width - 1].rstrip() + "…"


def line(c) -> str:
    """The conflict's line in the list, in the window's language: what it is about, what happened, both values."""
    name = _short(c.entity or "?")
    what = translate("ConflictsView", _KINDS[c.kind]).format(name=name) if c.kind in _KINDS else f"“{name}”"
    their = c.their_device_name or c.their_device[:8] or translate("ConflictsView", "the other device")
    field = field_words(c.field)
    mine, theirs = _short(c.mine), _short(c.theirs)
    sentences = {
        "field": translate("ConflictsView", "{what}: {field} changed on both devices: “{mine}” here, “{theirs}” on {their}"),
        "rename_taken": translate("ConflictsView", "{what}: renamed onto a name another entity holds: “{mine}” here, "
                                  "“{theirs}” on {their}"),
        "resolved_twice": translate("ConflictsView", "{what}: chosen differently here and on {their}: “{mine}” here, "
                                    "“{theirs}” there"),
        "superseded_edit": translate("ConflictsView", "{what}: replaced by a newer text while {their} edited it: "
                                     "“{mine}” here, “{theirs}” on {their}"),
        "deleted_there": translate("ConflictsView", "{what}: deleted on {their}, but changed here; delete it again?"),
        "deleted_here": translate("ConflictsView", "{what}: deleted here, but {their} changed it meanwhile; delete it again?"),
        "missing": translate("ConflictsView", "{what}: changed on {their}, but it is nowhere here"),
    }
    if c.mine_made_on:  # this device holds a third device's value: said as that device's
        sentences["field"] = translate("ConflictsView", "{what}: {field} changed on {made} and on {their}: “{mine}” on "
                                       "{made}, “{theirs}” on {their}")
        sentences["deleted_there"] = translate("ConflictsView", "{what}: deleted on {their}, but changed on {made}; "
                                               "delete it again?")
    if c.rule not in sentences:
        return c.sentence()
    return sentences[c.rule].format(what=what, field=field, mine=mine, theirs=theirs, their=their, made=c.mine_made_on)


def shown_value(value: object) -> str:
    """A conflict's value as the person reads it."""
    if value is None:
        return translate("ConflictsView", "(deleted or absent)")
    if isinstance(value, str):
        return value
    if isinstance(value, dict):  # a whole row (an entity deleted on one side): one field a line, as a person reads it
        out = []
        # What the deletion had not seen comes first: it is why the entity was kept.
        for key, v in sorted(value.items(), key=lambda kv: kv[0] != "unseen"):
            if key == "private" and v:
                out.append(translate("ConflictsView", "Private: kept from every assistant"))
            if key not in _FIELDS or key == "entity" or v in (None, "", []):
                continue
            label = translate("ConflictsView", _FIELDS[key])
            if isinstance(v, list):
                out.append(f"{label}:" + "".join(f"\n  · {t}" for t in v))
            else:
                shown = translate("ConflictsView", _STATUSES[v]) if key == "status" and v in _STATUSES else v
                out.append(f"{label}: {shown_value(shown) if isinstance(shown, dict) else shown}")
        return "\n".join(out)
    return json.dumps(value, ensure_ascii=False, indent=2)


class ConflictsView(QDialog):
    """Lists the open conflicts; M keeps mine, T theirs, B both; Enter opens the entity."""

    resolve_asked = Signal(int, str)  # conflict id, "mine" | "theirs" | "both"
    open_asked = Signal(str)  # the entity's name

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="syncConflicts")
        self.setWindowTitle(translate("ConflictsView", "Sync conflicts"))
        self.resize(window_fit.initial_size(window_fit.available(self).size(), (760, 460)))  # within the screen
        self.conflicts: list = []
        self.list = QListWidget(self, objectName="conflictList")
        self.list.setAccessibleName(translate("ConflictsView", "Conflicts"))
        self.list.currentRowChanged.connect(self._show_current)
        self.list.itemActivated.connect(lambda _item: self.open_current())  # Enter, double click
        self.empty = QLabel(translate("ConflictsView", "No conflicts: every device agrees."), self)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.list.setWordWrap(True)  # a long sentence wraps rather than scrolling sideways
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.why = QLabel("", self, wordWrap=True)
        sides = QGridLayout()
        self.mine_title, self.theirs_title = QLabel(translate("ConflictsView", "Mine"), self), QLabel(translate("ConflictsView", "Theirs"), self)
        self.mine, self.theirs = QPlainTextEdit(self, readOnly=True), QPlainTextEdit(self, readOnly=True)
        self.mine.setAccessibleName(translate("ConflictsView", "My value"))
        self.theirs.setAccessibleName(translate("ConflictsView", "Their value"))
        for col, (title, text) in enumerate(((self.mine_title, self.mine), (self.theirs_title, self.theirs))):
            sides.addWidget(title, 0, col)
            sides.addWidget(text, 1, col)
            text.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the list keeps the keys
        buttons = QHBoxLayout()
        self.buttons: dict[str, QPushButton] = {}
        for key, keep in KEYS.items():
            button = QPushButton(f"{translate('ConflictsView', _LABELS[keep])}  ({key})", self)
            button.setAccessibleName(translate("ConflictsView", _LABELS[keep]))
            button.setAutoDefault(False)
            button.clicked.connect(lambda _=False, k=keep: self.resolve_current(k))
            buttons.addWidget(button)
            self.buttons[keep] = button
            QShortcut(QKeySequence(key), self, activated=lambda k=keep: self.resolve_current(k))
        self.open_button = QPushButton(translate("ConflictsView", "Open the entity  (Enter)"), self)
        self.open_button.setAutoDefault(False)
        self.open_button.clicked.connect(self.open_current)
        buttons.addStretch(1)
        buttons.addWidget(self.open_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.list, 2)
        layout.addWidget(self.empty)
        layout.addWidget(self.why)
        layout.addLayout(sides, 3)
        layout.addLayout(buttons)
        self.set_conflicts([])

    def set_conflicts(self, conflicts: list) -> None:
        """Show these conflicts (the selection stays on the same row number, the next one after a resolve)."""
        row = max(0, self.list.currentRow())
        self.conflicts = list(conflicts)
        self.list.blockSignals(True)
        self.list.clear()
        for c in self.conflicts:
            item = QListWidgetItem(line(c))
            item.setToolTip(line(c))
            self.list.addItem(item)
        self.list.blockSignals(False)
        has = bool(self.conflicts)
        self.empty.setVisible(not has)
        self.open_button.setEnabled(has)
        if has:
            self.list.setCurrentRow(min(row, len(self.conflicts) - 1))
            self._show_current(self.list.currentRow())
        else:
            self._show_current(-1)
        self.list.setFocus()

    def current(self):
        row = self.list.currentRow()
        return self.conflicts[row] if 0 <= row < len(self.conflicts) else None

    def _show_current(self, _row: int) -> None:
        c = self.current()
        offered = choices(c) if c is not None else {}
        words = labels(c)
        for key, keep in KEYS.items():
            self.buttons[keep].setText(f"{words[keep]}  ({key})")
            self.buttons[keep].setAccessibleName(words[keep])
            self.buttons[keep].setEnabled(keep in offered)
        if c is None:
            self.why.setText("")
            self.mine_title.setText(translate("ConflictsView", "Mine"))
            self.theirs_title.setText(translate("ConflictsView", "Theirs"))
            self.mine.setPlainText("")
            self.theirs.setPlainText("")
            return
        # The keys on a line of their own: a line break never falls inside what one key does.
        self.why.setText((translate("ConflictsView", "Met on {at}; the graph holds mine until you choose.") if c.kept == "mine"
                         else translate("ConflictsView", "Met on {at}; the graph holds theirs until you choose.")
                         ).format(at=c.at) + "\n" + _hint(offered))
        # "this device" is what the person knows it by, whatever name the others see.
        # A value this device holds from a third device says where it was made.
        mine = translate("ConflictsView", "Mine (this device, made on {device})").format(device=c.mine_made_on) \
            if c.mine_made_on else translate("ConflictsView", "Mine (this device)")
        self.mine_title.setText(mine + (translate("ConflictsView", "  — kept now") if c.kept == "mine" else ""))
        their_device = c.their_device_name or c.their_device
        self.theirs_title.setText(translate("ConflictsView", "Theirs ({their_device})").format(their_device=their_device)
                                  + (translate("ConflictsView", "  — kept now") if c.kept == "theirs" else ""))
        self.mine.setPlainText(side_text(c, "mine"))
        self.theirs.setPlainText(side_text(c, "theirs"))

    def say(self, sentence: str) -> None:
        """Why a choice was not made (another entity holds the name, say), under the list until the next move."""
        self.why.setText(sentence)

    def resolve_current(self, keep: str) -> None:
        c = self.current()
        if c is not None and keep in choices(c):
            self.resolve_asked.emit(c.id, keep)

    def open_current(self) -> None:
        c = self.current()
        if c is not None and c.entity:
            self.open_asked.emit(c.entity)


def make_view(parent: QWidget | None, resolve: Callable[[int, str], None], open_entity: Callable[[str], None]) -> ConflictsView:
    """A Conflicts view wired to the window's resolve and open."""
    view = ConflictsView(parent)
    view.resolve_asked.connect(resolve)
    view.open_asked.connect(open_entity)
    return view
