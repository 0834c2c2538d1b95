"""Walk every surface of the window and gather the texts a person sees: the language tests read them.

``walk_everything`` opens the panels, triggers every menu command (dialogs open without blocking; Qt's message
boxes and file dialogs are answered at once, their texts kept) and collects from every window on screen the texts
of labels, buttons, menus and actions, tooltips, placeholders, window titles, group titles, headers, tabs and
combo box items, with where each was found.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDialog,
    QDockWidget,
    QFileDialog,
    QGroupBox,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QTabWidget,
    QTextEdit,
    QWidget,
)

# Commands the walk leaves alone: they end the run, or replace the graph under it.
SKIPPED = re.compile(r"^(Quit|Salir|Close|Cerrar|Open database|Abrir base|New database|Nueva base|Restore|Restaurar"
                     r"|Open recent|Recientes)", re.I)


@dataclass(frozen=True)
class Seen:
    text: str
    where: str


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").strip()


def texts_of(widget: QWidget) -> list[Seen]:
    """The visible texts of ``widget`` and everything in it."""
    out: list[Seen] = []
    widgets = [widget] + widget.findChildren(QWidget)
    for w in widgets:
        name = f"{type(w).__name__}:{w.objectName() or '-'}"
        if w.isWindow() and w.windowTitle():
            out.append(Seen(w.windowTitle(), f"title {name}"))
        if w.toolTip():
            out.append(Seen(w.toolTip(), f"tooltip {name}"))
        if isinstance(w, QLabel) and w.text():
            out.append(Seen(w.text(), f"label {name}"))
        elif isinstance(w, QAbstractButton) and w.text():
            out.append(Seen(_plain(w.text()), f"button {name}"))
        elif isinstance(w, QLineEdit) and w.placeholderText():
            out.append(Seen(w.placeholderText(), f"placeholder {name}"))
        elif isinstance(w, (QPlainTextEdit, QTextEdit)) and w.placeholderText():
            out.append(Seen(w.placeholderText(), f"placeholder {name}"))
        elif isinstance(w, QGroupBox) and w.title():
            out.append(Seen(_plain(w.title()), f"group {name}"))
        elif isinstance(w, QDockWidget) and w.windowTitle():
            out.append(Seen(w.windowTitle(), f"dock {name}"))
        elif isinstance(w, QComboBox) and not w.isEditable():
            out += [Seen(w.itemText(i), f"choice {name}") for i in range(w.count())]
        elif isinstance(w, QTabWidget):
            out += [Seen(_plain(w.tabText(i)), f"tab {name}") for i in range(w.count())]
        elif isinstance(w, QHeaderView) and w.model() is not None:
            model, horizontal = w.model(), w.orientation().value == 1
            count = model.columnCount() if horizontal else 0
            out += [Seen(str(model.headerData(i, w.orientation()) or ""), f"header {name}") for i in range(count)]
        elif isinstance(w, QMenu):
            out += menu_texts(w, name)
        if isinstance(w, QAbstractItemView) and not isinstance(w, QHeaderView):
            pass  # the rows of a list are the graph's own words (names, observations)
    return [s for s in out if s.text.strip()]


def menu_texts(menu: QMenu, where: str = "") -> list[Seen]:
    out = [Seen(_plain(menu.title()), f"menu {where}")] if menu.title() else []
    for action in menu.actions():
        if action.isSeparator():
            continue
        if action.text():
            out.append(Seen(_plain(action.text()), f"action in {_plain(menu.title()) or where}"))
        if action.toolTip() and action.toolTip() != _plain(action.text()):
            out.append(Seen(action.toolTip(), f"action tooltip {_plain(action.text())}"))
        if action.menu() is not None and action.menu() is not menu:
            out += menu_texts(action.menu(), _plain(action.text()))
    return out


class Answers:
    """Qt's blocking dialogs answered at once; what they said is kept for the walk."""

    def __init__(self, monkeypatch) -> None:
        self.said: list[Seen] = []

        def box(kind):
            def answer(parent, title, text, *args, **kwargs):
                self.said += [Seen(title, f"{kind} title"), Seen(text, f"{kind} text")]
                return QMessageBox.StandardButton.Cancel if kind != "about" else None
            return answer

        for kind in ("question", "warning", "information", "critical", "about"):
            monkeypatch.setattr(QMessageBox, kind, staticmethod(box(kind)))

        def exec_box(box_self):
            self.said += [Seen(box_self.windowTitle(), "message title"), Seen(box_self.text(), "message text")]
            self.said += [Seen(_plain(b.text()), "message button") for b in box_self.buttons()]
            return QMessageBox.StandardButton.Cancel

        monkeypatch.setattr(QMessageBox, "exec", exec_box)

        def exec_dialog(dialog_self):
            dialog_self.show()
            QCoreApplication.processEvents()
            self.said += texts_of(dialog_self)
            dialog_self.hide()
            return QDialog.DialogCode.Rejected

        monkeypatch.setattr(QDialog, "exec", exec_dialog)
        for name in ("getOpenFileName", "getSaveFileName", "getExistingDirectory"):
            def nothing(*args, _name=name, **kwargs):
                self.said.append(Seen(str(args[1]) if len(args) > 1 else "", f"file dialog caption {_name}"))
                return "" if _name == "getExistingDirectory" else ("", "")
            monkeypatch.setattr(QFileDialog, name, staticmethod(nothing))
        monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("", False)))
        monkeypatch.setattr(QInputDialog, "getItem", staticmethod(lambda *a, **k: ("", False)))


def walk_everything(qtbot, window, answers: Answers) -> list[Seen]:
    """Trigger every menu command of ``window`` once and gather the texts of every window shown."""
    seen: list[Seen] = []
    for menu_action in window.menuBar().actions():
        menu = menu_action.menu()
        if menu is None:
            continue
        seen += menu_texts(menu, "menu bar")
        for action in list(menu.actions()):
            if action.isSeparator() or action.menu() is not None or not action.isEnabled():
                continue
            if SKIPPED.match(_plain(action.text())):
                continue
            action.trigger()
            qtbot.wait(30)
            for top in QApplication.topLevelWidgets():
                if top.isVisible():
                    seen += texts_of(top)
    for top in QApplication.topLevelWidgets():
        if top.isVisible():
            seen += texts_of(top)
    return seen + answers.said


def english_sources(ts_path: Path) -> dict[str, str]:
    """Every source text of a .ts file and its translation (a plural's first form)."""
    out: dict[str, str] = {}
    for message in ET.parse(ts_path).getroot().iter("message"):
        source = message.findtext("source") or ""
        translation = message.find("translation")
        if translation is None:
            continue
        forms = translation.findall("numerusform")
        text = (forms[0].text if forms else translation.text) or ""
        out.setdefault(source, text)
    return out
