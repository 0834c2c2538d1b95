"""Crash and two-writer harness: child processes write, are SIGKILLed at random moments, and the file is checked.

Run the full counts and print the figures with::

    .venv/bin/python -m tests.safety.harness --kills 25 --writes 2000 --report safety-report.json

After every kill the file must open, ``check_graph`` must find the file sound and graph, FTS
and vectors in agreement, and every write a child acknowledged must be present (the one write
in flight may or may not be, but never half of it).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import selectors
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import apsw
import numpy as np

from tests.safety.model import AckLog, State, apply, next_op, perform, read_log, read_state, text

ROOT = Path(__file__).resolve().parents[2]
WRITER_PREFIX = "W"
SHARED = [f"Shared {i}" for i in range(8)]
OLD_MODEL = "a model used before"


# -- children ---------------------------------------------------------------------------------


def hold_write_lock(path, seconds: float, started: threading.Event) -> None:
    """Another program's write: the file's write lock held for ``seconds`` (``started`` set once it is)."""
    conn = apsw.Connection(str(path))
    conn.execute("BEGIN IMMEDIATE")
    started.set()
    time.sleep(seconds)
    conn.execute("COMMIT")
    conn.close()


def _load_embedder(with_model: bool):
    if not with_model:
        return None
    from limbic.engine.vectors.embeddings import load_embedder

    return load_embedder()


def _ready() -> None:
    sys.stdout.write("READY\n")
    sys.stdout.flush()


def child_edits(db_path: str, log_path: str, seed: int, prefix: str, n_ops: int, with_model: bool, serial0: int) -> None:
    """A burst of single-action writes, each acknowledged in the log once it returned."""
    from limbic.engine.store.db import Database
    from limbic.engine.graph.graph import Graph

    embedder = _load_embedder(with_model)
    graph = Graph(Database(db_path), embedder)
    if embedder is not None:
        graph.embed_pending()
    state = read_state(graph.db)
    shared = [n for n in SHARED if n in state.entities]
    rng, serial, log = random.Random(seed), [serial0], AckLog(Path(log_path))
    _ready()
    done = 0
    while n_ops <= 0 or done < n_ops:
        op = next_op(rng, state, prefix, shared, serial)
        log.write({"intent": op})
        perform(graph, op)
        log.write({"done": done})
        apply(state, op)
        done += 1
    graph.db.close()


def child_import(db_path: str, log_path: str, jsonl_path: str, graph_delay: str = "0") -> None:
    """Import a file with the model; the log says when the graph part was committed and when all was done.

    ``graph_delay`` seconds of sleep per progress step stretch the graph transaction, so that
    kills can land inside it and not only in the embedding that follows.
    """
    from limbic.engine.formats.jsonl import import_file
    from limbic.engine.session import open_graph

    opened = open_graph(db_path)
    log = AckLog(Path(log_path))
    committed = []

    def progress(stage: str, done: int, total: int) -> None:
        if stage == "embed" and not committed:  # the graph transaction has returned
            committed.append(1)
            log.write({"graph_committed": True})
        elif stage == "graph" and float(graph_delay):
            time.sleep(float(graph_delay))

    _ready()
    import_file(opened.graph, Path(jsonl_path), progress=progress)
    log.write({"done": True})
    opened.close()


def child_reembed(db_path: str, log_path: str) -> None:
    """Open with a model the file was not embedded with: every vector is dropped and rebuilt in batches."""
    from limbic.engine.store.db import Database
    from limbic.engine.graph.graph import Graph

    embedder = _load_embedder(True)
    _ready()
    graph = Graph(Database(db_path), embedder)
    graph.embed_pending()
    AckLog(Path(log_path)).write({"done": True})
    graph.db.close()


# -- the parent -------------------------------------------------------------------------------


def _spawn(*args: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen(
        [sys.executable, "-m", "tests.safety.harness", "--child", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _wait_ready(proc: subprocess.Popen, timeout: float = 900.0) -> None:
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if sel.select(timeout=0.5):
            line = proc.stdout.readline()
            if line.strip() == b"READY":
                return
            if not line:
                break
    proc.kill()
    raise AssertionError(f"child did not start: {proc.stderr.read().decode(errors='replace')[-2000:]}")


def _kill_after(proc: subprocess.Popen, delay: float) -> bool:
    """SIGKILL the child after ``delay`` seconds; True if it was still working when killed."""
    try:
        proc.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        return True
    if proc.returncode != 0:
        raise AssertionError(f"child failed: {proc.stderr.read().decode(errors='replace')[-3000:]}")
    return False


def verify_file(db_path: Path, embedder, allow_pending: bool = True) -> dict:
    """Open the file after a kill and check it; returns the check's figures."""
    from limbic.engine.check import check_graph
    from limbic.engine.store.db import Database

    db = Database(db_path)
    try:
        if embedder is not None and db.get_meta("model_identity") == OLD_MODEL:
            embedder = None  # killed before the switch of model committed: the old vectors still stand
        report = check_graph(db, embedder)
        assert report.consistent, f"after a kill: {report.summary()} {report.lines()}"
        if not allow_pending:
            assert report.pending == 0, f"{report.pending} entities lost their vectors"
        state = read_state(db)
        _sample_vectors(db, embedder, state)
        return {"entities": report.entities, "pending": report.pending, "state": state}
    finally:
        db.close()


