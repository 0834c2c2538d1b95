"""The force layout, without Qt: settles, stays finite, repeats itself for a seed, stops when asked."""

from __future__ import annotations

import numpy as np
import pytest

from limbic.engine.errors import Cancelled
from limbic.engine.graph.layout import EXACT_BELOW, ForceLayout, LayoutParams, layout, place_new


def clustered(n: int, m: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Communities of 25 nodes: most edges inside a community, some across."""
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m)
    inside = (src // 25) * 25 + rng.integers(0, 25, m)
    dst = np.where(rng.random(m) < 0.85, np.minimum(inside, n - 1), rng.integers(0, n, m))
    return src, dst


def mean_lengths(pos: np.ndarray, src: np.ndarray, dst: np.ndarray) -> tuple[float, float]:
    """Mean length of the edges and of as many random pairs."""
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, len(pos), 4000), rng.integers(0, len(pos), 4000)
    edge = float(np.linalg.norm(pos[src] - pos[dst], axis=1).mean())
    rand = float(np.linalg.norm(pos[a] - pos[b], axis=1).mean())
    return edge, rand


@pytest.mark.parametrize("n", [120, EXACT_BELOW * 4])  # exact repulsion, then the particle mesh
def test_layout_converges_finite_and_pulls_connected_nodes_together(n):
    src, dst = clustered(n, 2 * n)
    stepper = ForceLayout(n, src, dst, seed=5)
    moves = []
    while not stepper.converged:
        moves.append(stepper.step())
    pos = stepper.positions
    assert np.isfinite(pos).all()
    assert stepper.iteration <= LayoutParams().iterations
    # It settles: the last moves are a small fraction of the first ones.
    assert np.mean(moves[-10:]) < 0.1 * np.mean(moves[:10])
    edge, rand = mean_lengths(pos, src, dst)
    assert edge < 0.5 * rand, (edge, rand)
    # Nodes do not pile up on one spot: the picture spans many ideal lengths.
    assert np.ptp(pos[:, 0]) > 5 * LayoutParams().ideal


def test_a_layout_repeats_itself_for_a_seed_and_differs_for_another():
    src, dst = clustered(400, 800)
    a = layout(400, src, dst, seed=11)
    b = layout(400, src, dst, seed=11)
    c = layout(400, src, dst, seed=12)
    assert np.array_equal(a, b)
    assert not np.allclose(a, c)


def test_the_stepper_yields_progress_and_stops_when_cancelled():
    src, dst = clustered(500, 1000)
    stepper = ForceLayout(500, src, dst, seed=1)
    seen = []
    for snapshot in stepper.run(cancelled=lambda: len(seen) >= 3, every=2):
        seen.append(snapshot)
    assert len(seen) == 3 and stepper.iteration == 6 and not stepper.converged
    assert not np.array_equal(seen[0], seen[-1])  # the picture moved between snapshots
    seen[0][:] = 0  # snapshots are copies: the caller may keep or change them
    assert np.isfinite(stepper.positions).all() and np.ptp(stepper.positions) > 0
    with pytest.raises(Cancelled):
        layout(500, src, dst, seed=1, cancelled=lambda: True)


def test_pinned_nodes_stay_and_new_nodes_land_near_their_neighbours():
    src, dst = clustered(200, 400)
    placed = layout(200, src, dst, seed=2)
    # Two new nodes: 200 joined to node 0, 201 joined to 200 only (a chain growing outwards).
    src2 = np.concatenate((src, [0, 200]))
    dst2 = np.concatenate((dst, [200, 201]))
    initial = np.vstack((placed, np.full((2, 2), np.nan)))
    pinned = np.arange(202) < 200
    stepper = ForceLayout(202, src2, dst2, seed=3, initial=initial, pinned=pinned,
                          params=LayoutParams(iterations=40, start_temperature=40.0))
    start = stepper.positions.copy()
    ideal = LayoutParams().ideal
    assert np.linalg.norm(start[200] - placed[0]) <= 1.01 * ideal
    assert np.linalg.norm(start[201] - start[200]) <= 1.01 * ideal
    for _ in stepper.run():
        pass
    assert np.array_equal(stepper.positions[:200], placed)
    assert np.isfinite(stepper.positions).all()


def test_placing_with_nothing_known_or_nothing_missing():
    rng = np.random.default_rng(0)
    empty = np.zeros((0, 2), dtype=np.int64)
    fresh = place_new(np.full((5, 2), np.nan), empty[:, 0], empty[:, 1], rng, 40.0)
    assert np.isfinite(fresh).all() and len(np.unique(fresh, axis=0)) == 5
    known = np.arange(10, dtype=float).reshape(5, 2)
    assert np.array_equal(place_new(known, empty[:, 0], empty[:, 1], rng, 40.0), known)
    # A single node and a graph with no nodes do not fail.
    assert ForceLayout(1, [], [], seed=0).converged
    assert ForceLayout(0, [], [], seed=0).positions.shape == (0, 2)
