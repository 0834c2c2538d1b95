"""The Activity panel: sessions → calls → changes as readable diffs, filters, review marks and reverts.

The panel shows what ``service.activity.panel_data`` read on the engine's thread; every action
(mark reviewed, revert, pause) is a request the window runs there too (``activity_menu.ActivityMenu``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QFont, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDockWidget,
    QLabel,
    QLineEdit,
    QPushButton,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from limbic.ui.activity.changes_since import ChangesSinceView
from limbic.ui.activity.conflict_dialog import ConflictDialog  # noqa: F401 - where the window and tests take it from
from limbic.ui.activity.held_rows import HeldBar, HeldRows, text_line
from limbic.ui.common.change_words import change_words, item_words
from limbic.ui.common.words import SYNC_PREFIX, origin_words, refusal_words, tool_words, who_words, wrap_rows, wrapped_tip
from limbic.ui.common.flow_layout import FlowLayout
from limbic.service.activity import Change, PanelData, Refused, Session
from limbic.ui.common.i18n import translate
from PySide6.QtCore import QT_TRANSLATE_NOOP

ROLE = Qt.ItemDataRole.UserRole + 20  # ("session", id) / ("change", id) / ("item", entity id)
KINDS = ((QT_TRANSLATE_NOOP("ActivityPanel", "All kinds"), ""), (QT_TRANSLATE_NOOP("ActivityPanel", "Entities"), "entity"), (QT_TRANSLATE_NOOP("ActivityPanel", "Observations"), "observation"), (QT_TRANSLATE_NOOP("ActivityPanel", "Relations"), "relation"),
         (QT_TRANSLATE_NOOP("ActivityPanel", "Reflections"), "reflection"), (QT_TRANSLATE_NOOP("ActivityPanel", "Aliases"), "alias"))
_OP_SIGN = {"add": "+", "remove": "−", "change": "~"}


def session_title(s: Session, refused: Refused | None = None) -> str:
    """“beta 1.0 · assistant · 14:02, 3 Dec · 12 changes, 4 unreviewed · 2 writes refused”."""
    version = f" {s.client_version}" if s.client_version else ""
    total = s.total or len(s.changes)
    unreviewed = translate("ActivityPanel", ", {unreviewed} unreviewed").format(unreviewed=s.unreviewed) if s.unreviewed and s.origin == "assistant" else ""
    read = s.reads
    reads = translate("ActivityPanel", " · read %n entities", "", read) if read else ""
    back = [c.reverted_by for c in s.changes if c.reverted_by]
    if back and len(back) == len(s.changes) and not s.more:  # as `limbic activity` marks each change
        taken = translate("ActivityPanel", " · taken back by #{max}").format(max=max(back)) if len(set(back)) == 1 else translate("ActivityPanel", " · all taken back")
    else:
        n_back = len(back)
        taken = translate("ActivityPanel", " · %n taken back", "", n_back) if back else ""
    n_refused = refused.count if refused else 0
    no = translate("ActivityPanel", " · %n writes refused", "", n_refused) if refused else ""
    changes = translate("ActivityPanel", "%n changes", "", total)
    if not s.client and not s.origin.startswith(SYNC_PREFIX):  # no name of its own: its kind, said once
        return translate("ActivityPanel", "{origin} · {time}, {day} · {changes}{unreviewed}{taken}{no}{reads}").format(
            origin=origin_words(s.origin), time=s.started[11:16], day=s.started[:10], changes=changes,
            unreviewed=unreviewed, taken=taken, no=no, reads=reads)
    return translate("ActivityPanel", "{who}{version} · {origin} · {time}, {day} · {changes}{unreviewed}{taken}{no}{reads}").format(
        who=who_words(s.who), version=version, origin=origin_words(s.origin), time=s.started[11:16], day=s.started[:10], changes=changes,
        unreviewed=unreviewed, taken=taken, no=no, reads=reads)


def refusal_line(r: Refused) -> str:
    """The row under a session saying what was refused: “Refused 2 writes (paused), the last at 14:05; …”."""
    count = r.count
    line = translate("ActivityPanel", "Refused %n writes ({why}), the last at {time} {day}; nothing of them was "
                     "written.", "", count).format(why=refusal_words(r.why), time=r.last[11:16], day=r.last[:10])
    if r.said:  # the sentence the assistant got, as it got it
        line += " " + translate("ActivityPanel", "It was told: “{said}”").format(said=r.said)
    return line


def change_title(c: Change) -> str:
    """“#12 14:03 add_observations — added to “X”: “…””, marked when taken back."""
    back = translate("ActivityPanel", "  (taken back by #{reverted_by})").format(reverted_by=c.reverted_by) if c.reverted_by else ""
    return f"#{c.id}  {c.at[11:19]}  {tool_words(c.tool)} — {change_words(c)}{back}"


