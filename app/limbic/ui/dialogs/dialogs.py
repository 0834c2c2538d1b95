"""Dialogs: settings, keyboard shortcuts, and the one dialog for unexpected errors."""

from __future__ import annotations

import logging
import sys
import traceback
from dataclasses import fields
from pathlib import Path

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from limbic import config
from limbic.service.types import BASE_CHOICES, ScoringParams
from limbic.ui.common import safe_files

logger = logging.getLogger(__name__)

SHORTCUTS = [
    ("Ctrl+O or Ctrl+P", "Quick switcher: jump to an entity by name (typos are fine)"),
    ("Ctrl+Shift+P", "Command palette: run any command by name"),
    ("Ctrl+K or /", "Focus the search field"),
    ("Ctrl+Shift+F", "Search filters: relation type, status, updated and created dates"),
    ("Up / Down", "Move through the results"),
    ("Enter", "Open the selected result"),
    ("Esc", "Clear the search"),
    ("Ctrl+Delete", "In the search field: delete the next word"),
    ("Ctrl+N", "New entity"),
    ("Ctrl+S", "Save the entity"),
    ("Ctrl+Delete", "Delete the entity (outside the search field)"),
    ("Ctrl+Z", "Undo the last change, named in the Edit menu"),
    ("Ctrl+Shift+Z or Ctrl+Y", "Redo what was undone"),
    ("Alt+Left / Alt+Right", "Back / Forward between opened entities"),
    ("Ctrl+G / Ctrl+Shift+G", "Graph: the open entity's neighbourhood / the whole graph"),
    ("Ctrl+Shift+A", "Activity: what each assistant changed, to review or revert"),
    ("In the graph", "Drag or arrows pan, wheel or +/- zoom, 0 fits, click opens, double-click or Enter re-centres"),
    ("F2", "Edit the selected observation"),
    ("Ctrl+Enter", "Keep an observation edit (Enter starts a new line, Esc drops it)"),
    ("Delete", "Remove the selected observation or relation"),
    ("Ctrl+B", "Browse every entity by type, the pinned and the recently opened"),
    ("Ctrl+F in the browser", "Narrow the browser's list by words (its filters sit beside)"),
    ("Ctrl+D", "Pin or unpin the entity"),
    ("Ctrl+M", "Merge the entity into another"),
    ("Ctrl+Shift+H", "Memory health: duplicates, repeated observations, orphans"),
    ("Ctrl+I / Ctrl+E", "Import a file / export JSONL"),
    ("Ctrl+Shift+I", "Import a folder of notes"),
    ("Ctrl+Shift+O", "Open another database"),
    ("Ctrl+Shift+N", "New database"),
    ("Ctrl+,", "Settings"),
    ("Ctrl+= / Ctrl+- / Ctrl+0", "Larger / smaller / normal text (remembered)"),
    ("Drop a file or folder", "Import it (JSONL, CSV, Markdown, a folder of notes, a memory .db)"),
    ("F1", "This list of shortcuts"),
    ("Ctrl+Q", "Quit"),
]

# The scoring constants in words: a name and a one-line explanation each (the constant's own
# name is in the tooltip, for people reading the README's formula).
PARAM_WORDS = {
    "expansion_factor": ("Candidates per branch", "How many hits each branch brings, as a multiple of the results shown."),
    "rrf_k": ("Rank fusion smoothing", "Higher values narrow the gap between first and later ranks when fusing."),
    "beta_sal": ("Weight of use", "How much entities you use often rise in the ranking."),
    "beta_deg": ("Weight of connections", "How much entities with many relations rise."),
    "d_max": ("Connections counted at most", "Relations beyond this number add nothing more."),
    "alpha_cons": ("Weight of use on several days", "Use spread over many days counts more than one busy day."),
    "lambda_hourly": ("Forgetting per hour", "How fast unused entities sink: 0.0001 halves them in about 290 days."),
    "temporal_floor": ("Forgetting never below", "An old entity keeps at least this share of its score."),
    "cooc_temporal_floor": ("Old co-occurrence keeps", "Entities found together long ago still count this share."),
    "gamma": ("Weight of co-occurrence", "How much entities that often come up with the other hits rise."),
    "exact_name_boost": ("Exact name boost", "Factor for an entity whose name is the query."),
    "blend_alpha": ("Share of meaning", "In the blended relevance: meaning's share; exact words get the rest."),
    "base_relevance": ("Base relevance", "blend: both branches' scores; fused: rank fusion only; seed: the original."),
    "floor": ("Say “no good match”", "When meaning finds only chance-level hits, say so instead of listing them."),
}
PARAM_HELP = {name: text for name, (_, text) in PARAM_WORDS.items()}  # tooltips
THEME_CHOICES = (("system", "As the system"), ("light", "Light"), ("dark", "Dark"))


