"""“What changed since…”: per entity, what was added, changed, ended and deleted since a date, a typed
time (“last week”, “en marzo”) or the previous time this graph was opened here.

The view is a tab of the Activity panel; ``ChangesSince`` remembers each graph's openings in the
user's settings and runs the reads on the engine's reader (``service.timeline.changes_since``).
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QDate, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QDateEdit,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from limbic import config, file_keys
from limbic.service import timeline
from limbic.service.timeline import ChangedSince
from limbic.ui.common.when import when_words
from limbic.ui.workers.worker import Engine, Failure
from limbic.ui.common.i18n import translate
from PySide6.QtCore import QT_TRANSLATE_NOOP

NAME_ROLE = Qt.ItemDataRole.UserRole + 40  # the entity's name (None: deleted, nothing to open)
_SIGN = {"added": "+", "deleted": "−", "ended": QT_TRANSLATE_NOOP("ChangesSince", "ended:"),
         "changed": QT_TRANSLATE_NOOP("ChangesSince", "changed:")}
_ENTITY_CHANGES = {"renamed": QT_TRANSLATE_NOOP("ChangesSince", "renamed"), "retyped": QT_TRANSLATE_NOOP("ChangesSince", "type"),
                   "status": QT_TRANSLATE_NOOP("ChangesSince", "status")}
_KINDS = {"observation": "", "relation": QT_TRANSLATE_NOOP("ChangesSince", "relation "),
          "reflection": QT_TRANSLATE_NOOP("ChangesSince", "reflection ")}
_ENTITY_WHAT = {"added": QT_TRANSLATE_NOOP("ChangesSince", "added"), "deleted": QT_TRANSLATE_NOOP("ChangesSince", "deleted")}


NO_DATES = QT_TRANSLATE_NOOP("ChangesSince", "no dates")


def held_words(start: str | None, until: str | None) -> str:
    """When something held in the world: “since 2024-03-01”, “until …”, “2024-03-01 to 2024-12-31”."""
    if start and until:
        return translate("ChangesSince", "{start} to {until}").format(start=start, until=until)
    return translate("ChangesSince", "since {start}").format(start=start) if start else translate("ChangesSince", "until {until}").format(until=until) if until \
        else translate("ChangesSince", NO_DATES)


def detail_line(d: dict) -> str:
    """One change of an entity in a few words: “+ “plays chess””, “ended: works_at Acme”, “renamed: A → B”."""
    kind, change = d.get("kind"), d.get("change")
    if kind == "entity":
        label = translate("ChangesSince", _ENTITY_CHANGES.get(change, change))
        return f"{label}: {d.get('from')} → {d.get('to')}"
    what = translate("ChangesSince", _KINDS[kind]) if kind in _KINDS else f"{kind} "
    if change == "changed" and kind == "observation":
        return translate("ChangesSince", "edited: “{before}” → “{after}”").format(before=d.get('from'), after=d.get('to'))
    text = f"“{d.get('text')}”" if kind != "relation" else d.get("text", "")
    if change == "dates":
        was = held_words(d.get("was_from"), d.get("was_until"))
        now = held_words(d.get("valid_from"), d.get("valid_until"))
        return translate("ChangesSince", "dates: {what}{text} — {now}").format(what=what, text=text, now=now) + (translate("ChangesSince", " (was {was})").format(was=was) if was != translate("ChangesSince", NO_DATES) else "")
    if change == "ended" and kind == "observation":
        return translate("ChangesSince", "superseded: {text}").format(text=text)
    return f"{translate('ChangesSince', _SIGN.get(change, change))} {what}{text}".replace("  ", " ")


def entity_line(c: dict) -> str:
    """“Ann — added”, “Ann — 3 changes”, “Old name — deleted”."""
    if c["what"] in ("added", "deleted"):
        return f"{c['entity']} — {translate('ChangesSince', _ENTITY_WHAT[c['what']])}"
    n = len(c["details"])
    return translate("ChangesSince", "{entity} — %n changes", "", n).format(entity=c['entity'])


class ChangesSinceView(QWidget):
    """Since when (typed, picked, or the last opening), and what changed since, entity by entity."""

    asked = Signal(object)  # the typed text, or None: since the last opening
    open_requested = Signal(str)  # an entity's name

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="changesSince")
        self.since = QLineEdit(self, objectName="sinceEdit",
                               placeholderText=translate("ChangesSinceView", "2026-03-01, “last week”, “en marzo”…"))
        self.since.setAccessibleName(translate("ChangesSinceView", "Since"))
        self.since.setClearButtonEnabled(True)
        self.picker = QDateEdit(self, objectName="sinceDate", calendarPopup=True)
        self.picker.setAccessibleName(translate("ChangesSinceView", "Since the day"))
        self.picker.setDisplayFormat("yyyy-MM-dd")
        self.picker.setDate(QDate.currentDate().addDays(-7))
        self.picker.setToolTip(translate("ChangesSinceView", "Pick the day to start from"))
        self.last_button = QPushButton(translate("ChangesSinceView", "Since I last opened it"), self, objectName="sinceLastOpened",
                                       toolTip=translate("ChangesSinceView", "What changed since the previous time this graph was opened here"))
        self.show_button = QPushButton(translate("ChangesSinceView", "Show"), self, objectName="sinceShow")
        self.note = QLabel("", self, objectName="sinceNote", wordWrap=True)
        self.tree = QTreeWidget(self, objectName="changesTree")
        self.tree.setHeaderHidden(True)
        self.tree.setAccessibleName(translate("ChangesSinceView", "What changed"))
        self.tree.setToolTip(translate("ChangesSinceView", "Double-click or Enter on an entity to open it"))
        row = QHBoxLayout()
        row.addWidget(QLabel(translate("ChangesSinceView", "&Since"), self, buddy=self.since))
        row.addWidget(self.since, 1)
        row.addWidget(self.picker)
        buttons = QHBoxLayout()
        buttons.addWidget(self.last_button)
        buttons.addStretch(1)
        buttons.addWidget(self.show_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 6, 0, 0)
        layout.addLayout(row)
        layout.addLayout(buttons)
        layout.addWidget(self.note)
        layout.addWidget(self.tree, 1)
        self.since.returnPressed.connect(self._ask_typed)
        self.show_button.clicked.connect(self._ask_typed)
        self.picker.dateChanged.connect(self._picked)
        self.last_button.clicked.connect(lambda: self.asked.emit(None))
        self.tree.itemActivated.connect(self._activated)

    def _ask_typed(self) -> None:
        self.asked.emit(self.since.text())

    def _picked(self, day: QDate) -> None:
        self.since.setText(day.toString("yyyy-MM-dd"))
        self._ask_typed()

    def show_changes(self, report: ChangedSince, said: str) -> None:
        """List what changed; ``said`` opens the sentence above it (“Since you last opened it (3 Mar 14:02)”)."""
        self.tree.clear()
        for c in report.changes:
            top = QTreeWidgetItem([entity_line(c)])
            top.setData(0, NAME_ROLE, None if c["what"] == "deleted" else c["entity"])
            for d in c["details"]:
                child = QTreeWidgetItem([detail_line(d)])
                child.setData(0, NAME_ROLE, top.data(0, NAME_ROLE))
                top.addChild(child)
            self.tree.addTopLevelItem(top)
        if len(report.changes) <= 20:
            self.tree.expandAll()
        n = max(report.total, len(report.changes))  # one number: how many changed, however many are listed
        counted = translate("ChangesSinceView", "%n entities changed.", "", n) if n else translate("ChangesSinceView", "Nothing changed.")
        if n > len(report.changes):
            counted = translate("ChangesSinceView", "%n entities changed; the first {listed} by name are listed.", "",
                                n).format(listed=len(report.changes))
        self.note.setText(" ".join(x for x in (f"{said}: {counted}", report.note) if x))

    def show_error(self, sentence: str) -> None:
        """Say why nothing can be listed; the list is emptied rather than left speaking of another date."""
        self.tree.clear()
        self.note.setText(sentence)

    def rows(self) -> list[str]:
        """Every row's text, depth-first (for tests and accessibility tools)."""
        out = []
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            out.append(top.text(0))
            out.extend("  " + top.child(j).text(0) for j in range(top.childCount()))
        return out

    def _activated(self, item: QTreeWidgetItem, _column: int) -> None:
        name = item.data(0, NAME_ROLE)
        if name:
            self.open_requested.emit(name)
        else:
            self.note.setText(translate("ChangesSinceView", "{value} was deleted: there is nothing to open (Edit → Undo or the "
                                  "Activity panel can bring it back).").format(value=item.text(0).split(' — ')[0]))


