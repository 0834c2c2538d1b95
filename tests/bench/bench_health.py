"""Memory health benchmark: planted duplicates found, hard negatives kept out, and a large scan's cost.

Run: PYTHONPATH=app .venv/bin/python -m tests.bench.bench_health [--large 100000] [--skip-large] [--only-large]
(not under nice: the window runs at normal priority, as the app does, and the scan lowers its own)
1. The sample graph with a few planted pairs, and a 5,000-entity synthetic graph with 60 planted
   pairs of five kinds and 60 hard negatives (tests/bench/health_planted.py), imported and embedded
   with the real model. Precision and recall of the top 2×planted candidates; hard negatives in the
   top 10. Targets: recall ≥ 0.9, no hard negative in the top 10.
2. The full scan of a large graph (cheap deterministic vectors, as the other large-graph benchmarks)
   through the Health view's own background path (a process of its own) while a 5 ms timer ticks on
   the UI thread, and, to compare, the earlier path (a thread of the window's process): seconds,
   how late the ticks came (worst, p95, p99) and memory (the scan process's peak, the window's growth).
   Target: ≤ 60 s on 2 cores, worst stall ≤ 50 ms, p95 ≤ 20 ms.
Writes bench-results/bench_health.json and .md.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import threading
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402

from limbic.engine.store.db import Database  # noqa: E402
from limbic.engine.vectors.embeddings import load_embedder  # noqa: E402
from limbic.engine.graph.graph import Graph  # noqa: E402
from limbic.engine.formats.jsonl import import_records, read_file_full  # noqa: E402
from limbic.service import health  # noqa: E402
from limbic.service.health import vectors  # noqa: E402
from limbic.service.health.duplicates import duplicate_candidates  # noqa: E402
from limbic.service.health.load import Handle, load  # noqa: E402
from tests.bench.common import RESULTS, current_rss_mb, machine, peak_rss_mb  # noqa: E402
from tests.bench.health_planted import Planted, plant, plant_sample  # noqa: E402
from tests.bench.synth import generate  # noqa: E402

logger = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parents[2]
BASE_VERSION = "health-base-1"


def _ranked(graph: Graph) -> list[tuple[frozenset[str], float]]:
    handle = Handle()
    data = load(graph, handle)
    found = duplicate_candidates(graph, data, vectors.meaning(graph, data, handle), handle, min_score=0.0, limit=None)
    return [(frozenset(f.entities), f.score) for f in found]


def evaluate(graph: Graph, planted: Planted) -> dict:
    """Precision and recall of the top 2×planted, rank of each planted pair, hard negatives near the top."""
    ranked = _ranked(graph)
    rank = {pair: i for i, (pair, _) in enumerate(ranked)}
    truth = {frozenset((a, b)): kind for kind, a, b in planted.pairs}
    bad = {frozenset((a, b)): kind for kind, a, b in planted.negatives}
    top_n = 2 * len(truth)
    top = [p for p, _ in ranked[:top_n]]
    hits = [p for p in top if p in truth]
    per_kind: dict[str, list[int]] = {}
    for pair, kind in truth.items():
        per_kind.setdefault(kind, [0, 0])
        per_kind[kind][1] += 1
        if rank.get(pair, 10**9) < top_n:
            per_kind[kind][0] += 1
    missed = sorted((rank.get(p, -1), sorted(p), k) for p, k in truth.items() if rank.get(p, 10**9) >= top_n)
    negatives_top10 = [sorted(p) for p, _ in ranked[:10] if p in bad]
    worst_negative = min((rank[p] for p in bad if p in rank), default=None)
    return {
        "planted": len(truth), "hard_negatives": len(bad), "candidates": len(ranked), "top_n": top_n,
        "recall_at_top_n": round(len(hits) / len(truth), 3) if truth else None,
        "precision_at_top_n": round(len(hits) / max(1, len(top)), 3),
        "precision_at_planted": round(sum(1 for p, _ in ranked[:len(truth)] if p in truth) / max(1, len(truth)), 3),
        "recall_by_kind": {k: f"{v[0]}/{v[1]}" for k, v in sorted(per_kind.items())},
        "hard_negatives_in_top10": negatives_top10,
        "best_rank_of_a_hard_negative": worst_negative,
        "missed": [{"rank": r, "pair": p, "kind": k} for r, p, k in missed],
        "top10": [[sorted(p), round(s, 3), truth.get(p) or bad.get(p, "")] for p, s in ranked[:10]],
    }


def _import(path: Path, entities, relations, embedder) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    db = Database(path)
    try:
        graph = Graph(db, embedder)
        for i, e in enumerate(entities):
            e.line = i + 1
        for i, r in enumerate(relations):
            r.line = len(entities) + i + 1
        import_records(graph, list(entities), list(relations))
        db.set_meta("bench_health", BASE_VERSION)
    finally:
        db.close()


def _top_up(path: Path, planted: Planted, embedder) -> None:
    """Bring the planted part of a cached graph to what the generator makes now (only changes are embedded)."""
    db = Database(path)
    try:
        graph = Graph(db, embedder)
        for e in planted.entities:
            eid = db.scalar("SELECT id FROM entities WHERE name = ?", (e.name,))
            if eid is not None:
                for oid, content in list(db.execute("SELECT id, content FROM observations WHERE entity_id = ?", (eid,))):
                    if content not in e.observations:
                        graph.delete_observation(oid)
        for i, e in enumerate(planted.entities):
            e.line = i + 1
        for i, r in enumerate(planted.relations):
            r.line = len(planted.entities) + i + 1
        import_records(graph, list(planted.entities), list(planted.relations))
    finally:
        db.close()


def sample_case(embedder) -> dict:
    entities, relations, _ = read_file_full(ROOT / "resources" / "sample_graph.jsonl")
    names = {e.name for e in entities}
    planted = plant_sample(names)
    by_name = {e.name: e for e in entities}
    # The same observations under another name, and a translated copy's relations, as an assistant leaves them.
    for original, other in (("Home server", "Homelab box"), ("restic", "Backup tool (restic successor)")):
        if original in by_name:
            planted.entities.append(type(by_name[original])(0, other, by_name[original].entity_type,
                                                            list(by_name[original].observations)))
            planted.pairs.append(("same observations", original, other))
    for kind, a, dup in planted.pairs:
        for r in relations:
            if r.source == a and kind in ("other language", "same observations"):
                planted.relations.append(type(r)(0, dup, r.target, r.relation_type))
                break
    path = RESULTS / "health-sample.db"
    _import(path, entities + planted.entities, relations + planted.relations, embedder)
    db = Database(path, readonly=True)
    try:
        return evaluate(Graph(db), planted)
    finally:
        db.close()


def synthetic_case(embedder, n: int = 5000, rebuild: bool = False) -> dict:
    synth = generate(n, queries=0)
    anchors = [e.name for e in synth.entities[:400]]
    planted = plant(anchors)
    path = RESULTS / f"health-{n}.db"
    cached = False
    if path.is_file() and not rebuild:
        db = Database(path, readonly=True)
        cached = db.get_meta("bench_health") == BASE_VERSION and db.get_meta("model_identity") == embedder.identity
        db.close()
    t0 = time.perf_counter()
    if not cached:
        logger.info("building the %d-entity planted graph (embedding with the model; cached afterwards)", n)
        _import(path, synth.entities + planted.entities, synth.relations + planted.relations, embedder)
    else:
        _top_up(path, planted, embedder)
    built = time.perf_counter() - t0
    db = Database(path, readonly=True)
    try:
        t0 = time.perf_counter()
        out = evaluate(Graph(db), planted)
        out["scan_seconds"] = round(time.perf_counter() - t0, 2)
    finally:
        db.close()
    out["entities"] = n + len(planted.entities)
    out["build_seconds"] = round(built, 1)
    return out


def _reset_peak() -> None:
    """Start this process's peak-memory count afresh (Linux), so each measurement has its own."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def _gaps(beat) -> dict:
    gaps = np.asarray(beat.gaps or [0.0])
    worst = int(gaps.argmax())
    at = (float(gaps[:worst].sum()) + worst * beat.tick_ms) / 1000  # seconds after the measurement began
    return {"stall_worst_ms": round(float(gaps.max()), 1), "stall_worst_at_s": round(at, 2), "stall_p95_ms": round(float(np.percentile(gaps, 95)), 1),
            "stall_p99_ms": round(float(np.percentile(gaps, 99)), 1), "ticks": len(beat.gaps)}


