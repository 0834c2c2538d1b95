"""The window's language: the system's (LANG, LC_ALL) unless Settings chooses English or Español, applied when
Limbic starts; dates by the locale."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QLocale

from limbic import config
from limbic.ui.common import i18n
from tests.conftest import compile_translations

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
from limbic.ui.shell.app import _application
from PySide6.QtWidgets import QDialogButtonBox
from limbic.ui.common.i18n import translate
from limbic.ui.common.when import when_words
app = _application([])
box = QDialogButtonBox(QDialogButtonBox.StandardButton.Yes | QDialogButtonBox.StandardButton.No)
print(translate("SettingsDialog", "Settings"))
print(" ".join(b.text().replace("&", "") for b in box.buttons()))
print(when_words("2026-12-07 10:00:00"))
print(translate("StatusPanel", "%n entities", "", 1234))
"""


def test_the_choice_picks_the_locale(monkeypatch):
    monkeypatch.delenv(i18n.ENV_LANGUAGE, raising=False)
    assert i18n.chosen_locale("es").language() == QLocale.Language.Spanish
    assert i18n.chosen_locale("en").language() == QLocale.Language.English
    assert i18n.chosen_locale("system") == QLocale.system()
    monkeypatch.setenv(i18n.ENV_LANGUAGE, "es")
    assert i18n.chosen_locale("en").language() == QLocale.Language.Spanish
    assert i18n.language_code(QLocale(QLocale.Language.German)) == "en"  # no German yet: English
    assert i18n.language_code(QLocale(QLocale.Language.Spanish, QLocale.Country.Mexico)) == "es"


def test_settings_offer_the_language_and_keep_it(qtbot):
    from limbic.ui.dialogs.settings_dialog import SettingsDialog

    dialog = SettingsDialog(config.Settings(language="es"), "/tmp/x.db")
    qtbot.addWidget(dialog)
    assert dialog.language.currentData() == "es" and dialog.language.currentText() == "Español"
    assert [dialog.language.itemData(i) for i in range(dialog.language.count())] == ["system", "en", "es"]
    dialog.language.setCurrentIndex(dialog.language.findData("en"))
    chosen = dialog.result_settings()
    assert chosen.language == "en"
    config.save_settings(chosen)
    assert config.load_settings().language == "en"


def test_an_unknown_language_in_the_settings_file_reads_as_the_system(tmp_path):
    config.settings_path().parent.mkdir(parents=True, exist_ok=True)
    config.settings_path().write_text(json.dumps({"version": 1, "language": "xx"}), encoding="utf-8")
    assert config.load_settings().language == "system"


def _start(tmp_path: Path, lang: str, choice: str | None) -> list[str]:
    """A fresh process starting the app's QApplication as `limbic` does, under ``LANG=lang``."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    resources = tmp_path / "resources"
    shutil.copytree(ROOT / "resources", resources, ignore=shutil.ignore_patterns("*.qm", "sample_graph.jsonl"))
    compile_translations(resources / "i18n")
    home = tmp_path / "app-home"
    home.mkdir()
    if choice:
        (home / "settings.json").write_text(json.dumps({"version": 1, "language": choice}), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG")) and k != i18n.ENV_LANGUAGE}
    env.update(LANG=lang, LIMBIC_HOME=str(home), LIMBIC_RESOURCES=str(resources), QT_QPA_PLATFORM="offscreen",
               TZ="UTC")
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.splitlines()


def test_a_spanish_system_gets_a_spanish_window(tmp_path):
    settings, buttons, day, count = _start(tmp_path, "es_ES.UTF-8", None)
    assert settings == "Ajustes"
    assert buttons == "Sí No"  # Qt's own buttons, from qtbase_es
    assert day == "7 dic 10:00"  # the locale's month, not “7 Dec”
    assert count == "1234 entidades" or count == "1.234 entidades"


def test_the_setting_wins_over_the_system(tmp_path):
    settings, buttons, day, count = _start(tmp_path / "en", "es_ES.UTF-8", "en")
    assert (settings, buttons, day, count) == ("Settings", "Yes No", "7 Dec 10:00", "1,234 entities")
    settings, buttons, *_ = _start(tmp_path / "es", "en_US.UTF-8", "es")
    assert (settings, buttons) == ("Ajustes", "Sí No")
