"""What an undoable step did, in the window's language: the service names each step in English words
("observation edit in “Ada”"); these are said again from their parts through Qt's translation."""

from __future__ import annotations

import re

from PySide6.QtCore import QT_TRANSLATE_NOOP

from limbic.ui.common.i18n import translate

_Q = "“([^”]*)”"
# (the service's words as a pattern, the same in the window's language with the names as blanks)
_SAID = [
    (re.compile(rf"^creation of {_Q}$"), QT_TRANSLATE_NOOP("UndoWords", "creation of “{a}”")),
    (re.compile(rf"^rename of {_Q}$"), QT_TRANSLATE_NOOP("UndoWords", "rename of “{a}”")),
    (re.compile(rf"^type change of {_Q}$"), QT_TRANSLATE_NOOP("UndoWords", "type change of “{a}”")),
    (re.compile(rf"^observation edit in {_Q}$"), QT_TRANSLATE_NOOP("UndoWords", "observation edit in “{a}”")),
    (re.compile(rf"^relation change of {_Q}$"), QT_TRANSLATE_NOOP("UndoWords", "relation change of “{a}”")),
    (re.compile(rf"^edit of {_Q}$"), QT_TRANSLATE_NOOP("UndoWords", "edit of “{a}”")),
    (re.compile(rf"^delete of {_Q}$"), QT_TRANSLATE_NOOP("UndoWords", "delete of “{a}”")),
    (re.compile(rf"^import of {_Q}$"), QT_TRANSLATE_NOOP("UndoWords", "import of “{a}”")),
    (re.compile(rf"^alias {_Q} of {_Q}$"), QT_TRANSLATE_NOOP("UndoWords", "alias “{a}” of “{b}”")),
    (re.compile(rf"^alias removal {_Q} of {_Q}$"), QT_TRANSLATE_NOOP("UndoWords", "alias removal “{a}” of “{b}”")),
    (re.compile(rf"^merge of {_Q} into {_Q}$"), QT_TRANSLATE_NOOP("UndoWords", "merge of “{a}” into “{b}”")),
    (re.compile(rf"^type rename of {_Q} to {_Q}$"), QT_TRANSLATE_NOOP("UndoWords", "type rename of “{a}” to “{b}”")),
]


def said(label: str) -> str:
    """``label`` in the window's language where it is one of the service's; as it is otherwise."""
    for pattern, words in _SAID:
        match = pattern.match(label)
        if match:
            names = dict(zip("ab", match.groups()))
            return translate("UndoWords", words).format(**names)
    return label
