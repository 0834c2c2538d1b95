"""The PyInstaller plan: files land where the frozen app looks, and only unused parts are left out."""

from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _frozen_tree(tmp_path: Path, pairs) -> Path:
    """Copy (source, destination folder) pairs under a fake bundle root, as PyInstaller would."""
    for src, dest in pairs:
        target = tmp_path / dest / Path(src).name
        target.parent.mkdir(parents=True, exist_ok=True)
        if Path(src).is_dir():
            shutil.copytree(src, target.parent, dirs_exist_ok=True)
        else:
            shutil.copy2(src, target)
    return tmp_path


def test_model_files_are_where_the_frozen_app_looks(plan, tmp_path, monkeypatch):
    from limbic.engine.vectors import embeddings

    files = plan.model_files()
    assert sorted(Path(src).name for src, _ in files) == ["limbic_model.json", "model.onnx", "tokenizer.json"]
    root = _frozen_tree(tmp_path, files)
    monkeypatch.setattr(sys, "_MEIPASS", str(root), raising=False)
    spec = embeddings.default_spec()
    assert spec.name == embeddings.DEFAULT_MODEL_NAME == plan.MODEL_NAME
    assert spec.onnx_path == root / plan.MODEL_DEST / "model.onnx"
    assert spec.tokenizer_path == root / plan.MODEL_DEST / "tokenizer.json"
    assert spec.query_prefix == "query: " and spec.max_batch == 1  # limbic_model.json came along


def test_the_bundled_model_is_the_one_make_setup_built(plan):
    sources = [Path(src) for src, _ in plan.model_files()]
    assert {p.parent for p in sources} == {plan.BUILT_MODEL}
    assert all(p.is_file() for p in sources)


def test_an_unbuilt_model_stops_the_bundle_with_one_sentence(plan, tmp_path):
    with pytest.raises(SystemExit, match=r"not built .*make setup"):
        plan.model_files(tmp_path)


def test_frozen_minilm_choice_says_it_is_not_bundled(tmp_path, monkeypatch):
    from limbic.engine.vectors import embeddings
    from limbic.engine.errors import ModelError

    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    with pytest.raises(ModelError, match="not bundled"):
        embeddings.resolve_spec(Path("all-MiniLM-L6-v2"))


def test_sqlite_vec_loads_from_its_frozen_place(plan, tmp_path, monkeypatch):
    import apsw
    import sqlite_vec

    root = _frozen_tree(tmp_path, plan.sqlite_vec_binaries())
    # Frozen, the module's __file__ is inside the bundle: loadable_path() must find the copied file.
    monkeypatch.setattr(sqlite_vec, "__file__", str(root / plan.SQLITE_VEC_DEST / "__init__.pyc"))
    assert Path(sqlite_vec.loadable_path()).parent == root / plan.SQLITE_VEC_DEST
    conn = apsw.Connection(":memory:")
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    version = conn.execute("select vec_version()").fetchone()[0]
    assert version.startswith("v")


def test_resources_are_where_the_frozen_app_looks(plan, tmp_path, monkeypatch):
    from limbic import config

    root = _frozen_tree(tmp_path, [(str(ROOT / "resources" / "sample_graph.jsonl"), plan.RESOURCES_DEST)])
    monkeypatch.delenv("LIMBIC_RESOURCES", raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(root), raising=False)
    assert (config.resources_dir() / "sample_graph.jsonl").is_file()
    assert [dest for _, dest in plan.resource_datas()] == [plan.RESOURCES_DEST]


@pytest.mark.parametrize(
    "dest",
    [
        "PySide6/Qt/plugins/platforms/libqxcb.so",
        "PySide6/Qt/plugins/platforms/libqwayland.so",
        "PySide6/Qt/plugins/platforms/libqoffscreen.so",
        "PySide6/plugins/platforms/qwindows.dll",
        "PySide6/Qt/plugins/platforms/libqcocoa.dylib",
        "PySide6/Qt/plugins/xcbglintegrations/libqxcb-glx-integration.so",
        "PySide6/Qt/plugins/wayland-shell-integration/libxdg-shell.so",
        "PySide6/Qt/plugins/platforminputcontexts/libcomposeplatforminputcontextplugin.so",
        "PySide6/Qt/lib/libQt6Widgets.so.6",
        "PySide6/Qt/lib/libQt6OpenGL.so.6",
        "PySide6/QtWidgets.abi3.so",
        "numpy.libs/libscipy_openblas64_-32a4b2a6.so",
        "sqlite_vec/vec0.so",
        "models/multilingual-e5-small/model.onnx",
        "models/multilingual-e5-small/tokenizer.json",
    ],
)
def test_needed_parts_are_kept(plan, dest):
    assert plan.keep(dest)


@pytest.mark.parametrize(
    "dest",
    [
        "PySide6/Qt/translations/qtbase_de.qm",
        "PySide6/translations/qtbase_fr.qm",
        "PySide6/Qt/plugins/platforms/libqeglfs.so",
        "PySide6/Qt/plugins/platforms/libqvnc.so",
        "PySide6/Qt/plugins/platformthemes/libqgtk3.so",
        "PySide6/Qt/plugins/platforminputcontexts/libqtvirtualkeyboardplugin.so",
        "PySide6/Qt/plugins/imageformats/libqpdf.so",
        "PySide6/Qt/plugins/wayland-graphics-integration-server/libqt-wayland-compositor-wayland-egl.so",
        "PySide6/Qt/plugins/egldeviceintegrations/libqeglfs-kms-integration.so",
        "PySide6/Qt/plugins/networkinformation/libqnetworkmanager.so",
        "PySide6/Qt/lib/libQt6Quick.so.6",
        "PySide6/Qt/lib/libQt6Qml.so.6",
        "PySide6/Qt/lib/libQt6Pdf.so.6",
        "PySide6/opengl32sw.dll",
    ],
)
def test_unused_qt_parts_are_left_out(plan, dest):
    assert not plan.keep(dest)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux plugin names")
