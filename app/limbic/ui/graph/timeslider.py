"""The graph view's time slider: drag to a date and the picture shows what existed then; play through the range.

The first move reads when every entity and relation of the picture existed (one read, off the
window's thread); each step after that filters those periods in memory (``past.scene_at``).
Dragging only moves the date shown at once: the picture follows after a short pause
(``DEBOUNCE_MS``), so a fast drag never queues redraws. While a past date is shown the window's
changes wait, and "Now" brings them in.
"""

from __future__ import annotations

import logging

import numpy as np
from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QSlider, QStyle, QToolButton, QVBoxLayout, QWidget

from limbic.service import graph_time
from limbic.ui.graph import past as pasts
from limbic.ui.common.i18n import translate
from PySide6.QtCore import QT_TRANSLATE_NOOP

logger = logging.getLogger(__name__)

STEPS = 500  # slider positions from the start of the history to now
PAGE = 25
PLAY_STEP = 5  # slider positions per played frame: a hundred frames from start to now
PLAY_MS = 120
DEBOUNCE_MS = 40
PLAY, PAUSE = "▶", "⏸"
HINT = QT_TRANSLATE_NOOP("Timeslider", "Drag to a date to see the graph as it was then.")


def _read_past(graph, now, ids, local, entity_types, relation_types):
    """Off the window's thread: the lifetimes, and the picture of now joined with what was in it before."""
    lt = graph_time.lifetimes(graph, ids)
    return lt, (pasts.union(now, lt, local, entity_types, relation_types) if lt.known else None)


