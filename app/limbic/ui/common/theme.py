"""Look and feel: the system palette (light or dark), the app icon and a small stylesheet."""

from __future__ import annotations

import logging
import os

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPalette
from PySide6.QtWidgets import QApplication

from limbic import config
from limbic.ui.common import borders, zoom

logger = logging.getLogger(__name__)

ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
SCHEME_ENV = "LIMBIC_COLOR_SCHEME"  # "light" or "dark" forces one; otherwise the system decides


def app_icon() -> QIcon:
    """The window and task-bar icon, from the bundled PNG sizes (SVG as a fallback)."""
    folder = config.resources_dir() / "icons"
    icon = QIcon()
    for size in ICON_SIZES:
        path = folder / f"limbic-{size}.png"
        if path.is_file():
            icon.addFile(str(path))
    if icon.isNull() and (folder / "limbic.svg").is_file():
        icon = QIcon(str(folder / "limbic.svg"))
    return icon


def _dark_palette() -> QPalette:
    """A dark palette for platforms whose style cannot follow a dark colour scheme by itself."""
    p = QPalette()
    window, base, text = QColor("#1f2124"), QColor("#17191b"), QColor("#e6e6e6")
    roles = {
        QPalette.ColorRole.Window: window,
        QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base,
        QPalette.ColorRole.AlternateBase: QColor("#262a2e"),
        QPalette.ColorRole.ToolTipBase: QColor("#2b2f33"),
        QPalette.ColorRole.ToolTipText: text,
        QPalette.ColorRole.PlaceholderText: QColor("#9ba1a6"),  # hints at 7:1 on the base, not 5:1
        QPalette.ColorRole.Text: text,
        QPalette.ColorRole.Button: QColor("#2a2d31"),
        QPalette.ColorRole.ButtonText: text,
        QPalette.ColorRole.BrightText: QColor("#ff6b6b"),
        QPalette.ColorRole.Highlight: QColor("#0f766e"),
        QPalette.ColorRole.HighlightedText: QColor("#ffffff"),
        QPalette.ColorRole.Link: QColor("#2dd4bf"),
        QPalette.ColorRole.Light: QColor("#3a3f44"),
        QPalette.ColorRole.Midlight: QColor("#30343a"),
        QPalette.ColorRole.Mid: QColor("#44494f"),
        QPalette.ColorRole.Dark: QColor("#111214"),
        QPalette.ColorRole.Shadow: QColor("#000000"),
    }
    for role, color in roles.items():
        p.setColor(role, color)
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor("#6d7379"))
    return p


def _light_palette(app: QApplication) -> QPalette:
    """Fusion's light palette with hints dark enough to read (its half-transparent text is about 4:1 on white)."""
    p = app.style().standardPalette()
    p.setColor(QPalette.ColorRole.PlaceholderText, QColor("#5f6368"))
    p.setColor(QPalette.ColorRole.Highlight, QColor("#1d6fb8"))  # white on it at 5.2:1 (Fusion's #308cc6: 3.7:1)
    return p


def _is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


_SYSTEM: tuple[str, QPalette] | None = None  # the style and palette the platform gave, before any change
_changed = False  # whether set_scheme replaced them


def apply(app: QApplication, choice: str | None = None) -> None:
    """Set the icon, the colour scheme (LIMBIC_COLOR_SCHEME, else ``choice``, else the settings) and stylesheet."""
    app.setWindowIcon(app_icon())
    set_scheme(app, choice if choice is not None else config.load_settings().theme)


def set_scheme(app: QApplication, choice: str) -> str:
    """Switch to "light", "dark" or back to "system" now; returns the scheme in effect ("light"/"dark")."""
    global _SYSTEM, _changed
    if _SYSTEM is None:
        _SYSTEM = (app.style().name(), QPalette(app.palette()))
    wanted = os.environ.get(SCHEME_ENV, "").lower() or choice
    hints = QGuiApplication.styleHints()
    if wanted not in ("light", "dark"):
        if hasattr(hints, "unsetColorScheme"):
            hints.unsetColorScheme()
        if _changed:
            app.setStyle(_SYSTEM[0])
            app.setPalette(_SYSTEM[1])
            _changed = False
        if hints.colorScheme() == Qt.ColorScheme.Dark and not _is_dark(app.palette()):
            _fusion(app)
            app.setPalette(_dark_palette())
            _changed = True
    else:
        if hasattr(hints, "setColorScheme"):
            hints.setColorScheme(Qt.ColorScheme.Dark if wanted == "dark" else Qt.ColorScheme.Light)
        _fusion(app)
        app.setPalette(_dark_palette() if wanted == "dark" else _light_palette(app))
        _changed = True
    _stylesheet(app)  # re-applied so widgets take the new palette
    return "dark" if _is_dark(app.palette()) else "light"


_STYLE: list = []  # the one BorderStyle, kept alive beside the application that uses it


def _fusion(app: QApplication) -> None:
    """Fusion with borders that can be seen (3:1) around fields, boxes and buttons, in light and dark."""
    if not _STYLE or not shiboken6.isValid(_STYLE[0]):  # the application deletes a style it replaced
        _STYLE[:] = [borders.BorderStyle()]
    if app.style() is not _STYLE[0]:
        app.setStyle(_STYLE[0])


def _stylesheet(app: QApplication) -> None:
    qss = config.resources_dir() / "style.qss"
    try:
        sheet = qss.read_text(encoding="utf-8")
        app.setProperty(zoom.STYLE_SHEET_PROPERTY, sheet)  # unscaled: View → Zoom scales its sizes in points
        app.setStyleSheet(zoom.scale_points(sheet, zoom.current(app)))
    except OSError as exc:  # a missing stylesheet only costs looks
        logger.warning("stylesheet not loaded: %s", exc)
