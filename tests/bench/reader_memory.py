"""What the second, read-only connection costs in memory, and what sharing the model saves.

Run: .venv/bin/python -m tests.bench.reader_memory [--entities 5000]
Builds a graph of N embedded entities, opens it as the app's engine thread does, searches once
(loading its vector mirror), then measures the resident memory added by: (a) the reader with the
shared model (``Embedder.for_another_thread``: shared ONNX session and tokenizer) after its first
search, and (b) for reference, a second model loaded from scratch. Linux only (reads /proc).
"""

from __future__ import annotations

import argparse
import gc
import os
import tempfile
from pathlib import Path


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entities", type=int, default=5000)
    args = parser.parse_args()
    os.environ.setdefault("LIMBIC_HOME", tempfile.mkdtemp(prefix="limbic-mem-"))
    from limbic.engine.store.db import Database
    from limbic.engine.vectors.embeddings import load_embedder
    from limbic.engine.graph.graph import Graph
    from limbic.engine.search.search import search
    from limbic.engine.vectors import vector_index
    from tests.bench.ui_stall import write_entities
    from limbic.engine.formats.jsonl import import_file

    home = Path(os.environ["LIMBIC_HOME"])
    source = home / "bulk.jsonl"
    write_entities(source, args.entities)
    embedder = load_embedder()
    writer = Graph(Database(home / "mem.db"), embedder)
    import_file(writer, source, backup=False)
    search(writer, "tide clock firmware", 20, record=False)  # the writer's mirror is loaded
    gc.collect()
    base = rss_mb()

    reader = Graph(Database(home / "mem.db", readonly=True))
    reader.embedder = embedder.for_another_thread()
    search(reader, "tide clock firmware", 20, record=False)
    gc.collect()
    with_reader = rss_mb()
    mirror = vector_index.mirror_for(reader.db, "entity_embeddings").nbytes / 2**20

    second_model = load_embedder()
    second_model.encode_query("warm up")
    gc.collect()
    with_second_model = rss_mb()

    print(f"entities: {args.entities}")
    print(f"resident memory with the writer alone: {base:.1f} MB")
    print(f"added by the reader (shared model) after its first search: {with_reader - base:.1f} MB "
          f"(its vector mirror: {mirror:.1f} MB)")
    print(f"a second model loaded from scratch would add: {with_second_model - with_reader:.1f} MB more")
    reader.db.close()
    writer.db.close()
    del second_model
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
