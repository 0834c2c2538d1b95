"""Front ends run every operation through the service: of the engine they import its errors only.

The contract itself is import-linter's (pyproject.toml); these tests show that it holds on the
source, that it would catch a front end reaching past the service, and that the engine names the
service lends to front ends are types and constants, not operations.
"""

from __future__ import annotations

import inspect
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import limbic
from limbic.service import types

ROOT = Path(__file__).resolve().parents[1]
LINTER = Path(sys.executable).with_name("lint-imports")


def _lint(root: Path, package_parent: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(package_parent))
    return subprocess.run([str(LINTER), "--no-cache"], cwd=root, capture_output=True, text=True, timeout=300, env=env)


def _lint_with_import(tmp_path: Path, module: str, line: str) -> subprocess.CompletedProcess:
    """The linter's answer on a copy of the package where ``module`` (a path under limbic/) also imports ``line``."""
    shutil.copytree(Path(limbic.__file__).parent, tmp_path / "app" / "limbic",
                    ignore=shutil.ignore_patterns("__pycache__"))
    target = tmp_path / "app" / "limbic" / module
    target.write_text(target.read_text(encoding="utf-8") + f"\n{line}  # noqa\n", encoding="utf-8")
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(config[config.index("[tool.importlinter]"):].split("\n[tool.pytest")[0],
                                             encoding="utf-8")
    return _lint(tmp_path, tmp_path / "app")


def test_the_contract_catches_a_front_end_that_runs_an_engine_operation(tmp_path):
    # The results list calls the engine's search itself: the contract breaks.
    broken = _lint_with_import(tmp_path, "ui/search/results.py", "from limbic.engine.search.search import search")
    assert broken.returncode != 0
    assert re.search(r"Front ends take of the engine only its errors BROKEN", broken.stdout)
    assert "limbic.ui.search.results -> limbic.engine.search.search" in broken.stdout


def test_the_contract_keeps_storage_below_the_features_built_on_it(tmp_path):
    # The storage floor reaches up into the graph: the engine's contract breaks.
    broken = _lint_with_import(tmp_path, "engine/store/tables.py", "from limbic.engine.graph.graph import Graph")
    assert broken.returncode != 0
    assert re.search(r"The engine's rooms: storage at the bottom BROKEN", broken.stdout)
    assert "limbic.engine.store.tables -> limbic.engine.graph.graph" in broken.stdout


def test_what_the_service_lends_of_the_engine_is_types_and_constants():
    lent = {name: getattr(types, name) for name in types.__all__}
    operations = {name for name, value in lent.items()
                  if callable(value) and not inspect.isclass(value) and name != "counted"}
    assert operations == set()  # ``counted`` is the one plural rule, a wording helper with no graph
    assert {"Graph", "ChangeSet", "ScoringParams", "SearchResponse"} <= set(lent)
    assert all(inspect.isclass(lent[n]) for n in ("Graph", "ChangeSet", "Cursor", "ScoringParams", "LayoutParams"))


def test_no_front_end_module_imports_an_engine_module_but_errors():
    # The same rule read from the source, imports inside functions included (import-linter sees them too).
    offenders = []
    app = Path(limbic.__file__).parent
    pattern = re.compile(r"^\s*(?:from\s+(limbic\.engine[\w.]*)\s+import|import\s+(limbic\.engine[\w.]*)|"
                         r"from\s+limbic\s+import\s+engine\b)", re.M)
    for front in ("ui", "cli", "mcp"):
        for path in (app / front).rglob("*.py"):
            for match in pattern.finditer(path.read_text(encoding="utf-8")):
                module = match.group(1) or match.group(2) or "limbic.engine"
                if module != "limbic.engine.errors":
                    offenders.append(f"{path.relative_to(app)}: {module}")
    assert offenders == []
