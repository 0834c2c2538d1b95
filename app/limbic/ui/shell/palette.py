"""The command palette (Ctrl+Shift+P): every action of the window's menus, fuzzy-matched, run with Enter."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu
from rapidfuzz import fuzz, utils

from limbic.ui.common.picker import Picker
from limbic.ui.common.i18n import translate
from PySide6.QtCore import QT_TRANSLATE_NOOP

logger = logging.getLogger(__name__)

FUZZY_WORD = 80.0  # a typed word this close to a word of the command counts ("brwse" is "browse")

# Words people type for a command that its label does not contain, keyed by the label without its menu.
KEYWORDS: dict[str, str] = {
    QT_TRANSLATE_NOOP("Palette", "Export JSONL…"): QT_TRANSLATE_NOOP("Palette", "jsonl json memory file mcp"),
    QT_TRANSLATE_NOOP("Palette", "Export as Markdown…"): QT_TRANSLATE_NOOP("Palette", "md markdown notes obsidian vault folder"),
    QT_TRANSLATE_NOOP("Palette", "Export as CSV…"): QT_TRANSLATE_NOOP("Palette", "csv spreadsheet excel table comma"),
    QT_TRANSLATE_NOOP("Palette", "Import…"): QT_TRANSLATE_NOOP("Palette", "jsonl json csv memory load open"),
    QT_TRANSLATE_NOOP("Palette", "Import a folder of notes…"): QT_TRANSLATE_NOOP("Palette", "markdown md obsidian vault csv folder"),
    QT_TRANSLATE_NOOP("Palette", "Back up now"): QT_TRANSLATE_NOOP("Palette", "backup copy save snapshot"),
    QT_TRANSLATE_NOOP("Palette", "Restore from backup…"): QT_TRANSLATE_NOOP("Palette", "backup snapshot recover"),
    QT_TRANSLATE_NOOP("Palette", "Load the sample graph"): QT_TRANSLATE_NOOP("Palette", "demo example try"),
    QT_TRANSLATE_NOOP("Palette", "Settings…"): QT_TRANSLATE_NOOP("Palette", "preferences options configure scoring ranking"),
    QT_TRANSLATE_NOOP("Palette", "Quit"): QT_TRANSLATE_NOOP("Palette", "exit close"),
    QT_TRANSLATE_NOOP("Palette", "Sync…"): QT_TRANSLATE_NOOP("Palette", "devices folder syncthing dropbox icloud nextcloud onedrive share laptop desktop"),
    QT_TRANSLATE_NOOP("Palette", "Sync conflicts…"): QT_TRANSLATE_NOOP("Palette", "devices conflict mine theirs both resolve choose keep sync"),
    QT_TRANSLATE_NOOP("Palette", "Delete entity…"): QT_TRANSLATE_NOOP("Palette", "remove"),
    QT_TRANSLATE_NOOP("Palette", "Undo"): QT_TRANSLATE_NOOP("Palette", "revert take back"),
    QT_TRANSLATE_NOOP("Palette", "Search"): QT_TRANSLATE_NOOP("Palette", "find query"),
    QT_TRANSLATE_NOOP("Palette", "Quick switcher…"): QT_TRANSLATE_NOOP("Palette", "jump open go to find entity name"),
    QT_TRANSLATE_NOOP("Palette", "Search filters"): QT_TRANSLATE_NOOP("Palette", "filter narrow type status date created updated"),
    QT_TRANSLATE_NOOP("Palette", "Browse entities…"): QT_TRANSLATE_NOOP("Palette", "list all types"),
    QT_TRANSLATE_NOOP("Palette", "Pin entity"): QT_TRANSLATE_NOOP("Palette", "favourite favorite star keep"),
    QT_TRANSLATE_NOOP("Palette", "Merge into…"): QT_TRANSLATE_NOOP("Palette", "combine join"),
    QT_TRANSLATE_NOOP("Palette", "Rename type…"): QT_TRANSLATE_NOOP("Palette", "retype types"),
    QT_TRANSLATE_NOOP("Palette", "Memory health…"): QT_TRANSLATE_NOOP("Palette", "duplicates dupes doubles orphans stale oversized cleanup clean repeated check"),
    QT_TRANSLATE_NOOP("Palette", "Local graph"): QT_TRANSLATE_NOOP("Palette", "neighbours neighbors network map view"),
    QT_TRANSLATE_NOOP("Palette", "Whole graph"): QT_TRANSLATE_NOOP("Palette", "network map view all"),
    QT_TRANSLATE_NOOP("Palette", "Zoom in"): QT_TRANSLATE_NOOP("Palette", "bigger larger text font size"),
    QT_TRANSLATE_NOOP("Palette", "Zoom out"): QT_TRANSLATE_NOOP("Palette", "smaller text font size"),
    QT_TRANSLATE_NOOP("Palette", "Actual size"): QT_TRANSLATE_NOOP("Palette", "reset zoom text font size"),
    QT_TRANSLATE_NOOP("Palette", "Activity panel"): QT_TRANSLATE_NOOP("Palette", "assistants changes log review history sessions"),
    QT_TRANSLATE_NOOP("Palette", "Mark all reviewed"): QT_TRANSLATE_NOOP("Palette", "activity read seen"),
    QT_TRANSLATE_NOOP("Palette", "Keyboard shortcuts"): QT_TRANSLATE_NOOP("Palette", "keys help cheatsheet"),
    QT_TRANSLATE_NOOP("Palette", "About Limbic"): QT_TRANSLATE_NOOP("Palette", "version"),
}


def keywords(action: str) -> str:
    """The words people type for a command, in English and in the window's language (the label may be either)."""
    for label, words in KEYWORDS.items():
        if action in (label, translate("Palette", label)):
            return f"{words} {translate('Palette', words)}"
    return ""


