"""The graph view's figures: time to first paint, frame times while panning and zooming, UI stalls during layout.

Run: nice .venv/bin/python -m tests.bench.bench_graph_view [--sizes 5000 20000] [--stall-nodes 20000]
Writes bench-results/graph_view.json and .md. Offscreen; the model is switched off (the graph view
needs no model, and a background embedding job would disturb the timings).

1. Local view, depth 2, around a hub with 500 neighbours (each with 3 more): from asking to the
   first paint of the new picture, folded (the default) and with the hub expanded; median of 5.
2. Whole graph, 2 relations per entity, laid out: frame time (the canvas painted into an image
   the widget's size, 1280 × 800) over a scripted pan / zoom-in / zoom-out sequence; p50 / p95.
   Target p95 ≤ 33 ms at 20k.
3. UI-thread stall while the whole graph is read and laid out in the window: a precise 5 ms timer
   on the UI thread, a stall is how late a tick comes. Targets: worst ≤ 50 ms, p99 ≤ 20 ms. Then
   the second opening, with the saved positions: time to the first paint.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402

from tests.bench.common import stats_ms, write_results  # noqa: E402

TICK_MS = 5
FRAME_SIZE = (1280, 800)


def percentile(values: list[float], p: float) -> float:
    return float(np.percentile(values, p)) if values else 0.0


def write_db(path: Path, n: int, hub_neighbours: int = 0, seed: int = 3) -> None:
    """A graph straight through SQL: ``n`` entities in communities, 2 relations each; optionally a hub."""
    from limbic.engine.store.db import Database
    from limbic.engine.graph.graph import now_utc

    rng = np.random.default_rng(seed)
    types = ["Person", "Project", "Note", "Meeting", "Decision", "Tool", "Book", "Place"]
    db = Database(path)
    now = now_utc()
    with db.transaction():
        db.executemany(
            "INSERT INTO entities(id, name, entity_type, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
            [(i + 1, f"Entity {i:05d}", types[(i // 40) % len(types)], now, now) for i in range(n)],
        )
        db.executemany("INSERT INTO observations(entity_id, content, created_at) VALUES (?, ?, ?)",
                       [(i + 1, f"note {i}", now) for i in range(n)])
        src = rng.integers(0, n, 2 * n)
        inside = (src // 40) * 40 + rng.integers(0, 40, 2 * n)
        dst = np.where(rng.random(2 * n) < 0.85, np.minimum(inside, n - 1), rng.integers(0, n, 2 * n))
        rels = {(int(a) + 1, int(b) + 1) for a, b in zip(src, dst) if a != b}
        if hub_neighbours:
            for k in range(hub_neighbours):
                rels.add((1, 2 + k))
                for j in range(3):
                    rels.add((2 + k, 2 + hub_neighbours + 3 * k + j))
        db.executemany("INSERT OR IGNORE INTO relations(from_entity, to_entity, relation_type, created_at) VALUES (?, ?, 'rel', ?)",
                       [(a, b, now) for a, b in sorted(rels)])
    db.close()


def start_window(app, path: Path):
    from limbic.ui.shell.app import _wait
    from limbic.ui.shell.main_window import MainWindow

    window = MainWindow(path)
    window.resize(1600, 1000)
    window.show()
    window.start()
    if not _wait(app, lambda: window.catalog is not None, 300_000):
        sys.exit("bench_graph_view: the window did not open the file")
    return window


def first_paint(app, panel, trigger) -> float:
    """Seconds from ``trigger()`` to the first paint of the picture it asked for."""
    from limbic.ui.shell.app import _wait

    state = {"shown": False, "painted": None}

    def on_shown(_mode: str) -> None:
        state["shown"] = True

    def on_painted() -> None:
        if state["shown"] and state["painted"] is None:
            state["painted"] = time.perf_counter()

    panel.shown.connect(on_shown)
    panel.canvas.painted.connect(on_painted)
    start = time.perf_counter()
    trigger()
    _wait(app, lambda: state["painted"] is not None, 120_000)
    panel.shown.disconnect(on_shown)
    panel.canvas.painted.disconnect(on_painted)
    return (state["painted"] or time.perf_counter()) - start


def bench_local(app, home: Path) -> dict:
    from limbic.ui.shell.app import _wait

    path = home / "hub.db"
    write_db(path, 3000, hub_neighbours=500)
    window = start_window(app, path)
    window.open_entity(1)
    _wait(app, lambda: window.editor.entity_id == 1, 60_000)
    panel = window.graph.graph_panel()
    panel.depth.setValue(2)
    out = {}
    for label, expanded in (("folded", set()), ("expanded", {1})):
        times = []
        for _ in range(5):
            panel.runner.stop()
            panel.centre_id = None
            panel.expanded = set(expanded)

            def trigger() -> None:
                panel.centre_id = 1
                panel._request_local(keep=False)

            times.append(first_paint(app, panel, trigger))
            _wait(app, lambda: not panel.runner.running, 60_000)
        s = panel.canvas.scene
        out[label] = {"nodes": int(s.n), "edges": int(len(s.src)), "first_paint_ms": stats_ms(times)}
        print(f"local depth 2, hub of 500 ({label}): {s.n} nodes, {len(s.src)} edges, "
              f"first paint median {statistics.median(times) * 1000:.0f} ms")
    window.close()
    return out


def frame_times(n: int) -> dict:
    """Pan and zoom over a laid-out whole graph of ``n`` nodes, painting each frame into an image."""
    from PySide6.QtGui import QImage, QPainter

    from limbic.engine.graph.layout import ForceLayout
    from limbic.ui.graph.canvas import GraphCanvas
    from limbic.ui.graph.scene import Scene

    rng = np.random.default_rng(5)
    src = rng.integers(0, n, 2 * n)
    inside = (src // 40) * 40 + rng.integers(0, 40, 2 * n)
    dst = np.where(rng.random(2 * n) < 0.85, np.minimum(inside, n - 1), rng.integers(0, n, 2 * n))
    t = time.perf_counter()
    stepper = ForceLayout(n, src, dst, seed=1)
    for _ in stepper.run(every=10**9):
        pass
    layout_s = time.perf_counter() - t
    degree = (np.bincount(src, minlength=n) + np.bincount(dst, minlength=n)).astype(np.int32)
    scene = Scene(ids=np.arange(1, n + 1), pos=stepper.positions, types=((np.arange(n) // 40) % 8).astype(np.int32),
                  type_names=[f"Type {i}" for i in range(8)], degree=degree, kinds=np.zeros(n, np.int8),
                  labels=[f"Entity {i:05d}" for i in range(n)], statuses=["active"] * n,
                  src=src.astype(np.int32), dst=dst.astype(np.int32), rels=np.zeros(2 * n, np.int32),
                  rel_names=["rel"], dashed=np.zeros(2 * n, bool), highlight=np.zeros(n, bool))
    canvas = GraphCanvas()
    canvas.resize(*FRAME_SIZE)
    canvas.set_scene(scene)
    w, h = FRAME_SIZE
    image = QImage(w, h, QImage.Format.Format_ARGB32_Premultiplied)
    phases = {"overview pan": [], "zoom in": [], "zoomed-in pan": [], "zoom out": []}
    # Pans go out and back (the picture stays in view); zooms go 20x in and back out.
    swing = [(12, 7)] * 30 + [(-12, -7)] * 30
    script = ([("overview pan", lambda d=d: canvas.pan(*d)) for d in swing]
              + [("zoom in", lambda: canvas.zoom(1.08, w * 0.45, h * 0.55))] * 40
              + [("zoomed-in pan", lambda d=d: canvas.pan(-d[0], d[1])) for d in swing]
              + [("zoom out", lambda: canvas.zoom(1 / 1.08, w * 0.5, h * 0.5))] * 40)
    cpu: list[float] = []
    cpu_phase: dict[str, list[float]] = {k: [] for k in phases}
    for phase, move in script:
        move()
        t, c = time.perf_counter(), time.process_time()
        painter = QPainter(image)
        canvas.paint(painter, w, h)
        painter.end()
        phases[phase].append(time.perf_counter() - t)
        # CPU time of the whole process (Qt's raster engine may blend on threads of its own): what
        # the frame costs without other programs.
        cpu.append(time.process_time() - c)
        cpu_phase[phase].append(cpu[-1])
    every = [x for v in phases.values() for x in v]
    # Once a movement stops the full picture is drawn once (larger edge budgets): at the overview
    # and zoomed in.
    settled = []
    for move in [lambda: None] * 10 + [lambda: canvas.zoom(1.08 ** 20, w * 0.45, h * 0.55)] + [lambda: None] * 10:
        move()
        canvas._moving_until = 0.0
        t = time.perf_counter()
        painter = QPainter(image)
        canvas.paint(painter, w, h)
        painter.end()
        settled.append(time.perf_counter() - t)
    result = {"nodes": n, "edges": 2 * n, "layout_s": round(layout_s, 2), "layout_steps": stepper.iteration,
              "frame_ms": stats_ms(every), "frame_cpu_ms": stats_ms(cpu), "settled_frame_ms": stats_ms(settled),
              "by_phase": {k: stats_ms(v) for k, v in phases.items()},
              "cpu_by_phase": {k: stats_ms(v) for k, v in cpu_phase.items()}}
    print(f"whole graph {n:,} nodes / {2 * n:,} edges: frame p50 {result['frame_ms']['p50']:.1f} ms, "
          f"p95 {result['frame_ms']['p95']:.1f} ms (CPU time p50 {result['frame_cpu_ms']['p50']:.1f} ms, "
          f"p95 {result['frame_cpu_ms']['p95']:.1f} ms; full picture once still: p50 "
          f"{result['settled_frame_ms']['p50']:.1f} ms, p95 {result['settled_frame_ms']['p95']:.1f} ms; layout {layout_s:.1f} s, {stepper.iteration} steps)")
    return result


def bench_stall(app, home: Path, n: int) -> dict:
    from limbic.ui.shell.app import _wait

    path = home / "whole.db"
    write_db(path, n)
    window = start_window(app, path)
    panel = window.graph.graph_panel()
    from tests.bench.heartbeat import Heartbeat

    beat = Heartbeat(TICK_MS)
    gaps = beat.gaps
    done: list[bool] = []
    panel.layout_done.connect(done.append)
    paints: list[float] = []
    canvas_paint = panel.canvas.paint

    def timed_paint(painter, width, height) -> None:
        t = time.perf_counter()
        canvas_paint(painter, width, height)
        paints.append(time.perf_counter() - t)

    panel.canvas.paint = timed_paint
    snapshots = [0]
    panel.runner.snapshot.connect(lambda *_: snapshots.__setitem__(0, snapshots[0] + 1))
    start = time.perf_counter()
    beat.start()
    window.graph.show_whole_graph()
    _wait(app, lambda: bool(done), 600_000)
    beat.stop()
    seconds = time.perf_counter() - start
    _wait(app, lambda: window.engine.keyed is not None, 2_000)
    time.sleep(1.0)  # the positions are saved on the engine's thread
    app.processEvents()
    stall = {"nodes": n, "edges": len(panel.canvas.scene.src), "seconds": round(seconds, 2), "ticks": len(gaps),
             "snapshots": snapshots[0], "worst_ms": round(max(gaps, default=0.0), 2),
             "p99_ms": round(percentile(gaps, 99), 2), "p50_ms": round(percentile(gaps, 50), 2),
             "paint_ms": stats_ms(paints)}
    panel.canvas.paint = canvas_paint
    print(f"layout of {n:,} in the window: {seconds:.1f} s, {snapshots[0]} snapshots drawn; UI stall worst "
          f"{stall['worst_ms']:.1f} ms, p99 {stall['p99_ms']:.1f} ms, p50 {stall['p50_ms']:.1f} ms; "
          f"paints p50 {stall['paint_ms']['p50']:.1f} ms, p95 {stall['paint_ms']['p95']:.1f} ms")
    # The next opening: saved positions, no layout.
    panel.mode = "local"
    panel.canvas.set_scene(type(panel.canvas.scene)())
    again = first_paint(app, panel, window.graph.show_whole_graph)
    stall["reopen_first_paint_ms"] = round(again * 1000, 1)
    stall["reopen_started_layout"] = bool(panel.runner.running)
    print(f"second opening of the whole graph (saved positions): first paint {again * 1000:.0f} ms, "
          f"layout started: {panel.runner.running}")
    window.close()
    return stall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="*", default=[5000, 20000])
    parser.add_argument("--stall-nodes", type=int, default=20000)
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="limbic-graph-bench-"))
    os.environ["LIMBIC_HOME"] = str(home)
    os.environ["LIMBIC_MODEL_DIR"] = str(home / "no-model")  # no model: nothing embeds meanwhile

    from limbic.ui.shell.app import _application

    app = _application([sys.argv[0]])
    results = {"command": "nice .venv/bin/python -m tests.bench.bench_graph_view " + " ".join(sys.argv[1:]),
               "load_average_1min_at_start": round(os.getloadavg()[0], 2), "cpus": os.cpu_count()}
    results["local"] = bench_local(app, home)
    results["frames"] = [frame_times(n) for n in args.sizes]
    results["stall"] = bench_stall(app, home, args.stall_nodes)
    results["load_average_1min_at_end"] = round(os.getloadavg()[0], 2)
    write_results("graph_view", results, markdown(results))
    return 0


def markdown(r: dict) -> str:
    lines = ["# Graph view", "", f"{r['cpus']} CPUs, 1-min load {r['load_average_1min_at_start']} at start, "
             f"{r['load_average_1min_at_end']} at the end. Command: `{r['command']}`", "",
             "| local view, depth 2, hub of 500 | nodes | edges | first paint p50 / p95 |", "|---|---:|---:|---:|"]
    for label, x in r["local"].items():
        lines.append(f"| {label} | {x['nodes']} | {x['edges']} | {x['first_paint_ms']['p50']:.0f} / "
                     f"{x['first_paint_ms']['p95']:.0f} ms |")
    lines += ["", "| whole graph | edges | layout | frame p50 | frame p95 (target ≤ 33 ms) | CPU time p50 / p95 "
              "| full picture once still p50 / p95 |", "|---:|---:|---:|---:|---:|---:|---:|"]
    for f in r["frames"]:
        lines.append(f"| {f['nodes']:,} | {f['edges']:,} | {f['layout_s']} s ({f['layout_steps']} steps) | "
                     f"{f['frame_ms']['p50']:.1f} ms | {f['frame_ms']['p95']:.1f} ms | "
                     f"{f['frame_cpu_ms']['p50']:.1f} / {f['frame_cpu_ms']['p95']:.1f} ms | "
                     f"{f['settled_frame_ms']['p50']:.1f} / {f['settled_frame_ms']['p95']:.1f} ms |")
    s = r["stall"]
    lines += ["", f"Layout of {s['nodes']:,} entities / {s['edges']:,} relations in the window: {s['seconds']} s, "
              f"{s['snapshots']} snapshots drawn; UI stall worst {s['worst_ms']} ms (target ≤ 50), p99 {s['p99_ms']} ms "
              f"(target ≤ 20), p50 {s['p50_ms']} ms; its paints took p50 {s['paint_ms']['p50']} ms, p95 "
              f"{s['paint_ms']['p95']} ms. Second opening (saved positions): first paint "
              f"{s['reopen_first_paint_ms']} ms, layout started: {s['reopen_started_layout']}.", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
