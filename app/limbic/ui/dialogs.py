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
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
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
from limbic.engine import scoring
from limbic.engine.scoring import ScoringParams

logger = logging.getLogger(__name__)

SHORTCUTS = [
    ("Ctrl+K or /", "Focus the search field"),
    ("Up / Down", "Move through the results"),
    ("Enter", "Open the selected result"),
    ("Esc", "Clear the search"),
    ("Ctrl+N", "New entity"),
    ("Ctrl+S", "Save the entity"),
    ("Ctrl+Delete", "Delete the entity"),
    ("Ctrl+Z", "Undo the last deletion"),
    ("Alt+Left / Alt+Right", "Back / Forward between opened entities"),
    ("F2", "Edit the selected observation"),
    ("Ctrl+Enter", "Keep an observation edit (Enter starts a new line, Esc drops it)"),
    ("Delete", "Remove the selected observation or relation"),
    ("Ctrl+I / Ctrl+E", "Import / export JSONL"),
    ("Ctrl+O", "Open another database"),
    ("Ctrl+,", "Settings"),
    ("Ctrl+Q", "Quit"),
]

PARAM_HELP = {
    "expansion_factor": "Candidates per branch = factor × limit",
    "rrf_k": "RRF smoothing constant k",
    "beta_sal": "Weight of importance (salience)",
    "beta_deg": "Weight of the number of relations",
    "d_max": "Relations counted at most",
    "alpha_cons": "Weight of use on several days",
    "lambda_hourly": "Decay per hour since the last access",
    "temporal_floor": "The time factor never goes below this",
    "cooc_temporal_floor": "Co-occurrence decay never goes below this",
    "gamma": "Weight of co-occurrence",
    "exact_name_boost": "Factor for an entity whose name is the query",
    "base_relevance": "fused: RRF relative to the best; seed: cosine for vector hits",
}


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
        table.resizeColumnsToContents()
        table.horizontalHeader().setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(table)
        layout.addWidget(buttons)
        self.resize(460, 480)


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

        self.inputs: dict[str, QWidget] = {}
        params = ScoringParams.from_overrides(settings.scoring)
        form = QFormLayout()
        for f in fields(ScoringParams):
            value = getattr(params, f.name)
            if f.name == "base_relevance":
                box = QComboBox(self)
                box.addItems(list(scoring.BASE_CHOICES))
                box.setCurrentText(str(value))
                widget: QWidget = box
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
            widget.setToolTip(PARAM_HELP.get(f.name, ""))
            widget.setObjectName(f.name)
            self.inputs[f.name] = widget
            form.addRow(f.name.upper(), widget)
        reset = QPushButton("Reset to defaults", self, toolTip="Put every scoring constant back to its default")
        reset.clicked.connect(self.on_reset)
        form.addRow("", reset)
        scoring_box = QGroupBox("Scoring constants", self)
        scoring_box.setLayout(form)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(files_box)
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
        path, _ = QFileDialog.getSaveFileName(self, "Database file", self.db_edit.text(), "Limbic database (*.db);;All files (*)",
                                              options=QFileDialog.Option.DontConfirmOverwrite)
        if path:
            self.db_edit.setText(path)

    def on_browse_model(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Model folder", self.model_edit.text())
        if path:
            self.model_edit.setText(path)

    def on_reset(self) -> None:
        defaults = ScoringParams()
        for name, widget in self.inputs.items():
            value = getattr(defaults, name)
            if isinstance(widget, QComboBox):
                widget.setCurrentText(str(value))
            else:
                widget.setValue(value)  # type: ignore[attr-defined]

    def scoring_overrides(self) -> dict[str, object]:
        """Only the constants that differ from the defaults are stored."""
        defaults = ScoringParams()
        out: dict[str, object] = {}
        for name, widget in self.inputs.items():
            value = widget.currentText() if isinstance(widget, QComboBox) else widget.value()  # type: ignore[attr-defined]
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
