"""What the activity log costs: MCP write latency and import throughput with and without it (ratios in one
run; the import both as the graph's own work alone and as a person runs it, embedding included), the Activity panel's open time on 100k logged changes, and the log's size per 100k changes.

    python -m tests.bench.bench_activity [--writes 1000] [--entities 3000] [--log 100000] [--runs 5]

"Without" is this Limbic with the activity triggers and session rows switched off (the plain
change_log row every commit had before); "with" is as shipped. MCP writes go through the server's
own call path (``GraphHost.invoke``: the tool gate, the activity naming, the service function, the
commit) in this process, without stdio, so the protocol's fixed cost does not dilute the ratio.
Each figure is a median over interleaved rounds; prints a table and writes bench-activity.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from limbic.engine.store import activity
from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from limbic.engine.formats.jsonl import import_file

WORDS = "graph vector search sqlite observation relation memory session project decision note index fusion".split()


class LogSwitch:
    """Turns the activity recording off (the state before the activity log) for the "without" rounds."""

    def __init__(self) -> None:
        self.real = activity.Recorder.ensure_installed

    def off(self) -> None:
        def never(recorder) -> bool:
            recorder.installed = False
            return False

        activity.Recorder.ensure_installed = never

    def on(self) -> None:
        activity.Recorder.ensure_installed = self.real


def _host(folder: Path, name: str, logging_on: bool):
    from limbic.mcp.server import GraphHost

    path = folder / f"mcp-{name}.db"
    g = Graph(Database(path))
    for i in range(50):
        g.create_entity(f"Topic {i}", "Topic", [f"seed {i}"])
    g.db.close()
    host = GraphHost(path, None, load_model=False)
    host.open()
    if not logging_on:  # this connection writes as before the activity log: no triggers, no sessions
        db = host.opened.graph.db
        db.activity.installed = False
        for (name_,) in db.execute("SELECT name FROM sqlite_temp_master WHERE type = 'trigger'").fetchall():
            db.execute(f"DROP TRIGGER temp.{name_}")
    return host


def mcp_writes(folder: Path, n: int, rnd: random.Random) -> tuple[list[float], list[float]]:
    """Seconds per create_entities / add_observations call through the MCP server's call path,
    alternating between a server with the activity log and one without (same disk, same moment)."""
    from limbic.mcp.activity import Client
    from limbic.mcp.tools import TOOLS_BY_NAME

    tag = f"{rnd.random():.6f}"
    hosts = {False: _host(folder, "off-" + tag, False), True: _host(folder, "on-" + tag, True)}
    client = Client(1, "bench", "1")
    times: dict[bool, list[float]] = {False: [], True: []}
    try:
        for i in range(n):
            if i % 3 == 0:
                spec = TOOLS_BY_NAME["create_entities"]
                args = [[{"name": f"New {i}", "entityType": "Note",
                          "observations": [" ".join(rnd.choices(WORDS, k=12)) for _ in range(2)]}]]
            else:
                spec = TOOLS_BY_NAME["add_observations"]
                args = [[{"entityName": f"Topic {rnd.randrange(50)}",
                          "contents": [" ".join(rnd.choices(WORDS, k=14)) + f" {i}"]}]]
            for logging_on in ((False, True) if i % 2 else (True, False)):
                start = time.perf_counter()
                hosts[logging_on].invoke(spec, json.loads(json.dumps(args)), client)
                times[logging_on].append(time.perf_counter() - start)
    finally:
        for host in hosts.values():
            host.opened.close()
    return times[False], times[True]


def write_jsonl(path: Path, n: int, rnd: random.Random) -> None:
    with path.open("w") as f:
        for i in range(n):
            obs = [" ".join(rnd.choices(WORDS, k=rnd.randint(6, 30))) + f" #{i}.{k}" for k in range(rnd.randint(1, 5))]
            f.write(json.dumps({"type": "entity", "name": f"Entity {i}", "entityType": "Note", "observations": obs}) + "\n")
        for i in range(n):
            f.write(json.dumps({"type": "relation", "from": f"Entity {i}", "to": f"Entity {rnd.randrange(n)}",
                                "relationType": "mentions"}) + "\n")


def import_seconds(folder: Path, source: Path, logging_on: bool, switch: LogSwitch, embedder=None) -> float:
    """One import of ``source`` into a new graph; with ``embedder``, embedding included, as the app and CLI import."""
    (switch.on if logging_on else switch.off)()
    path = folder / f"import-{'on' if logging_on else 'off'}-{time.perf_counter_ns()}.db"
    g = Graph(Database(path), embedder)
    try:
        start = time.perf_counter()
        import_file(g, source)
        return time.perf_counter() - start
    finally:
        g.db.close()
        switch.on()
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)


def build_log(path: Path, changes: int, rnd: random.Random) -> None:
    """A graph whose activity log holds ``changes`` changes as assistants make them (through the real triggers)."""
    g = Graph(Database(path))
    db = g.db
    entities = 2000
    with g.write(embed=False):
        for i in range(entities):
            g.create_entity(f"Entity {i}", "Note")
    # Commits are batched into big transactions for speed, then split into one change per item:
    # the rows are what many small commits would have written (sessions of 30 to 300 calls).
    done = db.scalar("SELECT count(*) FROM change_log")
    clients = ["Claude Desktop", "Cursor", "alpha", "beta", "ChatGPT"]
    while done < changes:
        db.activity.set_origin("assistant", rnd.choice(clients), "1.0")
        calls = min(rnd.randint(30, 300), changes - done)
        with g.write(embed=False):
            first_item = int(db.scalar("SELECT coalesce(max(id), 0) FROM change_item")) + 1
            for k in range(calls):
                target = 1 + rnd.randrange(entities)
                if k % 10 == 9:
                    g.add_relation(target, 1 + rnd.randrange(entities), rnd.choice(["uses", "mentions", "part_of"]))
                else:
                    g.add_observations(target, [" ".join(rnd.choices(WORDS, k=rnd.randint(6, 20))) + f" {done + k}"])
            change_id = db.activity.pending_change_id()
            session = db.activity.session_for_commit("2026-12-01 10:00:00")
            items = db.execute("SELECT id FROM change_item WHERE id >= ? ORDER BY id", (first_item,)).fetchall()
            # One change_log row per call; each item moves to its own change id.
            db.executemany("UPDATE change_item SET change_id = ? WHERE id = ?",
                           [(change_id + n, item) for n, (item,) in enumerate(items)])
            db.executemany(
                "INSERT INTO change_log(id, at, origin, writer, changes, session, tool) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(change_id + n, "2026-12-01 10:00:00", "assistant", db.writer_id, '{"changed":[1]}', session,
                  "add_observations") for n in range(len(items))],
            )
        done = int(db.scalar("SELECT count(*) FROM change_log"))
    g.db.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--writes", type=int, default=1000)
    parser.add_argument("--entities", type=int, default=3000)
    parser.add_argument("--log", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--model-entities", type=int, default=300,
                        help="entities of the import timed with the model (embedding included); 0 leaves it out")
    parser.add_argument("--out", default="bench-activity.json")
    args = parser.parse_args()
    rnd = random.Random(11)
    switch = LogSwitch()
    out: dict = {"command": "python -m tests.bench.bench_activity " + " ".join(
        f"--{k} {v}" for k, v in vars(args).items() if k != "out"), "load_average_1min_at_start": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        off, on = mcp_writes(folder, args.writes, rnd)
        out["mcp_write_ms"] = {"calls": args.writes, "without_p50": 1000 * statistics.median(off),
                               "with_p50": 1000 * statistics.median(on),
                               "ratio_p50": statistics.median(on) / statistics.median(off),
                               "ratio_mean": statistics.fmean(on) / statistics.fmean(off)}
        source = folder / "import.jsonl"
        write_jsonl(source, args.entities, rnd)
        on, off = [], []
        for _ in range(args.runs):
            off.append(import_seconds(folder, source, False, switch))
            on.append(import_seconds(folder, source, True, switch))
        out["import"] = {"entities": args.entities, "without_s": statistics.median(off), "with_s": statistics.median(on),
                         "throughput_ratio": statistics.median(off) / statistics.median(on)}
        if args.model_entities:
            from limbic.engine.session import try_load_model

            embedder, error = try_load_model(None)
            if embedder is None:
                out["import_with_model"] = {"skipped": error}
            else:
                source = folder / "import-model.jsonl"
                write_jsonl(source, args.model_entities, rnd)
                on, off = [], []
                for _ in range(max(3, args.runs // 2)):
                    off.append(import_seconds(folder, source, False, switch, embedder))
                    on.append(import_seconds(folder, source, True, switch, embedder))
                out["import_with_model"] = {
                    "entities": args.model_entities, "without_s": statistics.median(off),
                    "with_s": statistics.median(on), "throughput_ratio": statistics.median(off) / statistics.median(on)}
        log_path = folder / "log.db"
        build_log(log_path, args.log, rnd)
        out["panel"] = panel_open(log_path, args.runs)
        out["log_size"] = log_size(log_path)
    Path(args.out).write_text(json.dumps(out, indent=2))
    print(json.dumps(out, indent=2))


def panel_open(path: Path, runs: int) -> dict:
    """Milliseconds from asking for the panel's data to the filled tree, on a log of that size."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from limbic.service.activity import panel_data
    from limbic.ui.activity.activity_panel import ActivityPanel

    app = QApplication.instance() or QApplication([])
    g = Graph(Database(path))
    try:
        changes = int(g.db.scalar("SELECT count(*) FROM change_log"))
        read, fill = [], []
        for _ in range(runs):
            panel = ActivityPanel()
            start = time.perf_counter()
            data = panel_data(g)
            middle = time.perf_counter()
            panel.show_data(data)
            app.processEvents()
            end = time.perf_counter()
            read.append(middle - start)
            fill.append(end - middle)
            panel.deleteLater()
        return {"logged_changes": changes, "read_ms": 1000 * statistics.median(read),
                "fill_ms": 1000 * statistics.median(fill),
                "open_ms": 1000 * (statistics.median(read) + statistics.median(fill))}
    finally:
        g.db.close()


def log_size(path: Path) -> dict:
    """Bytes the activity log takes (its tables and indexes), per 100k changes."""
    g = Graph(Database(path))
    try:
        db = g.db
        changes = int(db.scalar("SELECT count(*) FROM change_log"))
        names = ("change_log", "change_item", "activity_session", "change_log_session", "change_log_session_reviewed",
                 "change_log_unreviewed", "change_item_change", "change_item_entity", "change_item_other")
        try:
            marks = ",".join("?" * len(names))
            size = int(db.scalar(f"SELECT sum(pgsize) FROM dbstat WHERE name IN ({marks})", names))
            how = "dbstat"
        except Exception:
            page = int(db.scalar("PRAGMA page_size"))
            size = page * int(db.scalar("PRAGMA page_count"))
            how = "whole file (dbstat unavailable)"
        return {"changes": changes, "bytes": size, "mb_per_100k": size / changes * 100_000 / 1e6, "measured_by": how}
    finally:
        g.db.close()


if __name__ == "__main__":
    main()