class _GcWatch:
    """How long the window process's own garbage collections take (they stop every thread of it)."""

    def __init__(self) -> None:
        import gc

        self.pauses: list[float] = []
        self._began = 0.0
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.pauses.append((time.perf_counter() - self._began) * 1000)

    def stop(self) -> None:
        import gc

        gc.callbacks.remove(self._on_gc)

    def worst_ms(self) -> float:
        return round(max(self.pauses, default=0.0), 1)


def _times(beat) -> list[tuple[float, float]]:
    """(seconds after the start, ms late) of every tick."""
    out, at = [], 0.0
    for gap in beat.gaps:
        at += (gap + beat.tick_ms) / 1000
        out.append((at, gap))
    return out


def _thread_path(app, path: Path, beat) -> dict:
    """The path the Health view took before: ``scan_file`` on a thread of the window's process."""
    from PySide6.QtCore import QEventLoop, QTimer

    out: dict = {}

    def work() -> None:
        s0 = time.perf_counter()
        report = health.scan_file(path, None, Handle())
        out["seconds"] = round(time.perf_counter() - s0, 2)
        out["duplicates_reported"] = report.counts()["duplicates"]

    loop = QEventLoop()
    watch = QTimer()
    watch.setInterval(20)
    thread = threading.Thread(target=work, daemon=True)
    watch.timeout.connect(lambda: None if thread.is_alive() else loop.quit())
    collections = _GcWatch()
    _reset_peak()
    rss0 = current_rss_mb()
    beat.start()
    thread.start()
    watch.start()
    loop.exec()
    beat.stop()
    collections.stop()
    return {"path": "thread in the window's process", **out, **_gaps(beat), "window_gc_worst_ms": collections.worst_ms(),
            "stalls_over_50ms_at_s": [round(at, 2) for at, gap in _times(beat) if gap > 50],
            "load_average_1min_at_end": round(os.getloadavg()[0], 2),
            "window_process_peak_growth_mb": round(peak_rss_mb() - rss0, 1)}


