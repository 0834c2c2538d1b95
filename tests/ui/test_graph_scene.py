"""The graph picture's arithmetic without Qt: clipping, culling, sampling and the view transform."""

from __future__ import annotations

import numpy as np

from limbic.ui.graph.scene import ViewTransform, clip_segments, edge_sample, visible_edges


def test_clip_segments_keeps_inside_cuts_crossing_and_empties_outside():
    a = np.array([[10.0, 10.0], [-1000.0, 50.0], [50.0, -5000.0], [-50.0, -50.0], [-30.0, 20.0]])
    b = np.array([[90.0, 40.0], [1000.0, 50.0], [50.0, 5000.0], [-20.0, -80.0], [-30.0, 80.0]])
    ca, cb = clip_segments(a, b, 100, 60, margin=0.0)
    assert np.allclose(ca[0], a[0]) and np.allclose(cb[0], b[0])  # inside: unchanged
    assert np.allclose(ca[1], [0, 50]) and np.allclose(cb[1], [100, 50])  # horizontal, cut at both sides
    assert np.allclose(ca[2], [50, 0]) and np.allclose(cb[2], [50, 60])  # vertical, cut at top and bottom
    assert np.allclose(ca[3], cb[3]) and np.allclose(ca[4], cb[4])  # outside (one parallel to an edge): nothing


def test_culling_sampling_and_zoom_around_a_point():
    screen = np.array([[10.0, 10.0], [50.0, 50.0], [500.0, 500.0], [-400.0, 30.0], [400.0, 30.0]])
    src, dst = np.array([0, 1, 2, 3]), np.array([1, 2, 2, 4])
    assert list(visible_edges(screen, src, dst, 100, 100)) == [0, 1, 3]  # 3 crosses the view end to end
    assert len(edge_sample(np.arange(10_000), 2_000)) == 2_000
    view = ViewTransform(0.0, 0.0, 1.0)
    before = view.to_world(30, 40, 200, 100)
    view.zoom_at(2.0, 30, 40, 200, 100)
    assert np.allclose(view.to_world(30, 40, 200, 100), before) and view.scale == 2.0
    view.fit((-10.0, -10.0, 10.0, 10.0), 400, 300)
    corners = view.to_screen(np.array([[-10.0, -10.0], [10.0, 10.0]]), 400, 300)
    assert (corners >= 0).all() and (corners[:, 0] <= 400).all() and (corners[:, 1] <= 300).all()