class ShortcutsDialog(QDialog):
    """Help → Keyboard shortcuts."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        table = QTableWidget(len(SHORTCUTS), 2, self)
        table.setHorizontalHeaderLabels(["Keys", "Action"])
        table.verticalHeader().hide()
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, (keys, action) in enumerate(SHORTCUTS):
            table.setItem(row, 0, QTableWidgetItem(keys))
            table.setItem(row, 1, QTableWidgetItem(action))
        table.setWordWrap(True)
        table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        table.resizeColumnsToContents()
        table.horizontalHeader().setStretchLastSection(True)
        table.resizeRowsToContents()
        self.table = table
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(table)
        layout.addWidget(buttons)
        # Wide enough for the longest line, tall enough for every row: no scrolling either way.
        width = sum(table.columnWidth(c) for c in range(2)) + 2 * table.frameWidth() + 40
        height = table.horizontalHeader().height() + sum(table.rowHeight(r) for r in range(table.rowCount()))
        table.setMinimumSize(min(width, 900), min(height + 2 * table.frameWidth() + 4, 900))
        self.adjustSize()


class SettingsDialog(QDialog):
    """Edits config.Settings: database location, model folder and the scoring constants."""

    def __init__(self, settings: config.Settings, current_db: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.settings = settings
        self.db_edit = QLineEdit(settings.db_path or current_db, self)
        self.db_edit.setToolTip("The graph file opened at start-up")
        self.model_edit = QLineEdit(settings.model_dir or "", self)
        self.model_edit.setPlaceholderText("bundled multilingual-e5-small")
        self.model_edit.setToolTip(
            "Empty for the bundled multilingual-e5-small (Spanish, English and about 100 other languages); "
            "all-MiniLM-L6-v2 for the English model; or a folder with model.onnx and tokenizer.json"
        )
        files = QFormLayout()
        files.addRow("Database", self._with_browse(self.db_edit, self.on_browse_db))
        files.addRow("Model folder", self._with_browse(self.model_edit, self.on_browse_model))
        files_box = QGroupBox("Files", self)
        files_box.setLayout(files)
        # The whole path is readable: the field is as wide as the path (within reason).
        path_width = self.db_edit.fontMetrics().horizontalAdvance(self.db_edit.text()) + 24
        self.db_edit.setMinimumWidth(min(max(path_width, 360), 1000))
        self.db_edit.setToolTip(f"The graph file opened at start-up: {self.db_edit.text()}")
        self.db_edit.setCursorPosition(0)
        self.theme = QComboBox(self, objectName="themeChoice")
        for value, label in THEME_CHOICES:
            self.theme.addItem(label, value)
        self.theme.setCurrentIndex(max(0, self.theme.findData(settings.theme)))
        self.theme.setToolTip("Light or dark colours, or as the system is set")
        looks = QFormLayout()
        looks.addRow("Colours", self.theme)
        looks_box = QGroupBox("Appearance", self)
        looks_box.setLayout(looks)

        self.inputs: dict[str, QWidget] = {}
        params = ScoringParams.from_overrides(settings.scoring)
        form = QFormLayout()
        for f in fields(ScoringParams):
            value = getattr(params, f.name)
            if f.name == "base_relevance":
                box = QComboBox(self)
                box.addItems(list(BASE_CHOICES))
                box.setCurrentText(str(value))
                widget: QWidget = box
            elif isinstance(value, bool):
                check = QCheckBox(self)
                check.setChecked(value)
                widget = check
            elif f.name == "expansion_factor":
                spin = QSpinBox(self)
                spin.setRange(1, 20)
                spin.setValue(int(value))
                widget = spin
            else:
                dspin = QDoubleSpinBox(self)
                dspin.setDecimals(5 if f.name == "lambda_hourly" else 3)
                dspin.setRange(0.0, 1000.0)
                dspin.setSingleStep(0.0001 if f.name == "lambda_hourly" else 0.05)
                dspin.setValue(float(value))
                widget = dspin
            words, help_text = PARAM_WORDS.get(f.name, (f.name.replace("_", " ").capitalize(), ""))
            widget.setToolTip(f"{help_text} ({f.name.upper()})")
            widget.setObjectName(f.name)
            self.inputs[f.name] = widget
            row = QWidget(self)
            row_layout = QHBoxLayout(row)
            row_layout.setContentsMargins(0, 0, 0, 0)
            widget.setFixedWidth(110)
            row_layout.addWidget(widget)
            explain = QLabel(help_text, row, objectName="paramHelp")  # the hint colour (style sheet), readable
            explain.setWordWrap(True)
            row_layout.addWidget(explain, 1)
            label = QLabel(words + ":", self)
            label.setToolTip(f.name.upper())
            form.addRow(label, row)
        reset = QPushButton("Reset to defaults", self, toolTip="Put every scoring constant back to its default")
        reset.clicked.connect(self.on_reset)
        form.addRow("", reset)
        scoring_box = QGroupBox("Ranking (the scoring constants)", self)
        scoring_box.setLayout(form)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(files_box)
        layout.addWidget(looks_box)
        layout.addWidget(scoring_box)
        layout.addWidget(buttons)

    def _with_browse(self, edit: QLineEdit, slot) -> QWidget:
        box = QWidget(self)
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(edit, 1)
        button = QPushButton("Browse…", box)
        button.clicked.connect(slot)
        row.addWidget(button)
        return box

    def on_browse_db(self) -> None:
        path = safe_files.save_file(self, "Database file", self.db_edit.text(), "Limbic database (*.db);;All files (*)",
                                    confirm_overwrite=False)
        if path:
            self.db_edit.setText(path)

    def on_browse_model(self) -> None:
        path = safe_files.existing_folder(self, "Model folder", self.model_edit.text())
        if path:
            self.model_edit.setText(path)

    def on_reset(self) -> None:
        defaults = ScoringParams()
        for name, widget in self.inputs.items():
            value = getattr(defaults, name)
            if isinstance(widget, QComboBox):
                widget.setCurrentText(str(value))
            elif isinstance(widget, QCheckBox):
                widget.setChecked(bool(value))
            else:
                widget.setValue(value)  # type: ignore[attr-defined]

    def scoring_overrides(self) -> dict[str, object]:
        """Only the constants that differ from the defaults are stored."""
        defaults = ScoringParams()
        out: dict[str, object] = {}
        for name, widget in self.inputs.items():
            value = (widget.currentText() if isinstance(widget, QComboBox) else widget.isChecked()
                     if isinstance(widget, QCheckBox) else widget.value())  # type: ignore[attr-defined]
            if value != getattr(defaults, name):
                out[name] = value
        return out

    def result_settings(self) -> config.Settings:
        """The settings as edited (the caller saves them)."""
        db = self.db_edit.text().strip()
        model = self.model_edit.text().strip()
        return config.Settings(
            db_path=str(Path(db).expanduser()) if db else None,
            model_dir=str(Path(model).expanduser()) if model else None,
            scoring={k: v for k, v in self.scoring_overrides().items() if isinstance(v, (int, float))},
            recent_dbs=list(self.settings.recent_dbs),
            theme=self.theme.currentData() or "system",
            last_folder=self.settings.last_folder,
            zoom=self.settings.zoom,
        )


class ExceptionDialog(QDialog):
    """One non-modal dialog for unexpected errors; later errors add to it instead of stacking up."""

    _instance: ExceptionDialog | None = None

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Limbic hit an unexpected problem")
        self.setModal(False)
        self.label = QLabel(
            "Something unexpected went wrong. Your data is safe: every change is saved in one step or not at all. "
            "If it happens again, please send the details below.", self
        )
        self.label.setWordWrap(True)
        self.details = QPlainTextEdit(self)
        self.details.setReadOnly(True)
        copy = QPushButton("Copy details", self)
        copy.clicked.connect(self.on_copy)
        close = QPushButton("Close", self)
        close.clicked.connect(self.close)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(copy)
        row.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addWidget(self.details, 1)
        layout.addLayout(row)
        self.resize(640, 360)

    def add(self, text: str) -> None:
        if self.details.toPlainText():
            self.details.appendPlainText("\n" + "-" * 40 + "\n")
        self.details.appendPlainText(text)

    def on_copy(self) -> None:
        QApplication.clipboard().setText(self.details.toPlainText())

    @classmethod
    def report(cls, text: str) -> ExceptionDialog:
        """Show the dialog (creating it once) with this error's details."""
        dlg = cls._instance
        if dlg is None or not shiboken6.isValid(dlg):
            parent = QApplication.activeWindow()
            dlg = cls._instance = cls(parent)
            dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        dlg.add(text)
        dlg.show()
        dlg.raise_()
        return dlg


def install_excepthook() -> None:
    """Unexpected errors on the UI thread are logged and shown once, never a crash with a traceback on stderr."""
    previous = sys.excepthook

    def hook(exc_type, exc, tb) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            previous(exc_type, exc, tb)
            return
        text = "".join(traceback.format_exception(exc_type, exc, tb))
        logger.error("unexpected error:\n%s", text)
        if QApplication.instance() is not None:
            ExceptionDialog.report(text)

    sys.excepthook = hook