def _view_path(app, path: Path, beat) -> dict:
    """What the app does now: the Health view's own background scan (a process of its own), every kind."""
    from PySide6.QtCore import QEventLoop

    from limbic.ui.health.health_view import HealthView

    handler_ms: list[float] = []

    class TimedView(HealthView):
        def _on_scanned(self, report) -> None:  # the window's own work when the report arrives
            t = time.perf_counter()
            super()._on_scanned(report)
            handler_ms.append((time.perf_counter() - t) * 1000)

    view = TimedView(None, str(path))
    view.show()
    app.processEvents()
    loop = QEventLoop()
    view.scanned.connect(lambda _r: loop.quit())
    view.scan_failed.connect(lambda _s: loop.quit())
    progress: list[tuple[float, str]] = []
    s0 = time.perf_counter()
    view.scan_progress.connect(lambda stage, d, t: progress.append((time.perf_counter() - s0, stage)))
    collections = _GcWatch()
    _reset_peak()
    rss0 = current_rss_mb()
    beat.start()
    s0 = time.perf_counter()
    view.start_scan()
    loop.exec()
    seconds = time.perf_counter() - s0
    beat.stop()
    collections.stop()
    report = view.report
    view.close()
    if report is None:
        return {"path": "Health view (separate process)", "failed": view.state.text()}
    import pickle

    blob = pickle.dumps(report)
    t = time.perf_counter()
    pickle.loads(blob)  # what the waiting thread does with the GIL held
    unpickle_ms = (time.perf_counter() - t) * 1000
    gaps = _gaps(beat)
    stage = next((st for at, st in reversed(progress) if at <= gaps["stall_worst_at_s"]), "starting")
    return {"path": "Health view (separate process)", "seconds": round(seconds, 2), "stage_at_worst_stall": stage,
            "load_average_1min_at_end": round(os.getloadavg()[0], 2),
            "report_kib": round(len(blob) / 1024, 1), "report_unpickle_ms": round(unpickle_ms, 1),
            "showing_the_report_ms": round(max(handler_ms, default=0.0), 1),
            "window_gc_worst_ms": collections.worst_ms(),
            "stalls_over_50ms_at_s": [round(at, 2) for at, gap in _times(beat) if gap > 50],
            "scan_seconds_in_process": round(report.seconds, 2), "spawn_and_return_seconds": round(seconds - report.seconds, 2),
            "duplicates_reported": report.counts()["duplicates"], "counts": report.counts(),
            "progress_reports": len(progress), **gaps, "scan_process_peak_mb": report.peak_mib,
            "window_process_peak_growth_mb": round(peak_rss_mb() - rss0, 1)}


