"""No module of the app over 500 lines: features go into new modules with small hooks into existing ones."""

from __future__ import annotations

from pathlib import Path

import limbic

APP = Path(limbic.__file__).resolve().parent
MAX_LINES = 500


def test_no_module_over_500_lines():
    too_long = {str(p.relative_to(APP.parent)): n for p in sorted(APP.rglob("*.py"))
                if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert too_long == {}, f"modules over {MAX_LINES} lines: {too_long}"
