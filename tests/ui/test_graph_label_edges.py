"""A label the graph must show (the hovered, selected or centre node's) is never cut by the view's edge:
too long for the room on either side, it is shortened to what fits (the node's tooltip has the whole name)."""

from __future__ import annotations

import numpy as np

from limbic.ui.graph import labels
from limbic.ui.graph.labels import place_node_labels


def _width(text: str) -> float:
    return 7.0 * len(text)


def test_a_name_that_must_show_in_a_narrow_view_is_shortened_inside_it():
    name = "Decision: use Postgres 16 for the Harbor ledger"  # 47 letters, 329 px: wider than the view
    screen = np.array([[60.0, 60.0]])  # a narrow panel: even the name's first 18 letters (126 px) have no room
    placed, _ = place_node_labels([0], [0], [name], screen, np.array([5.0]), _width, 16, 120, 120, labels.Occupancy())
    (_, box, text), = placed
    assert labels.inside(box, 120, 120), box
    assert box[2] - box[0] >= _width(text)  # the box holds the words it shows
    assert text.endswith("…") and name.startswith(text[:-1])


def test_a_hovered_node_at_the_right_edge_is_named_on_its_inner_side_whole():
    name = "Photo library"
    screen = np.array([[395.0, 60.0]])
    placed, _ = place_node_labels([0], [0], [name], screen, np.array([5.0]), _width, 16, 400, 120, labels.Occupancy())
    (_, box, text), = placed
    assert text == name and labels.inside(box, 400, 120) and box[2] <= 395
