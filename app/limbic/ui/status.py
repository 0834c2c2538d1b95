"""The status bar: messages, the model's state, graph counts, and progress with a cancel button."""

from __future__ import annotations

import logging

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QStatusBar, QToolButton, QWidget

logger = logging.getLogger(__name__)

MESSAGE_MS = 8_000
STAGE_LABELS = {"graph": "Writing", "embed": "Embedding"}


class StatusPanel(QStatusBar):
    """Owns the permanent widgets of the status bar; the window only calls its methods."""

    cancel_clicked = Signal()
    undo_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.undo_button = QPushButton("Undo", self, objectName="undoButton", toolTip="Bring the deleted entity back (Ctrl+Z)")
        self.undo_button.setFlat(True)
        self.undo_button.hide()
        self.progress = QProgressBar(self, objectName="jobProgress")
        self.progress.setMaximumWidth(220)
        self.progress.setTextVisible(True)
        self.progress.hide()
        self.cancel = QToolButton(self, objectName="cancelButton", text="Cancel", toolTip="Stop the running job")
        self.cancel.hide()
        self.counts = QLabel(self, objectName="countsLabel")
        self.model = QLabel(self, objectName="modelLabel")
        self.readonly = QLabel("Read-only", self, objectName="readonlyLabel")
        self.readonly.hide()
        self.addWidget(self.undo_button)
        self.addPermanentWidget(self.readonly)
        self.addPermanentWidget(self.progress)
        self.addPermanentWidget(self.cancel)
        self.addPermanentWidget(self.counts)
        self.addPermanentWidget(self.model)
        self.cancel.clicked.connect(self.cancel_clicked)
        self.undo_button.clicked.connect(self.undo_clicked)
        self.last_message = ""

    def say(self, text: str, timeout: int = MESSAGE_MS) -> None:
        """Show one plain sentence."""
        self.last_message = text
        self.showMessage(text, timeout)
        self.setToolTip(text)  # the whole sentence, when the counts beside it leave too little room
        logger.info("status: %s", text)

    def set_model(self, text: str, tooltip: str = "") -> None:
        self.model.setText(text)
        self.model.setToolTip(tooltip)

    def set_readonly(self, note: str | None) -> None:
        """A lasting "Read-only" mark, with the reason as its tooltip, while the file cannot be written."""
        self.readonly.setToolTip(note or "")
        self.readonly.setVisible(bool(note))

    def set_counts(self, counts: dict[str, int]) -> None:
        self.counts.setText(f"{counts.get('entities', 0)} entities · {counts.get('relations', 0)} relations")

    @Slot(str)
    def job_started(self, title: str) -> None:
        self.progress.setRange(0, 0)  # busy until the first progress value
        self.progress.setFormat(title)
        self.progress.setToolTip(title)
        self.progress.show()
        self.cancel.setEnabled(True)
        self.cancel.show()
        self.say(f"{title}…", 0)

    @Slot(str, int, int)
    def job_progress(self, stage: str, done: int, total: int) -> None:
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(min(done, total))
        self.progress.setFormat(f"{STAGE_LABELS.get(stage, stage.title())} %p%")

    def job_ended(self) -> None:
        self.progress.hide()
        self.cancel.hide()

    @property
    def job_running(self) -> bool:
        return not self.progress.isHidden()

    def offer_undo(self, visible: bool) -> None:
        self.undo_button.setVisible(visible)
