"""The window's size, position, splitters and graph panel, remembered between runs (beside the app's settings)."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings

from limbic import config
from limbic.ui.common import window_fit


def _settings() -> QSettings:
    return QSettings(str(config.data_dir() / "window.ini"), QSettings.Format.IniFormat)


def _parts(window) -> tuple:
    """(key, save, restore) for each remembered piece of the main window."""
    return (
        ("geometry", window.saveGeometry, window.restoreGeometry),
        ("state", window.saveState, window.restoreState),
        ("splitter", window.splitter.saveState, window.splitter.restoreState),
        ("editor", window.editor.splitter.saveState, window.editor.splitter.restoreState),
    )


def restore_layout(window, default_size: tuple[int, int]) -> None:
    """Bring back the last layout; on a first run the window fits the screen and the results get a
    little more room than the editor. A layout saved on a bigger (or less scaled) screen is shrunk to this one."""
    window.resize(window_fit.initial_size(window_fit.available(window).size(), default_size))
    window_fit.apply_minimums(window)
    width = window.width()
    window.splitter.setSizes([width * 11 // 20, width * 9 // 20])
    qs = _settings()
    for key, _save, restore in _parts(window):
        value = qs.value(key)
        if isinstance(value, QByteArray):
            restore(value)
    window_fit.fit_to_screen(window)


def save_layout(window) -> None:
    """Remember the layout, and which graph panel is open, for the next run."""
    qs = _settings()
    for key, save, _restore in _parts(window):
        qs.setValue(key, save())
    qs.setValue("graph", window.graph.open_mode())
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
