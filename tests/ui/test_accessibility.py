"""A screen reader can use the window: every control named, labels tied to their fields, mnemonics that work,
focus in reading order, and colours that can be told apart in light and dark."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QLineEdit, QPushButton, QSpinBox, QVBoxLayout, \
    QWidget

from limbic import config
from limbic.ui.common import borders, theme
from tests.ui.a11y import literal_ampersands, unnamed
from tests.ui.conftest import open_entity


def _dialogs(w) -> list[QWidget]:
    """Every dialog and popup of the window, made as the window makes them (not run modally)."""
    from limbic.service.backups import BackupInfo
    from limbic.ui.dialogs.backups_dialog import BackupsDialog
    from limbic.ui.dialogs.dialogs import SettingsDialog, ShortcutsDialog
    from limbic.ui.dialogs.import_report import ImportProblemsDialog
    from limbic.ui.editor.create_target import CreateTargetDialog
    from limbic.ui.shell.organise_menu import MergeDialog
    from limbic.ui.sync.sync_dialog import SyncDialog

    made = [
        SettingsDialog(config.load_settings(), str(w.db_path), w),
        SyncDialog("/tmp", "laptop", w),
        ShortcutsDialog(w),
        MergeDialog("Harbor API", w.editor.names_model, w),
        CreateTargetDialog("Valencia Half Marathon 2025", ["Person", "Project"], parent=w),
        BackupsDialog([BackupInfo("/tmp/a.db", "2026-12-01 10:00:00", "before an import", 2048)], "g.db", w),
        ImportProblemsDialog("people.jsonl", [(3, "not JSON")], 10, w),
        w.sync.show_conflicts(),
    ]
    w.organise.on_browse()
    made.append(w.organise.browser)
    for dialog in made:
        dialog.show()
    return made


def test_every_interactive_widget_has_a_name_with_every_panel_and_dialog_open(qtbot, sample_window):
    w = sample_window
    w.resize(1366, 740)
    open_entity(qtbot, w, "Harbor API")
    w.search_filters.toggle(True)
    w.activity.show()
    w.organise.on_health()
    w.graph.show_local_graph()
    qtbot.wait(300)
    missing = []
    for dock in (w.activity.dock, w.organise.health_dock, w.graph.dock):
        dock.raise_()  # each tab of the side column in turn
        qtbot.wait(100)
        missing += unnamed(w)
    w.activity.dock.raise_()
    w.activity.dock.panel.tabs.setCurrentIndex(1)  # What changed since…
    qtbot.wait(100)
    missing += unnamed(w)
    for picker in (w.switcher, w.palette):
        picker.popup()
        missing += unnamed(picker)
        picker.hide()
    for dialog in _dialogs(w):
        missing += unnamed(dialog)
        dialog.close()
    assert sorted(set(missing)) == [], "\n".join(sorted(set(missing)))


def test_no_label_shows_its_mnemonic_and_alt_f_reaches_the_sync_folder(qtbot, sample_window):
    from limbic.ui.sync.sync_dialog import SyncDialog

    w = sample_window
    open_entity(qtbot, w, "Harbor API")
    w.search_filters.toggle(True)
    w.activity.show()
    shown = [w] + _dialogs(w)
    assert sum((literal_ampersands(d) for d in shown), []) == []  # the Sync dialog said "Sync &folder:"
    for dialog in shown[1:]:
        dialog.close()
    sync = SyncDialog("", "laptop", w)
    qtbot.addWidget(sync)
    sync.show()
    qtbot.waitExposed(sync)
    sync.windowHandle().requestActivate()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is sync)
    sync.name.setFocus()
    qtbot.keyClick(sync.name, Qt.Key.Key_F, Qt.KeyboardModifier.AltModifier)
    assert sync.folder.hasFocus()
    qtbot.keyClick(sync.folder, Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)
    assert sync.name.hasFocus()


def _focus_chain(start: QWidget, within: QWidget, steps: int = 600) -> list[QWidget]:
    chain, widget = [], start
    for _ in range(steps):
        if widget.isVisible() and widget.focusPolicy() & Qt.FocusPolicy.TabFocus and widget.isEnabled() \
                and within.isAncestorOf(widget) and widget not in chain and widget.focusProxy() is None \
                and not isinstance(widget.parentWidget(), (QComboBox, QSpinBox)):
            chain.append(widget)
        widget = widget.nextInFocusChain()
        if widget is start:
            break
    return chain


def test_tab_goes_through_the_editor_in_reading_order(qtbot, sample_window):
    w = sample_window
    w.resize(1366, 740)
    ed = open_entity(qtbot, w, "Harbor API")
    chain = _focus_chain(ed.name_edit, ed)
    assert len(chain) > 8
    # Reading order: a later stop is on a lower row, or on the same row further right.
    rows = [(c.mapTo(ed, c.rect().topLeft()).y(), c.mapTo(ed, c.rect().topLeft()).x(), c.objectName()) for c in chain]
    for (y0, x0, n0), (y1, x1, n1) in zip(rows, rows[1:]):
        assert y1 > y0 + 4 or (abs(y1 - y0) <= 12 and x1 > x0), f"{n0} → {n1}: {rows}"
    names = [c.objectName() for c in chain]
    assert names.index("nameEdit") < names.index("observations") < names.index("relationTarget") \
        < names.index("historyList") < names.index("deleteButton")


def _pixels_contrast(widget: QWidget, palette: QPalette) -> float:
    """The best contrast between a pixel of the widget's left edge (or its check box's) and the window around it."""
    image = widget.window().grab().toImage()
    window = palette.color(QPalette.ColorRole.Window)
    rect = widget.geometry()
    if isinstance(widget, QCheckBox):
        from PySide6.QtWidgets import QStyle, QStyleOptionButton

        option = QStyleOptionButton()
        widget.initStyleOption(option)
        rect = widget.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, widget).translated(
            rect.topLeft())
    y = rect.center().y()
    return max(borders.contrast(image.pixelColor(rect.left() + k, y), window) for k in range(3))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_reads_at_4_5_and_control_edges_at_3_to_1(qtbot, scheme):
    app = QApplication.instance()
    try:
        theme.set_scheme(app, scheme)
        p = app.palette()
        r = QPalette.ColorRole
        for fg, bg in ((r.Text, r.Base), (r.WindowText, r.Window), (r.ButtonText, r.Button),
                       (r.PlaceholderText, r.Base), (r.PlaceholderText, r.Window), (r.HighlightedText, r.Highlight),
                       (r.ToolTipText, r.ToolTipBase), (r.Link, r.Base)):
            assert borders.contrast(p.color(fg), p.color(bg)) >= 4.5, (scheme, fg.name, bg.name)
        for ground in borders.grounds(p):
            assert borders.contrast(borders.border_colour(p), ground) >= 3.0, scheme
            assert borders.contrast(borders.focus_colour(p), ground) >= 3.0, scheme
        # As drawn: the edge of a field, a check box, a button, a combo box and a spin box against the window.
        host = QWidget()
        qtbot.addWidget(host)
        layout = QVBoxLayout(host)
        controls = [QLineEdit(), QCheckBox("Similar"), QPushButton("Fit"), QComboBox(), QSpinBox()]
        for control in controls:
            control.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # unfocused: the plain border
            layout.addWidget(control)
        host.resize(240, 220)
        host.show()
        qtbot.waitExposed(host)
        for control in controls:
            assert _pixels_contrast(control, p) >= 3.0, (scheme, type(control).__name__)
        # The status badge's white text on its colours.
        sheet = (config.resources_dir() / "style.qss").read_text(encoding="utf-8")
        for colour in re.findall(r"background: (#[0-9a-fA-F]{6}); color: white;", sheet):
            from PySide6.QtGui import QColor

            assert borders.contrast(QColor(colour), QColor("white")) >= 4.5, colour
    finally:
        theme.set_scheme(app, "light")


def test_the_menu_bar_follows_the_scheme(qtbot, sample_window):
    app = QApplication.instance()
    w = sample_window
    try:
        for scheme in ("dark", "light"):
            theme.set_scheme(app, scheme)
            qtbot.wait(50)
            bar = w.menuBar()
            image = bar.grab().toImage()
            # A pixel of the bar's background, right of its last menu: dark in the dark scheme, light in the light.
            x = bar.actionGeometry(bar.actions()[-1]).right() + 20
            lightness = image.pixelColor(min(x, image.width() - 2), image.height() // 2).lightness()
            assert (lightness < 100) == (scheme == "dark"), (scheme, lightness)
    finally:
        theme.set_scheme(app, "light")
