"""Fixtures the sync tests share."""

from __future__ import annotations

import pytest


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
