"""A plain (non-editable) ``pip install`` finds the default model and ``resources/``: a wheel carries both as
package data (setup.py), and the installed package reads them from there, not from a source tree."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, limbic
from limbic import config
from limbic.engine.vectors import embeddings
spec = embeddings.default_spec()
print(json.dumps({"package": limbic.__file__, "onnx": str(spec.onnx_path), "prefix": spec.query_prefix,
                  "resources": str(config.resources_dir()),
                  "sample": (config.resources_dir() / "sample_graph.jsonl").is_file()}))
"""


def _source_copy(dest: Path) -> Path:
    """What a wheel is built from, copied (pip builds in the source folder: the checkout stays clean)."""
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    shutil.copytree(ROOT / "app", dest / "app", ignore=ignore)
    shutil.copytree(ROOT / "resources", dest / "resources", ignore=ignore)
    shutil.copytree(ROOT / "models" / "multilingual-e5-small", dest / "models" / "multilingual-e5-small")
    return dest


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    source = _source_copy(tmp_path_factory.mktemp("source"))
    out = tmp_path_factory.mktemp("wheel")
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(out)],
                           capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stderr[-2000:]
    (found,) = out.glob("limbic_kg-*.whl")
    return found


def test_the_wheel_carries_the_model_and_the_resources(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("model.onnx", "tokenizer.json", "limbic_model.json"):
        assert f"limbic/_data/models/multilingual-e5-small/{name}" in names
    assert "limbic/_data/resources/sample_graph.jsonl" in names and "limbic/_data/resources/style.qss" in names
    for name in ("limbic_es.qm", "limbic_en.qm", "qtbase_es.qm"):  # the window's translations, compiled
        assert f"limbic/_data/resources/i18n/{name}" in names


def test_the_installed_package_finds_them_away_from_the_source_tree(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)  # what pip installs into site-packages
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("LIMBIC_RESOURCES", None)
    env.pop("LIMBIC_MODEL_DIR", None)
    run = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    found = json.loads(run.stdout.strip().splitlines()[-1])
    package = site / "limbic"
    assert Path(found["package"]).parent == package
    assert Path(found["onnx"]) == package / "_data" / "models" / "multilingual-e5-small" / "model.onnx"
    assert found["prefix"] == "query: "  # limbic_model.json came along
    assert Path(found["resources"]) == package / "_data" / "resources" and found["sample"]


def test_a_wheel_without_the_built_model_is_refused_with_a_sentence(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(ROOT / "app", source / "app", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    shutil.copytree(ROOT / "resources", source / "resources")
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(tmp_path)],
                           capture_output=True, text=True, timeout=600)
    assert build.returncode != 0 and not list(tmp_path.glob("*.whl"))
    assert "The default model is not built" in build.stdout + build.stderr
