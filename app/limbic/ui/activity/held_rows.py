"""Writes held for the person's review in the Activity panel: each in its assistant's place, settled there.

An assistant's write that looks like a credential is not stored (``service.held``): the panel lists it under
that assistant's newest session (or under the assistant's own row when none is listed), with why it was held,
when, and which entity it was for. The text is shown masked ("sk-p••••••••") unless the person asks to see it
in full. Accept stores it as the person's own write (Edit → Undo takes it back), Accept as private also keeps
the entities it wrote from every assistant, Discard erases its text. The panel follows new held writes as
they come: each commit another program makes is looked at for them (``HeldFlow.follow``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtCore import QObject, QT_TRANSLATE_NOOP, Qt, QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QPushButton, QTreeWidgetItem, QVBoxLayout, QWidget

from limbic.service import activity, held
from limbic.service.undo import RevertStep
from limbic.ui.common.words import wrapped_tip
from limbic.ui.common.flow_layout import FlowLayout
from limbic.ui.common.i18n import translate

ROLE = Qt.ItemDataRole.UserRole + 20  # the panel's role: ("held", id) on a held write's row and its text lines
FOLLOW_MS = 2000  # without the reader's thread, how often the panel looks for new held writes

# The service's words for what a held text was and what it looked like, said again in the window's language.
WHAT = {w: w for w in (
    QT_TRANSLATE_NOOP("HeldRows", "an observation"), QT_TRANSLATE_NOOP("HeldRows", "a name"),
    QT_TRANSLATE_NOOP("HeldRows", "an alias"), QT_TRANSLATE_NOOP("HeldRows", "a reflection"),
    QT_TRANSLATE_NOOP("HeldRows", "a relation's context"), QT_TRANSLATE_NOOP("HeldRows", "a type"),
    QT_TRANSLATE_NOOP("HeldRows", "a relation type"), QT_TRANSLATE_NOOP("HeldRows", "a kind"),
    QT_TRANSLATE_NOOP("HeldRows", "a value"))}
LIKE = {w: w for w in (
    QT_TRANSLATE_NOOP("HeldRows", "a private key"), QT_TRANSLATE_NOOP("HeldRows", "an access key"),
    QT_TRANSLATE_NOOP("HeldRows", "a secret key"), QT_TRANSLATE_NOOP("HeldRows", "a token"),
    QT_TRANSLATE_NOOP("HeldRows", "a webhook"), QT_TRANSLATE_NOOP("HeldRows", "an API key"),
    QT_TRANSLATE_NOOP("HeldRows", "a key"), QT_TRANSLATE_NOOP("HeldRows", "a JSON Web Token"),
    QT_TRANSLATE_NOOP("HeldRows", "a URL with a password"), QT_TRANSLATE_NOOP("HeldRows", "a secret"),
    QT_TRANSLATE_NOOP("HeldRows", "a password"), QT_TRANSLATE_NOOP("HeldRows", "a card number"),
    QT_TRANSLATE_NOOP("HeldRows", "a bank account number"))}
_REASON = re.compile(r"^(.*) looks like (.*?)( \([^)]*\))?$")


def reason_words(reason: str) -> str:
    """“an observation looks like an API key (OpenAI)” in the window's language (as it is when not known)."""
    match = _REASON.match(reason)
    if not match or match.group(1) not in WHAT or match.group(2) not in LIKE:
        return reason
    like = translate("HeldRows", LIKE[match.group(2)]) + (match.group(3) or "")
    return translate("HeldRows", "{what} looks like {like}").format(what=translate("HeldRows", WHAT[match.group(1)]),
                                                                      like=like)


def text_line(text: str) -> str:
    """A held text's line: quoted, a long run without spaces (a key shown in full) breakable at the panel's width."""
    return "+ “" + re.sub(r"(\S{24})(?=\S)", "\\1\u200b", text) + "”"


def quoted(names: list[str]) -> str:
    return ", ".join(f"“{n}”" for n in names)


