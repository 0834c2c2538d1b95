"""macOS: a commit reported is on the disk itself, not in the drive's cache (F_FULLFSYNC), as on the other platforms."""

from __future__ import annotations

import sys

import pytest

from limbic.engine.store.db import Database


@pytest.mark.parametrize("platform, full", [("darwin", 1), ("linux", 0), ("win32", 0)])
def test_a_graph_file_is_opened_with_the_full_flush_macos_needs(tmp_path, monkeypatch, platform, full):
    monkeypatch.setattr(sys, "platform", platform)
    db = Database(tmp_path / "g.db")
    try:
        assert db.scalar("PRAGMA synchronous") == 2  # FULL everywhere
        assert db.scalar("PRAGMA fullfsync") == full
        assert db.scalar("PRAGMA checkpoint_fullfsync") == full
    finally:
        db.close()
