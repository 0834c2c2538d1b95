"""`limbic mcp` syncs a graph that has a sync folder: after its writes, in the background, one program at a time."""

from __future__ import annotations

import time

import anyio

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.mcp.sync import BackgroundSync
from limbic.service import sync as service_sync
from tests.mcp.conftest import call, connect, ok


def _join(path, folder, *names) -> None:
    g = Graph(Database(path))
    for name in names:
        g.upsert_entity(name, "Person", [])
    g.db.close()
    service_sync.exchange(path, folder)  # joins and remembers the folder for this file


async def _names(client, *names) -> set[str]:
    is_error, _text, structured = await call(client, "open_nodes", names=list(names))
    assert not is_error
    return {e["name"] for e in structured["entities"]}


async def _until(client, names, timeout: float = 60.0) -> None:
    with anyio.fail_after(timeout):
        while await _names(client, *names) != set(names):
            await anyio.sleep(0.1)


def test_two_servers_on_two_graphs_exchange_their_writes_through_the_folder(tmp_path):
    folder = tmp_path / "Sync"
    folder.mkdir()
    a, b = tmp_path / "laptop.db", tmp_path / "desktop.db"
    _join(a, folder, "Seed")
    _join(b, folder)

    async def main() -> None:
        async with connect(a, model=False, LIMBIC_SYNC_DEBOUNCE="0.2") as ca, \
                connect(b, model=False, LIMBIC_SYNC_DEBOUNCE="0.2") as cb:
            await ok(ca, "create_entities", entities=[{"name": "Ada", "entityType": "Person", "observations": ["likes tea"]}])
            # Ada's segment goes out after the quiet spell; B's next write takes it in.
            with anyio.fail_after(60):
                while service_sync.status(a).unpublished:
                    await anyio.sleep(0.1)
            await ok(cb, "create_entities", entities=[{"name": "Bob", "entityType": "Person", "observations": []}])
            await _until(cb, ["Ada", "Seed", "Bob"])
            await ok(ca, "add_observations", observations=[{"entityName": "Ada", "contents": ["plays chess"]}])
            await _until(ca, ["Ada", "Seed", "Bob"])

    anyio.run(main)


def _joined_with_one_unpublished(tmp_path):
    """A graph file joined to a folder, with one write made since its last exchange."""
    folder = tmp_path / "Sync"
    folder.mkdir()
    a = tmp_path / "a.db"
    _join(a, folder, "Ada")
    g = Graph(Database(a))
    g.upsert_entity("Bob", "Person", [])
    g.db.close()
    return a


def test_a_server_leaves_the_exchange_to_the_program_holding_the_lock(tmp_path):
    a = _joined_with_one_unpublished(tmp_path)
    background = BackgroundSync(a)
    with service_sync.sync_lock(a) as held:
        assert held
        background.run_once()  # the app (or another server) syncs this file now
        assert service_sync.status(a).unpublished == 1
    background.run_once()
    assert service_sync.status(a).unpublished == 0 and background.last_error is None


def test_a_server_that_found_the_file_busy_tries_again_soon_not_at_its_next_turn(tmp_path):
    a = _joined_with_one_unpublished(tmp_path)
    background = BackgroundSync(a, debounce=0.0, every=3600.0)  # its next turn would be an hour away
    with service_sync.sync_lock(a) as held:
        assert held
        background.start()  # the start-up exchange finds the lock taken
        deadline = time.monotonic() + 60
        while background.exchanges < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert background.exchanges >= 1 and service_sync.status(a).unpublished == 1
    deadline = time.monotonic() + 60
    while service_sync.status(a).unpublished and time.monotonic() < deadline:
        time.sleep(0.1)
    background.stop()
    assert service_sync.status(a).unpublished == 0
