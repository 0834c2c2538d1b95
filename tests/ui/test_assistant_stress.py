"""The person in the window and an assistant through `limbic mcp`, on the same entities at once.

The assistant makes 500 writes through the real server (the SDK's stdio client, in a thread);
meanwhile the window's editor makes 100 edits of the same five entities, each a real save through
the engine thread. Nothing may be lost, no conflict may be asked about (nobody changed the same
observation), and `check` must find the file clean.
"""

from __future__ import annotations

import threading

import anyio
import pytest

from limbic.engine.check import check_graph
from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from tests.mcp.conftest import connect, ok
from tests.ui.conftest import make_window, open_entity

pytestmark = pytest.mark.slow

SHARED = [f"Shared {i}" for i in range(5)]
ASSISTANT_WRITES = 500
APP_EDITS = 100


def test_an_assistant_and_the_window_edit_the_same_entities(qtbot, tmp_path):
    db_path = tmp_path / "shared.db"
    g = Graph(Database(db_path))
    for name in SHARED:
        g.upsert_entity(name, "Shared", [f"{name} begins"])
    g.db.close()
    w = make_window(qtbot, db_path, wait_model=False)
    asked: list = []
    w.entities.ask_conflict = lambda error: asked.append(error)  # a conflict here would be one where none exists
    expected: dict[str, set[str]] = {name: {f"{name} begins"} for name in SHARED}
    failures: list[BaseException] = []
    finished = threading.Event()

    async def assistant() -> None:
        async with connect(db_path, model=False) as c:
            for j in range(ASSISTANT_WRITES):
                target = SHARED[j % len(SHARED)]
                if j % 10 == 9:
                    await ok(c, "create_entities", entities=[{"name": f"Extra {j}", "entityType": "Note", "observations": [f"made {j}"]}])
                elif j % 10 == 8:
                    await ok(c, "create_relations", relations=[{"from": target, "to": SHARED[(j + 1) % 5], "relationType": f"r{j}"}])
                else:
                    text = f"assistant note {j}"
                    await ok(c, "add_observations", observations=[{"entityName": target, "contents": [text]}])
                    expected[target].add(text)

    def run_assistant() -> None:
        try:
            anyio.run(assistant)
        except BaseException as exc:  # reported by the test below
            failures.append(exc)
        finally:
            finished.set()

    thread = threading.Thread(target=run_assistant, daemon=True)
    thread.start()
    overlapped = 0
    for k in range(APP_EDITS):
        name = SHARED[k % len(SHARED)]
        editor = open_entity(qtbot, w, name)
        qtbot.waitUntil(lambda name=name: editor.draft().name == name, timeout=30_000)
        loaded = editor.draft().base.entity.revision
        if k % 3 == 0 and not finished.is_set():
            qtbot.wait(30)  # the person reads a moment: the assistant writes to it meanwhile
        text = f"window note {k}"
        editor.obs_new.setText(text)
        editor.on_add_observation()
        with qtbot.waitSignal(w.entity_saved, timeout=60_000):
            editor.on_save()
        expected[name].add(text)
        g = Graph(Database(db_path))
        try:
            if g.get_entity(name).revision > loaded + 1:
                overlapped += 1  # someone else wrote between the load and this save
        finally:
            g.db.close()
    thread.join(timeout=300)
    assert finished.is_set() and not failures, failures
    assert asked == []
    w.close()
    qtbot.waitUntil(lambda: not w.engine.thread.isRunning(), timeout=30_000)
    g = Graph(Database(db_path))
    try:
        for name in SHARED:
            assert set(g.get_entity(name).observation_texts) == expected[name], name
        assert sum(1 for e in g.iter_entities() if e.name.startswith("Extra ")) == ASSISTANT_WRITES // 10
        assert len(list(g.all_relations())) == ASSISTANT_WRITES // 10
        report = check_graph(g.db)
        assert report.consistent, report
    finally:
        g.db.close()
    assert overlapped > 0, "the window never saved over an assistant's write: the two did not overlap"
