"""Painting helpers of the graph canvas: a QPolygonF straight from numpy, opaque colour mixes, the theme's lightness."""

from __future__ import annotations

import numpy as np
import shiboken6
from PySide6.QtGui import QColor, QPalette, QPolygonF
from PySide6.QtWidgets import QWidget


def polygon(points: np.ndarray) -> QPolygonF:
    """A QPolygonF filled from an (m, 2) array in one copy (no Python object per point)."""
    arr = np.ascontiguousarray(points, dtype=np.float64).reshape(-1, 2)
    poly = QPolygonF()
    if len(arr) == 0:
        return poly
    poly.resize(len(arr))
    buffer = shiboken6.VoidPtr(poly.data(), arr.nbytes, True)
    np.frombuffer(buffer, dtype=np.float64).reshape(-1, 2)[:] = arr
    return poly


def mix(colour: QColor, background: QColor, amount: float) -> QColor:
    """The opaque colour ``colour`` drawn over ``background`` at opacity ``amount`` looks like."""
    return QColor.fromRgbF(*(amount * a + (1 - amount) * b for a, b in zip(
        (colour.redF(), colour.greenF(), colour.blueF()), (background.redF(), background.greenF(), background.blueF()))))


def is_dark(widget: QWidget) -> bool:
    """Whether the widget's theme is dark (its window colour is below mid lightness)."""
    return widget.palette().color(QPalette.ColorRole.Window).lightness() < 128
