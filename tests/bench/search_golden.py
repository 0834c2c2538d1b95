"""Search answers frozen to compare a change of the search code against: every mode's top 10 for fixed queries.

A small graph (SciFact and ArguAna documents, a synthetic notebook, a few hand-made notes; the real
model) that a test rebuilds in seconds, or a cached benchmark graph (``--size``), and for each query
the top ten ids and scores of every branch choice and base relevance, the text branch alone and the
exact tiers. The clock is frozen and nothing is recorded, so two runs of the same code agree to the
last digit, and two versions of the code agree unless they rank differently.

The model's vectors are not the same to the last digit on every machine (its kernels sum in another
order on another processor), so the small graph's snapshot is written with the vectors it was made
with (``OUT`` with ``.vectors.npz``), and the test reads them back instead of running the model: the
answers then depend on the search code alone.

    PYTHONPATH=app:. .venv/bin/python -m tests.bench.search_golden OUT.json [--size 20000]
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import logging
import math
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from limbic.engine.formats.jsonl import EntityRecord, RelationRecord, import_records
from limbic.engine.graph.graph import Graph
from limbic.engine.search import scoring
from limbic.engine.search import search as search_module
from limbic.engine.search.scoring import ScoringParams
from limbic.engine.search.search import clean_query, exact_tiers, fts_branch_scored, search
from limbic.engine.store.db import Database
from limbic.engine.vectors.embeddings import Embedder

logger = logging.getLogger(__name__)

# The public collections beside the checkout (shared/eval), where CI and development keep them.
EVAL = next((p for p in (Path(__file__).resolve().parents[3] / "shared" / "eval", Path("/work/shared/eval"))
             if p.is_dir()), Path(__file__).resolve().parents[3] / "shared" / "eval")
# The clock every score is computed at, and the age every entity of the small graph is given.
FROZEN_NOW = datetime(2026, 6, 1, 12, 0, 0, tzinfo=timezone.utc)
CREATED = "2026-05-01 08:00:00"
TOP = 10
DIGITS = 9
# Queries no collection holds: the edges of reading a query (empty, no word, half typed, identifiers,
# other languages, operators, broken characters, far too long).
EDGE_QUERIES = [
    "", "   ", "*", "-?", "zz", "qqq xq", "qwertyuiop", "asdf", "the who", "when is it",
    "copia de seguridad", "¿Cuándo es la cita con el médico?", "Wann ist der Termin für das Auto?",
    "médico", "medico", "bolígrafos azules", "LMB-1042", "Session 2026-03-28", "v1.2.3", "10.0.0.1",
    "doctor appoi", "doctor appointment ", "backup AND NOT restore", '"exact phrase" OR name:x',
    "snake_case_name", "ﬁle system", "bad\x00byte \ud800 surrogate", "🙂 emoji only 🙂", "🙂",
    "Copy of the notes", "notes", "NOTES", "  Kitchen   garden  ", "kitchen gar",
    "cancer " * 40, " ".join(f"word{i}" for i in range(90)), "x" * 2500,
    "vitamin d deficiency", "mitochondria", "mitochon", "cells", "protein expression in mice",
]
NOTES = [
    ("LMB-1042", "Ticket", ["Crash when the backup runs twice", "Fixed in v1.2.3"]),
    ("Session 2026-03-28", "Meeting", ["Talked about the kitchen garden", "Next: doctor appointment"]),
    ("Kitchen garden", "Project", ["Tomatoes, basil and saffron", "Water every morning"]),
    ("Copia de seguridad", "Nota", ["Las copias de seguridad se guardan en el disco externo"]),
    ("Cita con el médico", "Nota", ["El martes a las diez, llevar los análisis"]),
    ("Bolígrafo azul", "Cosa", ["Los bolígrafos azules están en el cajón"]),
    ("Auto", "Sache", ["Der Termin für das Auto ist am Montag"]),
    ("snake_case_name", "Code", ["A function named in snake case", "file system watcher"]),
    ("Notes", "Folder", ["Where the notes live"]),
    ("10.0.0.1", "Host", ["The router of the office network"]),
]


def _lines(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _qrels(path: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split("\t")
        if len(parts) >= 3 and parts[0] != "query-id":
            out.setdefault(parts[0], []).append(parts[1])
    return out


def collection_sample(name: str, queries: int, fillers: int, chars: int) -> tuple[list[EntityRecord], list[str]]:
    """The first ``queries`` judged queries of a collection, their relevant documents and ``fillers`` more
    (text cut at ``chars``: the model's cost grows with it), as entities named as ``limbic eval`` names them."""
    folder = EVAL / name
    qrels = _qrels(next((folder / "qrels").glob("*.tsv")))
    picked = [q for q in _lines(folder / "queries.jsonl") if str(q["_id"]) in qrels][:queries]
    wanted = {d for q in picked for d in qrels[str(q["_id"])]}
    docs = _lines(folder / "corpus.jsonl")
    chosen = [d for d in docs if str(d["_id"]) in wanted] + [d for d in docs if str(d["_id"]) not in wanted][:fillers]
    records = [
        EntityRecord(0, f"{name}:{d['_id']}: {(d.get('title') or '').strip()}"[:200].strip(), "Paper",
                     [(d.get("text") or "").strip()[:chars]])
        for d in chosen
    ]
    return records, [q["text"] for q in picked]


def small_records() -> tuple[list[EntityRecord], list[RelationRecord], list[str]]:
    """The small graph's entities and relations, and its queries: every collection's, then the edges."""
    from tests.bench.synth import generate

    scifact, scifact_q = collection_sample("scifact-train", 20, 50, 600)
    arguana, arguana_q = collection_sample("arguana", 3, 10, 500)
    synth = generate(120, seed=5, queries=20)
    notes = [EntityRecord(0, n, t, obs) for n, t, obs in NOTES]
    records = [replace(r, line=i) for i, r in enumerate([*scifact, *arguana, *synth.entities, *notes], start=1)]
    queries = [*scifact_q, *[q[:1500] for q in arguana_q], *(q for _, q in synth.queries), *EDGE_QUERIES]
    return records, synth.relations, queries


class Vectors:
    """The model's answers, kept by text: recorded from a real model, or played back from a file.

    Stands in for the :class:`Embedder` it wraps (everything but encoding is the model's own). Played
    back, a text the file does not hold is encoded by the model and named in ``missing``.
    """

    def __init__(self, model: Embedder, known: dict[str, np.ndarray] | None = None) -> None:
        self._model = model
        self.recording = known is None
        self.known: dict[str, np.ndarray] = {} if known is None else known
        self.missing: list[str] = []

    def __getattr__(self, name: str):  # noqa: ANN204 - the model's own attributes
        return getattr(self._model, name)

    @staticmethod
    def key(text: str, kind: str) -> str:
        return hashlib.sha256(f"{kind}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()[:24]

    def encode(self, texts, kind: str = "passage", batch_size: int = 32, progress=None) -> np.ndarray:  # noqa: ANN001
        keys = [self.key(t, kind) for t in texts]
        todo = [i for i, k in enumerate(keys) if k not in self.known]
        if todo:
            if not self.recording:
                self.missing.extend(texts[i][:80] for i in todo)
            fresh = self._model.encode([texts[i] for i in todo], kind=kind, batch_size=batch_size)
            for i, row in zip(todo, fresh):
                self.known[keys[i]] = _as_kept(row) if self.recording else row
        out = np.zeros((len(keys), self._model.dim), dtype=np.float32)
        for row, k in enumerate(keys):
            out[row] = self.known[k]
        if progress is not None:
            progress(len(keys))
        return out

    def encode_query(self, text: str) -> np.ndarray:
        return self.encode([text], kind="query")[0]

    def for_another_thread(self) -> Vectors:
        twin = Vectors(self._model.for_another_thread(), self.known)
        twin.recording, twin.missing = self.recording, self.missing
        return twin

    def save(self, path: Path) -> None:
        """In half precision: the file is the search's input, not a measurement of the model."""
        keys = sorted(self.known)
        np.savez_compressed(path, keys=np.array(keys), vectors=np.stack([self.known[k] for k in keys]).astype(np.float16))

    @classmethod
    def load(cls, model: Embedder, path: Path) -> Vectors:
        with np.load(path) as data:
            return cls(model, {str(k): _as_kept(row) for k, row in zip(data["keys"], data["vectors"])})


def _as_kept(row: np.ndarray) -> np.ndarray:
    """A vector as the file keeps it (half precision), normalised again: recorded and played back alike."""
    kept = np.asarray(row, dtype=np.float16).astype(np.float64)
    norm = math.sqrt(math.fsum(float(x) * float(x) for x in kept))  # exact, whatever the processor
    return (kept / max(norm, 1e-12)).astype(np.float32)


def vectors_path(out: Path) -> Path:
    return out.with_suffix(".vectors.npz")


def build_small(path: Path, embedder: Embedder) -> tuple[Graph, list[str]]:
    """The small graph on ``path`` (embedded with ``embedder``, every entity of one age), and its queries."""
    records, relations, queries = small_records()
    graph = Graph(Database(path), embedder)
    import_records(graph, records, relations)
    with graph.db.transaction():
        graph.db.execute("UPDATE entities SET created_at = ?, updated_at = ?", (CREATED, CREATED))
    return graph, queries


@contextlib.contextmanager
def frozen_clock() -> Iterator[None]:
    """Search scores at ``FROZEN_NOW``: the temporal factor no longer moves between runs."""

    class Frozen(datetime):
        @classmethod
        def now(cls, tz=None):  # noqa: ANN001, ANN206
            return FROZEN_NOW if tz is not None else FROZEN_NOW.replace(tzinfo=None)

    saved = search_module.datetime
    search_module.datetime = Frozen
    try:
        yield
    finally:
        search_module.datetime = saved


def _r(x: float | None) -> float | None:
    return None if x is None else round(float(x), DIGITS)


MODES = {
    "both": ("both", ScoringParams()),
    "meaning": ("meaning", ScoringParams()),
    "words": ("words", ScoringParams()),
    "both_seed": ("both", ScoringParams(base_relevance=scoring.BASE_SEED)),
    "both_blend": ("both", ScoringParams(base_relevance=scoring.BASE_BLEND)),
    "both_fused": ("both", ScoringParams(base_relevance=scoring.BASE_FUSED)),
    "both_no_floor": ("both", ScoringParams(floor=False)),
}


def answer(graph: Graph, query: str) -> dict:
    """Every mode's top ten for one query, the text branch alone and the exact tiers."""
    out: dict = {}
    with frozen_clock():
        for mode, (branches, params) in MODES.items():
            resp = search(graph, query, TOP, record=False, params=params, branches=branches)
            top = [[r.entity_id, _r(r.limbic_score), int(r.exact)] for r in resp.results]
            out[mode] = [resp.mode, resp.no_match, resp.note, top]
            if mode == "both":
                out["terms"] = resp.terms
        typed = search(graph, query, TOP, record=False, entity_type="Paper")
        out["typed"] = [[r.entity_id, _r(r.limbic_score)] for r in typed.results]
    k = ScoringParams().expansion_factor * TOP
    text = clean_query(query)  # the helpers below take text search has already made safe
    out["fts"] = [[i, _r(s)] for i, s in fts_branch_scored(graph, text, k)[:TOP]]
    out["tiers"] = sorted([i, t] for i, t in exact_tiers(graph, text, k).items())
    return out


def snapshot(graph: Graph, queries: list[str]) -> list[dict]:
    """Every query's answers, in order (the query kept for reading a difference)."""
    return [{"query": q[:100], **answer(graph, q)} for q in queries]


def write(path: Path, answers: list[dict]) -> None:
    """One query's answers a line: a difference reads as the lines of the queries that changed."""
    path.write_text("[\n" + ",\n".join(json.dumps(a) for a in answers) + "\n]\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Write the snapshot of the small graph, or of the cached ``--size`` benchmark graph, to OUT."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--size", type=int, default=0, help="a cached synthetic benchmark graph of this many entities")
    p.add_argument("--queries", type=int, default=200)
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    from limbic.engine.vectors.embeddings import load_embedder

    embedder = load_embedder()
    if args.size:
        from tests.bench.build import cached_graph

        path, bench_queries, _ = cached_graph(args.size, embedder, queries=args.queries)
        _, scifact_q = collection_sample("scifact-train", 60, 0, 0)
        _, arguana_q = collection_sample("arguana", 10, 0, 0)
        queries = [q for _, q in bench_queries] + scifact_q + arguana_q + EDGE_QUERIES
        graph = Graph(Database(path), embedder)
    else:
        import tempfile

        tmp = Path(tempfile.mkdtemp()) / "golden.db"
        t0 = time.perf_counter()
        embedder = Vectors(embedder)
        graph, queries = build_small(tmp, embedder)
        logger.info("small graph built in %.1f s", time.perf_counter() - t0)
    try:
        write(Path(args.out), snapshot(graph, queries))
        if isinstance(embedder, Vectors):
            embedder.save(vectors_path(Path(args.out)))
            logger.info("%d vectors written to %s", len(embedder.known), vectors_path(Path(args.out)))
    finally:
        graph.db.close()
    logger.info("%d queries written to %s", len(queries), args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
