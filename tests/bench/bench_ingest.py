"""Import throughput beside the raw model on the same texts and batches, measured pairwise.

Each batch the import hands to the model is also encoded a second time, untouched, as the
reference; the two runs alternate which goes first. Both see the same load on a shared
machine, and the reference's time is taken out of the import's wall time. Wall time and
CPU time (all threads) are both reported: on a busy machine the CPU-time ratio is the steady one.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

import numpy as np

from limbic.engine.store.db import Database
from limbic.engine.vectors.embeddings import Embedder
from limbic.engine.graph.graph import Graph
from limbic.engine.formats.jsonl import import_records
from tests.bench.build import remove_db
from tests.bench.common import record_shapes
from tests.bench.synth import SynthGraph

logger = logging.getLogger(__name__)


class PairedEncoder:
    """Wraps ``Embedder.encode``: times the import's own call and an identical raw call."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self.original = embedder.encode
        self.import_model = 0.0  # time in the import's own encode calls
        self.raw = 0.0  # time of the reference calls
        self.raw_cpu = 0.0  # CPU time (all threads) of the reference calls
        self.texts = 0
        self.calls = 0

    def __call__(self, texts, kind="passage", **kwargs):
        if kind != "passage":
            return self.original(texts, kind=kind, **kwargs)
        raw_first = self.calls % 2 == 1
        self.calls += 1
        if raw_first:
            self._raw(texts, kwargs)
        a = time.perf_counter()
        out = self.original(texts, kind=kind, **kwargs)
        self.import_model += time.perf_counter() - a
        if not raw_first:
            self._raw(texts, kwargs)
        self.texts += len(texts)
        return out

    def _raw(self, texts, kwargs) -> None:
        a, c = time.perf_counter(), time.process_time()
        self.original(list(texts), kind="passage", **kwargs)
        self.raw += time.perf_counter() - a
        self.raw_cpu += time.process_time() - c


def run(path: Path, embedder: Embedder, synth: SynthGraph) -> dict:
    """Import ``synth`` into a fresh file with the real model; the file is left for the search bench."""
    remove_db(path)
    recorder = record_shapes(embedder)
    paired = PairedEncoder(embedder)
    db = Database(path)
    graph = Graph(db, embedder)
    stages: dict[str, float] = {}

    def progress(stage: str, done: int, total: int) -> None:
        stages.setdefault(stage, time.perf_counter())

    try:
        embedder.encode = paired  # instance attribute: only this embedder, only for this run
        recorder.take()
        t0, c0 = time.perf_counter(), time.process_time()
        summary = import_records(graph, synth.entities, synth.relations, progress=progress)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    finally:
        del embedder.encode
        db.close()
    shapes, real = recorder.take()
    n = len(synth.entities)
    import_time = wall - paired.raw  # the reference calls ran inside the import's wall time
    import_cpu = cpu - paired.raw_cpu
    graph_stage = stages.get("embed", t0 + import_time) - t0
    padded = sum(b * s for b, s in shapes)
    real_tokens = sum(real)
    # Half the model calls were the import's, half the reference's: tokens per second over both.
    model_time = paired.import_model + paired.raw
    out = {
        "entities": n,
        "relations": summary.relations_added,
        "embedded": summary.embedded,
        "import_s": round(import_time, 2),
        "import_entities_per_s": round(n / import_time, 1),
        "raw_model_s": round(paired.raw, 2),
        "raw_entities_per_s": round(paired.texts / paired.raw, 1) if paired.raw else None,
        "ratio": round(paired.raw / import_time, 3) if import_time else None,
        # CPU time is what the work costs whatever else runs on the machine: the steadier ratio when shared.
        "import_cpu_s": round(import_cpu, 2),
        "raw_model_cpu_s": round(paired.raw_cpu, 2),
        "ratio_cpu": round(paired.raw_cpu / import_cpu, 3) if import_cpu else None,
        "stages_s": {
            "graph_write": round(graph_stage, 2),
            "model_in_import": round(paired.import_model, 2),
            "bookkeeping_in_embed": round(import_time - graph_stage - paired.import_model, 2),
        },
        "encoding": {
            "tokens_per_s": round(real_tokens / model_time, 1) if model_time else None,
            "padded_tokens_per_s": round(padded / model_time, 1) if model_time else None,
            "padding_efficiency": round(real_tokens / padded, 3) if padded else None,
            "mean_tokens_per_text": round(real_tokens / max(1, 2 * paired.texts), 1),
            "batch_seq_len": {"max": max(s for _, s in shapes), "median": float(np.median([s for _, s in shapes]))},
        },
    }
    logger.info("import %.1f entities/s vs raw model %.1f", out["import_entities_per_s"], out["raw_entities_per_s"] or 0)
    return out
