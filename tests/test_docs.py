"""The architecture page and the README stay true to the source: every room named, the import diagram
the one the imports draw, the README short, its pictures present and its figures quoted from the
measurements."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app" / "limbic"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
README = ROOT / "README.md"
README_MAX_LINES = 250
MEASURED = ("docs/benchmarks.md", "docs/mcp.md")


def _diagram_script():
    spec = importlib.util.spec_from_file_location("import_diagram", ROOT / "scripts" / "import_diagram.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rooms() -> list[str]:
    """Every package under engine/ and ui/, as the page names it (``engine/store``)."""
    return sorted(
        f"{top}/{p.parent.name}"
        for top in ("engine", "ui")
        for p in (APP / top).glob("*/__init__.py")
    )


def reserved_rooms() -> list[str]:
    """Rooms the engine's contract reserves before they exist (written ``(sync)`` in a layer)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    out = []
    for contract in config["tool"]["importlinter"]["contracts"]:
        if contract.get("containers") == ["limbic.engine"]:
            for layer in contract["layers"]:
                out += [f"engine/{name}" for name in re.findall(r"\((\w+)\)", layer)]
    return sorted(out)


def unnamed(text: str, names: list[str]) -> list[str]:
    """The names the page never mentions as `name` (code-quoted, so a word in a sentence does not count)."""
    return [name for name in names if f"`{name}`" not in text]


def test_the_rooms_are_found():
    # A broken glob would make the next test pass on nothing.
    assert {"engine/store", "engine/search", "ui/shell", "ui/workers"} <= set(rooms())
    assert {"engine/sync", "engine/history"} <= set(reserved_rooms())


def test_every_engine_and_window_package_is_on_the_architecture_page():
    missing = unnamed(ARCHITECTURE.read_text(encoding="utf-8"), rooms() + reserved_rooms())
    assert missing == [], f"docs/architecture.md does not name {', '.join(missing)}: say what each owns and may import"


def test_a_package_left_out_of_the_page_is_found():
    text = ARCHITECTURE.read_text(encoding="utf-8").replace("`engine/text`", "the text room")
    assert unnamed(text, rooms()) == ["engine/text"]


def test_the_diagram_is_the_one_the_imports_draw():
    script = _diagram_script()
    shown = script.doc_diagram(ARCHITECTURE.read_text(encoding="utf-8"))
    assert shown is not None, "docs/architecture.md lost the diagram's markers"
    assert shown == script.diagram(), "the imports changed: run .venv/bin/python scripts/import_diagram.py --write"


def test_the_diagram_draws_the_layers_in_order():
    edges = _diagram_script().room_edges()
    assert ("engine.search", "engine.vectors") in edges
    assert ("ui.workers", "service") in edges
    # Nothing imports upward, the diagram included.
    assert not [(a, b) for a, b in edges if a.startswith("engine") and b.split(".")[0] in ("service", "ui", "cli", "mcp")]


def test_the_readme_stays_short():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; the manual in docs/ is the place for more"


def readme_images(text: str) -> list[str]:
    return re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", text)


def test_every_readme_picture_exists():
    images = readme_images(README.read_text(encoding="utf-8"))
    assert {"docs/screenshots/search-light.png", "docs/screenshots/activity-panel.png"} <= set(images)
    assert any("graph-" in image for image in images)
    assert [image for image in images if not (ROOT / image).is_file()] == []


def performance_figures(text: str) -> list[str]:
    """The numbers of the README's performance summary (its section, up to the next heading)."""
    section = re.search(r"^## Performance\n(.*?)(?=^## )", text, re.MULTILINE | re.DOTALL)
    assert section is not None, "README.md has no Performance section"
    body = re.sub(r"\]\([^)]*\)", "]", section.group(1))  # a link's address is no figure
    return re.findall(r"(?<![\w.,])\d[\d,]*(?:\.\d+)?", body)  # "p95" is a name, not a figure


def measured_text() -> str:
    return "\n".join((ROOT / page).read_text(encoding="utf-8") for page in MEASURED)


def is_measured(figure: str, measured: str) -> bool:
    """Whether ``figure`` stands in the measurements as a whole number ("23.3", not "123.3" or "23.35")."""
    return re.search(rf"(?<![\d.,]){re.escape(figure)}(?!\d|[.,]\d)", measured) is not None


def test_the_readme_quotes_its_figures_from_the_measurements():
    figures = performance_figures(README.read_text(encoding="utf-8"))
    assert len(figures) >= 5
    measured = measured_text()
    invented = [figure for figure in figures if not is_measured(figure, measured)]
    assert invented == [], f"README.md quotes {invented}, which neither {' nor '.join(MEASURED)} measured"


@pytest.mark.parametrize("figure, found", [("23.3", True), ("23.4", False), ("290", True), ("7.6", False),
                                           ("100,000", True), ("100", True), ("00", False)])
def test_a_figure_counts_only_where_it_was_measured(figure, found):
    assert is_measured(figure, measured_text()) is found
