"""The command palette (Ctrl+Shift+P): every action of the window's menus, fuzzy-matched, run with Enter."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu
from rapidfuzz import fuzz, process, utils

from limbic.ui.common.picker import Picker

logger = logging.getLogger(__name__)

MIN_SCORE = 50.0
RELATIVE_GAP = 35.0  # commands this far below the best match are noise next to it


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


def rank_commands(commands: list[Command], text: str) -> list[Command]:
    """The commands matching ``text`` best first; all of them, in menu order, for an empty text."""
    query = utils.default_process(text)
    if not query:
        return list(commands)
    labels = [utils.default_process(c.label) for c in commands]
    hits = process.extract(query, labels, scorer=fuzz.WRatio, processor=None, score_cutoff=MIN_SCORE,
                           limit=len(labels))
    scored = []
    for label, score, index in hits:
        action_words = utils.default_process(_plain(commands[index].action.text()))
        if action_words.startswith(query):
            score += 8.0  # "imp" is Import before it is "File: ...mp..."
        elif query in label:
            score += 4.0
        scored.append((score, index))
    scored.sort(key=lambda s: (-s[0], s[1]))
    best = scored[0][0] if scored else 0.0
    return [commands[i] for score, i in scored if score >= best - RELATIVE_GAP]


class CommandPalette(Picker):
    """Lists the window's actions; Enter runs the selected one (greyed ones cannot run now)."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window, "Run a command…", "Type to filter · Up/Down move · Enter runs · Esc closes")
        self.setObjectName("commandPalette")
        self.window_ = window
        self.empty_text = "No command matches."
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
