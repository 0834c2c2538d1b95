"""An assistant and a person on one file at once: the assistant makes 500 writes through `limbic mcp`
while the person's editor saves 100 edits of the same entities (three-way saves from drafts loaded
earlier). Nothing may be lost, no conflict may be raised where none exists, and `limbic check` must
find the file clean.

Without a model by default (a few seconds); ``LIMBIC_MCP_STRESS_MODEL=1`` runs it with the model,
re-embedding on every write (about a minute).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time

import anyio
import pytest

from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from limbic.service.entities import EntityDraft, apply_draft, load_view
from tests.mcp.conftest import APP, connect, ok

pytestmark = pytest.mark.slow

SHARED = [f"Shared {i}" for i in range(5)]
ASSISTANT_WRITES = 500
EDITOR_EDITS = 100
WITH_MODEL = os.environ.get("LIMBIC_MCP_STRESS_MODEL") == "1"


def editor(db_path, done: list[str], stale: list[int], finished: threading.Event) -> None:
    """The person: open an entity, think a little (the assistant writes meanwhile), add a note, save."""
    rng = random.Random(7)
    embedder = None
    if WITH_MODEL:
        from limbic.engine.vectors.embeddings import load_embedder

        embedder = load_embedder()
    graph = Graph(Database(db_path), embedder)
    try:
        for k in range(EDITOR_EDITS):
            name = SHARED[k % len(SHARED)]
            draft = EntityDraft.from_view(load_view(graph, name))
            if k % 2 == 0:
                # Half the time the person is slow: the assistant writes to the entity before the save.
                deadline = time.monotonic() + 1.0
                while time.monotonic() < deadline and not finished.is_set() and graph.db.scalar(
                    "SELECT revision FROM entities WHERE name = ?", (name,)
                ) == draft.base.entity.revision:
                    time.sleep(0.005)
            else:
                time.sleep(rng.uniform(0.0, 0.03))
            text = f"editor note {k}"
            draft.observations.append((None, text))
            if k % 10 == 0:
                draft.entity_type = f"Type {k}"
            if load_view(graph, name).entity.revision != draft.base.entity.revision:
                stale.append(k)  # the assistant wrote to it since it was loaded: a true three-way save
            apply_draft(graph, draft)  # a ConflictError here would be a conflict where none exists
            done.append(text)
    finally:
        graph.db.close()


def test_assistant_and_editor_write_the_same_entities(tmp_path):
    db_path = tmp_path / "shared.db"
    expected: dict[str, set[str]] = {name: set() for name in SHARED}
    editor_done: list[str] = []
    stale: list[int] = []
    finished = threading.Event()  # the assistant is done: the editor stops waiting for its writes
    timing = {}

    async def assistant(c) -> None:
        start = time.monotonic()
        for j in range(ASSISTANT_WRITES):
            target = SHARED[j % len(SHARED)]
            if j % 10 == 9:
                await ok(c, "create_entities", entities=[{"name": f"Extra {j}", "entityType": "Note", "observations": [f"made {j}"]}])
            elif j % 10 == 8:
                await ok(c, "create_relations", relations=[{"from": target, "to": f"Extra {j - 9}" if j >= 9 else SHARED[0], "relationType": "mentions"}])
            else:
                text = f"assistant note {j}"
                got = await ok(c, "add_observations", observations=[{"entityName": target, "contents": [text]}])
                assert got["results"][0]["addedObservations"] == [text]
                expected[target].add(text)
        timing["assistant"] = time.monotonic() - start

    async def scenario():
        async with connect(db_path, model=WITH_MODEL) as c:
            await ok(c, "create_entities", entities=[{"name": n, "entityType": "Shared", "observations": []} for n in SHARED])
            async with anyio.create_task_group() as tg:
                tg.start_soon(anyio.to_thread.run_sync, editor, db_path, editor_done, stale, finished)
                await assistant(c)
            graph = await ok(c, "read_graph", limit=1000)
        return graph

    graph = anyio.run(scenario)
    assert len(editor_done) == EDITOR_EDITS
    assert stale, "the editor never saved over an assistant's write: the two did not overlap"
    for k, text in enumerate(editor_done):
        expected[SHARED[k % len(SHARED)]].add(text)
    by_name = {e["name"]: e for e in graph["entities"]}
    for name in SHARED:
        assert set(by_name[name]["observations"]) == expected[name], name
    last_type = {SHARED[k % len(SHARED)]: f"Type {k}" for k in range(EDITOR_EDITS) if k % 10 == 0}
    for name, etype in last_type.items():
        assert by_name[name]["entityType"] == etype
    assert sum(1 for n in by_name if n.startswith("Extra ")) == ASSISTANT_WRITES // 10
    assert len(graph["relations"]) == ASSISTANT_WRITES // 10

    check = subprocess.run(
        [sys.executable, "-m", "limbic", "check", "--db", str(db_path)] + ([] if WITH_MODEL else ["--no-model"]),
        env={**os.environ, "PYTHONPATH": APP}, capture_output=True, text=True, timeout=300,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    print(f"\n{ASSISTANT_WRITES} assistant writes in {timing['assistant']:.1f} s "
          f"({ASSISTANT_WRITES / timing['assistant']:.0f}/s) beside {EDITOR_EDITS} editor saves "
          f"({len(stale)} over an assistant's write since loading); model: {WITH_MODEL}")
