"""Boundaries the project keeps: the engine never imports Qt; nothing heavy is installed."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata
from pathlib import Path

import limbic

ENGINE = Path(limbic.__file__).parent / "engine"
FORBIDDEN = {"torch", "transformers", "sentence-transformers", "tensorflow", "jax"}


def test_engine_imports_without_qt():
    modules = sorted(
        "limbic.engine." + ".".join(p.relative_to(ENGINE).with_suffix("").parts).removesuffix(".__init__")
        for p in ENGINE.rglob("*.py")
    )
    modules += ["limbic.cli", "limbic.config"]
    code = (
        "import sys, importlib\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('PySide6', 'shiboken6', 'PyQt5', 'PyQt6'):\n"
        "            raise ImportError('Qt is not allowed in the engine: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        f"for m in {modules!r}:\n"
        "    importlib.import_module(m)\n"
        "print(len([m for m in sys.modules if m.startswith('limbic.engine')]))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout.strip()) >= 10


def test_no_heavy_ml_framework_is_installed():
    installed = {(d.metadata["Name"] or "").lower().replace("_", "-") for d in metadata.distributions()}
    assert not installed & FORBIDDEN, installed & FORBIDDEN
    assert {"onnxruntime", "tokenizers", "sqlite-vec", "apsw"} <= installed


def test_the_window_module_does_not_load_numpy_or_the_model_runtime():
    # Start-up: the window must show before the heavy libraries load on the engine's thread.
    code = (
        "import sys, limbic.ui.shell.main_window\n"
        "print(sorted(m for m in ('numpy', 'onnxruntime', 'tokenizers', 'sqlite_vec') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


ROOT = Path(__file__).resolve().parents[1]


def test_layers_hold_front_ends_over_the_service_layer_over_the_engine():
    # The contracts live in pyproject.toml ([tool.importlinter]); the linter exits non-zero on a break.
    linter = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(linter), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "5 kept, 0 broken" in result.stdout


def test_every_file_dialog_goes_through_the_name_only_dialogs():
    # Qt's stock dialogs read files to guess their type, which would drop SQLite's locks on the open graph.
    ui = Path(limbic.__file__).parent / "ui"
    offenders = [p.name for p in ui.glob("**/*.py") if p.name != "safe_files.py" and "QFileDialog" in p.read_text(encoding="utf-8")]
    assert offenders == []