@dataclass(frozen=True)
class HeldShown:
    """A held write as the panel lists it: its texts masked, and whole for when the person asks."""

    id: int
    at: str
    client: str
    tool: str
    reasons: list[str]
    subjects: list[str]  # masked
    texts: list[str]  # whole
    masked: list[str]

    @staticmethod
    def of(h: held.HeldWrite) -> HeldShown:
        texts = held.texts_of(h)
        return HeldShown(h.id, h.at, h.client, h.tool, h.reasons, held.subjects_of(h), texts,
                         [held.masked(t) for t in texts])


def held_title(h: HeldShown) -> str:
    """“Held for your review: an observation looks like an API key (OpenAI) · for “Ada” · 14:05, 2026-12-07”."""
    why = "; ".join(reason_words(r) for r in h.reasons)
    if h.subjects:
        return translate("HeldRows", "Held for your review: {why} · for {subjects} · {time}, {day}").format(
            why=why, subjects=quoted(h.subjects), time=h.at[11:16], day=h.at[:10])
    return translate("HeldRows", "Held for your review: {why} · {time}, {day}").format(
        why=why, time=h.at[11:16], day=h.at[:10])


def panel_and_held(graph, filters: dict) -> tuple[activity.PanelData, list[HeldShown]]:
    """What the panel shows in one read on the engine's thread: the activity and the writes waiting."""
    return activity.panel_data(graph, filters), [HeldShown.of(h) for h in held.held(graph)]


def badge_counts(graph) -> tuple[int, int]:
    """(unreviewed assistant changes, writes held for review): what the status bar's badge says."""
    return activity.unreviewed_count(graph), held.stamp(graph)[0]


class HeldRows:
    """The held writes in the panel's tree: placed after each refill, and again when a session is read later."""

    def __init__(self) -> None:
        self.items: list[HeldShown] = []
        self.revealed: set[int] = set()  # shown in full at the person's request
        self.homes: dict[str, int] = {}  # client (casefolded) → the session its held writes are listed under
        self.seen: set[int] = set()  # ids listed before: a new one opens its place
        self.client_filter = ""  # the panel's client filter, casefolded ("": every client)

    def plan(self, sessions, client_filter: str) -> None:
        """Before the tree is filled: under which listed session each assistant's held writes go."""
        self.homes = {}
        for s in sessions:  # newest first: the first of each client is its home
            key = (s.client or "").casefold()
            if s.origin == "assistant" and key not in self.homes:
                self.homes[key] = s.id
        self.client_filter = (client_filter or "").casefold()

    def _mine(self) -> dict[str, list[HeldShown]]:
        out: dict[str, list[HeldShown]] = {}
        for h in self.items:
            key = h.client.casefold()
            if not self.client_filter or key == self.client_filter:
                out.setdefault(key, []).append(h)
        return out

    def attach(self, top: QTreeWidgetItem, session_id: int) -> None:
        """The held writes whose home is this session, first among its rows (once)."""
        for key, rows in self._mine().items():
            if self.homes.get(key) == session_id:
                self._add(top, rows)

    def _add(self, parent: QTreeWidgetItem, rows: list[HeldShown]) -> None:
        there = {parent.child(i).data(0, ROLE) for i in range(parent.childCount())}
        bold = QFont(parent.font(0))
        bold.setBold(True)
        for at, h in enumerate(rows):
            if ("held", h.id) in there:
                continue
            row = QTreeWidgetItem([held_title(h)])
            row.setData(0, ROLE, ("held", h.id))
            row.setFont(0, bold)
            row.setToolTip(0, wrapped_tip(translate("HeldRows", "{title}\nSent by {who} with {tool}, {at} UTC. Nothing "
                                                    "of it is stored or shown to any assistant until you accept it.").format(
                title=row.text(0), who=h.client or translate("HeldRows", "an assistant"), tool=h.tool, at=h.at)))
            for whole, hidden in zip(h.texts, h.masked):
                line = QTreeWidgetItem([text_line(whole if h.id in self.revealed else hidden)])
                line.setData(0, ROLE, ("held", h.id))
                row.addChild(line)
            parent.insertChild(at, row)
            row.setExpanded(True)

    def place(self, tree, tops: list[QTreeWidgetItem], session_of) -> None:
        """After the tree is filled: each home's title counts its held writes; an assistant without a listed
        session gets a row of its own at the top."""
        mine = self._mine()
        by_session = {session_of(top): top for top in tops}
        at = 0
        for key, rows in mine.items():
            top, count = by_session.get(self.homes.get(key)), len(rows)
            if top is None:
                who = rows[0].client or translate("HeldRows", "an assistant")
                title = translate("HeldRows", "“{who}” · %n writes held for your review", "", count)
                top = QTreeWidgetItem([title.format(who=who)])
                top.setData(0, ROLE, ("heldgroup", key))
                bold = QFont(tree.font())
                bold.setBold(True)
                top.setFont(0, bold)
                tree.insertTopLevelItem(at, top)
                at += 1
                self._add(top, rows)
                top.setExpanded(True)
            else:
                top.setText(0, top.text(0) + translate("HeldRows", " · %n held for your review", "", count))
                top.setToolTip(0, wrapped_tip(top.text(0)))
                font = QFont(top.font(0))
                font.setBold(True)
                top.setFont(0, font)
                if any(h.id not in self.seen for h in rows):
                    top.setExpanded(True)  # a new held write opens its place (the session is read if it was not)
        for top in (tree.topLevelItem(i) for i in range(tree.topLevelItemCount())):  # their texts in view
            for row in (top.child(j) for j in range(top.childCount())):
                if (row.data(0, ROLE) or ("",))[0] == "held":
                    row.setExpanded(True)  # (a row expanded before it was in the tree is not)
        self.seen |= {h.id for h in self.items}

    def find(self, held_id: int) -> HeldShown | None:
        return next((h for h in self.items if h.id == held_id), None)


