"""The health checks run together: one read of the graph, each kind asked for, the findings best first."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from pathlib import Path

from limbic.engine.store.db import Database
from limbic.engine.errors import ValidationError
from limbic.engine.graph.graph import Graph
from limbic.service.health import vectors
from limbic.service.health.dismiss import dismissed
from limbic.service.health.duplicates import duplicate_candidates
from limbic.service.health.findings import KINDS, Report
from limbic.service.health.load import Handle, load
from limbic.service.health.observations import duplicate_observations
from limbic.service.health.split import split_candidates
from limbic.service.health.structure import STALE_DAYS, invisible_names, orphans, stale

logger = logging.getLogger(__name__)


def check_kinds(kinds: Sequence[str] | None) -> list[str]:
    """The kinds asked for, in the usual order; a clear sentence for an unknown one."""
    if not kinds:
        return list(KINDS)
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise ValidationError(f"There is no health check “{unknown[0]}”; the checks are {', '.join(KINDS)}.")
    return [k for k in KINDS if k in kinds]


def scan(graph: Graph, kinds: Sequence[str] | None = None, handle: Handle | None = None,
         stale_days: float = STALE_DAYS, limit: int | None = 500) -> Report:
    """Run the health checks asked for (all by default) and return their findings, best first."""
    wanted = check_kinds(kinds)
    handle = handle or Handle()
    started = time.perf_counter()
    needs_obs = any(k in wanted for k in ("duplicates", "observations", "orphans", "split"))
    data = load(graph, handle, with_observations=needs_obs)
    gone = dismissed(graph)
    by_kind = {kind: {k for kk, k in gone if kk == kind} for kind in KINDS}
    report = Report(entities=len(data))
    for kind in wanted:
        if kind == "duplicates":
            meaning = vectors.meaning(graph, data, handle)
            found = duplicate_candidates(graph, data, meaning, handle, limit=limit)
        elif kind == "observations":
            found = duplicate_observations(data, handle, by_kind[kind])
        elif kind == "orphans":
            found = orphans(data, handle, by_kind[kind])
        elif kind == "stale":
            found = stale(data, handle, by_kind[kind], stale_days)
        elif kind == "split":
            found = split_candidates(data, handle, by_kind[kind])
        else:
            found = invisible_names(graph, by_kind[kind])
        report.findings[kind] = found[:limit] if limit else found
    report.seconds = time.perf_counter() - started
    logger.info("health: %s in %.1f s", report.counts(), report.seconds)
    return report


def scan_file(path: Path | str, kinds: Sequence[str] | None = None, handle: Handle | None = None,
              stale_days: float = STALE_DAYS, limit: int | None = 500) -> Report:
    """``scan`` on a read-only connection of its own, so a long scan holds up no other reader or writer."""
    db = Database(Path(path), readonly=True)
    try:
        return scan(Graph(db), kinds, handle, stale_days, limit)
    finally:
        db.close()
