"""The health reports an assistant may ask for over MCP, with the seed engine's names and parameters.

All read-only: they say what looks wrong and why; a merge or a split stays the person's decision
(in the app's Health view, or `limbic merge`).
"""

from __future__ import annotations

from typing import Any

from limbic.engine.errors import ValidationError
from limbic.engine.graph.graph import Graph
from limbic.service.health import scan
from limbic.service.health.load import Handle
from limbic.service.health.observations import observation_pairs
from limbic.service.health.split import analyse
from limbic.service.health.structure import STALE_DAYS

NOTE = ("This report changes nothing. Merging or splitting is the person's decision, in Limbic's Health view "
        "or with `limbic merge`.")
REPORT_LIMIT = 25


def _fraction(value: Any, name: str, default: float) -> float:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= float(value) <= 1.0:
        raise ValidationError(f"“{name}” must be a number from 0 to 1.")
    return float(value)


def _entity_name(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValidationError("“entity_name” must be the name of an entity.")
    return value


def find_duplicate_observations(graph: Graph, entity_name: Any, threshold: Any = None,
                                containment_threshold: Any = None) -> dict:
    """Pairs of observations of one entity that say the same thing (equal, nearly equal, or one inside the other)."""
    entity = graph.get_entity(_entity_name(entity_name))
    items = [(o.id, o.content) for o in entity.observations if o.current]
    pairs = observation_pairs(items, _fraction(threshold, "threshold", 0.85),
                              _fraction(containment_threshold, "containment_threshold", 0.7))
    texts = dict(items)
    return {
        "entity": entity.name, "observation_count": len(items),
        "pairs": [{"observation_a": texts[a], "observation_b": texts[b], "similarity": round(s, 3), "why": why}
                  for a, b, s, why in pairs],
        "note": NOTE,
    }


def analyze_entity_split(graph: Graph, entity_name: Any) -> dict:
    """Whether one entity's observations fall into separate topics, and the split that would follow."""
    entity = graph.get_entity(_entity_name(entity_name))
    items = [(o.id, o.content) for o in entity.observations if o.current]
    result = analyse(entity.name, entity.entity_type, items)
    for p in result["proposed"]:
        p.pop("observation_ids", None)
    return {"analysis": result, "note": NOTE}


def find_split_candidates(graph: Graph) -> dict:
    """Every entity with many observations in two or more separate topics."""
    found = scan(graph, ["split"], Handle(), limit=REPORT_LIMIT).findings["split"]
    return {"candidates": [{"entity_name": f.entities[0], "score": round(f.score, 3), "reasons": f.reasons,
                            "topics": f.detail["topics"]} for f in found], "note": NOTE}


def consolidation_report(graph: Graph, stale_days: Any = None) -> dict:
    """Everything the health checks find, the best few of each kind, with the reasons."""
    if stale_days is None:
        days = STALE_DAYS
    elif isinstance(stale_days, bool) or not isinstance(stale_days, (int, float)) or not 0 < float(stale_days) <= 36500:
        raise ValidationError("“stale_days” must be a number of days from 1 to 36500.")
    else:
        days = float(stale_days)
    report = scan(graph, None, Handle(), stale_days=days, limit=None)
    out: dict[str, Any] = {"counts": report.counts(), "entities": report.entities}
    for kind, found in report.findings.items():
        out[kind] = [f.to_json() for f in found[:REPORT_LIMIT]]
        for item in out[kind]:
            item.pop("detail", None)
    out["note"] = NOTE
    return out
