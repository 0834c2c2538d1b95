"""Loads the packaging scripts (they live in packaging/, which is not an importable package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

PACKAGING = Path(__file__).resolve().parents[2] / "packaging"


def load(name: str, folder: Path = PACKAGING):
    """Import ``packaging/<name>.py`` (or ``<folder>/<name>.py``) under its own name."""
    if name in sys.modules:
        return sys.modules[name]
    if str(folder) not in sys.path:
        sys.path.append(str(folder))  # after site-packages: never shadows the `packaging` library
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def plan():
    return load("limbic_bundle_plan")


@pytest.fixture(scope="session")
def build_deb():
    return load("build_deb")


@pytest.fixture(scope="session")
def check_package():
    return load("check_package")


@pytest.fixture(scope="session")
def convert_e5():
    return load("convert_e5", PACKAGING / "models")


@pytest.fixture(scope="session")
def model_build():
    return load("build_default_model", PACKAGING / "models")
