"""The README and docs/mcp.md list every tool the server offers, one row each, and no tool it lacks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from limbic.mcp import server  # noqa: F401  (registers every tool module, as the running server does)
from limbic.mcp.tools import TOOLS

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("page", ["README.md", "docs/mcp.md"])
def test_every_tool_has_one_row(page):
    rows = re.findall(r"^\| `([a-z_]+)` \|", (ROOT / page).read_text(encoding="utf-8"), re.MULTILINE)
    assert sorted(rows) == sorted(t.name for t in TOOLS)
