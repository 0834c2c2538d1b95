"""Fields, boxes and buttons whose edges can be seen: a border at 3:1 against what is around them, light and dark.

Fusion draws a control's edge in the window colour made darker (``darker(140)``): on the dark palette that
is almost the colour of a field's inside (1.1:1), so a check box or an empty field could not be told from
the window; on the light one a check box's edge is 1.7:1. WCAG asks 3:1 for what identifies a control.
``BorderStyle`` is Fusion with one more line around fields, check boxes, radio buttons, buttons, combo
boxes and spin boxes, in ``border_colour`` (the text colour mixed toward the window until the line stands
at 3:1 against the window, a field's inside and a button's face); a focused field keeps its highlight.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QProxyStyle, QStyle, QStyleOption, QWidget

BORDER_CONTRAST = 3.2  # a little over WCAG's 3:1 for a component's edge, so rounding never lands under it

_FRAMED = {
    QStyle.PrimitiveElement.PE_FrameLineEdit: 2.0,
    QStyle.PrimitiveElement.PE_PanelButtonCommand: 2.0,
    QStyle.PrimitiveElement.PE_IndicatorCheckBox: 1.0,
    QStyle.PrimitiveElement.PE_IndicatorRadioButton: -1.0,  # a circle
}
_FRAMED_COMPLEX = (QStyle.ComplexControl.CC_ComboBox, QStyle.ComplexControl.CC_SpinBox)


def luminance(colour: QColor) -> float:
    """WCAG relative luminance."""
    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF()) + 0.0722 * channel(colour.blueF())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two opaque colours, 1 to 21."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _mix(a: QColor, b: QColor, share: float) -> QColor:
    return QColor.fromRgbF(*(x + (y - x) * share for x, y in zip(a.getRgbF()[:3], b.getRgbF()[:3])))


def grounds(palette: QPalette) -> list[QColor]:
    """What a control's edge stands against: the window, a field's inside, a button's face (Fusion lightens it)."""
    button = palette.color(QPalette.ColorRole.Button)
    return [palette.color(QPalette.ColorRole.Window), palette.color(QPalette.ColorRole.Base), button,
            button.lighter(140) if button.lightness() < 128 else button]


def _visible(start: QColor, palette: QPalette, share: float = 0.0) -> QColor:
    """``start`` moved toward the text colour until it stands at ``BORDER_CONTRAST`` against every ground."""
    text = palette.color(QPalette.ColorRole.WindowText)
    colour = _mix(start, text, share)
    while share < 1.0 and min(contrast(colour, g) for g in grounds(palette)) < BORDER_CONTRAST:
        share += 0.02
        colour = _mix(start, text, min(share, 1.0))
    return colour


def border_colour(palette: QPalette) -> QColor:
    """The window colour moved toward the text colour until it stands at ``BORDER_CONTRAST`` against the window,
    a field's inside and a button's face."""
    return _visible(palette.color(QPalette.ColorRole.Window), palette, 0.3)


def focus_colour(palette: QPalette) -> QColor:
    """The highlight, moved toward the text colour where it would not stand at 3:1 (a dark teal on a dark window)."""
    return _visible(palette.color(QPalette.ColorRole.Highlight), palette)


class BorderStyle(QProxyStyle):
    """Fusion, with a border at ``BORDER_CONTRAST`` around every field, box and button."""

    def __init__(self) -> None:
        super().__init__("Fusion")
        self.setObjectName("limbicBorders")

    def _edge(self, option: QStyleOption, painter: QPainter, radius: float) -> None:
        focused = bool(option.state & QStyle.StateFlag.State_HasFocus) and radius == 2.0
        enabled = bool(option.state & QStyle.StateFlag.State_Enabled)
        colour = focus_colour(option.palette) if focused and enabled else border_colour(option.palette)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(colour, 1.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        rect = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5)
        if radius < 0:
            painter.drawEllipse(rect)
        else:
            painter.drawRoundedRect(rect, radius, radius)
        painter.restore()

    def drawPrimitive(self, element, option, painter, widget: QWidget | None = None) -> None:  # noqa: N802 - Qt API
        super().drawPrimitive(element, option, painter, widget)
        radius = _FRAMED.get(element)
        if radius is None or option is None or painter is None:
            return
        if element == QStyle.PrimitiveElement.PE_PanelButtonCommand and option.state & QStyle.StateFlag.State_Sunken \
                and not option.rect.isValid():
            return
        self._edge(option, painter, radius)

    def drawComplexControl(self, control, option, painter, widget: QWidget | None = None) -> None:  # noqa: N802
        super().drawComplexControl(control, option, painter, widget)
        if control in _FRAMED_COMPLEX and option is not None and painter is not None and getattr(option, "frame", True):
            self._edge(option, painter, 2.0)