def _sample_vectors(db, embedder, state: State, n: int = 3) -> None:
    """A few stored vectors must be what the model makes of the entity's current text."""
    if embedder is None or not db.has_table("entity_embeddings"):
        return
    from limbic.engine.vectors import index

    ids = [r[0] for r in db.execute("SELECT entity_id FROM embedding_state ORDER BY random() LIMIT ?", (n,))]
    for entity_id in ids:
        src = index.load_source(db, entity_id)
        fresh = embedder.encode(index.entity_texts([src], embedder))[0]
        stored = np.frombuffer(db.scalar("SELECT embedding FROM entity_embeddings WHERE rowid = ?", (entity_id,)), np.float32)
        assert float(np.dot(fresh, stored)) > 0.999, f"entity {entity_id}'s vector does not match its text"


def _expected_after(before: State, log: list[dict]) -> tuple[State, State | None]:
    """The state after every acknowledged write, and after the write in flight too (if any)."""
    state, pending = before.copy(), None
    for rec in log:
        if "intent" in rec:
            pending = rec["intent"]
        elif "done" in rec and pending is not None:
            apply(state, pending)
            pending = None
    if pending is None:
        return state, None
    with_pending = state.copy()
    try:
        apply(with_pending, pending)
    except (KeyError, IndexError):
        return state, None
    return state, with_pending


def crash_edits(db_path: Path, work: Path, kills: int, seed: int, embedder, log=print) -> dict:
    """Kill a burst of edits ``kills`` times; each time every acknowledged edit must be there."""
    rng = random.Random(seed)
    figures = {"kills": 0, "writes_acknowledged": 0, "in_flight_committed": 0}
    _embed_all(db_path, embedder)  # what earlier kills left pending: edits are checked with no vector missing
    state = read_state_file(db_path)
    for round_no in range(kills):
        ack = work / f"edits-{round_no}.log"
        proc = _spawn("edits", str(db_path), str(ack), str(seed * 1000 + round_no), WRITER_PREFIX, "0", "1", str((round_no + 1) * 10**6))
        _wait_ready(proc)
        assert _kill_after(proc, rng.uniform(0.05, 2.0)), "an endless burst cannot finish"
        figures["kills"] += 1
        records = read_log(ack)
        expected, with_pending = _expected_after(state, records)
        actual = verify_file(db_path, embedder, allow_pending=False)["state"]
        if actual != expected:
            assert with_pending is not None and actual == with_pending, f"round {round_no}: {expected.diff(actual)}"
            figures["in_flight_committed"] += 1
        figures["writes_acknowledged"] += sum(1 for r in records if "done" in r)
        state = actual
        log(f"edits: kill {round_no + 1}/{kills}, {figures['writes_acknowledged']} acknowledged writes checked")
    return figures


def _embed_all(db_path: Path, embedder) -> None:
    from limbic.engine.store.db import Database
    from limbic.engine.graph.graph import Graph

    g = Graph(Database(db_path), embedder)
    g.embed_pending()
    g.db.close()


def read_state_file(db_path: Path) -> State:
    from limbic.engine.store.db import Database

    db = Database(db_path)
    try:
        return read_state(db)
    finally:
        db.close()


