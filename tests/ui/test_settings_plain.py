"""Settings speak plainly: the ranking constants fold under "Advanced ranking", whole numbers show as
whole numbers, and every help text wraps instead of being cut off."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QComboBox, QDoubleSpinBox, QSpinBox

from limbic import config
from limbic.ui.dialogs.settings_dialog import SettingsDialog


def _dialog(qtbot, settings=None):
    dialog = SettingsDialog(settings or config.Settings(), "/tmp/g.db")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def test_the_ranking_constants_are_folded_under_advanced_ranking(qtbot):
    dialog = _dialog(qtbot)
    assert dialog.advanced_toggle.text() == "Advanced ranking" and not dialog.advanced_toggle.isChecked()
    constants = [n for n in dialog.inputs if n not in ("floor", "time_first")]
    assert len(constants) >= 12
    assert not any(dialog.inputs[n].isVisible() for n in constants)  # folded at first
    assert dialog.inputs["floor"].isVisible()  # the plain choice stays in view
    dialog.advanced_toggle.click()
    assert all(dialog.inputs[n].isVisibleTo(dialog) for n in constants)


def test_whole_numbers_are_shown_as_whole_numbers_and_decimals_without_trailing_zeros(qtbot):
    dialog = _dialog(qtbot, config.Settings(scoring={"d_max": 15.0}))
    for name in ("d_max", "rrf_k", "expansion_factor"):
        assert isinstance(dialog.inputs[name], QSpinBox), name
    assert dialog.inputs["d_max"].text() == "15" and dialog.inputs["rrf_k"].text() == "60"
    shown = [w.text() for w in dialog.inputs.values() if isinstance(w, (QSpinBox, QDoubleSpinBox))]
    assert not any(text.endswith("000") or text.endswith(".0") for text in shown), shown
    assert dialog.inputs["beta_sal"].text() == "0.5" and dialog.inputs["lambda_hourly"].text() == "0.0001"
    assert dialog.scoring_overrides() == {}  # showing 15 for 15.0 changes nothing


def test_every_help_text_wraps_and_is_shown_whole(qtbot):
    dialog = _dialog(qtbot)
    dialog.advanced_toggle.click()
    for _ in range(3):  # the opened section's layout, then the scroll bar's
        QApplication.processEvents()
    for name, label in dialog.help_labels.items():
        assert label.wordWrap(), name
        assert label.height() >= label.heightForWidth(label.width()), f"{name}'s help is cut off"
        if name not in ("floor", "time_first"):  # in the scrolled section: its right edge is in view
            right = label.mapTo(dialog.advanced.viewport(), label.rect().topRight()).x()
            assert right <= dialog.advanced.viewport().width(), f"{name}'s help is cut at the right"


def test_the_mixing_choice_is_in_words_and_is_kept(qtbot):
    dialog = _dialog(qtbot)
    box = dialog.inputs["base_relevance"]
    assert isinstance(box, QComboBox)
    words = [box.itemText(i) for i in range(box.count())]
    assert "blend" not in words and "fused" not in words and "A fixed share of each" in words
    box.setCurrentIndex(box.findData("blend"))
    assert dialog.result_settings().scoring == {"base_relevance": "blend"}


def test_every_ranking_constant_has_a_plain_name_and_a_help_line(qtbot):
    from dataclasses import fields

    from limbic.service.types import ScoringParams
    from limbic.ui.dialogs.settings_dialog import PARAM_WORDS

    dialog = _dialog(qtbot)
    for f in fields(ScoringParams):
        words, help_text = PARAM_WORDS.get(f.name, ("", ""))
        assert words and help_text, f"{f.name} is shown without words"
        assert "_" not in words + help_text, f"{f.name}'s words are the code's"
        assert dialog.help_labels[f.name].text() == help_text
