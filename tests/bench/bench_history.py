"""What recorded-time history costs: its size per 100,000 changes and the write path with and without it.

    python -m tests.bench.bench_history [--entities 1000] [--changes 20000] [--rounds 5]

A change is one commit through the graph's own write functions, in the mix an assistant makes:
observations added (45%), superseded (20%) and edited (5%), relations made (10%) and ended (5%),
statuses set (10%), renames (5%). "Without" is this Limbic with the history triggers switched off
(``recorded.install`` does nothing); "with" is as shipped. Rounds interleave the two on two files;
each latency is the median of a round's commits, and the figure the median over rounds. The size is
the history table and its indexes (``dbstat``) after all changes, scaled to 100,000 changes.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from limbic.engine.graph.graph import Graph
from limbic.engine.store import recorded
from limbic.engine.store.db import Database

WORDS = "graph vector search sqlite observation relation memory session project decision note index fusion".split()


class HistorySwitch:
    """Turns the history triggers off (no versions written) for the "without" file."""

    def __init__(self) -> None:
        self.real = recorded.install

    def set(self, on: bool) -> None:
        recorded.install = self.real if on else (lambda db: None)


def _text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 18)))


def _build(path: Path, entities: int, seed: int) -> Graph:
    g = Graph(Database(path))
    rng = random.Random(seed)
    with g.write(embed=False):
        for i in range(entities):
            g.create_entity(f"Entity {i}", rng.choice(["Person", "Project", "Topic"]), [_text(rng), _text(rng)])
    return g


def _change(g: Graph, rng: random.Random, entities: int) -> None:
    name = f"Entity {rng.randrange(entities)}"
    roll = rng.random()
    if roll < 0.45:
        g.add_observations(name, [_text(rng)])
    elif roll < 0.70:
        obs = g.db.scalar("SELECT id FROM observations WHERE entity_id = (SELECT id FROM entities WHERE name = ?) "
                          "AND superseded_at IS NULL ORDER BY id DESC LIMIT 1", (name,))
        if obs is None:
            g.add_observations(name, [_text(rng)])
        elif roll < 0.65:
            g.supersede_observation(obs, _text(rng))
        else:
            g.edit_observation(obs, _text(rng))
    elif roll < 0.80:
        g.add_relation(name, f"Entity {rng.randrange(entities)}", rng.choice(["knows", "uses", "part_of"]))
    elif roll < 0.85:
        row = g.db.one("SELECT from_entity, to_entity, relation_type FROM relations WHERE active = 1 LIMIT 1 OFFSET ?",
                       (rng.randrange(50),))
        if row is not None:
            g.end_relation(*row)
    elif roll < 0.95:
        g.set_status(name, rng.choice(["active", "paused", "done", "archived"]))
    else:
        new = f"{name} v{rng.randrange(1_000_000)}"
        if g.entity_id(new) is None:
            g.rename_entity(name, new)
            g.rename_entity(new, name)  # keep the name the mix draws from (two changes)


def _history_bytes(db: Database) -> int:
    try:
        return int(db.scalar("SELECT sum(pgsize) FROM dbstat WHERE name = 'history' OR name LIKE 'history_%'") or 0)
    except Exception:  # an SQLite without dbstat: the file's growth stands in
        return int(db.scalar("PRAGMA page_count")) * int(db.scalar("PRAGMA page_size"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=1000)
    parser.add_argument("--changes", type=int, default=20_000, help="changes per file, split over the rounds")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    switch = HistorySwitch()
    folder = Path(tempfile.mkdtemp(prefix="limbic-bench-history-"))
    graphs = {}
    for on in (True, False):
        switch.set(on)
        graphs[on] = _build(folder / f"{'with' if on else 'without'}.db", args.entities, 7)
    start_rows = int(graphs[True].db.scalar("SELECT count(*) FROM history"))
    start_bytes = _history_bytes(graphs[True].db)
    per_round = args.changes // args.rounds
    medians: dict[bool, list[float]] = {True: [], False: []}
    commits = {True: 0, False: 0}
    for r in range(args.rounds):
        for on in ((True, False) if r % 2 == 0 else (False, True)):
            switch.set(on)
            g, rng = graphs[on], random.Random(1000 + r)
            g.db.activity.reset()  # this connection looks again: triggers as the switch says
            times = []
            for _ in range(per_round):
                before_id = g.db.scalar("SELECT coalesce(max(id), 0) FROM change_log")
                t0 = time.perf_counter()
                _change(g, rng, args.entities)
                times.append(time.perf_counter() - t0)
                commits[on] += int(g.db.scalar("SELECT coalesce(max(id), 0) FROM change_log")) - before_id
            medians[on].append(statistics.median(times) * 1000)
    switch.set(True)
    g = graphs[True]
    rows = int(g.db.scalar("SELECT count(*) FROM history")) - start_rows
    size = _history_bytes(g.db) - start_bytes
    with_ms, without_ms = statistics.median(medians[True]), statistics.median(medians[False])
    result = {
        "entities": args.entities, "changes": commits[True], "history_rows_added": rows,
        "history_bytes_added": size,
        "bytes_per_100k_changes": round(size * 100_000 / max(1, commits[True])),
        "rows_per_change": round(rows / max(1, commits[True]), 2),
        "commit_ms_with": round(with_ms, 3), "commit_ms_without": round(without_ms, 3),
        "write_cost_ratio": round(with_ms / without_ms, 3),
        "without_history_rows": int(graphs[False].db.scalar("SELECT count(*) FROM history")),
    }
    for key, value in result.items():
        print(f"{key:>26}: {value}")
    Path("bench-history.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    for graph in graphs.values():
        graph.db.close()


if __name__ == "__main__":
    main()
