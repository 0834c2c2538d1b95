"""Graph-part speed of each importer against the JSONL import of the same graph, in the same run.

    python -m tests.bench.bench_importers [--entities 2000] [--runs 3]

Builds a synthetic memory engine database (observations, relations, usage history), imports it
into a fresh file without a model (embedding is the model's time, measured by bench_ingest), and
compares with JSONL, Markdown and CSV copies of the same graph. Prints medians and ratios.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

import apsw

from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from limbic.engine.formats.jsonl import export_file
from limbic.service.importers import import_path
from limbic.service.importers.csv_io import export_csv
from limbic.service.importers.markdown_export import export_markdown
from tests.service.test_seed_db import FULL_SCHEMA

WORDS = "graph vector search sqlite observation relation memory session project decision note index fusion".split()


def build_seed(path: Path, n: int, seed: int = 7) -> None:
    rnd = random.Random(seed)
    conn = apsw.Connection(str(path))
    import sqlite_vec

    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    conn.execute(FULL_SCHEMA)
    with conn:
        stamp = "2025-03-01 10:00:00"
        conn.executemany("INSERT INTO entities VALUES (?, ?, ?, ?, ?, ?)",
                         [(i, f"Entity {i}", rnd.choice(["Proyecto", "Persona", "Sesion"]), stamp, stamp,
                           rnd.choice(["activo", "pausado", "completado", "archivado"])) for i in range(1, n + 1)])
        obs, oid = [], 0
        for i in range(1, n + 1):
            for _ in range(rnd.randint(1, 6)):
                oid += 1
                obs.append((oid, i, " ".join(rnd.choices(WORDS, k=rnd.randint(5, 30))) + f" #{oid}", stamp, 0, "generic", None, None))
        conn.executemany("INSERT INTO observations VALUES (?, ?, ?, ?, ?, ?, ?, ?)", obs)
        rels = {(rnd.randint(1, n), rnd.randint(1, n), rnd.choice(["contiene", "parte_de", "usa"])) for _ in range(int(1.5 * n))}
        conn.executemany("INSERT INTO relations(from_entity, to_entity, relation_type, created_at) VALUES (?, ?, ?, ?)",
                         [(a, b, t, stamp) for a, b, t in rels if a != b])
        conn.executemany("INSERT INTO entity_access VALUES (?, ?, ?)", [(i, rnd.randint(1, 50), stamp) for i in range(1, n + 1, 3)])
        conn.executemany("INSERT INTO entity_access_log VALUES (?, ?, ?)", [(i, "2025-03-01", 2) for i in range(1, n + 1, 3)])
    conn.close()


def timed_import(source: Path, folder: Path, name: str) -> float:
    graph = Graph(Database(folder / f"{name}.db"))
    start = time.perf_counter()
    import_path(graph, source, embed=False)
    took = time.perf_counter() - start
    graph.db.close()
    return took


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entities", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        build_seed(tmp / "memory.db", args.entities)
        graph = Graph(Database(tmp / "base.db"))
        import_path(graph, tmp / "memory.db", embed=False)
        counts = graph.counts()
        export_file(graph, tmp / "g.jsonl")
        export_markdown(graph, tmp / "md")
        export_csv(graph, tmp / "csv")
        graph.db.close()
        sources = {"jsonl": tmp / "g.jsonl", "seed": tmp / "memory.db", "markdown": tmp / "md", "csv": tmp / "csv"}
        times: dict[str, list[float]] = {k: [] for k in sources}
        for run in range(args.runs):
            for kind, source in sources.items():
                times[kind].append(timed_import(source, tmp, f"{kind}-{run}"))
    ref = statistics.median(times["jsonl"])
    print(f"{counts['entities']} entities, {counts['observations']} observations, {counts['relations']} relations; "
          f"graph part only (no model), median of {args.runs}")
    for kind, values in times.items():
        med = statistics.median(values)
        print(f"{kind:>9}: {med:6.2f} s  {counts['entities'] / med:8.0f} entities/s  {med / ref:5.2f}x JSONL")


if __name__ == "__main__":
    main()
