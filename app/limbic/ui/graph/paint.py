"""Painting helpers of the graph canvas: a QPolygonF straight from numpy, opaque colour mixes, the theme's lightness,
the legend, nodes as points or discs."""

from __future__ import annotations

import numpy as np
import shiboken6
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen, QPolygonF
from PySide6.QtWidgets import QWidget

from limbic.ui.graph.legend import cell
from limbic.ui.graph.scene import KIND_MORE, KIND_SUGGESTION


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


def draw_points(painter, screen, r_px, vis_idx, colours, colour_idx, round_caps: bool = False) -> None:
    """Many nodes: one ``drawPoints`` call per colour and size class."""
    size = np.clip(np.round(2 * r_px[vis_idx]), 2, 40 if round_caps else 8).astype(np.int64)
    key = colour_idx[vis_idx] * 64 + size
    order = np.argsort(key, kind="stable")
    keys, starts = np.unique(key[order], return_index=True)
    bounds = list(starts) + [len(order)]
    for g, k in enumerate(keys):
        members = vis_idx[order[bounds[g]:bounds[g + 1]]]
        pen = QPen(colours[int(k // 64)], float(k % 64))
        pen.setCapStyle(Qt.PenCapStyle.RoundCap if round_caps else Qt.PenCapStyle.SquareCap)
        painter.setPen(pen)
        painter.drawPoints(polygon(screen[members]))


def draw_discs(painter, s, screen, r_px, vis_idx, colours, colour_idx, palette) -> None:
    """Few nodes: each an outlined disc; suggestions, "+N more" nodes and removed ones (faded) outlined apart."""
    outline = QPen(palette.color(QPalette.ColorRole.Base), 1.2)
    types = len(s.type_names) + 1
    for i in vis_idx:
        x, y = screen[i]
        r = float(r_px[i])
        colour = colours[int(colour_idx[i])]
        if s.kinds[i] == KIND_SUGGESTION:
            painter.setPen(QPen(colour, 2.0, Qt.PenStyle.DashLine))
            painter.setBrush(palette.color(QPalette.ColorRole.Base))
        elif s.kinds[i] == KIND_MORE:
            painter.setPen(QPen(colour, 1.5, Qt.PenStyle.DotLine))
            painter.setBrush(palette.color(QPalette.ColorRole.AlternateBase))
        elif len(s.ghost) and s.ghost[i]:  # removed since the slider's date: faded, with its own colour dashed round it
            painter.setPen(QPen(colours[int(colour_idx[i]) - types], 1.5, Qt.PenStyle.DashLine))
            painter.setBrush(colour)
        elif len(s.added) and s.added[i]:  # came after the slider's date: an outline in its own colour
            painter.setPen(QPen(colours[int(colour_idx[i]) - 2 * types], 1.5))
            painter.setBrush(colour)
        else:
            painter.setPen(outline)
            painter.setBrush(colour)
        painter.drawEllipse(QPointF(x, y), r, r)
    painter.setBrush(Qt.BrushStyle.NoBrush)