def test_kept_linux_platform_plugins_exist_in_the_installed_qt(plan):
    import PySide6

    platforms = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms"
    present = {plan.plugin_stem(p.name) for p in platforms.iterdir()}
    assert {"qxcb", "qwayland", "qoffscreen"} <= present & plan.KEEP_QT_PLUGINS["platforms"]


def _imports_of_app() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "app" / "limbic").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_nothing_the_app_imports_is_excluded(plan):
    imported = _imports_of_app()
    excluded = set(plan.EXCLUDED_MODULES)
    clashes = {
        name for name in imported for ex in excluded if name == ex or name.startswith(ex + ".")
    }
    assert not clashes, f"the app imports modules the bundle leaves out: {sorted(clashes)}"
    assert "PySide6.QtWidgets" in imported  # the scan does see the app's Qt imports


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF files")
def test_elf_needed_reads_direct_dependencies(plan, tmp_path):
    import sqlite_vec

    needed = plan.elf_needed(sqlite_vec.loadable_path() + ".so")
    assert "libc.so.6" in needed
    text = tmp_path / "notes.txt"
    text.write_text("not a library")
    assert plan.elf_needed(text) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF files")
def test_prune_drops_libraries_nothing_links_to(plan, tmp_path):
    import sqlite_vec

    vec0 = sqlite_vec.loadable_path() + ".so"
    libc_needer = [("sqlite_vec/vec0.so", vec0, "BINARY")]
    stray = tmp_path / "libstray.so.1"
    shutil.copy2(vec0, stray)
    entries = libc_needer + [
        ("libc.so.6", vec0, "BINARY"),  # linked by vec0: stays
        ("libstray.so.1", str(stray), "BINARY"),  # linked by nothing: goes
        ("libpython3.11.so.1.0", str(stray), "BINARY"),  # loaded by the bootloader: stays
    ]
    kept = [dest for dest, _src, _kind in plan.prune_unreferenced_libs(entries)]
    assert kept == ["sqlite_vec/vec0.so", "libc.so.6", "libpython3.11.so.1.0"]


@pytest.mark.skipif(not Path("/lib/x86_64-linux-gnu/libxcb-icccm.so.4").exists(), reason="needs libxcb-icccm4")
def test_prune_follows_chains_of_orphans(plan):
    lib = Path("/lib/x86_64-linux-gnu")
    entries = [
        ("libxcb-icccm.so.4", str(lib / "libxcb-icccm.so.4"), "BINARY"),  # nothing links to it
        ("libxcb.so.1", str(lib / "libxcb.so.1"), "BINARY"),  # only the orphan above links to it
    ]
    assert "libxcb.so.1" in plan.elf_needed(entries[0][1])
    assert plan.prune_unreferenced_libs(entries) == []
    assert [e[0] for e in plan.prune_unreferenced_libs(entries, extra_roots=[entries[0][1]])] == ["libxcb.so.1"]


# -- the macOS app's declarations ----------------------------------------------------------------------


def _bundle_keywords() -> dict[str, ast.expr]:
    """The keyword arguments of the spec's BUNDLE(...) call (the macOS .app)."""
    tree = ast.parse((ROOT / "packaging" / "limbic.spec").read_text(encoding="utf-8"))
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "BUNDLE"]
    assert len(calls) == 1
    return {k.arg: k.value for k in calls[0].keywords}


def test_the_app_version_is_the_package_version(plan):
    import limbic

    assert plan.app_version() == limbic.__version__


def test_the_version_is_read_from_the_project_table_only(plan, tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.x]\nversion = "9.9"\n\n[project]\nname = "x"\nversion = "1.2.3"\n', encoding="utf-8")
    assert plan.app_version(pyproject) == "1.2.3"
    pyproject.write_text('[tool.x]\nversion = "9.9"\n', encoding="utf-8")
    with pytest.raises(SystemExit, match="no version"):
        plan.app_version(pyproject)


def test_the_mac_app_declares_its_version_and_oldest_system(plan):
    keywords = _bundle_keywords()
    assert ast.unparse(keywords["version"]) == "plan.app_version()"
    assert "plan.macos_info_plist(" in ast.unparse(keywords["info_plist"])
    assert "plan.macos_minimum(" in ast.unparse(keywords["info_plist"])
    info = plan.macos_info_plist("1.2.3", "13.0")
    assert info["CFBundleShortVersionString"] == info["CFBundleVersion"] == "1.2.3"
    assert info["LSMinimumSystemVersion"] == "13.0"


def test_the_oldest_macos_is_the_highest_a_bundled_wheel_targets(plan):
    tags = ["cp311-cp311-macosx_13_0_arm64", "py3-none-macosx_10_9_x86_64", "cp311-abi3-macosx_11_0_universal2",
            "cp311-cp311-manylinux_2_17_x86_64", "py3-none-any"]
    assert plan.macos_minimum(tags) == "13.0"
    assert plan.macos_minimum(["cp311-cp311-macosx_14_10_arm64", "x-macosx_14_9_arm64"]) == "14.10"
    assert plan.macos_minimum(["py3-none-any", "cp311-cp311-macosx_10_9_universal2"]) == plan.MACOS_FLOOR


def test_installed_wheel_tags_are_read_from_the_environment(plan):
    tags = plan.installed_wheel_tags()
    assert any(tag.endswith("-none-any") for tag in tags)  # pure-Python wheels, e.g. pytest
    assert all(tag.count("-") >= 2 for tag in tags)
