"""A disk that ignores case (macOS, Windows): `--db` spelt with other capitals is the same graph file, the same device."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from limbic import config, file_keys
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service import sync as service_sync


@pytest.fixture
def ignoring_case(monkeypatch):
    """The disk ignores case: asked as such, since the test's own disk may not."""
    monkeypatch.setattr(file_keys, "ignores_case", lambda path: True)


@pytest.fixture
def graph_file(tmp_path) -> Path:
    folder = tmp_path / "Graphs"
    folder.mkdir()
    path = folder / "Work.db"
    g = Graph(Database(path))
    g.upsert_entity("Ada", "Person", [])
    g.db.close()
    return path


def _respelt(path: Path) -> Path:
    """The same path typed with the case of its last two parts changed."""
    return path.parent.parent / path.parent.name.upper() / path.name.swapcase()


def test_the_probe_tells_what_the_disk_does(tmp_path):
    (tmp_path / "Probe.db").write_text("x")
    assert file_keys.ignores_case(tmp_path / "Probe.db") == os.path.exists(tmp_path / "pROBE.DB")


def test_the_file_typed_with_other_capitals_is_one_device_one_folder_one_lock(tmp_path, graph_file, ignoring_case):
    other = _respelt(graph_file)
    assert str(other) != str(graph_file)
    folder = tmp_path / "Sync"
    folder.mkdir()
    service_sync.exchange(graph_file, folder)
    assert service_sync.this_device(other).id == service_sync.this_device(graph_file).id
    assert service_sync.remembered_folder(other) == service_sync.remembered_folder(graph_file) is not None
    assert service_sync.lock_path(other) == service_sync.lock_path(graph_file)
    with service_sync.sync_lock(graph_file) as held:
        assert held
        with service_sync.sync_lock(other) as also:
            assert not also  # one program at a time, however the file is spelt
    assert len(config.load_settings().sync_devices) == 1


def test_a_device_kept_under_the_spelling_an_older_version_typed_is_found(graph_file, ignoring_case):
    typed = str(_respelt(graph_file))
    settings = config.load_settings()
    settings.sync_devices[typed] = "0123456789abcdef"
    config.save_settings(settings)
    assert service_sync.this_device(graph_file).id == "0123456789abcdef"


def test_on_a_disk_that_keeps_case_two_spellings_stay_two_files(tmp_path, graph_file, monkeypatch):
    monkeypatch.setattr(file_keys, "ignores_case", lambda path: False)
    assert file_keys.key(_respelt(graph_file)) != file_keys.key(graph_file)
