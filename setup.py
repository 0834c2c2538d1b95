"""A wheel carries the default model and ``resources/`` as package data, in ``limbic/_data/``, so a plain
(non-editable) ``pip install .`` finds both: ``limbic.config.resources_dir`` and
``limbic.engine.vectors.embeddings.models_dir`` look there first; the window's translations are compiled into
``resources/i18n`` by Qt's lrelease first. The model is the one ``make setup``
built from its pinned wheels (packaging/models/build_default_model.py); without it the wheel is refused
with a sentence. Editable installs (``make setup``) read the source tree's folders instead. Everything
else is in pyproject.toml.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
MODEL = ROOT / "models" / "multilingual-e5-small"
MODEL_FILES = ("model.onnx", "tokenizer.json", "limbic_model.json")


def compile_translations() -> None:
    """The window's .qm files beside their .ts sources in resources/i18n: compiled here by Qt's lrelease when it
    is at hand (PySide6 installed where the wheel is built), else they must be there already (`make setup`)."""
    folder = ROOT / "resources" / "i18n"
    sources = sorted(folder.glob("limbic_*.ts"))
    lrelease = shutil.which("pyside6-lrelease") or shutil.which("pyside6-lrelease", path=str(Path(sys.executable).parent))
    if lrelease:  # it may not run inside pip's isolated build environment (no PySide6 there): then as built
        subprocess.run([lrelease, "-silent", *map(str, sources)], check=False, capture_output=True)
    missing = [ts.with_suffix(".qm").name for ts in sources if not ts.with_suffix(".qm").is_file()]
    if missing or not (folder / "qtbase_es.qm").is_file():
        raise SystemExit(f"The window's translations are not compiled in {folder} (no {', '.join(missing) or 'qtbase_es.qm'}): "
                         "run `make setup` or `make translations` before building a wheel.")


class BuildWithData(build_py):
    """build_py, then the model and resources copied into the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        missing = [name for name in MODEL_FILES if not (MODEL / name).is_file()]
        if missing:
            raise SystemExit(
                f"The default model is not built in {MODEL} (no {', '.join(missing)}): run `make setup` or "
                "`python packaging/models/build_default_model.py` before building a wheel."
            )
        compile_translations()
        target = Path(self.build_lib) / "limbic" / "_data"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(ROOT / "resources", target / "resources", ignore=shutil.ignore_patterns("__pycache__"))
        (target / "models" / MODEL.name).mkdir(parents=True)
        for name in MODEL_FILES:
            shutil.copy2(MODEL / name, target / "models" / MODEL.name / name)


setup(cmdclass={"build_py": BuildWithData})
