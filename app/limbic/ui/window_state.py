"""The window's size, position, splitters and graph panel, remembered between runs (beside the app's settings)."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings

from limbic import config


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


def restore_layout(window, default_width: int) -> None:
    """Bring back the last layout; on a first run the results get a little more room than the editor."""
    width = window.width() or default_width
    window.splitter.setSizes([width * 11 // 20, width * 9 // 20])
    qs = _settings()
    for key, _save, restore in _parts(window):
        value = qs.value(key)
        if isinstance(value, QByteArray):
            restore(value)


def save_layout(window) -> None:
    qs = _settings()
    for key, save, _restore in _parts(window):
        qs.setValue(key, save())
    dock = getattr(window, "graph_dock", None)
    qs.setValue("graph", dock.panel.mode if dock is not None and dock.isVisible() else "")
    qs.sync()


def saved_graph_view() -> str:
    """The graph panel the last run closed with open: "local", "whole" or "" (none)."""
    value = _settings().value("graph", "")
    return value if value in ("local", "whole") else ""


def restore_dock(window) -> None:
    """Put a dock created after start-up (the graph panel loads on first use) where the last run had it."""
    value = _settings().value("state")
    if isinstance(value, QByteArray):
        window.restoreState(value)
