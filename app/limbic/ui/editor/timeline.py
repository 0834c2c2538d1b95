"""The editor's timeline of the open entity, and the entity as it was at one of its moments (read-only)."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from limbic.service.timeline import TimelineEvent, dates_words
from limbic.ui.common.when import when_words
from limbic.ui.common.i18n import translate

EVENT_ROLE = Qt.ItemDataRole.UserRole + 30


class TimelineView(QWidget):
    """The open entity's events, newest first; choosing one asks to see the entity as it was then."""

    event_chosen = Signal(object)  # TimelineEvent

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="timeline")
        self.list = QListWidget(self, objectName="timelineList")
        self.list.setWordWrap(True)
        self.list.setMinimumHeight(24)  # one row at least, as the history beside it
        self.list.setResizeMode(QListWidget.ResizeMode.Adjust)
        # Rows wrap to two or three lines: scrolled a row at a time, a short list showed half rows.
        self.list.setVerticalScrollMode(QListWidget.ScrollMode.ScrollPerPixel)
        self.list.setAccessibleName(translate("TimelineView", "Timeline"))
        self.list.setToolTip(translate("TimelineView", "Click an event (or press Enter) to see the entity as it was then"))
        self.note = QLabel("", self, objectName="timelineNote", wordWrap=True)
        self.note.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.note)
        layout.addWidget(self.list)
        self.list.itemClicked.connect(self._chosen)
        self.list.itemActivated.connect(self._chosen)

    def show_events(self, events: list[TimelineEvent]) -> None:
        """List the events (newest first, as given)."""
        self.list.clear()
        for e in events:
            detail = e.detail if len(e.detail) <= 160 else e.detail[:159] + "…"
            if e.kind in ("observation", "alias") and e.what not in ("edited", "dated"):  # quoted already
                detail = f"“{detail}”"
            # One row an event (wrapped when long): the panel is short on a small screen.
            item = QListWidgetItem(f"{e.sentence} · {when_words(e.at)} — {detail}")
            item.setToolTip(translate("TimelineView", "{at} UTC — click to see the entity as it was then").format(at=e.at))
            item.setData(EVENT_ROLE, e)
            self.list.addItem(item)
        self.list.scrollToTop()  # the newest event first: a refill kept the last entity's scroll, hiding it
        self.show_note("" if events else translate("TimelineView", "Nothing is recorded about this entity yet."))

    def show_note(self, text: str) -> None:
        """One sentence above the list (empty: none)."""
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def rows(self) -> list[str]:
        """The lines shown (for tests and accessibility tools)."""
        return [self.list.item(i).text() for i in range(self.list.count())]

    def _chosen(self, item: QListWidgetItem) -> None:
        event = item.data(EVENT_ROLE)
        if event is not None:
            self.event_chosen.emit(event)


def _page_html(page: dict) -> str:
    e = html.escape
    out = [translate("Timeline", "<h3>{e}</h3><p>{e2} · {e3} · created {e4}</p>").format(e=e(page['name']), e2=e(page['entityType']), e3=e(page['status']), e4=e(when_words(page['createdAt'])))]
    if page.get("aliases"):
        out.append(translate("Timeline", "<p>Also called: {e}</p>").format(e=e(', '.join(page['aliases']))))
    out.append(translate("Timeline", "<h4>Observations</h4>"))
    obs = page["observations"]
    out.append("<ul>" + "".join(
        f"<li>{e(o['content'])}{_dates(o)}</li>" for o in obs) + "</ul>" if obs else "<p><i>none</i></p>")
    if page.get("superseded"):
        out.append(translate("Timeline", "<h4>Superseded by then</h4><ul>") + "".join(
            f"<li><s>{e(o['content'])}</s> ({e(when_words(o['supersededAt'] or ''))})</li>"
            for o in page["superseded"]) + "</ul>")
    out.append(translate("Timeline", "<h4>Relations</h4>"))
    rels = page["relations"]
    if rels:
        lines = []
        for r in rels:
            arrow = (f"{r['relationType']} → {r['to']}" if r["from"] == page["name"]
                     else f"{r['relationType']} ← {r['from']}")
            ended = translate("Timeline", " (ended {when_words})").format(when_words=when_words(r['endedAt'])) if not r["active"] and r.get("endedAt") else ""
            lines.append(f"<li>{e(arrow)}{e(ended)}{_dates(r)}</li>")
        out.append("<ul>" + "".join(lines) + "</ul>")
    else:
        out.append("<p><i>none</i></p>")
    return "".join(out)


def _dates(row: dict) -> str:
    words = dates_words(row.get("validFrom"), row.get("validUntil"))
    return f" <span style='color:gray'>· {html.escape(words)}</span>" if words else ""


class PastEntityView(QWidget):
    """The entity as it was recorded at a moment: read-only, under a banner that says when, with a way back."""

    back_requested = Signal()
    step_requested = Signal(int)  # -1: the event before this one, +1: the one after

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="pastEntityView")
        self.banner = QLabel("", self, objectName="asOfBanner", wordWrap=True)
        self.banner.setAccessibleName(translate("PastEntityView", "As of"))
        # Set apart from the page under it: this is not the entity as it is, and nothing here can be edited.
        self.banner.setStyleSheet("QLabel#asOfBanner { background: palette(alternate-base); padding: 6px; "
                                  "border: 1px solid palette(mid); border-radius: 4px; }")
        self.back = QPushButton(translate("PastEntityView", "Back to &now"), self, objectName="backToNow",
                                toolTip=translate("PastEntityView", "Show the entity as it is now, with any unsaved edits (Esc)"))
        self.back.setShortcut("Esc")
        self.body = QTextBrowser(self, objectName="pastEntity")
        self.body.setOpenLinks(False)
        self.earlier = QPushButton(translate("PastEntityView", "◀ &Earlier"), self, objectName="pastEarlier",
                                   toolTip=translate("PastEntityView", "The entity just after the event before this one"))
        self.later = QPushButton(translate("PastEntityView", "La&ter ▶"), self, objectName="pastLater",
                                 toolTip=translate("PastEntityView", "The entity just after the next event"))
        head = QHBoxLayout()
        head.addWidget(self.banner, 1)
        buttons = QVBoxLayout()
        buttons.addWidget(self.back)
        steps = QHBoxLayout()
        steps.addWidget(self.earlier)
        steps.addWidget(self.later)
        buttons.addLayout(steps)
        buttons.addStretch(1)
        head.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(head)
        layout.addWidget(self.body, 1)
        self.back.clicked.connect(self.back_requested)
        self.earlier.clicked.connect(lambda: self.step_requested.emit(-1))
        self.later.clicked.connect(lambda: self.step_requested.emit(+1))
        self.at = ""

    def show_page(self, page: dict, at: str, event: TimelineEvent | None = None, earlier: bool = False,
                  later: bool = False) -> None:
        """Show ``page`` (the entity at ``at``, a stored time); ``earlier``/``later``: there are events either side."""
        self.at = at
        self.earlier.setEnabled(earlier)
        self.later.setEnabled(later)
        after = translate("PastEntityView", " (just after: {sentence})").format(sentence=event.sentence) if event is not None and event.view_at == at else ""
        self.banner.setText(translate("PastEntityView", "<b>As of {escape}</b>{after}: how “{escape2}” was then. Read-only.").format(escape=html.escape(when_words(at)), after=html.escape(after), escape2=html.escape(page['name'])))
        self.body.setHtml(_page_html(page))