class TimeBar(QWidget):
    """The controls: play, the slider, the date, "Now", and what the marks mean."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("graphTimeBar")
        self.play_button = QToolButton(self, text=PLAY)
        self.set_playing(False)
        self.play_button.setAccessibleName(translate("TimeBar", "Play the graph's history"))
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setRange(0, STEPS)
        self.slider.setValue(STEPS)
        self.slider.setPageStep(PAGE)
        self.slider.setMinimumWidth(60)
        self.slider.setAccessibleName(translate("TimeBar", "Date shown in the graph"))
        self.slider.setToolTip(translate("TimeBar", "Drag to a date: the graph shows what existed then (arrow keys step, Home goes to the start)"))
        self.date_label = QLabel(translate("TimeBar", "Now"), self, objectName="graphTimeDate")
        self.date_label.setToolTip(translate("TimeBar", "The date shown, in UTC"))
        self.now_button = QToolButton(self, text=translate("TimeBar", "Now"))
        self.now_button.setToolTip(translate("TimeBar", "Show the graph as it is now"))
        self.now_button.setEnabled(False)
        # Always shown (a hint at now): appearing on the first move would shrink the canvas and reframe it.
        self.marks = QLabel(translate("Timeslider", HINT), self, objectName="graphTimeMarks")
        self.marks.setWordWrap(True)  # wraps in a narrow panel rather than widening the window
        self.show_added = QCheckBox(translate("TimeBar", "Show added"), self)
        self.show_added.setToolTip(translate("TimeBar", "Also draw, as outlines, the entities and relations that came after the date shown"))
        self.show_added.hide()
        self.marks.setMinimumHeight(self.show_added.sizeHint().height())  # the line keeps its height as it comes and goes
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.play_button)
        row.addWidget(self.slider, 1)
        row.addWidget(self.date_label)
        row.addWidget(self.now_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(row)
        under = QHBoxLayout()
        under.setContentsMargins(0, 0, 0, 0)
        under.addWidget(self.marks, 1)
        under.addWidget(self.show_added)
        layout.addLayout(under)

    def set_playing(self, playing: bool) -> None:
        """Show pause while playing and play otherwise, as the style's icons (the text stays for tests and readers).

        Drawn as text, the pause sign (U+23F8) was a missing-glyph box with the fonts a Linux desktop has.
        """
        pixmap = QStyle.StandardPixmap.SP_MediaPause if playing else QStyle.StandardPixmap.SP_MediaPlay
        self.play_button.setIcon(self.style().standardIcon(pixmap))
        self.play_button.setText(PAUSE if playing else PLAY)
        self.play_button.setToolTip(translate("TimeBar", "Pause") if playing else translate("TimeBar", "Play the graph's history up to now"))


class TimeTravel(QObject):
    """Keeps the picture of now and its lifetimes, and shows the panel's canvas the picture of the slider's date."""

    moved = Signal(str)  # a past picture is on screen: its date (stored time), or "" for now

    def __init__(self, panel) -> None:
        super().__init__(panel)
        self.panel = panel
        self.bar = TimeBar(panel)
        self.active = False  # a past date is shown
        self.playing = False
        self.now_scene = None  # the picture of now while a past one is shown
        self.past: pasts.Past | None = None
        self.lifetimes: graph_time.Lifetimes | None = None
        self.moment: pasts.Moment | None = None
        self._loading = False
        self._asked_for = None  # the picture of now the lifetimes being read are for
        self._info_now = ""  # what the panel said under the picture of now
        self._held: list = []  # change sets that came while a past date was shown
        self._debounce = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._debounce.timeout.connect(self.apply)
        self._player = QTimer(self, interval=PLAY_MS)
        self._player.timeout.connect(self.play_step)
        b = self.bar
        b.slider.valueChanged.connect(self._on_value)
        b.now_button.clicked.connect(self.to_now)
        b.play_button.clicked.connect(self.toggle_play)
        b.show_added.toggled.connect(lambda _on: self.apply())
        panel.shown.connect(self._on_shown)
        panel.updated.connect(self._on_shown)  # a change read before the past was shown lands after it

    # -- the date -------------------------------------------------------------------------------

    def at(self, value: int | None = None) -> int:
        """The moment (seconds since 1970) of a slider position (by default the current one)."""
        lt = self.lifetimes
        value = self.bar.slider.value() if value is None else value
        if lt is None:
            return 0
        return lt.start + (lt.now - lt.start) * value // STEPS

    def _on_value(self, value: int) -> None:
        if value >= STEPS:
            self.to_now()
            return
        self.bar.now_button.setEnabled(True)
        if self.lifetimes is not None:
            self.bar.date_label.setText(graph_time.stored(self.at(value))[:16])
        if not self.active:
            self._start()
        if self.playing:
            self.apply()
        else:
            self._debounce.start()

    def _start(self) -> None:
        """The first step back from now: keep the picture of now and read its lifetimes."""
        self.active = True
        self.now_scene = self.panel.canvas.scene
        self._info_now = self.panel.info.text()
        self.panel.relayout_button.setEnabled(False)  # a layout lays out the picture of now, not a past one
        self._load()

    def _load(self) -> None:
        if self._loading:
            return
        self._loading = True
        self.past = None
        self.bar.date_label.setText(translate("TimeTravel", "Reading the history…"))
        p, now = self.panel, self.now_scene
        self._asked_for = now
        whole = p.mode == "whole"
        ids = None if whole else [int(i) for i in now.ids if i > 0]
        local = None if whole else pasts.inner_ids(now, p.depth.value())
        # Both the read and the joining run on the reader's connection, off the window's thread (at
        # 20,000 nodes the join alone would hold the window for a tenth of a second) and beside any
        # long job the engine's thread is running.
        p.engine.read("graph-time", _read_past, now, ids, local, None if whole else p.entity_types,
                     None if whole else p.relation_types, on_done=self._on_past, on_failed=self._on_failed,
                     what=translate("TimeTravel", "reading the graph's history"))

    def _on_past(self, result) -> None:
        self._loading = False
        lt, past = result
        if not self.active:
            return
        if past is None:
            self.to_now()
            self.panel.info.setText(translate("TimeTravel", "This graph keeps no history of its past to show."))
            return
        if self._asked_for is not self.now_scene:  # the picture of now changed meanwhile: read again
            self._load()
            return
        self.lifetimes, self.past = lt, past
        past.scene.pos[: past.n_now] = self.now_scene.pos  # where the layout has moved them since
        self.bar.date_label.setText(graph_time.stored(self.at())[:16])
        self.apply()

    def _on_failed(self, failure) -> None:
        self._loading = False
        self.to_now()
        self.panel._on_failed(failure)

    def apply(self) -> None:
        """Show the picture of the slider's date (once the lifetimes are read)."""
        if not self.active or self.past is None:
            return
        self.moment = pasts.scene_at(self.past, self.at(), self.bar.show_added.isChecked())
        self.panel.canvas.set_scene(self.moment.scene, fit=False)
        self._describe()
        self.moved.emit(graph_time.stored(self.at()))

    def _describe(self) -> None:
        m = self.moment
        entities, relations, removed, added = m.entities_then, m.relations_then, m.removed, m.added
        self.panel.info.setText(translate("TimeTravel", "{entities} · {relations} then").format(
            entities=translate("TimeTravel", "%n entities", "", entities),
            relations=translate("TimeTravel", "%n relations", "", relations)))
        parts = []
        if removed:
            parts.append(translate("TimeTravel", "◌ faded: %n entities gone since", "", removed))
        if added:
            shown = self.bar.show_added.isChecked()
            parts.append(translate("TimeTravel", "○ outlined: %n entities added since", "", added) if shown
                         else translate("TimeTravel", "%n entities added since (not shown)", "", added))
        self.bar.marks.setText(" · ".join(parts) if parts else translate("TimeTravel", "Nothing added or removed since this date."))
        self.bar.show_added.setVisible(bool(m.added) or self.bar.show_added.isChecked())

    def to_now(self) -> None:
        """Back to the graph as it is now; the changes made meanwhile come in."""
        self.stop()
        self._debounce.stop()
        slider = self.bar.slider
        slider.blockSignals(True)
        slider.setValue(STEPS)
        slider.blockSignals(False)
        self.bar.date_label.setText(translate("TimeTravel", "Now"))
        self.bar.now_button.setEnabled(False)
        self.bar.marks.setText(translate("Timeslider", HINT))
        self.bar.show_added.hide()
        if not self.active:
            return
        self.active = False
        self.moment = None
        self.panel.relayout_button.setEnabled(True)
        if self.now_scene is not None:
            self.panel.canvas.set_scene(self.now_scene, fit=False)
            self.panel.info.setText(self._info_now)
        held, self._held = self._held, []
        for changes in held:
            self.panel.apply_changes(changes)
        self.moved.emit("")

    # -- play -------------------------------------------------------------------------------------

    def toggle_play(self) -> None:
        """Play from the date shown (from the start when at now) up to now, or pause."""
        if self.playing:
            self.stop()
            return
        if self.bar.slider.value() >= STEPS:
            self.bar.slider.setValue(0)
        self.playing = True
        self.bar.set_playing(True)
        self._player.start()

    def play_step(self) -> None:
        """One played frame: the next date, until now (where playing stops)."""
        if not self.playing:
            return
        if self.active and self.past is None:
            return  # the history is still being read: the first frame waits for it
        self.bar.slider.setValue(min(STEPS, self.bar.slider.value() + PLAY_STEP))

    def stop(self) -> None:
        """Stop playing (the date shown stays)."""
        self.playing = False
        self._player.stop()
        self.bar.set_playing(False)

    # -- the panel's hooks ------------------------------------------------------------------------

    def _on_shown(self, _mode: str = "") -> None:
        """The panel drew a new picture of now (another centre, depth or mode): its past is read again."""
        if self.active:
            self.now_scene = self.panel.canvas.scene
            self._info_now = self.panel.info.text()
            self._load()

    def hold(self, changes) -> bool:
        """While a past date is shown, a change waits for "Now" (True: it was held)."""
        if self.active and getattr(changes, "full", False):
            self.to_now()  # everything is read again (another file, an undo of much): the past read is stale
            return False
        if self.active:
            self._held.append(changes)
        return self.active

    def refuses(self, index: int) -> bool:
        """A click on an entity deleted since the date shown says so instead of opening it (True: refused)."""
        m, lt = self.moment, self.lifetimes
        if not self.active or m is None or lt is None or not (0 <= index < m.scene.n) or not m.scene.ghost[index]:
            return False
        entity_id = int(m.scene.ids[index])
        k = int(np.searchsorted(lt.entity_ids, entity_id))
        if k < len(lt.entity_ids) and lt.entity_ids[k] == entity_id and lt.entity_to[k] != graph_time.OPEN:
            when = graph_time.stored(int(lt.entity_to[k]))[:16]
            self.panel.p.status.say(translate("TimeTravel", "{value} was deleted on {when} UTC.").format(value=m.scene.labels[index], when=when), 8_000)
            return True
        return False

    def set_positions(self, pos) -> None:
        """A layout step of the picture of now: the past picture's nodes of now move with it."""
        if not self.active:
            self.panel.canvas.set_positions(pos)
            return
        if self.now_scene is not None and len(pos) == self.now_scene.n:
            self.now_scene.pos = pos
        if self.past is not None and self.moment is not None and len(pos) == self.past.n_now:
            self.past.scene.pos[: self.past.n_now] = pos
            self.panel.canvas.set_positions(self.past.scene.pos[self.moment.shown])
