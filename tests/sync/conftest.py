"""Fixtures the sync tests share."""

from __future__ import annotations

import pytest

from limbic.engine.store import values
from tests.sync import replicas


@pytest.fixture(autouse=True)
def movable_clock(monkeypatch):
    """Limbic reads the time from a clock ``replicas.next_second`` moves forward, starting each test at the
    real time."""
    replicas._ahead[0] = 0.0
    monkeypatch.setattr(values, "wall", replicas.moved_wall)


@pytest.fixture
def machines(tmp_path, monkeypatch):
    """Machines sharing one sync folder, each with its own data folder (settings and keys): ``on(name)`` makes
    what follows run on that machine (a laptop, a desktop, a phone)."""
    homes = {name: tmp_path / f"home-{name}" for name in ("laptop", "desktop", "phone")}
    for home in homes.values():
        home.mkdir()

    def on(name):
        monkeypatch.setenv("LIMBIC_HOME", str(homes[name]))

    folder = tmp_path / "Sync"
    folder.mkdir()
    return on, folder