class HeldBar(QWidget):
    """Under the tree, while a held write is chosen: what it is, Accept, Accept as private, Discard, Show in full;
    and the last decision's outcome."""

    decided = Signal(str, int)  # "accept" / "private" / "discard", the held write's id
    reveal = Signal(int, bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="heldBar")
        self.held_id: int | None = None
        self.outcome = QLabel("", self, objectName="heldOutcome", wordWrap=True)
        self.outcome.setVisible(False)
        self.accept_button = self._button("heldAccept", translate("HeldRows", "Accept"),
                                          translate("HeldRows", "Accept the held write"),
                                          translate("HeldRows", "Store it as your own write (Edit → Undo takes it back)"))
        self.private_button = self._button("heldAcceptPrivate", translate("HeldRows", "Accept as private"),
                                           translate("HeldRows", "Accept the held write as private"),
                                           translate("HeldRows", "Store it and keep the entities it wrote from every "
                                                                 "assistant"))
        self.discard_button = self._button("heldDiscard", translate("HeldRows", "Discard"),
                                           translate("HeldRows", "Discard the held write"),
                                           translate("HeldRows", "Erase its text: nothing of it is stored"))
        self.show_button = self._button("heldShowFull", translate("HeldRows", "Show in full"),
                                        translate("HeldRows", "Show the held text in full"),
                                        translate("HeldRows", "Show the text this write holds unmasked, in this "
                                                              "list only"))
        self.show_button.setCheckable(True)
        self.buttons = QWidget(self, objectName="heldButtons")
        row = FlowLayout(self.buttons)
        for b in (self.accept_button, self.private_button, self.discard_button, self.show_button):
            b.setParent(self.buttons)
            row.addWidget(b)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.outcome)
        layout.addWidget(self.buttons)
        self.accept_button.clicked.connect(lambda: self._decide("accept"))
        self.private_button.clicked.connect(lambda: self._decide("private"))
        self.discard_button.clicked.connect(lambda: self._decide("discard"))
        self.show_button.toggled.connect(lambda on: None if self.held_id is None else self.reveal.emit(self.held_id, on))
        self.choose(None, False)

    def _button(self, name: str, text: str, accessible: str, tip: str) -> QPushButton:
        button = QPushButton(text, self, objectName=name, toolTip=tip)
        button.setAccessibleName(accessible)
        return button

    def choose(self, held_id: int | None, revealed: bool) -> None:
        """The held write chosen in the tree (None: none is): the buttons act on it."""
        self.held_id = held_id
        self.buttons.setVisible(held_id is not None)
        self.show_button.blockSignals(True)
        self.show_button.setChecked(revealed)
        self.show_button.blockSignals(False)
        self.setVisible(held_id is not None or self.outcome.isVisibleTo(self))

    def say(self, text: str) -> None:
        """The outcome of the last decision, under the tree until the next one."""
        self.outcome.setText(text)
        self.outcome.setVisible(bool(text))
        self.setVisible(bool(text) or self.held_id is not None)

    def _decide(self, how: str) -> None:
        if self.held_id is not None:
            self.say("")
            self.decided.emit(how, self.held_id)


