"""File → Settings: the graph file, the model, the colours, what search says, and the ranking's
constants under an "Advanced ranking" section that stays folded until someone opens it."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
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
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from limbic import config
from limbic.service.types import BASE_CHOICES, ScoringParams
from limbic.ui.common import safe_files
from limbic.ui.common.i18n import LANGUAGE_CHOICES, translate
from PySide6.QtCore import QT_TRANSLATE_NOOP

# The scoring constants in words: a name and a one-line explanation each (the constant's own
# name is in the tooltip, for people reading the README's formula).
PARAM_WORDS = {
    "expansion_factor": (QT_TRANSLATE_NOOP("SettingsDialog", "Candidates per branch"), QT_TRANSLATE_NOOP("SettingsDialog", "How many hits each branch brings, as a multiple of the results shown.")),
    "rrf_k": (QT_TRANSLATE_NOOP("SettingsDialog", "Rank fusion smoothing"), QT_TRANSLATE_NOOP("SettingsDialog", "Higher values narrow the gap between first and later ranks when fusing.")),
    "beta_sal": (QT_TRANSLATE_NOOP("SettingsDialog", "Weight of use"), QT_TRANSLATE_NOOP("SettingsDialog", "How much entities you use often rise in the ranking.")),
    "beta_deg": (QT_TRANSLATE_NOOP("SettingsDialog", "Weight of connections"), QT_TRANSLATE_NOOP("SettingsDialog", "How much entities with many relations rise.")),
    "d_max": (QT_TRANSLATE_NOOP("SettingsDialog", "Connections counted at most"), QT_TRANSLATE_NOOP("SettingsDialog", "Relations beyond this number add nothing more.")),
    "alpha_cons": (QT_TRANSLATE_NOOP("SettingsDialog", "Weight of use on several days"), QT_TRANSLATE_NOOP("SettingsDialog", "Use spread over many days counts more than one busy day.")),
    "lambda_hourly": (QT_TRANSLATE_NOOP("SettingsDialog", "Forgetting per hour"), QT_TRANSLATE_NOOP("SettingsDialog", "How fast unused entities sink: 0.0001 halves them in about 290 days.")),
    "temporal_floor": (QT_TRANSLATE_NOOP("SettingsDialog", "Forgetting never below"), QT_TRANSLATE_NOOP("SettingsDialog", "An old entity keeps at least this share of its score.")),
    "cooc_temporal_floor": (QT_TRANSLATE_NOOP("SettingsDialog", "Old co-occurrence keeps"), QT_TRANSLATE_NOOP("SettingsDialog", "Entities found together long ago still count this share.")),
    "gamma": (QT_TRANSLATE_NOOP("SettingsDialog", "Weight of co-occurrence"), QT_TRANSLATE_NOOP("SettingsDialog", "How much entities that often come up with the other hits rise.")),
    "exact_name_boost": (QT_TRANSLATE_NOOP("SettingsDialog", "Exact name boost"), QT_TRANSLATE_NOOP("SettingsDialog", "Factor for an entity whose name is the query.")),
    "blend_alpha": (QT_TRANSLATE_NOOP("SettingsDialog", "Share of meaning"), QT_TRANSLATE_NOOP("SettingsDialog", "In a fixed mix of meaning and words: meaning's share; exact words get the rest.")),
    "base_relevance": (QT_TRANSLATE_NOOP("SettingsDialog", "Mixing meaning and words"), QT_TRANSLATE_NOOP("SettingsDialog", "How hits by meaning and by exact words make one relevance.")),
    "floor": (QT_TRANSLATE_NOOP("SettingsDialog", "Say “no good match”"), QT_TRANSLATE_NOOP("SettingsDialog", "When meaning finds only chance-level hits, say so instead of listing them.")),
    "time_first": (QT_TRANSLATE_NOOP("SettingsDialog", "A named time first"), QT_TRANSLATE_NOOP("SettingsDialog", "A query naming a time (“in June 2023”) lists what happened then first.")),
    "carry": (QT_TRANSLATE_NOOP("SettingsDialog", "Texts that say little count less"), QT_TRANSLATE_NOOP("SettingsDialog", "How much less a short, generic text (“Thanks, see you!”) counts "
              "for being close in meaning; 0: not at all.")),
    "carry_unshared": (QT_TRANSLATE_NOOP("SettingsDialog", "…unless they share the query’s words"), QT_TRANSLATE_NOOP("SettingsDialog", "Texts holding words of the query count in full, "
                       "however little they say.")),
    "carry_by_query": (QT_TRANSLATE_NOOP("SettingsDialog", "…for questions more than long queries"), QT_TRANSLATE_NOOP("SettingsDialog", "Texts that say little count less for a short "
                       "question, and not at all for a query as long as a whole text.")),
}
PARAM_HELP = {name: text for name, (_, text) in PARAM_WORDS.items()}  # tooltips
# The choices of how relevance is made, in words (the stored value stays the short one).
BASE_WORDS = {
    "adaptive": (QT_TRANSLATE_NOOP("SettingsDialog", "By how clearly each stands out"), QT_TRANSLATE_NOOP("SettingsDialog", "Meaning and words each count by how clearly their hits stand "
                 "out from the rest, query by query (the default)")),
    "blend": (QT_TRANSLATE_NOOP("SettingsDialog", "A fixed share of each"), QT_TRANSLATE_NOOP("SettingsDialog", "Meaning gets the share set below, exact words the rest")),
    "fused": (QT_TRANSLATE_NOOP("SettingsDialog", "Rank order only"), QT_TRANSLATE_NOOP("SettingsDialog", "Only the order of each kind's hits counts, not how good they are")),
    "seed": (QT_TRANSLATE_NOOP("SettingsDialog", "As the original engine"), QT_TRANSLATE_NOOP("SettingsDialog", "As the memory engine Limbic reads imports from ranks")),
}
# What people choose without knowing the formula; every other constant is advanced.
PLAIN_PARAMS = ("floor", "time_first")
THEME_CHOICES = (("system", QT_TRANSLATE_NOOP("SettingsDialog", "As the system")), ("light", QT_TRANSLATE_NOOP("SettingsDialog", "Light")), ("dark", QT_TRANSLATE_NOOP("SettingsDialog", "Dark")))
HELP_WIDTH = 300  # a help text wraps at this width rather than widening the dialog past a laptop's screen


class PlainDoubleSpin(QDoubleSpinBox):
    """A decimal field that shows 0.5 as 0.5, not 0.500: no trailing zeros."""

    def textFromValue(self, value: float) -> str:  # noqa: N802 - Qt's name
        """The value with as many decimals as it needs."""
        text = f"{value:.{self.decimals()}f}"
        return text.rstrip("0").rstrip(".") if "." in text else text


def _is_whole(name: str) -> bool:
    """A constant whose default is a whole number (candidates, smoothing, connections): edited as one."""
    value = getattr(ScoringParams(), name)
    return isinstance(value, int) and not isinstance(value, bool)


class SettingsDialog(QDialog):
    """Edits config.Settings: database location, model folder, colours and the scoring constants."""

    def __init__(self, settings: config.Settings, current_db: str, parent: QWidget | None = None,
                 assistants=None) -> None:
        """``assistants``: opens the Assistants page (what each assistant may read and write, kept in the graph)."""
        super().__init__(parent)
        self.setWindowTitle(translate("SettingsDialog", "Settings"))
        self.settings = settings
        self.inputs: dict[str, QWidget] = {}
        self.help_labels: dict[str, QLabel] = {}
        layout = QVBoxLayout(self)
        layout.addWidget(self._files_box(settings, current_db))
        layout.addWidget(self._looks_box(settings))
        if assistants is not None:
            layout.addWidget(self._assistants_box(assistants))
        params = ScoringParams.from_overrides(settings.scoring)
        names = [f.name for f in fields(ScoringParams)]
        plain = QFormLayout()
        plain.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for name in names:
            if name in PLAIN_PARAMS:
                self._add_param(plain, name, getattr(params, name))
        search_box = QGroupBox(translate("SettingsDialog", "Search"), self)
        search_box.setLayout(plain)
        layout.addWidget(search_box)

        # The constants of the ranking formula: folded by default, so the dialog opens short and plain.
        self.advanced_toggle = QToolButton(self, objectName="advancedRanking")
        self.advanced_toggle.setText(translate("SettingsDialog", "Advanced ranking"))
        self.advanced_toggle.setCheckable(True)
        self.advanced_toggle.setChecked(False)
        self.advanced_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.advanced_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.advanced_toggle.setToolTip(translate("SettingsDialog", "The constants of the ranking formula; the defaults were measured"))
        self.advanced_toggle.toggled.connect(self.show_advanced)
        layout.addWidget(self.advanced_toggle)
        inner = QWidget(self)
        form = QFormLayout(inner)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for name in names:
            if name not in PLAIN_PARAMS:
                self._add_param(form, name, getattr(params, name))
        reset = QPushButton(translate("SettingsDialog", "Reset to defaults"), inner, toolTip=translate("SettingsDialog", "Put every ranking setting back to its default"))
        reset.clicked.connect(self.on_reset)
        form.addRow("", reset)
        self.advanced = QScrollArea(self, objectName="advancedRankingBody")
        self.advanced.setWidget(inner)
        self.advanced.setWidgetResizable(True)
        self.advanced.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.advanced.setMinimumHeight(min(inner.sizeHint().height() + 4, 320))
        # As wide as its rows need beside the scroll bar: a help text is wrapped, never cut at the right.
        self.advanced.setMinimumWidth(inner.minimumSizeHint().width() + self.advanced.verticalScrollBar().sizeHint().width()
                                      + 2 * self.advanced.frameWidth() + 12)
        self.advanced.setVisible(False)
        layout.addWidget(self.advanced, 1)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addStretch(0)
        layout.addWidget(buttons)

    def _files_box(self, settings: config.Settings, current_db: str) -> QGroupBox:
        self.db_edit = QLineEdit(settings.db_path or current_db, self)
        self.model_edit = QLineEdit(settings.model_dir or "", self)
        self.model_edit.setPlaceholderText(translate("SettingsDialog", "bundled multilingual-e5-small"))
        self.model_edit.setToolTip(
            translate("SettingsDialog", "Empty for the bundled multilingual-e5-small (Spanish, English and about 100 other languages); "
            "all-MiniLM-L6-v2 for the English model; or a folder with model.onnx and tokenizer.json")
        )
        self.db_edit.setAccessibleName(translate("SettingsDialog", "Database"))
        self.model_edit.setAccessibleName(translate("SettingsDialog", "Model folder"))
        files = QFormLayout()
        files.addRow(translate("SettingsDialog", "Database"), self._with_browse(self.db_edit, self.on_browse_db))
        files.addRow(translate("SettingsDialog", "Model folder"), self._with_browse(self.model_edit, self.on_browse_model))
        box = QGroupBox(translate("SettingsDialog", "Files"), self)
        box.setLayout(files)
        # The whole path is readable: the field is as wide as the path (within reason).
        path_width = self.db_edit.fontMetrics().horizontalAdvance(self.db_edit.text()) + 24
        self.db_edit.setMinimumWidth(min(max(path_width, 360), 1000))
        self.db_edit.setToolTip(translate("SettingsDialog", "The graph file opened at start-up: {db_edit}").format(db_edit=self.db_edit.text()))
        self.db_edit.setCursorPosition(0)
        return box

    def _assistants_box(self, assistants) -> QGroupBox:
        box = QGroupBox(translate("SettingsDialog", "Assistants"), self)
        row = QHBoxLayout(box)
        row.addWidget(QLabel(translate("SettingsDialog", "What each assistant may read and write in this graph, its "
                                       "pause, and the writes held for you to review."), box, wordWrap=True), 1)
        button = QPushButton(translate("SettingsDialog", "&Assistants…"), box, objectName="settingsAssistants")
        button.setAccessibleName(translate("SettingsDialog", "Assistants"))
        button.clicked.connect(assistants)
        row.addWidget(button)
        return box

    def _looks_box(self, settings: config.Settings) -> QGroupBox:
        self.theme = QComboBox(self, objectName="themeChoice")
        for value, label in THEME_CHOICES:
            self.theme.addItem(translate("SettingsDialog", label), value)
        self.theme.setCurrentIndex(max(0, self.theme.findData(settings.theme)))
        self.theme.setToolTip(translate("SettingsDialog", "Light or dark colours, or as the system is set"))
        self.language = QComboBox(self, objectName="languageChoice")
        for value, label in LANGUAGE_CHOICES:
            self.language.addItem(translate("Settings", label) if value == "system" else label, value)
        self.language.setCurrentIndex(max(0, self.language.findData(settings.language)))
        self.language.setToolTip(translate("Settings", "The language of the window; a change applies when Limbic "
                                                       "starts again"))
        looks = QFormLayout()
        looks.addRow(translate("SettingsDialog", "Colours"), self.theme)
        looks.addRow(translate("Settings", "Language"), self.language)
        box = QGroupBox(translate("SettingsDialog", "Appearance"), self)
        box.setLayout(looks)
        return box

    def _field(self, name: str, value: object) -> QWidget:
        """The editor of one constant: a choice, a checkbox, a whole number or a decimal."""
        if name == "base_relevance":
            box = QComboBox(self)
            for choice in BASE_CHOICES:
                words, tip = (translate("SettingsDialog", w) for w in BASE_WORDS.get(choice, (choice, "")))
                box.addItem(words, choice)
                box.setItemData(box.count() - 1, tip, Qt.ItemDataRole.ToolTipRole)
            box.setCurrentIndex(max(0, box.findData(str(value))))
            return box
        if isinstance(value, bool):
            check = QCheckBox(self)
            check.setChecked(value)
            return check
        if _is_whole(name):
            spin = QSpinBox(self)
            spin.setRange(1, 20 if name == "expansion_factor" else 1000)
            spin.setValue(int(round(float(value))))  # type: ignore[arg-type]
            return spin
        dspin = PlainDoubleSpin(self)
        dspin.setDecimals(5 if name == "lambda_hourly" else 3)
        dspin.setRange(0.0, 1000.0)
        dspin.setSingleStep(0.0001 if name == "lambda_hourly" else 0.05)
        dspin.setValue(float(value))  # type: ignore[arg-type]
        return dspin

    def _add_param(self, form: QFormLayout, name: str, value: object) -> None:
        """One row: the plain name, the field and its help beside it, wrapped rather than cut off."""
        widget = self._field(name, value)
        words, help_text = (translate("SettingsDialog", w)
                            for w in PARAM_WORDS.get(name, (name.replace("_", " ").capitalize(), "")))
        widget.setToolTip(translate("SettingsDialog", "{help_text} (in the formula: {name})").format(help_text=help_text, name=name.upper()) if help_text else name.upper())
        widget.setObjectName(name)
        widget.setAccessibleName(words)  # a check box's label is the row's, not its own text
        widget.setAccessibleDescription(help_text)
        self.inputs[name] = widget
        row = QWidget(self)
        row_layout = QHBoxLayout(row)
        row_layout.setContentsMargins(0, 0, 0, 0)
        widget.setFixedWidth(230 if isinstance(widget, QComboBox) else 110)
        row_layout.addWidget(widget, 0, Qt.AlignmentFlag.AlignTop)
        explain = QLabel(help_text, row, objectName="paramHelp")  # the hint colour (style sheet), readable
        explain.setWordWrap(True)
        explain.setMinimumWidth(HELP_WIDTH)
        explain.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.MinimumExpanding)
        self.help_labels[name] = explain
        row_layout.addWidget(explain, 1)
        label = QLabel(words + ":", self)
        label.setBuddy(widget)
        form.addRow(label, row)

    def show_advanced(self, shown: bool) -> None:
        """Open or fold the "Advanced ranking" section."""
        self.advanced_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.advanced.setVisible(shown)
        self.adjustSize()

    def _with_browse(self, edit: QLineEdit, slot) -> QWidget:
        box = QWidget(self)
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(edit, 1)
        button = QPushButton(translate("SettingsDialog", "Browse…"), box)
        button.clicked.connect(slot)
        row.addWidget(button)
        return box

    def on_browse_db(self) -> None:
        path = safe_files.save_file(self, translate("SettingsDialog", "Database file"), self.db_edit.text(), translate("SettingsDialog", "Limbic database (*.db);;All files (*)"),
                                    confirm_overwrite=False)
        if path:
            self.db_edit.setText(path)

    def on_browse_model(self) -> None:
        path = safe_files.existing_folder(self, translate("SettingsDialog", "Model folder"), self.model_edit.text())
        if path:
            self.model_edit.setText(path)

    def on_reset(self) -> None:
        """Every ranking setting back to its default."""
        defaults = ScoringParams()
        for name, widget in self.inputs.items():
            value = getattr(defaults, name)
            if isinstance(widget, QComboBox):
                widget.setCurrentIndex(max(0, widget.findData(str(value))))
            elif isinstance(widget, QCheckBox):
                widget.setChecked(bool(value))
            else:
                widget.setValue(value)  # type: ignore[attr-defined]

    def scoring_overrides(self) -> dict[str, object]:
        """Only the constants that differ from the defaults are stored."""
        defaults = ScoringParams()
        out: dict[str, object] = {}
        for name, widget in self.inputs.items():
            value = (widget.currentData() if isinstance(widget, QComboBox) else widget.isChecked()
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
            scoring={k: v for k, v in self.scoring_overrides().items() if isinstance(v, (int, float, str))},
            recent_dbs=list(self.settings.recent_dbs),
            theme=self.theme.currentData() or "system",
            last_folder=self.settings.last_folder,
            zoom=self.settings.zoom,
            language=self.language.currentData() or "system",
        )
