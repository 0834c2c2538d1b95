"""The window's size, position, splitters and graph panel, remembered between runs (beside the app's settings)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QMainWindow, QSplitter, QWidget

from limbic import config
from limbic.ui.common import window_fit


def _settings() -> QSettings:
    return QSettings(str(config.data_dir() / "window.ini"), QSettings.Format.IniFormat)


@dataclass(frozen=True)
class WindowLayout:
    """The pieces of the main window whose sizes are remembered."""

    window: QMainWindow
    splitter: QSplitter  # the results beside the editor
    results: QWidget  # the left pane: results, the empty-search lists or the empty graph's hint
    editor: QWidget
    editor_splitter: QSplitter  # inside the editor


def _parts(layout: WindowLayout) -> tuple:
    """(key, save, restore) for each remembered piece of the main window."""
    window = layout.window
    return (
        ("geometry", window.saveGeometry, window.restoreGeometry),
        ("state", window.saveState, window.restoreState),
        ("splitter", layout.splitter.saveState, layout.splitter.restoreState),
        ("editor", layout.editor_splitter.saveState, layout.editor_splitter.restoreState),
    )


def restore_layout(layout: WindowLayout, default_size: tuple[int, int]) -> None:
    """Bring back the last layout; on a first run the window fits the screen and the results get a
    little more room than the editor. A layout saved on a bigger (or less scaled) screen is shrunk to this one."""
    window = layout.window
    window.resize(window_fit.initial_size(window_fit.available(window).size(), default_size))
    window_fit.apply_minimums(layout.results, layout.editor, layout.splitter)
    window_fit.keep_docks_in_step(window)
    width = window.width()
    layout.splitter.setSizes([width * 11 // 20, width * 9 // 20])
    qs = _settings()
    room = layout.splitter.findChild(window_fit.EditorRoom)
    if room is not None:  # the results' share the person chose (restored sizes may be squeezed by a side panel)
        try:
            room.share = min(0.9, max(0.1, float(qs.value("results_share", 11 / 20))))
        except (TypeError, ValueError):
            room.share = 11 / 20
    for key, _save, restore in _parts(layout):
        value = qs.value(key)
        if isinstance(value, QByteArray):
            restore(value)
    window_fit.fit_to_screen(window)


def save_layout(layout: WindowLayout, graph_view: str) -> None:
    """Remember the layout, and which graph panel is open ("local", "whole" or ""), for the next run."""
    qs = _settings()
    for key, save, _restore in _parts(layout):
        qs.setValue(key, save())
    qs.setValue("graph", graph_view)
    room = layout.splitter.findChild(window_fit.EditorRoom)
    if room is not None and room.share is not None:
        qs.setValue("results_share", room.share)
    qs.sync()


def saved_graph_view() -> str:
    """The graph panel the last run closed with open: "local", "whole" or "" (none)."""
    value = _settings().value("graph", "")
    return value if value in ("local", "whole") else ""


def restore_dock(window) -> None:
    """Put a dock created after start-up (the graph panel loads on first use) where the last run had it."""
    value = _settings().value("state")
    if isinstance(value, QByteArray):
        size = window.size()
        window.restoreState(value)
        if window.size() != size:
            window.resize(size)  # a dock as wide as on a bigger screen takes room inside, not outside
