"""Organise → Memory health: what the health checks found, reviewed one finding at a time.

A side panel (``HealthDock`` puts it in a tab beside Activity and Graph): the kinds with their
counts, the findings of one kind, the reasons (and, for a possible duplicate, the merge preview),
stacked in a narrow column and side by side when the panel is wide. The scan runs in a process of
its own on a read-only connection (a thread here only waits for it), with progress, so the window
and searches go on meanwhile.
Buttons beside the keys, each showing its key: J or Down (Skip) goes to the next finding, K or Up
back, M previews the merge of a duplicate (M again, or Enter, merges it; S keeps the other one),
D says they are not duplicates (or dismisses another finding) for good, O opens the entity, R
checks again. Esc leaves a merge preview, and otherwise goes back to the search box with the panel
left open, as a desktop's side panels do; Shift+Esc closes the panel. A merge keeps the better
name by default, and says why. Nothing is merged without the person.
"""

from __future__ import annotations

import html
import logging
import threading

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from limbic.engine.errors import Cancelled, LimbicError
from limbic.service import health
from limbic.service.health.merge import MergePlan, merge, plan_merge
from limbic.ui.common.flow_layout import FlowLayout
from limbic.ui.health.wording import finding_html, finding_row, keeps, kind_title, plan_html
from limbic.ui.common.i18n import number, translate

logger = logging.getLogger(__name__)

KIND_ROLE = Qt.ItemDataRole.UserRole + 1
SIDE_BY_SIDE_W = 900  # from this width the three parts stand side by side (a wide or floating panel)
STACKED_PREVIEW_W = 640  # below this width of the reasons, the merge preview's columns come one under another


