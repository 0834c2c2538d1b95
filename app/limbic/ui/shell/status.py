"""The status bar: messages, the model's state, graph counts, and progress with a cancel button."""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QLabel, QMessageBox, QProgressBar, QSizePolicy, QStatusBar, QToolButton, QWidget

from limbic.ui.common.i18n import translate
from PySide6.QtCore import QT_TRANSLATE_NOOP

logger = logging.getLogger(__name__)

MESSAGE_MS = 8_000
STAGE_LABELS = {"graph": QT_TRANSLATE_NOOP("Status", "Writing"), "embed": QT_TRANSLATE_NOOP("Status", "Embedding")}


class MessageLabel(QLabel):
    """One line that shortens itself with "…" to the room it has, instead of being cut at the counts."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="statusMessage")
        self.full_text = ""
        # Ignored: the label never asks for more room than the bar gives it, so the permanent
        # widgets on the right keep theirs and the text is shortened, not overdrawn.
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)

    def set_full_text(self, text: str) -> None:
        self.full_text = text
        self.setToolTip(text)
        self._elide()

    @property
    def is_elided(self) -> bool:
        return self.text() != self.full_text

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        shown = self.fontMetrics().elidedText(self.full_text, Qt.TextElideMode.ElideRight, max(0, self.width() - 2))
        if shown != self.text():
            super().setText(shown)
        parent = self.parent()
        if isinstance(parent, StatusPanel):
            parent.sync_details()


class StatusPanel(QStatusBar):
    """Owns the permanent widgets of the status bar; the window only calls its methods."""

    cancel_clicked = Signal()
    undo_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.last_message = ""
        self.last_details: list[str] = []
        self._undo_available = False
        self._job_sentence = ""  # the running job's "…" sentence, cleared when the job ends
        self.message = MessageLabel(self)
        self.details_button = QToolButton(self, objectName="detailsButton", text=translate("StatusPanel", "Details…"),
                                          toolTip=translate("StatusPanel", "The whole message, with everything it lists"))
        self.details_button.setAutoRaise(True)
        self.details_button.hide()
        self.undo_button = QToolButton(self, objectName="undoButton", text=translate("StatusPanel", "Undo"),
                                       toolTip=translate("StatusPanel", "Undo it (Ctrl+Z)"))
        self.undo_button.setAutoRaise(True)
        self.undo_button.hide()
        # The job's words sit beside the bar, not in it: drawn inside, the filled part covered their
        # first letter ("mbedding 6%") wherever the bar was no wider than the words.
        self.progress_text = QLabel(self, objectName="jobProgressText")
        self.progress_text.hide()
        self.progress = QProgressBar(self, objectName="jobProgress")
        self.progress.setMaximumWidth(140)
        self.progress.setTextVisible(False)
        self.progress.hide()
        self.cancel = QToolButton(self, objectName="cancelButton", text=translate("StatusPanel", "Cancel"), toolTip=translate("StatusPanel", "Stop the running job"))
        self.cancel.hide()
        self.counts = QLabel(self, objectName="countsLabel")
        self.counts.setMinimumWidth(1)  # a longer count gives way in a narrow window rather than widening it
        self.model = QLabel(self, objectName="modelLabel")
        self.readonly = QLabel(translate("StatusPanel", "Read-only"), self, objectName="readonlyLabel")
        self.readonly.hide()
        self.addWidget(self.message, 1)
        self.addWidget(self.details_button)
        self.addWidget(self.undo_button)
        self.addPermanentWidget(self.readonly)
        self.addPermanentWidget(self.progress_text)
        self.addPermanentWidget(self.progress)
        self.addPermanentWidget(self.cancel)
        self.addPermanentWidget(self.counts)
        self.addPermanentWidget(self.model)
        self._clear_timer = QTimer(self, singleShot=True)
        self._clear_timer.timeout.connect(self._clear)
        self.cancel.clicked.connect(self.cancel_clicked)
        self.undo_button.clicked.connect(self.undo_clicked)
        self.details_button.clicked.connect(self.show_details)

    def say(self, text: str, timeout: int = MESSAGE_MS, details: list[str] | None = None) -> None:
        """Show one plain sentence (``timeout`` 0: until the next one); ``details`` are listed behind Details…."""
        self.last_message = text
        self.last_details = list(details or [])
        self.message.set_full_text(text)
        self.setToolTip(text)
        # "Undo" beside the sentence that offers it (a deletion, a merge...), not lingering after.
        self.undo_button.setVisible(self._undo_available and "Ctrl+Z" in text)
        self.sync_details()
        if timeout > 0:
            self._clear_timer.start(timeout + (4_000 if self.last_details else 0))
        else:
            self._clear_timer.stop()
        logger.info("status: %s", text)

    def _clear(self) -> None:
        self.last_details = []
        self.message.set_full_text("")
        self.undo_button.hide()
        self.sync_details()

    def sync_details(self) -> None:
        """Details… shows while the sentence is shortened or lists more than it says."""
        wanted = bool(self.message.full_text) and (self.message.is_elided or bool(self.last_details))
        if wanted != self.details_button.isVisible():
            self.details_button.setVisible(wanted)

    def details_text(self) -> str:
        return "\n".join([self.message.full_text, *self.last_details]).strip()

    def show_details(self) -> None:
        """The whole message and its list, selectable, in a box that does not block the window."""
        box = QMessageBox(QMessageBox.Icon.Information, translate("StatusPanel", "Details"), self.message.full_text,
                          QMessageBox.StandardButton.Close, self.window())
        box.setObjectName("statusDetails")
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        if self.last_details:
            more = len(self.last_details) - 40
            box.setInformativeText("\n".join(self.last_details[:40]) + (
                "\n" + translate("StatusPanel", "… and %n more lines", "", more) if more > 0 else ""))
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.details_box = box
        box.open()

    def set_model(self, text: str, tooltip: str = "") -> None:
        self.model.setText(text)
        self.model.setToolTip(tooltip)

    def set_readonly(self, note: str | None) -> None:
        """A lasting "Read-only" mark, with the reason as its tooltip, while the file cannot be written."""
        self.readonly.setToolTip(note or "")
        self.readonly.setVisible(bool(note))

    def set_counts(self, counts: dict[str, int], by_words: int = 0) -> None:
        """The graph's counts; ``by_words``: how many entities wait for a vector (found by their words meanwhile)."""
        entities, relations = counts.get("entities", 0), counts.get("relations", 0)
        text = (translate("StatusPanel", "%n entities", "", entities) + " · "
                + translate("StatusPanel", "%n relations", "", relations))
        tip = ""
        if by_words > 0:
            text += " · " + translate("StatusPanel", "%n by words only", "", by_words)
            tip = translate("StatusPanel", "%n entities wait for embedding: until their vectors come they are found by "
                                           "their words only", "", by_words)
        self.counts.setText(text)
        self.counts.setToolTip(tip)

    @Slot(str)
    def job_started(self, title: str) -> None:
        self.progress.setRange(0, 0)  # busy until the first progress value
        self._show_progress_text(title)
        self.progress.setToolTip(title)
        self.progress.show()
        self.cancel.setEnabled(True)
        self.cancel.show()
        self._job_sentence = f"{title}…"
        self.say(self._job_sentence, 0)

    @Slot(str, int, int)
    def job_progress(self, stage: str, done: int, total: int) -> None:
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(min(done, total))
        percent = round(100 * min(done, total) / max(1, total))
        text = f"{translate('Status', STAGE_LABELS.get(stage, stage.title()))} {percent}%"
        if text != self.progress_text.text():  # the words change only when what they say does
            self._show_progress_text(text)

    def _show_progress_text(self, text: str) -> None:
        self.progress.setFormat(text)  # what accessibility tools read from the bar
        self.progress_text.setText(text)
        self.progress_text.show()

    def job_ended(self) -> None:
        self.progress.hide()
        self.progress_text.hide()
        self.cancel.hide()
        # "Embedding 1 entity…" was said until the next sentence: after an assistant's write it stayed for good.
        if self._job_sentence and self.message.full_text == self._job_sentence:
            self._clear()
        self._job_sentence = ""

    @property
    def job_running(self) -> bool:
        return not self.progress.isHidden()

    def offer_undo(self, visible: bool) -> None:
        """Whether there is a step to undo; the button itself shows only beside a sentence that offers it."""
        self._undo_available = visible
        if not visible:
            self.undo_button.hide()