class HeldFlow(QObject):
    """The Activity menu's part for held writes: decisions run on the engine's thread, new ones followed."""

    def __init__(self, menu) -> None:
        super().__init__(menu)
        self.menu = menu
        self.stamp: tuple[int, int] | None = None
        reader = getattr(menu.p.engine, "reader", None)
        if reader is not None:
            reader.worker.counts_changed.connect(lambda *_: self.follow())  # after any commit it sees
        self.timer = QTimer(self, interval=FOLLOW_MS)  # when there is no reader's thread to say so
        self.timer.timeout.connect(lambda: None if getattr(reader, "path", "") else self.follow())
        self.timer.start()

    def follow(self) -> None:
        """Look whether the writes waiting changed (an assistant's write was just held): read again if so."""
        p = self.menu.p
        if p.hooks.catalog() is not None:
            p.engine.read("held-stamp", held.stamp, on_done=self._stamped, on_failed=lambda _f: None,
                          what=translate("HeldRows", "looking for held writes"))

    def _stamped(self, stamp: tuple[int, int]) -> None:
        if self.stamp is not None and stamp != self.stamp:
            self.menu.refresh()
        self.stamp = stamp

    def decide(self, how: str, held_id: int) -> None:
        """Accept (as private) or discard a held write; say what happened; the panel reads again."""
        p, panel = self.menu.p, self.menu.panel()
        h = panel.held.find(held_id)
        subjects = quoted(h.subjects) if h and h.subjects else translate("HeldRows", "the graph")
        what = translate("HeldRows", "deciding on a held write")

        def failed(failure) -> None:
            panel.held_bar.say(failure.message)
            self.menu.refresh()

        def accepted(done: held.Accepted) -> None:
            if done.change_ids:
                label = translate("HeldRows", "acceptance of the held write to {subjects}").format(subjects=subjects)
                p.record_step(RevertStep(label, p.open_entity_id(), live=list(done.change_ids)))
            said = translate("HeldRows", "Accepted as private: stored as your own write to {subjects}, kept from every "
                                         "assistant (Edit → Undo takes it back).") if how == "private" else \
                translate("HeldRows", "Accepted: stored as your own write to {subjects} (Edit → Undo takes it back).")
            self._said(said.format(subjects=subjects))

        if how == "discard":
            p.engine.run("held-decide", held.discard, held_id, on_failed=failed, what=what, on_done=lambda _v: self._said(
                translate("HeldRows", "Discarded: the held write to {subjects} is erased; nothing of it was "
                                      "stored.").format(subjects=subjects)))
        else:
            p.engine.run("held-decide", held.accept_write, held_id, how == "private", on_done=accepted,
                         on_failed=failed, what=what)

    def _said(self, text: str) -> None:
        self.menu.p.status.say(text, 10_000)
        self.menu.panel().held_bar.say(text)
        self.menu.refresh()

