"""The Markdown export writes no file Windows refuses: no device name, no path past 260 characters."""

from __future__ import annotations

import pytest

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service.importers.common import ImportInputError
from limbic.service.importers.markdown_export import export_markdown, safe_stem


def _windows_units(path) -> int:
    return len(str(path).encode("utf-16-le")) // 2


@pytest.mark.parametrize("name", ["COM0", "lpt0", "LPT0.notes", "CONIN$", "conout$", "COM\u00b9", "lpt\u00b3",
                                  "con .md", "Clock$"])
def test_every_windows_device_name_is_kept_off(name):
    assert safe_stem(name).startswith("_")


def test_ordinary_names_keep_their_own(tmp_path):
    assert [safe_stem(n) for n in ("Compass", "COM10", "Conway", "LPT")] == ["Compass", "COM10", "Conway", "LPT"]


def test_notes_in_a_deep_folder_keep_their_paths_under_260_characters(tmp_path):
    folder = tmp_path
    while _windows_units(folder) < 190:
        folder = folder / "a-rather-long-folder-name"
    g = Graph(Database(tmp_path / "g.db"))
    names = ["Long " + "x" * 200, "Long " + "x" * 199 + "y", "\U0001F600" * 100, "Short"]
    try:
        for name in names:
            g.upsert_entity(name, "Thing", [])
        assert export_markdown(g, folder / "notes") == 4
    finally:
        g.db.close()
    written = list((folder / "notes").glob("*.md"))
    assert len(written) == 4 and (folder / "notes" / "Short.md").is_file()
    longest = max(_windows_units(p.absolute()) for p in written)
    assert longest + len(".part") + 1 < 260, longest  # the temporary file beside it too


def test_a_folder_too_deep_for_any_note_is_refused_in_a_sentence(tmp_path):
    folder = tmp_path
    while _windows_units(folder) < 245:
        folder = folder / "deeper"
    g = Graph(Database(tmp_path / "g.db"))
    try:
        g.upsert_entity("Ada", "Person", [])
        with pytest.raises(ImportInputError, match="260 characters"):
            export_markdown(g, folder / "notes")
    finally:
        g.db.close()
    assert not (folder / "notes").exists()
