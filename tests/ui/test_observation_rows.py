"""Two wrapped observations in the editor are visibly separate items, in the light palette and the dark."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QListWidget, QStyledItemDelegate, QStyleOptionViewItem

from limbic.ui.common import theme
from limbic.ui.editor.observation_delegate import (ROW_PAD, SEPARATOR, ObservationDelegate, alternate_colour,
                                                   separator_colour)

LONG = ("The payment gateway retries a charge three times when the card network times out, and each retry is "
        "logged with the network's reference so support can find duplicate charges later on.")


def _list(qtbot) -> QListWidget:
    lst = QListWidget()
    qtbot.addWidget(lst)
    lst.setWordWrap(True)
    lst.setAlternatingRowColors(True)
    lst.setItemDelegate(ObservationDelegate(lst))
    lst.addItems([LONG, "Settlement " + LONG, "Owned by the platform team."])
    lst.resize(360, 400)
    lst.show()
    qtbot.waitExposed(lst)
    return lst


def _apart(a, b) -> int:
    return abs(a.lightness() - b.lightness())


def test_each_row_has_room_and_a_line_between_it_and_the_next(qtbot):
    lst = _list(qtbot)
    plain = QStyledItemDelegate()
    option = QStyleOptionViewItem()
    lst.initViewItemOption(option)
    index = lst.model().index(0, 0)
    assert lst.itemDelegate().sizeHint(option, index).height() == \
        plain.sizeHint(option, index).height() + 2 * ROW_PAD + SEPARATOR
    first, second, last = (lst.visualItemRect(lst.item(i)) for i in range(3))
    assert first.height() > 3 * lst.fontMetrics().lineSpacing()  # wrapped over several lines
    image = lst.viewport().grab().toImage()
    palette = lst.palette()
    base, line = palette.color(palette.ColorRole.Base), separator_colour(palette)
    x = 2
    assert image.pixelColor(x, first.bottom()).name() == line.name()  # the line under the first row
    assert image.pixelColor(x, first.bottom() - 1).name() == base.name()  # its own padding, not text
    assert image.pixelColor(x, second.top() + 1).name() == alternate_colour(palette).name()
    assert image.pixelColor(x, second.bottom()).name() == line.name()
    assert image.pixelColor(x, last.bottom()).name() != line.name()  # nothing under the last one
    assert _apart(line, base) >= 40 and _apart(line, alternate_colour(palette)) >= 30


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_rows_and_the_line_stand_apart_in_both_schemes(qtbot, scheme):
    palette = theme._dark_palette() if scheme == "dark" else theme._light_palette(QApplication.instance())
    base = palette.color(palette.ColorRole.Base)
    # The light palette's own alternate colour is 8 steps from white: too faint to tell two rows apart.
    assert _apart(alternate_colour(palette), base) >= 12
    assert _apart(separator_colour(palette), base) >= 40
    assert _apart(separator_colour(palette), alternate_colour(palette)) >= 30
