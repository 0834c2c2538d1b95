"""The window in Spanish, by Qt's own machinery: no visible English where a translation exists.

The committed ``resources/i18n/limbic_es.ts`` is compiled with ``pyside6-lrelease`` into a temporary folder and
loaded as the app loads it (``tests/conftest.py`` loads the English one the same way for every other test); then every menu command runs, every panel and dialog opens, and each text a person
sees (labels, buttons, menus, actions, tooltips, placeholders, titles, headers, choices, message boxes) is
compared with the English source texts of the .ts: one that reads as an English source (whole, or as a sentence
with its blanks filled) whose Spanish differs is a failure.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QDialogButtonBox

from limbic.ui.common import i18n
from tests.conftest import compile_translations
from tests.ui.conftest import make_window, open_entity
from tests.ui.language_walk import Answers, english_sources, walk_everything

ROOT = Path(__file__).resolve().parents[2]
TS = ROOT / "resources" / "i18n" / "limbic_es.ts"


@pytest.fixture
def spanish(qapp, tmp_path, monkeypatch):
    """Limbic's and Qt's Spanish translations installed, compiled from the committed .ts; English again after."""
    qm = compile_translations(tmp_path)
    monkeypatch.setattr(i18n, "qm_dirs", lambda: [qm])
    monkeypatch.delenv(i18n.ENV_LANGUAGE, raising=False)
    locale = i18n.install(qapp, "es")
    yield locale
    i18n.install(qapp, "en")


def _template(source: str) -> re.Pattern | None:
    """A source with blanks ({name}, %n) as a pattern of the sentences it makes; None for too little text."""
    literal = re.sub(r"\{[^}]*\}|%n", " ", source)
    if len(re.findall(r"[A-Za-z]{3,}", literal)) < 3:
        return None
    parts = re.split(r"(\{[^}]*\}|%n)", source)
    pattern = "".join(".+?" if p.startswith("{") and p.endswith("}") else r"\d[\d.,]*" if p == "%n" else re.escape(p)
                      for p in parts)
    return re.compile(pattern, re.S)


def untranslated(seen, sources: dict[str, str], data: set[str] = frozenset()) -> list[str]:
    """The texts that read as an English source whose translation differs (the graph's own words, ``data``, are
    the person's: a relation type “used” is not the bar label “used”)."""
    changed = {s: t for s, t in sources.items() if t and t != s}
    templates = [(s, p) for s in changed if ("{" in s or "%n" in s) for p in [_template(s)] if p is not None]
    bad = []
    for item in seen:
        text = item.text.strip()
        if text in data and item.where.startswith("choice"):
            continue
        if text in changed:
            bad.append(f"{item.where}: {text!r}")
            continue
        for source, pattern in templates:
            if pattern.fullmatch(text):
                bad.append(f"{item.where}: {text!r} (from {source!r})")
                break
    return sorted(set(bad))


def test_the_locale_speaks_spanish(spanish):
    assert spanish.language() == QLocale.Language.Spanish
    assert i18n.translate("SettingsDialog", "Settings") != "Settings"
    # Qt's own buttons come from qtbase_es
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Yes | QDialogButtonBox.StandardButton.No)
    texts = {b.text().replace("&", "") for b in box.buttons()}
    assert texts == {"Sí", "No"}


def test_no_english_left_in_the_spanish_window(qtbot, spanish, tmp_path, sample_db_template, monkeypatch):
    target = tmp_path / "sample.db"
    shutil.copyfile(sample_db_template, target)
    answers = Answers(monkeypatch)
    window = make_window(qtbot, target)
    open_entity(qtbot, window, "HAR-2291")
    seen = walk_everything(qtbot, window, answers)
    assert len(seen) > 300  # the walk reached the menus, panels and dialogs
    catalog = window.catalog
    data = set(catalog.entity_types) | set(catalog.relation_types) | set(catalog.names.values())
    bad = untranslated(seen, english_sources(TS), data)
    assert not bad, f"{len(bad)} English texts in the Spanish window:\n" + "\n".join(bad[:80])


def test_the_check_finds_english(spanish):
    """The comparison fails on an English source text shown as it is, whole or with its blanks filled."""
    from tests.ui.language_walk import Seen

    sources = english_sources(TS)
    seen = [Seen("Undo it (Ctrl+Z)", "button"), Seen("Synced: 3 changes sent, 1 change received.", "label"),
            Seen(i18n.translate("StatusPanel", "Undo it (Ctrl+Z)"), "button"), Seen("used", "choice relationFilter")]
    bad = untranslated(seen, sources, data={"used"})
    assert bad == ["button: 'Undo it (Ctrl+Z)'",
                   "label: 'Synced: 3 changes sent, 1 change received.' (from 'Synced: {sent} sent, {received} received.')"]


def test_what_the_service_counts_is_said_in_spanish(spanish):
    """The filters and an import's counts are composed by the window from their fields, in its language."""
    from limbic.engine.formats.jsonl import ImportSummary
    from limbic.service.filters import SearchFilter
    from limbic.ui.search.filter_words import filter_words
    from limbic.ui.shell.import_words import import_words

    flt = SearchFilter(entity_type="Person", status="active", updated_from="2026-01-01")
    assert filter_words(flt) == "tipo Person, estado activa, actualizada desde el 2026-01-01"
    summary = ImportSummary(entities_created=50, entities_in_file=1234, observations_added=1, relations_added=60)
    assert import_words(summary) == "1234 entidades leídas (50 nuevas); 1 observación y 60 relaciones añadidas."


def test_what_undo_names_is_said_in_spanish(spanish):
    """The Edit menu's Undo and the status line name a step in the window's language, names kept as they are."""
    from limbic.ui.shell.undo_words import said

    assert said("observation edit in “Ada”") == "edición de observaciones en “Ada”"
    assert said("merge of “Bob” into “Robert”") == "fusión de “Bob” en “Robert”"
    assert said("revert of change 12") == "revert of change 12"  # not one of the service's: as it is
