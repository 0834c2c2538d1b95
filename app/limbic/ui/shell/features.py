"""The window's keyboard-first extras, hooked in with one call: the command palette, the quick
switcher, search filters, text zoom and drag-and-drop import."""

from __future__ import annotations

import logging

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from limbic.ui.common import screen_fit, zoom
from limbic.ui.dialogs.drop_import import DropImport, DropParts
from limbic.ui.search.filter_bar import FilterParts, SearchFilters
from limbic.ui.shell.assembly import window_hooks
from limbic.ui.shell.palette import CommandPalette
from limbic.ui.shell.switcher import QuickSwitcher
from limbic.ui.common.i18n import translate

logger = logging.getLogger(__name__)


def menu_named(window: QMainWindow, title: str) -> QMenu:
    """The menu bar's menu of that title ("&Go"), made at the end when there is none yet."""
    for action in window.menuBar().actions():
        if action.menu() is not None and action.text().replace("&", "") == title.replace("&", ""):
            return action.menu()
    return window.menuBar().addMenu(title)


def install(window: QMainWindow) -> None:
    """Add the palette, the switcher and zoom to the menus, and take drops of files to import."""
    go = menu_named(window, translate("Features", "&Go"))
    go.addSeparator()
    window.switcher = QuickSwitcher(window)
    window.switcher_action = window.add_action(go, translate("Features", "&Quick switcher…"), window.switcher.popup, "Ctrl+O",
                                            tip=translate("Features", "Jump to an entity by name (typos are fine)"))
    window.switcher_action.setShortcuts([QKeySequence("Ctrl+O"), QKeySequence("Ctrl+P")])
    window.palette = CommandPalette(window)
    window.palette_action = window.add_action(go, translate("Features", "&Command palette…"), window.palette.popup, "Ctrl+Shift+P",
                                           tip=translate("Features", "Run any command by name"))
    hooks = window_hooks(window)
    window.search_filters = SearchFilters(FilterParts(
        engine=window.engine, search_bar=window.search_bar, status=window.status, hooks=hooks,
        rerun_search=window.search.rerun), go)
    zoom_parts = zoom.ZoomParts(hooks=hooks, status=window.status, settings=lambda: window.files.settings)
    window.zoom_in_action, window.zoom_out_action, window.zoom_reset_action = zoom.install(
        zoom_parts, menu_named(window, translate("Features", "&View")))
    window.one_column = screen_fit.install_one_column(window)  # a narrow window: results and editor take turns
    window.drop_import = DropImport(DropParts(status=window.status, hooks=hooks, readonly=lambda: window.readonly,
                                             import_path=window.files.import_path))
