"""View → Zoom in / out / Actual size (Ctrl+= / Ctrl+- / Ctrl+0): the text size of the whole
application, in steps, remembered in the settings across runs."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Callable

from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import QApplication

from limbic import config
from limbic.ui.common.hooks import StatusLine, WindowHooks
from limbic.ui.common.i18n import translate

logger = logging.getLogger(__name__)

STEPS = (70, 80, 90, 100, 110, 125, 140, 160, 180, 200)  # percent of the system's text size
DEFAULT = 100
_PROPERTY_BASE_FONT = "limbicBaseFont"
_PROPERTY_ZOOM = "limbicZoom"
STYLE_SHEET_PROPERTY = "limbicStyleSheet"  # the theme's stylesheet before scaling
_POINTS = re.compile(r"(\d+(?:\.\d+)?)pt\b")


def clamp(percent: int) -> int:
    """The nearest step to ``percent`` (a hand-edited settings file may hold anything)."""
    return min(STEPS, key=lambda s: abs(s - int(percent)))


def step(percent: int, delta: int) -> int:
    """The next step up (``delta`` > 0) or down from ``percent``."""
    at = STEPS.index(clamp(percent))
    return STEPS[max(0, min(len(STEPS) - 1, at + delta))]


def current(app: QApplication) -> int:
    """The zoom in effect, in percent."""
    value = app.property(_PROPERTY_ZOOM)
    return int(value) if value else DEFAULT


def scale_points(stylesheet: str, percent: int) -> str:
    """The stylesheet with every size in points scaled (its 11pt search field grows with the rest)."""
    if percent == DEFAULT:
        return stylesheet
    return _POINTS.sub(lambda m: f"{float(m.group(1)) * percent / 100:.1f}pt", stylesheet)


def apply(app: QApplication, percent: int) -> int:
    """Set the application's text size to ``percent`` of the system's; returns the step applied."""
    percent = clamp(percent)
    base = app.property(_PROPERTY_BASE_FONT)
    if not isinstance(base, QFont):
        base = QFont(app.font())
        app.setProperty(_PROPERTY_BASE_FONT, base)
    font = QFont(base)
    size = base.pointSizeF() if base.pointSizeF() > 0 else 10.0
    font.setPointSizeF(size * percent / 100)
    app.setProperty(_PROPERTY_ZOOM, percent)
    app.setFont(font)
    sheet = app.property(STYLE_SHEET_PROPERTY)
    if isinstance(sheet, str) and sheet:
        app.setStyleSheet(scale_points(sheet, percent))
    return percent


@dataclass(frozen=True)
class ZoomParts:
    """What the zoom works with: where its actions go, where it says the new size, where it is remembered."""

    hooks: WindowHooks
    status: StatusLine
    settings: Callable[[], config.Settings]  # the settings in use (File → Settings may replace them)


def install(parts: ZoomParts, menu) -> tuple[QAction, QAction, QAction]:
    """Add Zoom in, Zoom out and Actual size to ``menu`` (the View menu) and bring back the remembered size."""
    add = parts.hooks.add_action
    zoom_in = add(menu, translate("Zoom", "Zoom &in"), lambda: zoom_by(parts, +1), "Ctrl+=", tip=translate("Zoom", "Larger text everywhere"))
    zoom_in.setShortcuts([QKeySequence("Ctrl+="), QKeySequence("Ctrl++")])
    zoom_out = add(menu, translate("Zoom", "Zoom &out"), lambda: zoom_by(parts, -1), "Ctrl+-", tip=translate("Zoom", "Smaller text everywhere"))
    reset = add(menu, translate("Zoom", "&Actual size"), lambda: set_zoom(parts, DEFAULT), "Ctrl+0", tip=translate("Zoom", "The system's text size"))
    saved = clamp(parts.settings().zoom)
    if saved != current(QApplication.instance()):
        apply(QApplication.instance(), saved)
    return zoom_in, zoom_out, reset


def zoom_by(parts: ZoomParts, delta: int) -> None:
    """One step larger or smaller."""
    set_zoom(parts, step(current(QApplication.instance()), delta))


def set_zoom(parts: ZoomParts, percent: int) -> None:
    """Apply and remember a zoom step."""
    percent = apply(QApplication.instance(), percent)
    settings = parts.settings()
    settings.zoom = percent
    config.save_settings(settings)
    parts.status.say(translate("Zoom", "Text size {percent}%.").format(percent=percent) + ("" if percent == DEFAULT else " Ctrl+0 goes back to 100%."), 3000)
