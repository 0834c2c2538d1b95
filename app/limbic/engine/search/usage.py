"""The limbic formula's use factors for a page of candidates: importance, recency, co-occurrence, status.

The signals come from the connection's memory of them (``engine/graph/signal_memory.py``: read the
first time an entity is a candidate, followed through the change log and this connection's own
recording). The co-occurrences among the candidates, about 1,500 pairs on a 200-entity graph that has
been searched a while, are summed in numpy: each kept entity's pairs are arrays made once per change.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from limbic.engine.graph import signal_memory
from limbic.engine.graph.signal_memory import Facts, Use
from limbic.engine.search import scoring
from limbic.engine.store.db import Database

@dataclass
class Factors:
    """Per candidate, in the order asked: importance, temporal factor, co-occurrence boost, status factor."""

    importance: list[float]
    temporal: list[float]
    cooc: list[float]
    status: list[float]


def factors(db: Database, ids: Sequence[int], now: datetime, params: scoring.ScoringParams,
            in_time: Sequence[bool | None]) -> Factors:
    """The use factors of ``ids`` (distinct); ``in_time``: whether each happened in the time the query
    names (True: recency does not count against it)."""
    facts, use = signal_memory.memory(db).of(db, ids)
    fs = [facts[i] for i in ids]
    us = [use[i] for i in ids]
    seconds = now.timestamp()
    return Factors(importance(fs, us, params), temporal(fs, us, seconds, params, in_time),
                   cooc_boosts(ids, us, seconds, params), [scoring.status_factor(f.status) for f in fs])


def importance(fs: Sequence[Facts], us: Sequence[Use], params: scoring.ScoringParams) -> list[float]:
    """``scoring.importance`` of each candidate, against the most used of them."""
    import numpy as np  # with the first search, not when the window's modules load

    counts = np.fromiter((u.access_count for u in us), dtype=np.float64, count=len(us))
    max_access = counts.max(initial=0.0)
    if max_access <= 0:
        return [0.0] * len(us)
    days = np.fromiter((u.access_days for u in us), dtype=np.float64, count=len(us))
    degrees = np.fromiter((f.degree for f in fs), dtype=np.float64, count=len(fs))
    used = np.log2(1 + counts) / math.log2(1 + max_access)
    deg = 1 + params.beta_deg * np.minimum(degrees, params.d_max) / params.d_max
    max_days = days.max(initial=0.0)
    if max_days <= 1:
        return (used * deg * 1.0).tolist()
    return (used * deg * (1 + params.alpha_cons * np.log2(1 + days) / math.log2(1 + max_days))).tolist()


def temporal(fs: Sequence[Facts], us: Sequence[Use], now: float, params: scoring.ScoringParams,
             in_time: Sequence[bool | None]) -> list[float]:
    """``scoring.temporal`` of the hours since each candidate's last use (or creation); 1 for one that
    happened in the time the query names. ``now``: seconds since the epoch."""
    import numpy as np  # with the first search, not when the window's modules load

    stamps = np.fromiter((u.last_s if u.last_access else f.created_s for f, u in zip(fs, us)),
                         dtype=np.float64, count=len(us))
    hours = np.maximum(0.0, (now - stamps) / 3600.0)
    hours[np.isnan(hours)] = 0.0  # no time, or one that cannot be read: as if just now (``signals.hours_since``)
    out = np.maximum(params.temporal_floor, np.exp(-params.lambda_hourly * hours))
    if any(in_time):
        out[np.fromiter((bool(t) for t in in_time), dtype=bool, count=len(in_time))] = 1.0
    return out.tolist()


def cooc_boosts(ids: Sequence[int], uses: Sequence[Use], now: float, params: scoring.ScoringParams) -> list[float]:
    """``scoring.cooc_boost`` of each candidate over its co-occurrences with the other candidates
    (``now``: seconds since the epoch)."""
    import numpy as np  # with the first search, not when the window's modules load

    n = len(ids)
    held = [(pos, u.arrays()) for pos, u in enumerate(uses) if u.cooc]
    if not held:
        return [0.0] * n
    others = np.concatenate([a[0] for _, a in held])
    owner = np.repeat(np.fromiter((pos for pos, _ in held), dtype=np.int64, count=len(held)),
                      [len(a[0]) for _, a in held])
    candidates = np.asarray(ids, dtype=np.int64)
    keep = np.isin(others, candidates) & (others != candidates[owner])
    if not keep.any():
        return [0.0] * n
    weights = np.concatenate([a[1] for _, a in held])[keep]
    stamps = np.concatenate([a[2] for _, a in held])[keep]
    hours = np.maximum(0.0, (now - stamps) / 3600.0)
    hours[np.isnan(hours)] = 0.0  # no time, or one that cannot be read: as if just now (``signals.hours_since``)
    decay = np.maximum(params.cooc_temporal_floor, np.exp(-params.lambda_hourly * hours))
    return np.bincount(owner[keep], weights=weights * decay, minlength=n).tolist()
