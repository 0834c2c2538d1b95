"""The window's language, by Qt's own machinery.

Every visible string goes through ``translate(context, text)`` (or ``translate(context, "%n entities", "", n)``
for a counted noun); ``pyside6-lupdate`` gathers them into ``resources/i18n/limbic_es.ts`` and
``pyside6-lrelease`` compiles that into the ``.qm`` loaded here (``make translations``, run by ``make setup``
and so by ``make package``, which bundles the resources folder; it also copies Qt's ``qtbase_es.qm`` there). The language follows the system (LANG, LC_ALL) unless Settings chooses one; Qt's
own strings (Yes, No, Cancel, the file dialogs) come from the ``qtbase`` translations shipped with PySide6.
Dates and numbers are written by the chosen ``QLocale``.
"""

from __future__ import annotations

import logging
import os
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QDate, QLibraryInfo, QLocale, QT_TRANSLATE_NOOP, QTranslator

from limbic import config

logger = logging.getLogger(__name__)

# What Settings offers: the stored value and its label (a language's own name is never translated).
LANGUAGE_CHOICES = (("system", QT_TRANSLATE_NOOP("Settings", "As the system")), ("en", "English"), ("es", "Español"))
LANGUAGES = ("system", "en", "es")
TRANSLATED = ("es",)  # the languages Limbic has a translation for; any other locale reads English
ENV_LANGUAGE = "LIMBIC_LANGUAGE"  # overrides the setting for one run (en, es): tests, screenshots

_installed: list[QTranslator] = []


def translate(context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str:
    """``text`` in the window's language (``%n`` in it is ``n``, with the noun in the right number)."""
    return QCoreApplication.translate(context, text, disambiguation, n)


def qm_dirs() -> list[Path]:
    """Where the compiled translations are looked for: the resources folder (checkout, bundle, .deb)."""
    return [config.resources_dir() / "i18n"]


def chosen_locale(choice: str | None = None) -> QLocale:
    """The locale the window speaks: the choice (en, es), else the system's; a language Limbic has no
    translation for reads English, with the system's own way of writing dates and numbers kept."""
    choice = os.environ.get(ENV_LANGUAGE) or choice or "system"
    if choice == "en":
        return QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
    if choice == "es":
        return QLocale(QLocale.Language.Spanish, QLocale.Country.Spain)
    return QLocale.system()


def language_code(locale: QLocale) -> str:
    """``es`` for any Spanish locale, otherwise ``en`` (the source language)."""
    code = locale.name().split("_")[0]
    return code if code in TRANSLATED else "en"


def install(app: QCoreApplication, choice: str | None = None) -> QLocale:
    """Load Limbic's and Qt's translations for the chosen language into ``app``; returns its locale.

    Called once, before any window is built (a change in Settings applies on the next start)."""
    for old in _installed:
        app.removeTranslator(old)
    _installed.clear()
    locale = chosen_locale(choice)
    QLocale.setDefault(locale)
    code = language_code(locale)
    ours = QTranslator(app)
    # English needs its file too: it holds the singular and plural of every counted noun ("1 entity").
    if any(ours.load(f"limbic_{code}", str(folder)) for folder in qm_dirs()):
        app.installTranslator(ours)
        _installed.append(ours)
    else:
        logger.warning("no compiled translation limbic_%s.qm in %s (make translations)", code,
                       ", ".join(map(str, qm_dirs())))
    if code != "en":
        # Qt's own strings (Yes, No, Cancel, the file dialog): the copy beside Limbic's (a bundle leaves out
        # PySide6's translations folder), else PySide6's own.
        qt = QTranslator(app)
        qt_dirs = [str(folder) for folder in qm_dirs()] + [QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)]
        if any(qt.load(locale, "qtbase", "_", folder) for folder in qt_dirs):
            app.installTranslator(qt)
            _installed.append(qt)
    return locale


def uninstall(app: QCoreApplication) -> None:
    """Back to the source language (English) and the system's locale: what ``install`` loaded is removed."""
    for old in _installed:
        app.removeTranslator(old)
    _installed.clear()
    QLocale.setDefault(QLocale.system())


def current_code() -> str:
    """The language the window speaks now: ``en`` or ``es``."""
    return language_code(QLocale())


def short_date(moment: datetime, with_year: bool = False) -> str:
    """A day as the locale writes it briefly: “7 Dec” in English, “7 dic” in Spanish (the year when asked)."""
    return QLocale().toString(QDate(moment.year, moment.month, moment.day), "d MMM yyyy" if with_year else "d MMM")


def time_of_day(moment: datetime) -> str:
    """Hours and minutes, 24-hour, as the locale writes them."""
    return QLocale().toString(moment.time(), "HH:mm")


def number(value: float, decimals: int = -1) -> str:
    """A number with the locale's group and decimal separators (1,234.5 / 1.234,5)."""
    if decimals < 0 and float(value).is_integer():
        return QLocale().toString(int(value))
    return QLocale().toString(float(value), "f", max(decimals, 0) if decimals >= 0 else 2)
