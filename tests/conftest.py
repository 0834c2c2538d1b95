"""Test set-up: headless Qt, a private data folder per test, and a shared real model."""

from __future__ import annotations

import os
import sys

# Before anything imports Qt: tests never need a display.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _temp_root() -> str | None:
    """Where the run's temporary files go: the RAM-backed /dev/shm when it is there with room to spare, so the
    thousands of small graph files the tests write cost no flushes to disk (each commit waits for one, and the
    tests make tens of thousands). LIMBIC_TEST_TMP names another folder (LIMBIC_TEST_TMP=/tmp: on disk)."""
    chosen = os.environ.get("LIMBIC_TEST_TMP")
    if chosen:
        return chosen
    try:
        room = os.statvfs("/dev/shm")
    except (OSError, AttributeError):  # no such folder (macOS), no statvfs (Windows)
        return None
    if not os.access("/dev/shm", os.W_OK | os.X_OK) or room.f_bavail * room.f_frsize < 4 << 30:
        return None
    return "/dev/shm"


_TEMP_ROOT = _temp_root()
if _TEMP_ROOT:  # pytest's tmp_path folders, the tests' own temporary files and the programs they start
    import tempfile

    os.environ["TMPDIR"] = tempfile.tempdir = _TEMP_ROOT

import pytest  # noqa: E402


def posix_only_reason(item) -> str | None:
    """Why a test marked ``posix_only`` cannot run on Windows (None when it is not marked); a mark without a
    reason is a usage error."""
    marker = item.get_closest_marker("posix_only")
    if marker is None:
        return None
    reason = marker.kwargs.get("reason") or (marker.args[0] if marker.args else "")
    if not reason:
        raise pytest.UsageError(f"{item.nodeid}: posix_only needs the reason it cannot run on Windows")
    return reason


def pytest_collection_modifyitems(config, items):
    """Tests marked ``posix_only(reason)`` are skipped on Windows, saying why; they run everywhere else."""
    for item in items:
        reason = posix_only_reason(item)
        if reason and sys.platform == "win32":
            item.add_marker(pytest.mark.skip(reason=f"POSIX only: {reason}"))


@pytest.fixture(autouse=True)
def private_home(tmp_path, monkeypatch):
    """Each test gets its own user data folder and no stray overrides."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("LIMBIC_HOME", str(home))
    monkeypatch.delenv("LIMBIC_DB", raising=False)
    monkeypatch.delenv("LIMBIC_MODEL_DIR", raising=False)
    return home


def compile_translations(folder, names=("limbic_en.ts", "limbic_es.ts")):
    """The committed .ts files compiled by pyside6-lrelease into ``folder`` (as ``make translations`` does)."""
    import shutil
    import subprocess
    from pathlib import Path

    source = Path(__file__).resolve().parents[1] / "resources" / "i18n"
    for name in names:
        shutil.copy(source / name, folder / name)
    lrelease = Path(sys.executable).parent / "pyside6-lrelease"
    subprocess.run([str(lrelease), "-silent", *(str(folder / n) for n in names)], check=True)
    return folder


@pytest.fixture(autouse=True)
def quick_seal_keys(request, monkeypatch):
    """Sync folders sealed in tests derive their key with scrypt at n 2^10 (the least a seal record may name)
    rather than 2^15: the same derivation and the same record, a fiftieth of the cost (a quarter of a second a
    device). A test marked ``real_seal_cost`` keeps the real parameters."""
    if request.node.get_closest_marker("real_seal_cost"):
        return
    from limbic.engine.sync import seal

    monkeypatch.setitem(seal.SCRYPT, "n", 1 << 10)


@pytest.fixture(scope="session")
def qapp(qapp, tmp_path_factory):
    """pytest-qt's application, speaking English as the app does at start-up: its translation gives every
    counted noun its singular (“1 entity”), whatever the machine's locale."""
    from limbic.ui.common import i18n

    folder = compile_translations(tmp_path_factory.mktemp("i18n"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(i18n, "qm_dirs", lambda: [folder])
        i18n.install(qapp, "en")
    return qapp


@pytest.fixture(scope="session")
def embedder():
    """The real default model, loaded once for the whole run (the copy ``one_model_a_run`` hands out too)."""
    from limbic.engine.vectors.embeddings import load_shared_embedder

    return load_shared_embedder()


@pytest.fixture(autouse=True)
def one_model_a_run(monkeypatch):
    """A model loaded in this process (by a CLI command called in-process, a server, an engine) is a twin of the
    one copy of that model file the run holds (``load_shared_embedder``, as the app's windows share theirs), not
    a copy loaded anew: a load takes seconds and a hundred megabytes. Its own settings (``low_memory``) and a
    model that cannot be loaded behave as before; a program the test starts loads its own."""
    from limbic.engine.vectors import embeddings

    monkeypatch.setattr(embeddings, "load_embedder", embeddings.load_shared_embedder)


@pytest.fixture
def graph(tmp_path, embedder):
    """An empty graph on a temporary file, with the real model."""
    from limbic.engine.store.db import Database
    from limbic.engine.graph.graph import Graph

    g = Graph(Database(tmp_path / "test.db"), embedder)
    yield g
    g.db.close()


@pytest.fixture
def text_graph(tmp_path):
    """An empty graph with no model: full-text only."""
    from limbic.engine.store.db import Database
    from limbic.engine.graph.graph import Graph

    g = Graph(Database(tmp_path / "text.db"))
    yield g
    g.db.close()