@dataclass
class Command:
    """One action as the palette lists it."""

    label: str  # "File: Import…"
    shortcut: str  # "Ctrl+I", or ""
    action: QAction


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def shortcut_text(action: QAction) -> str:
    """The action's keys as the menus show them, alternatives joined ("Ctrl+O or Ctrl+P")."""
    keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts() if not k.isEmpty()]
    return " or ".join(keys)


def window_commands(window: QMainWindow) -> list[Command]:
    """Every action reachable from the menu bar, in menu order, labelled "Menu: Action"."""
    found: list[Command] = []
    seen: set[int] = set()

    def walk(menu: QMenu, path: str) -> None:
        for action in menu.actions():
            if action.isSeparator() or not action.isVisible() or id(action) in seen:
                continue
            sub = action.menu()
            if sub is not None:
                if sub.actions():  # a submenu filled as it opens (Open recent) has nothing to run yet
                    walk(sub, f"{path} › {_plain(action.text())}")
                continue
            seen.add(id(action))
            found.append(Command(f"{path}: {_plain(action.text())}", shortcut_text(action), action))

    for top in window.menuBar().actions():
        if top.menu() is not None:
            walk(top.menu(), _plain(top.text()))
    return found


def _words(text: str) -> list[str]:
    return utils.default_process(text).split()


def _word_match(typed: str, words: list[str]) -> int:
    """2: ``typed`` starts one of ``words``; 1: close to one of them (a typo); 0: neither."""
    if any(w.startswith(typed) for w in words):
        return 2
    # Compared with the word's start as long as the typed text, so "brws" finds "browse" but "dark" not "markdown".
    if len(typed) >= 3 and any(fuzz.ratio(typed, w[: len(typed) + 1]) >= FUZZY_WORD for w in words):
        return 1
    return 0


def rank_commands(commands: list[Command], text: str) -> list[Command]:
    """The commands matching ``text`` best first; all of them, in menu order, for an empty text.

    Every typed word is looked for at the start of a word of the label, then of the command's
    keywords and tip, then as a close spelling; commands where every word was found come before
    those where only some were, so "export csv" puts Export as CSV before Export JSONL.
    """
    typed = _words(text)
    if not typed:
        return list(commands)
    scored = []
    for index, command in enumerate(commands):
        action = _plain(command.action.text())
        name_words = _words(action)
        name_words += [a + b for a, b in zip(name_words, name_words[1:])]  # "backup" is "Back up"
        menu_words = _words(command.label[: -len(action)] if command.label.endswith(action) else command.label)
        extra_words = _words(f"{keywords(action)} {command.action.toolTip()}")
        found, score = 0, 0.0
        for position, word in enumerate(typed):
            name = _word_match(word, name_words)
            extra = 0 if name == 2 else max(_word_match(word, menu_words), _word_match(word, extra_words))
            best = max(name * 3.0, extra * 2.0 if extra == 2 else extra * 1.0)
            if best:
                found += 1
                score += best + (0.5 if position < len(name_words) and name_words[position].startswith(word) else 0.0)
        if found:
            scored.append((found == len(typed), found, score, -index))
    order = sorted(range(len(scored)), key=lambda i: scored[i], reverse=True)
    ranked = [(scored[i], commands[-scored[i][3]]) for i in order]
    complete = [c for key, c in ranked if key[0]]
    # Commands missing a typed word are listed only when none has them all (a typo in one word).
    return complete or [c for _, c in ranked]


class CommandPalette(Picker):
    """Lists the window's actions; Enter runs the selected one (greyed ones cannot run now)."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window, translate("CommandPalette", "Run a command…"), translate("CommandPalette", "Type to filter · Up/Down move · Enter runs · Esc closes"))
        self.setObjectName("commandPalette")
        self.window_ = window
        self.empty_text = translate("CommandPalette", "No command matches.")
        self.commands: list[Command] = []
        self.chosen.connect(self.run)

    def popup(self) -> None:
        """Collect the actions afresh (texts and enabled states change) and show."""
        self.commands = [c for c in window_commands(self.window_) if c.action is not getattr(self.window_, "palette_action", None)]
        super().popup()

    def on_text(self, text: str) -> None:
        self.set_rows([(c.label, c.shortcut, c.action, c.action.isEnabled()) for c in rank_commands(self.commands, text)])

    def run(self, action: QAction) -> None:
        logger.debug("palette runs %s", action.text())
        action.trigger()
