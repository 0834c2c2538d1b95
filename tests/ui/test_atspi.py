"""What a screen reader is told about the real window: every interactive node named, through AT-SPI.

The window runs under Xvfb, openbox and the accessibility bus (scripts/atspi_check.py), with an entity
open, the search filters, the Activity panel and the graph open, at 1366×768 and at 150 %; the system
Python's pyatspi walks it as Orca would. Slow (about half a minute each): make test-slow.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.parametrize("scale", ["1", "1.5"])
def test_every_interactive_node_a_screen_reader_meets_has_a_name(scale):
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "atspi_check.py"), "--scale", scale],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stdout[-1000:] + out.stderr[-2000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["interactive"] >= 40, seen  # the editor, the filters and the graph panel were walked
    assert {"Name", "New relation's type", "New relation's target entity", "Graph depth"} <= set(seen["names"]), seen
    assert seen["unnamed"] == [], seen
    assert seen["literal_ampersands"] == [], seen
    assert {"File", "Edit", "Go"} <= set(seen["menus"]), seen
