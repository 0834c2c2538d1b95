"""Every common screen and scale: the window and every control on screen, panels open or closed, maximised or not."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ui.conftest import open_entity

ROOT = Path(__file__).resolve().parents[2]

# (screen, scale): a 1366×768 laptop and a 1920×1080 screen at the scales people run them at.
SCREENS = [((1366, 768), "1"), ((1366, 768), "1.25"), ((1366, 768), "1.5"),
           ((1920, 1080), "1"), ((1920, 1080), "1.25"), ((1920, 1080), "1.5"), ((1920, 1080), "2")]


def probe(tmp_path: Path, screen: tuple[int, int], scale: str, graph: Path | None = None) -> list[dict]:
    """Run tests/ui/fit_probe.py on the offscreen platform emulating that screen at that scale (on a copy of
    ``graph``, or the sample loaded by the window into an empty one)."""
    if graph is not None:
        shutil.copyfile(graph, tmp_path / "g.db")
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{"name": "s", "x": 0, "y": 0, "width": screen[0], "height": screen[1],
                                               "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", QT_SCALE_FACTOR=scale,
               PYTHONPATH=os.pathsep.join([str(ROOT / "app"), str(ROOT)]), LIMBIC_HOME=str(tmp_path / "home"))
    out = subprocess.run([sys.executable, "-m", "tests.ui.fit_probe", str(tmp_path / "g.db")], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("screen, scale", SCREENS, ids=[f"{w}x{h}@{s}" for (w, h), s in SCREENS])
def test_the_window_and_every_control_lie_on_the_screen(tmp_path, screen, scale, sample_db_template):
    states = probe(tmp_path, screen, scale, sample_db_template)
    logical = (round(screen[0] / float(scale)), round(screen[1] / float(scale)))
    assert [s["state"] for s in states] == ["start", "entity", "panels", "panels-maximised", "maximised",
                                            "normal-again"]
    for s in states:
        ax, ay, aw, ah = s["area"]
        assert abs(aw - logical[0]) <= 1 and abs(ah - logical[1]) <= 1, s  # the scale was applied
        x, y, w, h = s["frame"]
        # On the screen, give or take the one logical pixel a fractional scale rounds (1366 / 1.25 = 1092.8).
        assert ax <= x and ay <= y and x + w <= ax + aw + 1 and y + h <= ay + ah + 1, s
        assert s["off"] == [], s  # and so is every button, field and list (or the scroll area holding it)
    panels = next(s for s in states if s["state"] == "panels")
    # Where results, a readable editor and a side panel cannot stand side by side, they take turns.
    if logical[0] < 1000:  # 150 % and 200 %
        assert panels["one_column"], panels
    if logical[0] >= 1366:
        assert not panels["one_column"], panels


def test_a_narrow_window_shows_results_or_editor_with_back_between_them(qtbot, sample_window):
    w = sample_window
    w.resize(600, 500)  # what a 150 % laptop screen leaves beside a side panel
    qtbot.waitUntil(lambda: w.one_column.narrow)
    assert w.left.isVisible() and not w.editor.isVisible() and not w.one_column.back.isVisible()
    open_entity(qtbot, w, "Harbor API")
    qtbot.waitUntil(lambda: w.editor.isVisible())
    assert not w.left.isVisible() and w.one_column.back.isVisible()
    w.one_column.back.click()
    assert w.left.isVisible() and not w.editor.isVisible() and not w.one_column.back.isVisible()
    open_entity(qtbot, w, "Harbor API")
    qtbot.waitUntil(lambda: w.editor.isVisible())
    w.search_bar.edit.setFocus()
    qtbot.keyClicks(w.search_bar.edit, "postgres")  # typing a query brings the results back
    assert w.left.isVisible() and not w.editor.isVisible()
    open_entity(qtbot, w, "Harbor API")
    qtbot.waitUntil(lambda: w.editor.isVisible())
    w.focus_action.trigger()  # Ctrl+K goes back to the search and its results
    assert w.left.isVisible() and not w.editor.isVisible()
    w.resize(1180, 700)  # wide again: both, side by side
    qtbot.waitUntil(lambda: not w.one_column.narrow)
    assert w.left.isVisible() and w.editor.isVisible() and not w.one_column.back.isVisible()
