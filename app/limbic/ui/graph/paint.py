"""Painting helpers of the graph canvas: a QPolygonF straight from numpy, opaque colour mixes, the theme's lightness, the legend."""

from __future__ import annotations

import numpy as np
import shiboken6
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen, QPolygonF
from PySide6.QtWidgets import QWidget

from limbic.ui.graph.legend import cell


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


def draw_legend(painter, legend, colours, box, metrics, palette, title: str, folded: bool) -> None:
    """The legend in its box: a title that folds it, then a coloured dot and name per type (in columns when
    many), and the "+N more types" line in the link colour, unless folded."""
    if box is None:
        return
    x0, y0 = box[0], box[1]
    rect = QRectF(x0, y0, box[2] - x0, box[3] - y0)
    back = QColor(palette.color(QPalette.ColorRole.Window))
    back.setAlpha(225)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    painter.fillRect(rect, back)
    painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 0))
    painter.drawRect(rect)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    hint = QColor(palette.color(QPalette.ColorRole.Text))
    hint.setAlpha(160)
    painter.setPen(hint)
    painter.drawText(QPointF(x0 + 8, y0 + 4 + metrics.ascent()), title)
    if folded:
        return
    line = legend.line
    for k, (c, name, _count) in enumerate(legend.shown):
        x, y = cell(legend, box, k)
        painter.setBrush(colours[c])
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawEllipse(QPointF(x + 12, y + line / 2 - 1), 5, 5)
        painter.setPen(palette.color(QPalette.ColorRole.Text))
        painter.drawText(QPointF(x + 24, y + metrics.ascent()), name)
    if legend.link:
        x, y = cell(legend, box, len(legend.shown))
        painter.setPen(palette.color(QPalette.ColorRole.Link))
        painter.drawText(QPointF(x + 8, y + metrics.ascent()), legend.link)
    painter.setBrush(Qt.BrushStyle.NoBrush)