def note_opening(path: str, at: str | None = None) -> str | None:
    """Remember that the graph at ``path`` opens now; returns when it was opened before (None: never here)."""
    key = file_keys.key(path)  # the path as the disk spells it: other capitals on a disk that ignores case are one file
    settings = config.load_settings()  # read again: other parts save the same settings file
    previous = file_keys.find(settings.last_opened, key)  # or kept under an older spelling
    settings.last_opened[key] = at or datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    config.save_settings(settings)
    return previous


class ChangesSince(QObject):
    """Keeps the previous opening of the open graph and answers the view's questions."""

    def __init__(self, engine: Engine, parent: QObject | None = None,
                 open_entity: Callable[[str], object] = lambda _name: None) -> None:
        super().__init__(parent)
        self.engine = engine
        self.open_entity = open_entity
        self.previous: str | None = None  # when the open graph was opened before this time
        self.view: ChangesSinceView | None = None
        self._path = ""

    def on_opened(self, path: str) -> None:
        """A graph opened: the opening before this one is the default “since”."""
        if path == self._path:
            return  # the same file opened again (after a restore or a failure): still the same visit
        self._path = path
        try:
            self.previous = note_opening(path)
        except OSError:  # a settings file that cannot be written: the feature still answers typed dates
            self.previous = None
        self._say_last()

    def _say_last(self) -> None:
        if self.view is not None:
            self.view.last_button.setEnabled(bool(self.previous))
            self.view.last_button.setToolTip(
                translate("ChangesSince", "What changed since this graph was last opened here, {when_words}").format(when_words=when_words(self.previous))
                if self.previous else translate("ChangesSince", "This graph was not opened here before"))

    def attach(self, view: ChangesSinceView) -> None:
        """The view in the Activity panel is made: its questions come here."""
        self.view = view
        view.asked.connect(self.ask)
        view.open_requested.connect(self.open_entity)
        self._say_last()

    def ask(self, typed: str | None) -> None:
        """List what changed since ``typed`` (None: since the last opening)."""
        if self.view is None:
            return
        said = (translate("ChangesSince", "Since {typed}").format(typed=typed.strip()) if typed is not None else
                translate("ChangesSince", "Since you last opened it ({when_words})").format(when_words=when_words(self.previous)) if self.previous else translate("ChangesSince", "Since the last opening"))
        self.engine.read("changes-since", timeline.changes_since, typed, self.previous,
                         what=translate("ChangesSince", "reading what changed"), on_done=lambda report: self._show(report, said),
                         on_failed=self._failed)

    def ask_default(self) -> None:
        """Since the last opening when there was one, else since the day picked (a week ago)."""
        if self.previous:
            self.ask(None)
        elif self.view is not None:
            self.view._picked(self.view.picker.date())

    def _show(self, report: ChangedSince, said: str) -> None:
        if self.view is not None:
            self.view.show_changes(report, said)

    def _failed(self, failure: Failure) -> None:
        if self.view is not None:
            self.view.show_error(failure.message)
