"""What the editor's timeline and "What changed since…" cost on a large graph.

    python -m tests.bench.bench_timeline [--entities 20000] [--observations 5] [--rounds 5]

Builds a graph of ``entities`` entities with ``observations`` observations each, chained by one
relation each, then supersedes an observation and ends a relation of one entity in ten (so the
history holds more than one version of many rows). Measures, on one entity at the start and one at
the end of the file: reading its timeline (every version of its rows, compared), the entity as it
was at its oldest event, its dates; and the whole graph's changes since a week ago. Each figure is
the median of ``rounds`` runs, in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service import timeline


def _build(path: Path, entities: int, observations: int) -> Graph:
    g = Graph(Database(path))
    with g.write():
        for i in range(entities):
            g.create_entity(f"E{i}", "Thing", [f"observation {j} of entity {i}" for j in range(observations)])
    with g.write():
        for i in range(entities - 1):
            g.add_relation(f"E{i}", f"E{i + 1}", "next")
    with g.write():
        for i in range(0, entities - 1, 10):
            first = g.db.scalar("SELECT min(id) FROM observations WHERE entity_id = ?", (g.entity_id(f"E{i}"),))
            g.supersede_observation(first, f"observation 0 of entity {i}, corrected")
            g.end_relation(f"E{i}", f"E{i + 1}", "next")
    return g


def _ms(fn, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 2)


def main() -> None:
    """Print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entities", type=int, default=20_000)
    parser.add_argument("--observations", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        g = _build(Path(tmp) / "g.db", args.entities, args.observations)
        out: dict = {"entities": args.entities, "history_rows": g.db.scalar("SELECT count(*) FROM history")}
        for label, name in (("first", "E0"), ("last", f"E{args.entities - 2}")):
            entity_id = g.entity_id(name)
            events = timeline.entity_timeline(g, entity_id)
            out[label] = {
                "events": len(events),
                "timeline_ms": _ms(lambda: timeline.entity_timeline(g, entity_id), args.rounds),
                "entity_then_ms": _ms(lambda: timeline.entity_then(g, entity_id, events[-1].view_at), args.rounds),
                "dates_ms": _ms(lambda: timeline.entity_dates(g, entity_id), args.rounds),
            }
        since = timeline.since_moment("last week")
        out["changed_since_ms"] = _ms(lambda: timeline.changed_since(g, since), args.rounds)
        g.db.close()
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