class HealthView(QWidget):
    """The Health panel: a background scan, counts per kind, and a review of the findings by keys or buttons."""

    scanned = Signal(object)  # Report (from the scan's thread)
    scan_failed = Signal(str)
    scan_progress = Signal(str, int, int)
    open_requested = Signal(int)
    merged = Signal(object)  # the merge's undo step
    previewed = Signal()  # a merge preview is on screen (tests wait on it)
    escaped = Signal()  # Esc with nothing to go back from: the search box takes the keys again
    close_requested = Signal()  # Shift+Esc: the panel closes

    def __init__(self, engine, path: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("healthView")
        self.setWindowTitle(translate("HealthView", "Memory health"))  # its title when shown on its own (a benchmark, a test)
        self.engine, self.path = engine, path
        self.report: health.Report | None = None
        self.plan: MergePlan | None = None
        self._rows: list[health.Finding] = []  # the findings listed, by row
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self.kinds = QListWidget(self, objectName="healthKinds")
        self.kinds.setAccessibleName(translate("HealthView", "Kinds of finding"))
        self.kinds.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.findings = QListWidget(self, objectName="healthFindings")
        self.findings.setAccessibleName(translate("HealthView", "Findings"))
        self.detail = QTextBrowser(self, objectName="healthDetail")
        self.detail.setAccessibleName(translate("HealthView", "The finding in detail"))
        self.detail.setOpenLinks(False)
        self.type_choice = QComboBox(self, objectName="healthTypeChoice")
        self.type_choice.setAccessibleName(translate("HealthView", "Type of the merged entity"))
        self.type_choice.hide()
        self.progress = QProgressBar(self, objectName="healthProgress")
        self.progress.setTextVisible(True)
        self.state = QLabel("", self, objectName="healthState", wordWrap=True)
        self.recheck = QPushButton(translate("HealthView", "&Check again (R)"), self, objectName="healthRecheck")
        self.recheck.clicked.connect(self.start_scan)
        self.cancel_button = QPushButton(translate("HealthView", "Cancel"), self, objectName="healthCancel")
        self.cancel_button.clicked.connect(lambda: self._cancel.set())
        top = QHBoxLayout()
        top.addWidget(self.state, 1)
        top.addWidget(self.recheck)
        scan_row = QHBoxLayout()
        scan_row.addWidget(self.progress, 1)
        scan_row.addWidget(self.cancel_button)
        right = QWidget(self)
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.detail, 1)
        rl.addWidget(self.type_choice)
        keys = QLabel(translate("HealthView", "K or Up: back · Esc: to the search"), self, objectName="healthKeys")
        keys.setToolTip("Shift+Esc closes the panel")
        # Every key has its button, named in words with the key on it: the keys alone were a secret.
        self.merge_button = QPushButton(translate("HealthView", "Merge… (M)"), self, objectName="healthMerge")
        self.swap_button = QPushButton(translate("HealthView", "Keep the other (S)"), self, objectName="healthSwap")
        self.skip_button = QPushButton(translate("HealthView", "Skip (J)"), self, objectName="healthSkip")
        self.dismiss_button = QPushButton(translate("HealthView", "Not duplicates (D)"), self, objectName="healthDismiss")
        self.open_button = QPushButton(translate("HealthView", "Open (O)"), self, objectName="healthOpen")
        button_row = QWidget(self, objectName="healthButtons")
        buttons = FlowLayout(button_row)  # they wrap in a narrow panel rather than hold the window wide
        for button, slot in ((self.merge_button, self.on_merge_key), (self.swap_button, self.swap),
                             (self.skip_button, self.next), (self.dismiss_button, self.dismiss),
                             (self.open_button, self.open_current)):
            button.clicked.connect(slot)
            button.setAutoDefault(False)  # Enter belongs to the merge, not to whichever button was last clicked
            buttons.addWidget(button)
        buttons.addWidget(keys)
        self.split = QSplitter(Qt.Orientation.Vertical, self, objectName="healthSplit")
        self.split.addWidget(self.kinds)
        self.split.addWidget(self.findings)
        self.split.addWidget(right)
        self.split.setChildrenCollapsible(False)
        self.split.setStretchFactor(2, 1)  # the reasons and the merge preview get the room a larger panel adds
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
        layout.addLayout(scan_row)
        layout.addWidget(self.split, 1)
        layout.addWidget(button_row)
        self.kinds.currentRowChanged.connect(self._show_kind)
        self.findings.currentRowChanged.connect(self._show_finding)
        self.scanned.connect(self._on_scanned)
        self.scan_failed.connect(self._on_scan_failed)
        self.scan_progress.connect(self._on_progress)
        for key, slot in (("J", self.next), ("K", self.previous), ("M", self.on_merge_key), ("Return", self.on_enter),
                          ("S", self.swap), ("D", self.dismiss), ("O", self.open_current), ("R", self.start_scan),
                          ("Escape", self.on_escape), ("Shift+Escape", self.close_requested.emit)):
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        self._fill_kinds()
        self._sync_buttons()
        self._wide: bool | None = None  # how the parts stand, once the panel has a width

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._arrange(event.size().width() >= SIDE_BY_SIDE_W)

    def _arrange(self, wide: bool) -> None:
        """Kinds, findings and reasons side by side in a wide panel, one under another in a narrow one."""
        if wide == self._wide:
            return
        self._wide = wide
        if wide:
            self.split.setOrientation(Qt.Orientation.Horizontal)
            self.split.setSizes([230, 300, 750])
            return
        self.split.setOrientation(Qt.Orientation.Vertical)
        # The kinds as tall as their rows, the findings a dozen rows, the reasons the rest.
        row = max(16, self.kinds.sizeHintForRow(0))
        self.split.setSizes([row * self.kinds.count() + 2 * self.kinds.frameWidth() + 2, row * 9, row * 16])

    def ensure_checked(self) -> None:
        """Check the graph if no report is here and no check is running (the panel was closed during one)."""
        if self.report is None and (self._thread is None or not self._thread.is_alive()):
            self.start_scan()

    def _sync_buttons(self) -> None:
        """The buttons fit the finding on screen: merge and keep-the-other for a duplicate, dismiss for the rest."""
        f = self.current_finding()
        duplicate = f is not None and f.kind == "duplicates"
        self.merge_button.setVisible(duplicate)
        self.merge_button.setText(translate("HealthView", "Merge now (M)") if self.plan is not None else translate("HealthView", "Merge… (M)"))
        self.swap_button.setVisible(duplicate)
        self.swap_button.setEnabled(self.plan is not None)
        self.dismiss_button.setText(translate("HealthView", "Not duplicates (D)") if duplicate or f is None else translate("HealthView", "Dismiss (D)"))
        for button in (self.merge_button, self.skip_button, self.dismiss_button, self.open_button):
            button.setEnabled(f is not None)
        self.skip_button.setEnabled(f is not None and self.findings.currentRow() < self.findings.count() - 1)

    # -- the scan ------------------------------------------------------------------------

    def start_scan(self) -> None:
        """Check the graph again on a thread of its own (a running check is cancelled first)."""
        self.stop_scan()
        self._cancel = threading.Event()
        self.cancel_button.setEnabled(True)
        self.cancel_button.show()
        self.progress.show()
        self.recheck.setEnabled(False)
        self.state.setText(translate("HealthView", "Checking the graph…"))
        self.progress.setRange(0, 0)
        handle = health.Handle(progress=self.scan_progress.emit, cancelled=self._cancel.is_set)
        self._thread = threading.Thread(target=self._scan, args=(handle,), name="limbic-health", daemon=True)
        self._thread.start()

    def _scan(self, handle: health.Handle) -> None:
        try:
            self.scanned.emit(health.scan_in_process(self.path, None, handle))
        except Cancelled:
            self.scan_failed.emit("The check was cancelled.")
        except LimbicError as exc:
            self.scan_failed.emit(str(exc))
        except Exception as exc:  # a sentence, not a traceback; the log has the rest
            logger.exception("health check failed")
            self.scan_failed.emit(f"The check stopped on an unexpected error ({type(exc).__name__}).")

    def stop_scan(self, timeout: float = 10.0) -> None:
        """Cancel a running scan and wait for its thread."""
        if self._thread is not None and self._thread.is_alive():
            self._cancel.set()
            self._thread.join(timeout)
        self._thread = None

    def _on_progress(self, stage: str, done: int, total: int) -> None:
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(min(done, total))
        self.progress.setFormat(f"{stage} %p%")

    def _on_scanned(self, report: health.Report) -> None:
        self.report = report
        took = (translate("HealthView", "less than 0.1 s") if report.seconds < 0.05
                else translate("HealthView", "{seconds} s").format(seconds=number(report.seconds, 1)))
        checked = report.entities
        self._scan_ended(translate("HealthView", "%n entities checked in {took}.", "", checked).format(took=took))
        self._fill_kinds()
        self.kinds.setCurrentRow(next((i for i, k in enumerate(health.KINDS) if report.findings.get(k)), 0))
        self.findings.setFocus()

    def _on_scan_failed(self, sentence: str) -> None:
        self._scan_ended(sentence)

    def _scan_ended(self, sentence: str) -> None:
        self.state.setText(sentence)
        self.progress.hide()  # a full bar saying "done" says less than the sentence beside it
        self.cancel_button.hide()
        self.cancel_button.setEnabled(False)
        self.recheck.setEnabled(True)

    # -- lists ---------------------------------------------------------------------------

    def _fill_kinds(self) -> None:
        current = self.kinds.currentRow()
        self.kinds.blockSignals(True)
        self.kinds.clear()
        for kind in health.KINDS:
            count = len(self.report.findings.get(kind, [])) if self.report else None
            label = kind_title(kind) + ("" if count is None else f"  ({count})")
            item = QListWidgetItem(label)
            item.setData(KIND_ROLE, kind)
            self.kinds.addItem(item)
        self.kinds.blockSignals(False)
        self.kinds.setCurrentRow(max(0, current))
        # Wide enough for its longest label with a count: no clipped title, no sideways scrolling.
        self.kinds.setMinimumWidth(self.kinds.sizeHintForColumn(0) + 2 * self.kinds.frameWidth() + 12)

    def current_kind(self) -> str:
        item = self.kinds.currentItem()
        return item.data(KIND_ROLE) if item else health.KINDS[0]

    def current_finding(self) -> health.Finding | None:
        row = self.findings.currentRow()
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def _show_kind(self, _row: int = 0) -> None:
        found = self.report.findings.get(self.current_kind(), []) if self.report else []
        self._rows = list(found)
        self.findings.blockSignals(True)
        self.findings.clear()
        # One call for the whole list: hundreds of findings arrive at once and the window must not wait.
        self.findings.addItems([finding_row(f) for f in found])
        muted = self.palette().color(QPalette.ColorRole.PlaceholderText)
        for row, f in enumerate(found):
            if f.detail.get("tier", 1) > 1:  # the less sure pairs look it
                self.findings.item(row).setForeground(muted)
        if found:
            self.findings.setCurrentRow(0)
        self.findings.blockSignals(False)
        if found:
            self._show_finding()
        else:
            self.detail.setHtml(translate("HealthView", "<p>Nothing found here.</p>") if self.report else translate("HealthView", "<p>Checking…</p>"))
            self._sync_buttons()

    def _show_finding(self, _row: int = 0) -> None:
        self.plan = None
        self.type_choice.hide()
        self._sync_buttons()
        f = self.current_finding()
        if f is None:
            return
        self.detail.setHtml(finding_html(f))

    def next(self) -> None:
        self.findings.setCurrentRow(min(self.findings.count() - 1, self.findings.currentRow() + 1))

    def previous(self) -> None:
        self.findings.setCurrentRow(max(0, self.findings.currentRow() - 1))

    def _drop_current(self) -> None:
        row = self.findings.currentRow()
        f = self.current_finding()
        if f is None or self.report is None:
            return
        found = self.report.findings.get(f.kind, [])
        if f in found:
            found.remove(f)
        self.findings.blockSignals(True)
        self.findings.takeItem(row)
        self.findings.blockSignals(False)
        del self._rows[row]
        self._fill_kinds()
        self.findings.setCurrentRow(min(row, self.findings.count() - 1))
        self._show_finding()

    # -- actions -------------------------------------------------------------------------

    def on_merge_key(self) -> None:
        """First M: the merge preview; M again: the merge."""
        if self.plan is not None:
            self.do_merge()
        else:
            self.preview()

    def on_enter(self) -> None:
        if self.plan is not None:
            self.do_merge()
        elif self.current_finding() is not None and self.current_finding().kind != "duplicates":
            self.open_current()

    def on_escape(self) -> None:
        """Back from a merge preview; otherwise back to the search, the panel left open."""
        if self.plan is not None:
            self._show_finding()
        else:
            self.escaped.emit()

    def preview(self, source_first: bool = True) -> None:
        """Show what merging the current pair would leave (computed by the merge's own planning)."""
        f = self.current_finding()
        if f is None or f.kind != "duplicates":
            return
        source, target = (f.ids[1], f.ids[0]) if source_first else (f.ids[0], f.ids[1])
        self.engine.read("health-preview", plan_merge, source, target, what=translate("HealthView", "previewing the merge"),
                         on_done=self._on_plan, on_failed=lambda failure: self.detail.setHtml(
                             f"<p>{html.escape(failure.message)}</p>"))

    def _on_plan(self, plan: MergePlan) -> None:
        self.plan = plan
        f = self.current_finding()
        kept = keeps(f) if f is not None and plan.target.entity.id == f.ids[0] else ""
        self.detail.setHtml((f"<p><b>{html.escape(kept)}</b></p>" if kept else "") + plan_html(plan, stacked=self.detail.width() < STACKED_PREVIEW_W))
        self._sync_buttons()
        conflict = next((c for c in plan.conflicts if c.field == "type"), None)
        self.type_choice.clear()
        if conflict is not None:
            self.type_choice.addItem(translate("HealthView", "Type: {target}").format(target=conflict.target), conflict.target)
            self.type_choice.addItem(translate("HealthView", "Type: {source}").format(source=conflict.source), conflict.source)
            self.type_choice.show()
        else:
            self.type_choice.hide()
        self.previewed.emit()

    def swap(self) -> None:
        """Keep the other entity of the pair instead."""
        if self.plan is None:
            return
        f = self.current_finding()
        keep_first = self.plan.target.entity.id == f.ids[0]
        self.preview(source_first=not keep_first)

    def do_merge(self) -> None:
        plan = self.plan
        if plan is None:
            return
        chosen = self.type_choice.currentData() if self.type_choice.isVisible() else None
        self.plan = None
        self._sync_buttons()
        self.engine.run("merge", merge, plan.source.entity.id, plan.target.entity.id, chosen, None, what="merging",
                        on_done=self._on_merged, on_failed=lambda failure: self.detail.setHtml(
                            translate("HealthView", "<p>The merge was not made: {message}</p>").format(message=html.escape(failure.message))))

    def _on_merged(self, step) -> None:
        self.merged.emit(step)
        self.state.setText(translate("HealthView", "Merged: {value}. Ctrl+Z in the main window undoes it.").format(value=step.label[len('merge of '):]))
        self._drop_current()

    def dismiss(self) -> None:
        """Remember that this finding is not a problem; it does not come back."""
        f = self.current_finding()
        if f is None:
            return
        self.engine.run("health-dismiss", health.dismiss, f.kind, f.ids, what="dismissing",
                        on_done=lambda _=None: self._drop_current())

    def open_current(self) -> None:
        f = self.current_finding()
        if f is not None:
            self.open_requested.emit(f.ids[0])

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        self.stop_scan()
        super().closeEvent(event)