def _import_file(path: Path, rng: random.Random, round_no: int, n: int, existing: list[str]) -> list[dict]:
    """Write a JSONL file of new entities, merges into existing ones and relations (some dangling)."""
    ops, lines = [], []
    names = [f"Imported {round_no}-{i}" for i in range(n)]
    for name in names + rng.sample(existing, min(len(existing), n // 10)):
        obs = [text(rng, 12) for _ in range(rng.randrange(1, 4))]
        etype = rng.choice([None, "Note", "Person"])
        ops.append({"op": "upsert", "name": name, "type": etype, "obs": obs})
        rec = {"type": "entity", "name": name, "observations": obs}
        if etype:
            rec["entityType"] = etype
        lines.append(rec)
    for _ in range(n // 2):
        a, b = rng.choice(names), rng.choice(names + ["Nobody at all"])
        ops.append({"op": "relate_if_both", "name": a, "target": b, "type": "links"})
        lines.append({"type": "relation", "from": a, "to": b, "relationType": "links"})
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in lines) + "\n", encoding="utf-8")
    return ops


def crash_import(
    db_path: Path, work: Path, kills: int, seed: int, embedder, size: int = 300, log=print, window: float = 1.0,
    graph_delay: float = 0.0,
) -> dict:
    """Kill imports at random moments: the graph part is all or nothing, acknowledged ones are complete.

    Kills fall in the first ``window`` share of an import's duration (a small one aims at the
    backup and the graph transaction rather than the longer embedding that follows).
    """
    rng = random.Random(seed)
    figures = {"kills": 0, "completed": 0, "graph_committed_before_kill": 0, "nothing_committed": 0, "entities_checked": 0}
    duration = None
    round_no = 0
    while figures["kills"] < kills:
        state = read_state_file(db_path)
        src, ack = work / f"import-{round_no}.jsonl", work / f"import-{round_no}.log"
        ops = _import_file(src, rng, round_no, size, sorted(state.entities))
        full = state.copy()
        for op in ops:
            apply(full, op)
        proc = _spawn("import", str(db_path), str(ack), str(src), str(graph_delay))
        _wait_ready(proc)
        started = time.monotonic()
        # The first import runs to the end and times the work; later ones are killed within that time.
        killed = _kill_after(proc, rng.uniform(0.0, duration * window) if duration else 600.0)
        duration = duration or time.monotonic() - started
        records = read_log(ack)
        actual = verify_file(db_path, embedder)["state"]
        if any(r.get("graph_committed") or r.get("done") for r in records):
            assert actual == full, f"import {round_no}: an acknowledged import is incomplete: {full.diff(actual)}"
        else:
            assert actual in (state, full), f"import {round_no} is half-written: {state.diff(actual)}"
        if killed:
            figures["kills"] += 1
            figures["graph_committed_before_kill" if actual == full else "nothing_committed"] += 1
        else:
            figures["completed"] += 1
        figures["entities_checked"] += len(actual.entities)
        round_no += 1
        log(f"import: round {round_no}, {figures['kills']}/{kills} kills")
    return figures


def crash_reembed(db_path: Path, work: Path, kills: int, seed: int, embedder, log=print) -> dict:
    """Kill a change-of-model re-embedding: the graph never changes and vectors never disagree."""
    from limbic.engine.store.db import Database

    rng = random.Random(seed)
    figures = {"kills": 0, "completed": 0, "vectors_at_kill": []}
    before = read_state_file(db_path)
    duration = None
    while figures["kills"] < kills:
        db = Database(db_path)
        db.set_meta("model_identity", OLD_MODEL)  # as if the user had switched models
        db.close()
        ack = work / f"reembed-{figures['kills'] + figures['completed']}.log"
        proc = _spawn("reembed", str(db_path), str(ack))
        _wait_ready(proc)
        started = time.monotonic()
        killed = _kill_after(proc, rng.uniform(0.0, duration) if duration else 600.0)
        duration = duration or time.monotonic() - started
        result = verify_file(db_path, embedder)
        assert result["state"] == before, f"re-embedding changed the graph: {before.diff(result['state'])}"
        if killed:
            figures["kills"] += 1
            figures["vectors_at_kill"].append(result["entities"] - result["pending"])
        else:
            figures["completed"] += 1
        log(f"re-embed: {figures['kills']}/{kills} kills")
    return figures


def two_writers(db_path: Path, work: Path, writes: int, with_model: bool, seed: int = 7) -> dict:
    """Two processes write at once; all their acknowledged writes must be in the final graph."""
    from limbic.engine.store.db import Database
    from limbic.engine.graph.graph import Graph

    g = Graph(Database(db_path))
    for name in SHARED:
        g.upsert_entity(name, "Shared", ["created before the writers start"])
    watcher = g.db
    watcher.changed_by_others()
    procs, logs = [], []
    for i in range(2):
        logs.append(work / f"writer-{i}.log")
        procs.append(_spawn("edits", str(db_path), str(logs[i]), str(seed + i), f"P{i} ", str(writes), "1" if with_model else "0", "0"))
    for p in procs:
        _wait_ready(p)
    noticed = 0
    while any(p.poll() is None for p in procs):
        noticed += watcher.changed_by_others()  # what the app polls to refresh its view
        time.sleep(0.05)
    errors = [p.stderr.read().decode(errors="replace") for p in procs]
    assert all(p.returncode == 0 for p in procs), f"a writer failed: {errors}"
    actual = read_state(watcher)
    checked = 0
    shared_expected: dict[str, set[str]] = {n: {"created before the writers start"} for n in SHARED}
    for i, log_path in enumerate(logs):
        start = State({n: ["Shared", ["created before the writers start"]] for n in SHARED}, set())
        expected, in_flight = _expected_after(start, read_log(log_path))
        assert in_flight is None, f"writer {i} stopped in the middle of a write"
        prefix = f"P{i} "
        mine = {n: v for n, v in expected.entities.items() if n.startswith(prefix)}
        assert mine == {n: v for n, v in actual.entities.items() if n.startswith(prefix)}, f"writer {i} lost writes"
        mine_rel = {r for r in expected.relations if r[0].startswith(prefix)}
        assert mine_rel == {r for r in actual.relations if r[0].startswith(prefix)}, f"writer {i} lost relations"
        for n in SHARED:
            shared_expected[n] |= set(expected.entities[n][1])
        checked += sum(1 for r in read_log(log_path) if "done" in r)
    for n in SHARED:
        assert set(actual.entities[n][1]) == shared_expected[n], f"observations on {n} were lost"
    from limbic.engine.check import check_graph

    embedder = _load_embedder(with_model)
    report = check_graph(watcher, embedder)
    assert report.consistent and (report.pending == 0 or not with_model), report.lines()
    watcher.close()
    return {"writers": 2, "writes_checked": checked, "changes_noticed_by_a_third_connection": noticed, "entities": report.entities}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=argparse.REMAINDER)
    parser.add_argument("--kills", type=int, default=25)
    parser.add_argument("--writes", type=int, default=2000)
    parser.add_argument("--import-size", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-model-stress", action="store_true", help="run the two writers without the model")
    parser.add_argument("--work", help="folder for the files (default: a new temporary folder)")
    parser.add_argument("--phases", default="import,edits,reembed,stress", help="which parts to run, comma-separated")
    parser.add_argument("--reembed-size", type=int, default=800, help="entities in the file that is re-embedded")
    parser.add_argument("--import-window", type=float, default=1.0, help="kill imports within this share of their duration")
    parser.add_argument("--import-graph-delay", type=float, default=0.0, help="seconds of sleep per progress step of the graph part")
    parser.add_argument("--report", help="write the figures to this JSON file")
    args = parser.parse_args(argv)
    if args.child:
        kind, *rest = args.child
        if kind == "edits":
            db, log, seed, prefix, n, model, serial = rest
            child_edits(db, log, int(seed), prefix, int(n), model == "1", int(serial))
        elif kind == "import":
            child_import(*rest)
        elif kind == "reembed":
            child_reembed(*rest)
        return 0

    import tempfile

    from limbic.engine.vectors.embeddings import load_embedder

    work = Path(args.work or tempfile.mkdtemp(prefix="limbic-safety-"))
    work.mkdir(parents=True, exist_ok=True)
    embedder = load_embedder()
    db_path = work / "crash.db"
    report: dict = {}
    phases = set(args.phases.split(","))

    def timed(name: str, run) -> None:
        started = time.monotonic()
        report[name] = run()
        report[name]["seconds"] = round(time.monotonic() - started, 1)
        print(json.dumps({name: report[name]}), flush=True)

    if "import" in phases:
        timed("import", lambda: crash_import(
            db_path, work, args.kills, args.seed, embedder, args.import_size, window=args.import_window,
            graph_delay=args.import_graph_delay))
    if "edits" in phases:
        timed("edits", lambda: crash_edits(db_path, work, args.kills, args.seed, embedder))
    if "reembed" in phases:
        # A file of its own, so that one full re-embedding takes seconds rather than minutes.
        from limbic.engine.store.db import Database
        from limbic.engine.graph.graph import Graph
        from limbic.engine.formats.jsonl import import_file

        reembed_db = work / "reembed.db"
        source = work / "reembed.jsonl"
        _import_file(source, random.Random(args.seed), -1, args.reembed_size, [])
        g = Graph(Database(reembed_db), embedder)
        import_file(g, source)
        g.db.close()
        timed("reembed", lambda: crash_reembed(reembed_db, work, args.kills, args.seed, embedder))
    if "stress" in phases:
        timed("two_writers", lambda: two_writers(work / "stress.db", work, args.writes, not args.no_model_stress))
    text_out = json.dumps(report, indent=2)
    print(text_out)
    if args.report:
        Path(args.report).write_text(text_out + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