class ActivityPanel(QWidget):
    """The panel's widgets; it emits what the person asks for and shows what it is given."""

    refresh_requested = Signal(dict)  # filters
    open_requested = Signal(int)  # entity id
    change_entity_requested = Signal(int, str, str)  # entity id, the change's time, the name it had then ("": unknown)
    review_requested = Signal(object)  # ("change", [ids]) / ("session", id) / ("all", None)
    revert_requested = Signal(object)  # ("change", [ids]) / ("session", id)
    pause_requested = Signal(str, bool)  # client, paused
    session_requested = Signal(int)  # a session opened whose changes were not read yet
    writes_switched = Signal(bool)
    held_decided = Signal(str, int)  # "accept" / "private" / "discard", a held write's id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="activityPanel")
        self.client = QComboBox(self, objectName="activityClient")
        self.client.setAccessibleName(translate("ActivityPanel", "Client"))
        self.kind = QComboBox(self, objectName="activityKind")
        for label, value in KINDS:
            self.kind.addItem(translate("ActivityPanel", label), value)
        self.entity = QLineEdit(self, objectName="activityEntity", placeholderText=translate("ActivityPanel", "Entity…"))
        self.entity.setAccessibleName(translate("ActivityPanel", "Entity filter"))
        self.entity.setAccessibleDescription(translate("ActivityPanel", "Only the changes to entities with this name"))
        self.entity.setClearButtonEnabled(True)
        self.unreviewed = QCheckBox(translate("ActivityPanel", "Unreviewed only"), self, objectName="activityUnreviewed")
        self.reads = QCheckBox(translate("ActivityPanel", "Sessions that only read"), self, objectName="activityReads",
                               toolTip=translate("ActivityPanel", "Also list the sessions in which an assistant only read"))
        self.may_write = QCheckBox(translate("ActivityPanel", "Assistants may write"), self, objectName="assistantsMayWrite")
        self.note = QLabel("", self, objectName="activityNote", wordWrap=True)
        self.tree = QTreeWidget(self, objectName="activityTree")
        self.tree.setHeaderHidden(True)
        wrap_rows(self.tree)  # each change's sentence wraps at the panel's width instead of ending in "…"
        self.tree.setAccessibleName(translate("ActivityPanel", "Activity"))
        self.review_button = QPushButton(translate("ActivityPanel", "Mark reviewed"), self, objectName="reviewButton")
        self.review_all_button = QPushButton(translate("ActivityPanel", "Mark all reviewed"), self, objectName="reviewAllButton")
        self.revert_button = QPushButton(translate("ActivityPanel", "Revert…"), self, objectName="revertButton")
        self.pause_button = QPushButton(translate("ActivityPanel", "Pause this assistant"), self, objectName="pauseButton")

        # Both rows wrap in a narrow dock: their one-row widths held the window wider than a laptop's screen.
        self.client.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.client.setMinimumContentsLength(14)
        self.entity.setMinimumWidth(120)
        filter_row = QWidget(self, objectName="activityFilters")
        filters = FlowLayout(filter_row)
        for w in (self.client, self.kind, self.entity, self.unreviewed, self.reads):
            filters.addWidget(w)
        action_row = QWidget(self, objectName="activityActions")
        actions = FlowLayout(action_row)
        for b in (self.review_button, self.review_all_button, self.revert_button, self.pause_button, self.may_write):
            actions.addWidget(b)
        # Who did what (sessions) in one tab; what changed since a date, entity by entity, in the other.
        self.tabs = QTabWidget(self, objectName="activityTabs")
        self.tabs.setDocumentMode(True)
        sessions = QWidget(self.tabs)
        inner = QVBoxLayout(sessions)
        inner.setContentsMargins(0, 6, 0, 0)
        inner.addWidget(filter_row)
        inner.addWidget(self.note)
        inner.addWidget(self.tree, 1)
        self.held, self.held_bar = HeldRows(), HeldBar(sessions)  # writes held for review: listed, settled
        inner.addWidget(self.held_bar)
        inner.addWidget(action_row)
        self.changes = ChangesSinceView(self.tabs)
        self.tabs.addTab(sessions, translate("ActivityPanel", "Sessions"))
        self.tabs.addTab(self.changes, translate("ActivityPanel", "What changed since…"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.tabs)

        self.data: PanelData | None = None
        self._filling = False
        self._changes: dict[int, Change] = {}
        self._choice: tuple | None = None  # the row to choose again once the tree is refilled
        for w in (self.client, self.kind):
            w.currentIndexChanged.connect(lambda _i: self._filters_changed())
        self.unreviewed.toggled.connect(lambda _on: self._filters_changed())
        self.reads.toggled.connect(lambda _on: self._filters_changed())
        self.entity.returnPressed.connect(self._filters_changed)
        self.tree.itemActivated.connect(self._on_activated)
        self.tree.itemExpanded.connect(self._on_expanded)
        self.tree.currentItemChanged.connect(lambda *_: self._update_buttons())
        self.review_button.clicked.connect(self._on_review)
        self.review_all_button.clicked.connect(lambda: self.review_requested.emit(("all", None)))
        self.revert_button.clicked.connect(self._on_revert)
        self.pause_button.clicked.connect(self._on_pause)
        self.may_write.toggled.connect(lambda on: None if self._filling else self.writes_switched.emit(on))
        self.held_bar.decided.connect(self.held_decided)
        self.held_bar.reveal.connect(self._reveal)
        self._update_buttons()

    # -- filters --------------------------------------------------------------------------

    def filters(self) -> dict:
        """The filters as ``service.activity.panel_data`` takes them."""
        out: dict = {}
        if self.client.currentData():
            out["client"] = self.client.currentData()
        if self.kind.currentData():
            out["kind"] = self.kind.currentData()
        if self.entity.text().strip():
            out["entity"] = self.entity.text().strip()
        if self.unreviewed.isChecked():
            out["unreviewed"] = True
        if self.reads.isChecked():
            out["reads"] = True
        return out

    def _filters_changed(self) -> None:
        if not self._filling:
            self.refresh_requested.emit(self.filters())

    # -- showing --------------------------------------------------------------------------

    def show_data(self, data: PanelData, held: list | None = None) -> None:
        """Fill the tree: sessions (newest first) → calls → the rows each changed; the writes held for review
        (``held``, ``held_rows.HeldShown``; None: those shown before) in their assistants' places."""
        self.data = data
        if held is not None:
            self.held.items = held
        self._filling = True
        try:
            chosen = self.client.currentData()
            self.client.clear()
            self.client.addItem(translate("ActivityPanel", "All clients"), "")
            for name in data.clients:
                self.client.addItem(who_words(name) + (" (paused)" if name in data.paused else ""), name)
            self.client.setCurrentIndex(max(0, self.client.findData(chosen)))
            self.may_write.setChecked(data.may_write)
            self._fill_tree(data)
        finally:
            self._filling = False
        notes = []
        if not data.may_write:
            notes.append(translate("ActivityPanel", "Assistants may not write now."))
        if data.paused:
            notes.append(translate("ActivityPanel", "Paused: ") + ", ".join(data.paused) + ".")
        if data.kept_past_retention:
            notes.append(translate("ActivityPanel", "{kept_past_retention} unreviewed assistant changes are older than the "
                             "{keep_days}-day retention; they are kept until reviewed.").format(kept_past_retention=data.kept_past_retention, keep_days=data.keep_days))
        self.note.setText(" ".join(notes))
        self.note.setVisible(bool(notes))
        self._update_buttons()

    def _fill_tree(self, data: PanelData) -> None:
        # A refresh (an assistant's write, a revert) rebuilds the rows: what was open and chosen stays so.
        before = self._walk()
        opened = {item.data(0, ROLE) for item in before if item.isExpanded() and item.data(0, ROLE)}
        known = {item.data(0, ROLE) for item in before if item.parent() is None}
        current = self.tree.currentItem()
        self._choice = current.data(0, ROLE) if current is not None else None
        self.tree.clear()
        self._changes = {}
        self._grey = QBrush(self.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text))
        self._bold = QFont(self.font())
        self._bold.setBold(True)
        self.held.plan(data.sessions, self.client.currentData() or "")
        for s in data.sessions:
            refused = data.refused.get(s.id)
            top = QTreeWidgetItem([session_title(s, refused)])
            top.setData(0, ROLE, ("session", s.id))
            top.setToolTip(0, wrapped_tip(top.text(0)))  # the whole line, wrapped

            if s.unreviewed and s.origin == "assistant":  # the person's own work needs no review
                top.setFont(0, self._bold)
            if s.loaded:
                self._add_calls(top, s)
            else:  # read when opened (a huge log opens as fast as a small one)
                top.setChildIndicatorPolicy(QTreeWidgetItem.ChildIndicatorPolicy.ShowIndicator)
            self.tree.addTopLevelItem(top)
        self.held.place(self.tree, [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())],
                        lambda top: top.data(0, ROLE)[1])
        sessions = self.tree.topLevelItemCount()
        for client, r in sorted(data.refused_clients.items()):  # refused before any session of theirs began:
            line = QTreeWidgetItem([f"“{client}”: {refusal_line(r)}"])  # a row of its own, not a note above the list
            line.setToolTip(0, wrapped_tip(line.text(0)))
            self.tree.addTopLevelItem(line)
        if sessions:
            newest = self.tree.topLevelItem(0)
            if newest.data(0, ROLE) not in known:  # a new session opens; the others stay as the person left them
                newest.setExpanded(True)
            for item in self._walk():
                if item.data(0, ROLE) in opened:
                    item.setExpanded(True)
            self._choose_again()
        elif not data.refused_clients:
            empty = QTreeWidgetItem([translate("ActivityPanel", "No changes match.") if self.filters() else translate("ActivityPanel", "No activity yet.")])
            self.tree.addTopLevelItem(empty)

    def _walk(self) -> list[QTreeWidgetItem]:
        """Every row, depth-first."""
        out: list[QTreeWidgetItem] = []
        stack = [self.tree.topLevelItem(i) for i in reversed(range(self.tree.topLevelItemCount()))]
        while stack:
            item = stack.pop()
            out.append(item)
            stack.extend(item.child(i) for i in reversed(range(item.childCount())))
        return out

    def _choose_again(self) -> None:
        """The row chosen before the refresh is current again, once it is in the tree (a session read later)."""
        if self._choice is None:
            return
        for item in self._walk():
            if item.data(0, ROLE) == self._choice:
                self.tree.setCurrentItem(item)
                self._choice = None
                return

    def _add_calls(self, top: QTreeWidgetItem, s: Session) -> None:
        refused = self.data.refused.get(s.id) if self.data is not None else None
        if refused is not None:  # what it tried and was refused comes first: nothing else says so
            line = QTreeWidgetItem([refusal_line(refused)])
            line.setToolTip(0, wrapped_tip(line.text(0)))
            top.addChild(line)
        for c in reversed(s.changes):  # newest call first; its diff lines are made when it is opened
            call = QTreeWidgetItem([change_title(c)])
            call.setData(0, ROLE, ("change", c.id))
            call.setToolTip(0, wrapped_tip(translate("ActivityPanel", "{call}\n{who}, {at} UTC").format(
                call=call.text(0), who=who_words(c.who), at=c.at)))
            if c.reviewed_at is None and c.origin == "assistant":
                call.setFont(0, self._bold)
            if c.reverted_by:
                call.setForeground(0, self._grey)
            if c.items:
                call.setChildIndicatorPolicy(QTreeWidgetItem.ChildIndicatorPolicy.ShowIndicator)
            self._changes[c.id] = c
            top.addChild(call)
        if s.more:
            more = QTreeWidgetItem([translate("ActivityPanel", "… older changes of this session: `limbic activity --client {who}`").format(who=s.who)])
            more.setToolTip(0, wrapped_tip(more.text(0)))
            top.addChild(more)
        self.held.attach(top, s.id)

    def _add_items(self, call: QTreeWidgetItem, c: Change) -> None:
        for it in c.items:
            line = QTreeWidgetItem([f"{_OP_SIGN.get(it.op, '·')} {item_words(c, it)}"])
            line.setToolTip(0, wrapped_tip(line.text(0)))
            line.setData(0, ROLE, ("item", it.entity_id if it.kind != "entity" else it.row_id))
            call.addChild(line)

    def _on_expanded(self, item: QTreeWidgetItem) -> None:
        data = item.data(0, ROLE)
        if not data or item.childCount():
            return
        if data[0] == "change" and data[1] in self._changes:
            self._add_items(item, self._changes[data[1]])
        elif data[0] == "session":
            self.session_requested.emit(data[1])

    def show_session(self, s: Session | None) -> None:
        """The changes of a session read when it was opened."""
        if s is None:
            return
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            if top.data(0, ROLE) == ("session", s.id) and not top.childCount():
                self._add_calls(top, s)
                self._choose_again()
                if self.data is not None:
                    self.data.sessions = [s if x.id == s.id else x for x in self.data.sessions]

    def expand_all_calls(self) -> None:
        """Open every loaded call (its diff lines appear): for screenshots and tests."""
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            top.setExpanded(True)
            for j in range(top.childCount()):
                top.child(j).setExpanded(True)

    # -- selection and actions ---------------------------------------------------------------

    def selected(self) -> tuple[str, int] | None:
        """("session", id) or ("change", id) of the current row (an item row counts as its call)."""
        item = self.tree.currentItem()
        while item is not None:
            data = item.data(0, ROLE)
            if data and data[0] in ("session", "change"):
                return data
            if data and data[0] in ("held", "heldgroup"):  # settled in the held bar, not reviewed or reverted
                return None
            item = item.parent()
        return None

    def selected_client(self) -> str:
        picked = self.selected()
        if picked is None or self.data is None:
            return ""
        for s in self.data.sessions:
            if (picked[0] == "session" and s.id == picked[1]) or any(c.id == picked[1] for c in s.changes):
                return s.client
        return ""

    def chosen_held(self) -> int | None:
        """The id of the held write whose row (or text line) is current."""
        item = self.tree.currentItem()
        data = item.data(0, ROLE) if item is not None else None
        return data[1] if data and data[0] == "held" else None

    def _reveal(self, held_id: int, shown: bool) -> None:
        """Show a held write's text in full, or masked again, where it is listed."""
        (self.held.revealed.add if shown else self.held.revealed.discard)(held_id)
        h = self.held.find(held_id)
        for item in self._walk():
            if h is not None and item.data(0, ROLE) == ("held", held_id) and item.childCount():
                for i, (whole, hidden) in enumerate(zip(h.texts, h.masked)):
                    item.child(i).setText(0, text_line(whole if shown else hidden))

    def _current_in_view(self) -> None:
        item = self.tree.currentItem()
        if item is not None:
            self.tree.scrollToItem(item)

    def _update_buttons(self) -> None:
        chosen = self.chosen_held()
        was_shown = self.held_bar.isVisibleTo(self)
        self.held_bar.choose(chosen, chosen in self.held.revealed)
        if chosen is not None and not was_shown:  # the bar takes room from the list: keep the chosen row in view
            QTimer.singleShot(0, self._current_in_view)
        picked = self.selected()
        self.review_button.setEnabled(picked is not None)
        taken = self._taken_back(picked)
        self.revert_button.setEnabled(picked is not None and not taken)
        self.revert_button.setToolTip(translate("ActivityPanel", "Already taken back (its row says by which change)") if taken else "")
        self.revert_button.setText(translate("ActivityPanel", "Revert this session…") if picked and picked[0] == "session" else translate("ActivityPanel", "Revert this change…"))
        client = self.selected_client()
        paused = bool(self.data and client in self.data.paused)
        self.pause_button.setEnabled(bool(client))
        self.pause_button.setText(translate("ActivityPanel", "Resume “{client}”").format(client=client) if paused else translate("ActivityPanel", "Pause this assistant"))

    def _taken_back(self, picked: tuple[str, int] | None) -> bool:
        """The change chosen, or every change of the session chosen, is taken back already."""
        if picked is None or self.data is None:
            return False
        if picked[0] == "change":
            return bool(picked[1] in self._changes and self._changes[picked[1]].reverted_by)
        s = next((x for x in self.data.sessions if x.id == picked[1]), None)
        return bool(s and s.loaded and s.changes and not s.more and all(c.reverted_by for c in s.changes))

    def _target(self) -> tuple[str, object] | None:
        picked = self.selected()
        if picked is None:
            return None
        return ("session", picked[1]) if picked[0] == "session" else ("change", [picked[1]])

    def _on_review(self) -> None:
        target = self._target()
        if target is not None:
            self.review_requested.emit(target)

    def _on_revert(self) -> None:
        target = self._target()
        if target is not None:
            self.revert_requested.emit(target)

    def _on_pause(self) -> None:
        client = self.selected_client()
        if client:
            self.pause_requested.emit(client, not (self.data and client in self.data.paused))

    def _on_activated(self, item: QTreeWidgetItem, _column: int) -> None:
        # With the change's time: an id freed by a deletion or a merge is given to the next entity made,
        # which the window must not open as the one the change was about.
        data = item.data(0, ROLE)
        if data and data[0] == "item" and data[1] is not None:
            parent = item.parent()
            change = self._changes.get(parent.data(0, ROLE)[1]) if parent is not None else None
            if change is None:
                self.open_requested.emit(int(data[1]))
                return
            named = next((it.state.get("name", "") for it in change.items
                          if it.kind == "entity" and it.row_id == data[1]), "")
            self.change_entity_requested.emit(int(data[1]), change.at, str(named or ""))
        elif data and data[0] == "change" and data[1] in self._changes:
            c = self._changes[data[1]]
            if c.entity_ids():
                entity_id = min(c.entity_ids())
                named = next((it.state.get("name", "") for it in c.items
                              if it.kind == "entity" and it.row_id == entity_id), "")
                self.change_entity_requested.emit(entity_id, c.at, str(named or ""))

    def rows(self) -> list[str]:
        """Every row's text, depth-first (for tests and accessibility tools)."""
        out: list[str] = []

        def walk(item: QTreeWidgetItem) -> None:
            out.append(item.text(0))
            for i in range(item.childCount()):
                walk(item.child(i))

        for i in range(self.tree.topLevelItemCount()):
            walk(self.tree.topLevelItem(i))
        return out


class ActivityDock(QDockWidget):
    """The panel in a dock at the window's right."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(translate("ActivityDock", "Activity"), parent, objectName="activityDock")
        self.panel = ActivityPanel(self)
        self.setWidget(self.panel)
