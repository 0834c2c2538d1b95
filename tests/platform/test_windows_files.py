"""Windows: files another program holds for a moment are replaced and deleted all the same; snapshots are flushed."""

from __future__ import annotations

import json
import logging
import os
import sys

import pytest

from limbic import config, osfiles
from limbic.engine.graph.graph import Graph
from limbic.engine.store import backup
from limbic.engine.store.db import Database
from limbic.engine.sync import snapshot
from limbic.service import graph_export, sync as service_sync
from limbic.service.importers import import_path
from limbic.service.importers.csv_io import export_csv
from limbic.service.importers.markdown_export import export_markdown
from limbic.engine.formats.jsonl import export_file
from tests.platform.windows_sim import Holder, no_flush_of_read_only_files


def _graph(path, *names) -> Graph:
    g = Graph(Database(path))
    for name in names:
        g.upsert_entity(name, "Person", [f"{name} was here"])
    return g


def test_the_simulation_refuses_what_windows_refuses(tmp_path, monkeypatch):
    Holder(monkeypatch, times=1)
    (tmp_path / "a").write_text("a")
    with pytest.raises(PermissionError):
        os.replace(tmp_path / "a", tmp_path / "b")
    no_flush_of_read_only_files(monkeypatch)
    if sys.platform == "win32" or hasattr(os, "O_ACCMODE"):
        with open(tmp_path / "a", "rb") as fh, pytest.raises(OSError):
            os.fsync(fh.fileno())


def test_a_held_file_is_replaced_once_it_is_let_go_and_a_lasting_hold_is_the_error(tmp_path, monkeypatch):
    holder = Holder(monkeypatch, times=3)
    (tmp_path / "new").write_text("new")
    osfiles.replace(tmp_path / "new", tmp_path / "file")
    assert (tmp_path / "file").read_text() == "new" and holder.refused[str(tmp_path / "file")] == 3
    holder.times = 100
    (tmp_path / "newer").write_text("newer")
    with pytest.raises(PermissionError):
        osfiles.replace(tmp_path / "newer", tmp_path / "other")
    # It gave up after every pause: about two seconds of a real hold.
    assert holder.paused[-len(osfiles.PAUSES):] == list(osfiles.PAUSES) and 1.5 <= sum(osfiles.PAUSES) <= 3


def test_elsewhere_a_permission_error_is_not_waited_on(tmp_path, monkeypatch):
    calls = []

    def refuse(src, dst):
        calls.append(dst)
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(PermissionError):
        osfiles.replace(tmp_path / "a", tmp_path / "b")
    assert len(calls) == 1


def test_settings_are_saved_while_another_program_reads_them(tmp_path, monkeypatch):
    config.save_settings(config.Settings(theme="dark"))
    Holder(monkeypatch, times=2)
    config.save_settings(config.Settings(theme="light", zoom=120))
    saved = config.load_settings()
    assert (saved.theme, saved.zoom) == ("light", 120)


def test_an_exchange_publishes_while_the_sync_client_holds_each_new_segment_a_moment(tmp_path, monkeypatch):
    folder = tmp_path / "Sync"
    folder.mkdir()
    path = tmp_path / "a.db"
    _graph(path, "Ada").db.close()
    service_sync.exchange(path, folder)
    g = _graph(path, "Bob")
    g.db.close()
    holder = Holder(monkeypatch, times=2)
    result = service_sync.exchange(path, folder)
    assert result.sent >= 1 and service_sync.status(path).unpublished == 0
    assert any(name.endswith(".seg") for name in holder.refused)  # the new segment was held, and placed


def test_a_snapshot_is_flushed_through_a_handle_that_may_write(tmp_path, monkeypatch):
    no_flush_of_read_only_files(monkeypatch)
    g = _graph(tmp_path / "a.db", "Ada")
    try:
        taken = snapshot.take(g, tmp_path / "device", 100)
    finally:
        g.db.close()
    assert taken.is_file() and taken.name.startswith("snapshot-000100-")


def test_an_old_snapshot_held_by_another_program_does_not_fail_the_new_one(tmp_path, monkeypatch):
    g = _graph(tmp_path / "a.db", "Ada")
    try:
        first = snapshot.take(g, tmp_path / "device", 100)
        Holder(monkeypatch, forever=(first.name,))
        second = snapshot.take(g, tmp_path / "device", 200)
    finally:
        g.db.close()
    assert second.is_file() and first.is_file()  # the old one goes with a later snapshot


def test_a_backup_is_written_while_held_and_pruning_that_cannot_delete_never_fails_the_import(tmp_path, monkeypatch,
                                                                                              caplog):
    path = tmp_path / "a.db"
    g = _graph(path, "Ada")
    try:
        for _ in range(backup.KEEP_BACKUPS):
            backup.backup_database(g.db, reason="manual")
        before = len(backup.list_backups(path))
        # Every backup is held for good (a sync client uploading the folder): none can be deleted.
        Holder(monkeypatch, times=1, forever=(backup.SUFFIX,))
        source = tmp_path / "more.jsonl"
        source.write_text(json.dumps({"type": "entity", "name": "Grace", "entityType": "Person",
                                      "observations": ["wrote compilers"]}) + "\n", encoding="utf-8")
        with caplog.at_level(logging.WARNING, logger="limbic"):
            import_path(g, source, embed=False)
        assert g.get_entity("Grace") is not None
        assert len(backup.list_backups(path)) == before + 1  # the new backup written, the old ones kept
        assert "could not be deleted now" in caplog.text
    finally:
        g.db.close()


def test_exports_replace_files_another_program_holds_a_moment(tmp_path, monkeypatch):
    g = _graph(tmp_path / "a.db", "Ada", "Bob")
    try:
        holder = Holder(monkeypatch, times=2)
        export_file(g, tmp_path / "out.jsonl")
        export_csv(g, tmp_path / "csv")
        export_markdown(g, tmp_path / "notes")
        graph_export.export_whole_graph(g, str(tmp_path / "out.graphml"))
    finally:
        g.db.close()
    assert "Ada" in (tmp_path / "out.jsonl").read_text(encoding="utf-8")
    assert (tmp_path / "csv" / "entities.csv").is_file() and (tmp_path / "notes" / "Bob.md").is_file()
    assert "Ada" in (tmp_path / "out.graphml").read_text(encoding="utf-8")
    assert holder.refused[str(tmp_path / "notes" / "Ada.md")] == 2