def large_case(embedder, n: int, paths: tuple[str, ...] = ("view", "thread"), repeat: int = 1) -> dict:
    """A large graph scanned while a 5 ms timer ticks on the UI thread: the app's path and the earlier one."""
    from PySide6.QtWidgets import QApplication

    from tests.bench.build import cached_graph
    from tests.bench.heartbeat import Heartbeat

    t0 = time.perf_counter()
    path, _, built = cached_graph(n, embedder, queries=0)
    app = QApplication.instance() or QApplication([])
    beat = Heartbeat(5)
    out: dict = {"entities": n, "graph_built_seconds": round(built, 1), "setup_seconds": round(time.perf_counter() - t0, 1)}
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(10_000, loop.quit)
    beat.start()
    loop.exec()  # the machine's own noise: nothing scans
    beat.stop()
    out["idle_10s"] = _gaps(beat)
    s0 = time.perf_counter()
    dup = health.scan_in_process(path, ["duplicates"])
    out["duplicates_only"] = {"seconds": round(time.perf_counter() - s0, 2), "scan_seconds": round(dup.seconds, 2),
                              "scan_process_peak_mb": dup.peak_mib, "reported": dup.counts()["duplicates"]}
    for which in paths:
        runs = [(_view_path if which == "view" else _thread_path)(app, path, beat) for _ in range(repeat)]
        worst = sorted(r.get("stall_worst_ms", 0.0) for r in runs)
        out[which] = {**runs[len(runs) // 2], "runs": len(runs), "stall_worst_ms_by_run": [r.get("stall_worst_ms") for r in runs],
                      "stall_p95_ms_by_run": [r.get("stall_p95_ms") for r in runs],
                      "worst_stall_when_by_run": [[r.get("stall_worst_at_s"), r.get("stage_at_worst_stall")] for r in runs],
                      "window_gc_worst_ms_by_run": [r.get("window_gc_worst_ms") for r in runs],
                      "stalls_over_50ms_at_s_by_run": [r.get("stalls_over_50ms_at_s") for r in runs],
                      "seconds_by_run": [r.get("seconds") for r in runs], "stall_worst_ms_median": worst[len(worst) // 2]}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--large", type=int, default=100_000)
    parser.add_argument("--skip-large", action="store_true")
    parser.add_argument("--only-large", action="store_true")
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--paths", default="view,thread", help="large graph: view (the app's), thread (the earlier)")
    parser.add_argument("--repeat", type=int, default=3, help="large graph: runs of each path (stalls vary with the machine)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    RESULTS.mkdir(exist_ok=True)
    embedder = load_embedder()
    out_json = RESULTS / "bench_health.json"
    report: dict = json.loads(out_json.read_text(encoding="utf-8")) if out_json.is_file() else {}
    report["machine"] = machine()  # parts not run this time keep their last figures
    if not args.only_large:
        report["sample"] = sample_case(embedder)
        print(json.dumps(report["sample"], ensure_ascii=False, indent=1))
        report["synthetic_5k"] = synthetic_case(embedder, rebuild=args.rebuild)
        print(json.dumps(report["synthetic_5k"], ensure_ascii=False, indent=1))
    if not args.skip_large:
        large = large_case(embedder, args.large, tuple(args.paths.split(",")), max(1, args.repeat))
        if report.get("large", {}).get("entities") == large["entities"]:
            large = {**report["large"], **large}  # a path not run this time keeps its last figures
        report["large"] = large
        print(json.dumps(report["large"], indent=1))
    out_json.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    lines = ["# Memory health benchmark", ""]
    for key in ("sample", "synthetic_5k"):
        if key in report:
            r = report[key]
            lines.append(f"- {key}: recall@{r['top_n']} {r['recall_at_top_n']}, precision@{r['top_n']} "
                         f"{r['precision_at_top_n']}, hard negatives in top 10: {len(r['hard_negatives_in_top10'])}")
    if "large" in report:
        r = report["large"]
        d = r.get("duplicates_only", {})
        idle = r.get("idle_10s", {})
        lines.append(f"- the window idle for 10 s (the machine's own noise): stall worst {idle.get('stall_worst_ms')} ms, "
                     f"p95 {idle.get('stall_p95_ms')} ms")
        lines.append(f"- {r['entities']:,} entities, duplicates only (separate process, no window): {d.get('seconds')} s, "
                     f"scan process peak {d.get('scan_process_peak_mb')} MiB")
        for key in ("view", "thread"):
            if key in r and "seconds" in r[key]:
                v = r[key]
                mem = (f"scan process peak {v['scan_process_peak_mb']} MiB, " if "scan_process_peak_mb" in v else "")
                lines.append(f"- {r['entities']:,} entities, every kind, {v['path']}, {v.get('runs', 1)} runs: "
                             f"{v.get('seconds_by_run', v['seconds'])} s; stall worst by run {v.get('stall_worst_ms_by_run')} ms, "
                             f"p95 by run {v.get('stall_p95_ms_by_run')} ms (the median run: p99 {v['stall_p99_ms']} ms, "
                             f"its own collections at most {v.get('window_gc_worst_ms')} ms); "
                             f"{mem}window process grew {v['window_process_peak_growth_mb']} MiB")
    (RESULTS / "bench_health.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
