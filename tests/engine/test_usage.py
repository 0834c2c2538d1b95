"""The use factors computed over a page of candidates at once equal the limbic formula's, one candidate at a time."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

from limbic.engine.graph import signals
from limbic.engine.graph.signal_memory import Facts, Use, _seconds
from limbic.engine.search import scoring, usage

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=timezone.utc)


def _stamp(rng: random.Random) -> str | None:
    kind = rng.random()
    if kind < 0.15:
        return None
    if kind < 0.2:
        return "not a time"
    return (NOW - timedelta(hours=rng.uniform(-5, 40_000))).strftime("%Y-%m-%dT%H:%M:%S.%fZ")[:-4] + "Z"


def _page(rng: random.Random, n: int, used: bool):
    ids = rng.sample(range(1, 10 * n), n)
    fs, us = [], []
    for _ in ids:
        created = _stamp(rng)
        fs.append(Facts(created, rng.choice([None, "active", "archived"]), rng.choice([0, 1, 3, 20]),
                        created_s=_seconds(created)))
        last = _stamp(rng) if used else None
        us.append(Use(rng.randint(0, 50) if used else 0, last, _seconds(last), rng.randint(0, 9) if used else 0))
    for pos, u in enumerate(us):  # pairs among the page and with entities outside it, both ends kept
        for _ in range(rng.randint(0, 6)):
            other = rng.choice(ids + [10 * n + 1, 10 * n + 2])
            if other != ids[pos]:
                u.cooc[other] = (rng.randint(1, 30), _stamp(rng))
    return ids, fs, us


@pytest.mark.parametrize("seed", range(6))
def test_factors_at_once_equal_the_formula_one_by_one(seed):
    rng = random.Random(seed)
    params = scoring.ScoringParams()
    ids, fs, us = _page(rng, rng.choice([1, 7, 130]), used=seed % 3 != 0)
    in_time = [None if seed % 2 else rng.random() < 0.3 for _ in ids]
    wanted = set(ids)
    max_access = max(u.access_count for u in us)
    max_days = max(u.access_days for u in us)
    seconds = NOW.timestamp()
    got_imp = usage.importance(fs, us, params)
    got_temp = usage.temporal(fs, us, seconds, params, in_time)
    got_cooc = usage.cooc_boosts(ids, us, seconds, params)
    for pos, (entity_id, f, u, t) in enumerate(zip(ids, fs, us, in_time)):
        assert got_imp[pos] == pytest.approx(
            scoring.importance(u.access_count, max_access, f.degree, u.access_days, max_days, params), rel=1e-12)
        assert got_temp[pos] == pytest.approx(
            1.0 if t else scoring.temporal(signals.hours_since(u.last_access or f.created_at, NOW), params), rel=1e-12)
        pairs = [(count, signals.hours_since(last, NOW)) for other, (count, last) in u.cooc.items()
                 if other in wanted and other != entity_id]
        assert got_cooc[pos] == pytest.approx(scoring.cooc_boost(pairs, params), rel=1e-12, abs=1e-15)
