"""The seed engine's memory-health report tools, with its names and parameters; all read-only."""

from __future__ import annotations

from limbic.mcp.tools import ToolSpec, obj, register, string


def _report(name: str):
    """The report ``name``, imported at its first call: the reports bring numpy, which no other tool needs at start."""

    def call(graph, *args):
        from limbic.service.health import reports

        return getattr(reports, name)(graph, *args)

    call.__name__ = name
    return call


OPEN = obj({}, required=[], closed=False)
FRACTION = {"type": "number", "minimum": 0, "maximum": 1}

register(
    ToolSpec(
        "find_duplicate_observations", "Find Duplicate Observations",
        "Find observations of one entity that say the same thing: equal once case, accents and punctuation are "
        "set aside, nearly the same words (similarity ≥ threshold), or one contained in a text at least twice as "
        "long (≥ containment_threshold). Read-only: review and delete_observations what is redundant.",
        obj({
            "entity_name": string("The entity whose observations to compare"),
            "threshold": {**FRACTION, "description": "How alike two observations must be (default 0.85)"},
            "containment_threshold": {**FRACTION, "description": "How much of the shorter must be in the longer (default 0.7)"},
        }, required=["entity_name"]),
        OPEN, True, False, True, fn=_report("find_duplicate_observations"),
    ),
    ToolSpec(
        "consolidation_report", "Consolidation Report",
        "A memory health report without any change: possible duplicate entities (with the evidence for and "
        "against), repeated observations, orphans, stale entities (not changed or opened for stale_days while "
        "others point at them), split candidates and names with invisible characters. Merges and splits are the "
        "person's decision; tell them what you found.",
        obj({"stale_days": {"type": "number", "minimum": 1, "maximum": 36500,
                            "description": "Days without a change or a read after which an entity is stale (default 90)"}},
            required=[]),
        OPEN, True, False, True, fn=_report("consolidation_report"),
    ),
    ToolSpec(
        "find_split_candidates", "Find Split Candidates",
        "Find entities with many observations that fall into two or more separate topics (candidates to split "
        "into one entity per topic). Read-only.",
        obj({}, required=[]), OPEN, True, False, True, fn=_report("find_split_candidates"),
    ),
    ToolSpec(
        "analyze_entity_split", "Analyze Entity Split",
        "Analyse one entity: its observation count, the topics its observations fall into, whether it should be "
        "split, and the entities a split would make. Read-only: a split is the person's decision.",
        obj({"entity_name": string("The entity to analyse")}),
        OPEN, True, False, True, fn=_report("analyze_entity_split"),
    ),
)
