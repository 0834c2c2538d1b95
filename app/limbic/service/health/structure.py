"""Orphans (no relations, never opened) and stale entities (left alone for long while others point at them)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from limbic.engine.graph.graph import TIME_FORMAT, Graph, shown
from limbic.service.health.dismiss import key_of
from limbic.service.health.findings import Finding
from limbic.service.health.load import GraphData, Handle
from limbic.service.names import names_with_invisible_characters

STALE_DAYS = 90.0


def _age_days(stamp: str, now: datetime) -> float | None:
    try:
        then = datetime.strptime(stamp[:19], TIME_FORMAT)
    except ValueError:
        try:
            then = datetime.fromisoformat(stamp.replace("Z", "+00:00")).replace(tzinfo=None)
        except ValueError:
            return None
    return (now.replace(tzinfo=None) - then).total_seconds() / 86400


def orphans(data: GraphData, handle: Handle, gone: set[str]) -> list[Finding]:
    """Entities with no relation that were never opened: perhaps noise, perhaps worth connecting."""
    out = []
    for p in range(len(data)):
        if data.neighbours[p] or data.access_count[p] or data.last_access[p]:
            continue
        if key_of([data.ids[p]]) in gone:
            continue
        n_obs = len(data.observations[p])
        reasons = ["It has no relation to any other entity.", "It was never opened or returned by a search."]
        if n_obs == 0:
            reasons.append("It has no observations either.")
        score = 0.9 if n_obs == 0 else max(0.3, 0.8 - 0.1 * n_obs)
        out.append(Finding("orphans", [data.ids[p]], [data.names[p]], score, reasons))
    handle.step("orphans", 1, 1)
    out.sort(key=lambda f: (-f.score, f.entities))
    return out


def stale(data: GraphData, handle: Handle, gone: set[str], days: float = STALE_DAYS,
          now: datetime | None = None) -> list[Finding]:
    """Entities not changed or opened for ``days`` while other entities point at them."""
    now = now or datetime.now(timezone.utc)
    out = []
    for p in range(len(data)):
        if not data.incoming[p]:
            continue
        changed = _age_days(data.updated[p], now)
        if changed is None or changed < days:
            continue
        read = _age_days(data.last_access[p], now) if data.last_access[p] else None
        if read is not None and read < days:
            continue
        if key_of([data.ids[p]]) in gone:
            continue
        idle = changed if read is None else min(changed, read)
        pointing = data.incoming[p]
        reasons = [f"It was last changed {int(changed)} days ago.",
                   "It was never opened." if read is None else f"It was last opened {int(read)} days ago.",
                   f"{pointing} {'entity points' if pointing == 1 else 'entities point'} at it, "
                   "so what it says may be relied on while being out of date."]
        example = sorted(data.neighbours[p])[:2]
        if example:
            reasons.append("Related: " + ", ".join(f"“{shown(data.names[c], 30)}”" for c in example) + ".")
        score = min(1.0, (idle / (4 * days)) * 0.6 + min(pointing, 10) / 10 * 0.4)
        out.append(Finding("stale", [data.ids[p]], [data.names[p]], score, reasons,
                           {"days_idle": int(idle), "incoming": pointing}))
    handle.step("stale", 1, 1)
    out.sort(key=lambda f: (-f.score, f.entities))
    return out


def invisible_names(graph: Graph, gone: set[str]) -> list[Finding]:
    """Names holding zero-width, bidi or other invisible characters: they look like another name and are not."""
    out = []
    for found in names_with_invisible_characters(graph):
        if key_of([found.entity_id]) in gone:
            continue
        out.append(Finding("names", [found.entity_id], [found.name], 1.0,
                           [f"Its name holds {'an invisible character' if len(found.characters) == 1 else 'invisible characters'}: "
                            f"{', '.join(found.characters)}.",
                            "It looks like a name without them, but search and exact look-ups treat it as another."],
                           {"characters": list(found.characters)}))
    return out
