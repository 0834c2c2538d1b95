"""A logged change in the window's language: the engine's sentences (engine/graph/change_words.py), each
template translated before it is filled. Used by the Activity panel and the editor's history."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QT_TRANSLATE_NOOP

from limbic.service import activity

# Every template the engine's words use, for the translation files (the engine names them in TEMPLATES;
# tests/ui/test_change_words.py checks the two lists are the same).
TEMPLATES = (
    QT_TRANSLATE_NOOP("ChangeWords", "created “{name}” ({type})"),
    QT_TRANSLATE_NOOP("ChangeWords", "deleted “{name}”"),
    QT_TRANSLATE_NOOP("ChangeWords", "renamed “{old}” → “{new}”"),
    QT_TRANSLATE_NOOP("ChangeWords", "type of “{name}”: {old} → {new}"),
    QT_TRANSLATE_NOOP("ChangeWords", "status of “{name}”: {old} → {new}"),
    QT_TRANSLATE_NOOP("ChangeWords", "marked “{name}” private"),
    QT_TRANSLATE_NOOP("ChangeWords", "“{name}” no longer private"),
    QT_TRANSLATE_NOOP("ChangeWords", "changed “{name}”"),
    QT_TRANSLATE_NOOP("ChangeWords", "added to “{owner}”: “{text}”"),
    QT_TRANSLATE_NOOP("ChangeWords", "removed from “{owner}”: “{text}”"),
    QT_TRANSLATE_NOOP("ChangeWords", "superseded in “{owner}”: “{text}”"),
    QT_TRANSLATE_NOOP("ChangeWords", "brought back in “{owner}”: “{text}”"),
    QT_TRANSLATE_NOOP("ChangeWords", "edited in “{owner}”: “{old}” → “{new}”"),
    QT_TRANSLATE_NOOP("ChangeWords", "held in the world {period} in “{owner}”: “{text}”"),
    QT_TRANSLATE_NOOP("ChangeWords", "changed an observation of “{owner}”"),
    QT_TRANSLATE_NOOP("ChangeWords", "related {arrow}"),
    QT_TRANSLATE_NOOP("ChangeWords", "removed relation {arrow}"),
    QT_TRANSLATE_NOOP("ChangeWords", "ended relation {arrow}"),
    QT_TRANSLATE_NOOP("ChangeWords", "related again {arrow}"),
    QT_TRANSLATE_NOOP("ChangeWords", "held in the world {period}: {arrow}"),
    QT_TRANSLATE_NOOP("ChangeWords", "changed relation {arrow}"),
    QT_TRANSLATE_NOOP("ChangeWords", "gave “{owner}” the alias “{alias}”"),
    QT_TRANSLATE_NOOP("ChangeWords", "removed the alias “{alias}” of “{owner}”"),
    QT_TRANSLATE_NOOP("ChangeWords", "changed the alias “{alias}” of “{owner}”"),
    QT_TRANSLATE_NOOP("ChangeWords", "added a reflection on “{owner}”"),
    QT_TRANSLATE_NOOP("ChangeWords", "removed a reflection on “{owner}”"),
    QT_TRANSLATE_NOOP("ChangeWords", "changed a reflection on “{owner}”"),
    QT_TRANSLATE_NOOP("ChangeWords", "added a reflection"),
    QT_TRANSLATE_NOOP("ChangeWords", "removed a reflection"),
    QT_TRANSLATE_NOOP("ChangeWords", "changed a reflection"),
    QT_TRANSLATE_NOOP("ChangeWords", "from {start} until {until}"),
    QT_TRANSLATE_NOOP("ChangeWords", "since {start}"),
    QT_TRANSLATE_NOOP("ChangeWords", "until {until}"),
    QT_TRANSLATE_NOOP("ChangeWords", "at any time (no dates)"),
    QT_TRANSLATE_NOOP("ChangeWords", "{what} with {brought}"),
    QT_TRANSLATE_NOOP("ChangeWords", "{n} observation"),
    QT_TRANSLATE_NOOP("ChangeWords", "{n} observations"),
    QT_TRANSLATE_NOOP("ChangeWords", "{n} relation"),
    QT_TRANSLATE_NOOP("ChangeWords", "{n} relations"),
    QT_TRANSLATE_NOOP("ChangeWords", "{n} reflection"),
    QT_TRANSLATE_NOOP("ChangeWords", "{n} reflections"),
    QT_TRANSLATE_NOOP("ChangeWords", "{n} alias"),
    QT_TRANSLATE_NOOP("ChangeWords", "{n} aliases"),
    QT_TRANSLATE_NOOP("ChangeWords", "took back change {ids}:"),
    QT_TRANSLATE_NOOP("ChangeWords", "no visible change"),
    QT_TRANSLATE_NOOP("ChangeWords", "{text}; and {n} more"),
)


def _words(template: str) -> str:
    return QCoreApplication.translate("ChangeWords", template)


def change_words(change) -> str:
    """The change in one line, in the window's language."""
    return activity.change_in_words(change, _words)


def item_words(change, item) -> str:
    """One item of the change, in the window's language."""
    return activity.item_in_words(change, item, _words)
