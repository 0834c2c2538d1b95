"""The .deb: control fields, layout, the desktop entry and icons, and the size guard."""

from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RESOURCES = ROOT / "resources"
needs_dpkg = pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="needs dpkg-deb")

# The system libraries Qt's xcb/Wayland/GL platform plugins need that the issue names.
QT_SYSTEM_PACKAGES = {
    "libxcb-icccm4", "libxcb-keysyms1", "libxcb-cursor0", "libegl1", "libgl1",
    "libxkbcommon-x11-0", "libfontconfig1", "libdbus-1-3", "libwayland-client0",
}


def _fake_bundle(tmp_path: Path) -> Path:
    """A tiny stand-in for dist/limbic: an executable and a contents folder holding one ELF file."""
    import sqlite_vec

    bundle = tmp_path / "bundle"
    (bundle / "_internal").mkdir(parents=True)
    exe = bundle / "limbic"
    exe.write_text("#!/bin/sh\necho limbic\n")
    exe.chmod(0o775)
    shutil.copy2(sqlite_vec.loadable_path() + ".so", bundle / "_internal" / "vec0.so")
    return bundle


def test_control_depends_on_qt_system_libraries_and_a_recent_glibc(build_deb, check_package):
    text = build_deb.control_text("1.2.3", "amd64", 4096, (2, 34))
    fields = dict(line.split(": ", 1) for line in text.splitlines() if ": " in line and not line.startswith(" "))
    assert fields["Package"] == "limbic"
    assert fields["Version"] == "1.2.3"
    assert fields["Installed-Size"] == "4096"
    assert "libc6 (>= 2.34)" in fields["Depends"]
    assert QT_SYSTEM_PACKAGES <= check_package.depends_names(fields["Depends"])
    assert text.endswith("\n") and "\n \n" not in text  # a valid paragraph: no blank continuation lines


def test_depends_names_handles_versions_and_alternatives(check_package):
    names = check_package.depends_names("libc6 (>= 2.35), libglib2.0-0t64 | libglib2.0-0, libgl1")
    assert names == {"libc6", "libglib2.0-0t64", "libglib2.0-0", "libgl1"}


def _qt_links_of_kept_parts(plan) -> set[str]:
    """Libraries linked by the installed PySide6's extension modules, Qt libraries and kept plugins."""
    import PySide6

    base = Path(PySide6.__file__).parent
    needed: set[str] = set()
    for path in base.rglob("*.so*"):
        rel = "PySide6/" + path.relative_to(base).as_posix()
        if path.is_file() and plan.keep(rel) and ("/plugins/" in rel or "/lib/" in rel or rel.count("/") == 1):
            needed.update(plan.elf_needed(path))
    return needed


@pytest.mark.skipif(shutil.which("dpkg") is None or not sys.platform.startswith("linux"), reason="needs dpkg")
def test_every_library_left_to_the_system_comes_from_a_declared_package(plan, build_deb, check_package):
    pattern = re.compile("|".join(plan.SYSTEM_LIBS_LINUX))
    declared = check_package.depends_names(", ".join(build_deb.DEPENDS))
    system = check_package.system_library_paths()
    left_to_system = sorted(name for name in _qt_links_of_kept_parts(plan) if pattern.fullmatch(name))
    assert "libxcb-cursor.so.0" in left_to_system  # the scan sees the xcb plugin's libraries
    installed = {name: system[name] for name in left_to_system if name in system}  # check_package sees the rest
    owners = check_package.owning_packages(installed.values())
    for soname, path in installed.items():
        assert owners.get(path) in declared, f"{soname} comes from {owners.get(path)}, not in Depends"


def test_min_glibc_is_the_newest_symbol_version(build_deb, tmp_path):
    folder = tmp_path / "b"
    folder.mkdir()
    (folder / "liba.so").write_bytes(b"\x7fELF" + b"\0" * 12 + b"GLIBC_2.28\0GLIBC_2.34\0GLIBC_PRIVATE\0")
    (folder / "libb.so").write_bytes(b"\x7fELF" + b"\0" * 12 + b"GLIBC_2.3.4\0")
    (folder / "notes.txt").write_bytes(b"GLIBC_2.99\0")  # not an ELF file: ignored
    assert build_deb.min_glibc(folder) == (2, 34)
    (folder / "liba.so").unlink()
    assert build_deb.min_glibc(folder) == (2, 17)  # the floor when nothing newer is needed


@needs_dpkg
def test_built_deb_has_the_desktop_layout(build_deb, tmp_path):
    bundle = _fake_bundle(tmp_path)
    staging = build_deb.stage(bundle, tmp_path / "stage", RESOURCES, "0.0.1", "amd64")
    deb = build_deb.build(staging, tmp_path / "limbic_0.0.1_amd64.deb")
    listing = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True, check=True).stdout
    entries = {}
    for line in listing.splitlines():
        perms, owner, *_rest = line.split()
        name = line.split(" ./", 1)[1]
        entries[name] = (perms, owner)
    assert entries["opt/limbic/limbic"][0] == "-rwxr-xr-x"
    assert "opt/limbic/_internal/vec0.so" in entries
    assert "usr/bin/limbic -> /opt/limbic/limbic" in entries
    assert "usr/share/applications/limbic.desktop" in entries
    assert "usr/share/icons/hicolor/256x256/apps/limbic.png" in entries
    assert "usr/share/icons/hicolor/48x48/apps/limbic.png" in entries
    assert {owner for _perms, owner in entries.values()} == {"root/root"}
    assert not any(perms[5] == "w" or perms[8] == "w" for perms, _ in entries.values() if perms[0] != "l")
    fields = subprocess.run(["dpkg-deb", "-f", str(deb), "Package", "Architecture", "Depends"],
                            capture_output=True, text=True, check=True).stdout
    assert "Package: limbic" in fields and "Architecture: amd64" in fields
    assert "libxcb-cursor0" in fields


def _desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(RESOURCES / "limbic.desktop", encoding="utf-8")
    return parser["Desktop Entry"]


def test_desktop_entry_starts_the_installed_command_with_the_installed_icon(build_deb):
    entry = _desktop_entry()
    assert entry["Type"] == "Application"
    assert entry["Exec"].split()[0] == build_deb.PACKAGE  # /usr/bin/limbic
    assert entry["Icon"] == "limbic"
    assert entry.get("Terminal", "false") == "false"
    sizes = [s for s in build_deb.ICON_SIZES if (RESOURCES / "icons" / f"limbic-{s}.png").is_file()]
    assert 48 in sizes and 256 in sizes  # the sizes menus and docks ask for


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None, reason="needs desktop-file-utils")
def test_desktop_entry_validates():
    result = subprocess.run(["desktop-file-validate", str(RESOURCES / "limbic.desktop")],
                            capture_output=True, text=True)
    errors = [line for line in result.stdout.splitlines() if "error:" in line]
    assert result.returncode == 0 and not errors, result.stdout


def _sparse(path: Path, size: int) -> Path:
    with open(path, "wb") as fh:
        fh.truncate(size)
    return path


def test_size_guard(check_package, tmp_path):
    assert check_package.MAX_DEB_MB == 150
    assert check_package.check_size(_sparse(tmp_path / "small.deb", 149_000_000), 150) == []
    problems = check_package.check_size(_sparse(tmp_path / "big.deb", 151_000_000), 150)
    assert len(problems) == 1 and "151.0 MB" in problems[0]


def test_contents_check_reports_missing_and_excluded_files(check_package, plan, tmp_path):
    bundle = tmp_path / "limbic"
    inside = bundle / "_internal"
    for rel in check_package.REQUIRED:
        (inside / rel).parent.mkdir(parents=True, exist_ok=True)
        (inside / rel).write_bytes(b"x")
    assert check_package.check_contents(bundle) == []
    (inside / plan.MODEL_DEST / "model.onnx").unlink()
    translation = inside / "PySide6" / "Qt" / "translations" / "qtbase_de.qm"
    translation.parent.mkdir(parents=True)
    translation.write_bytes(b"x")
    problems = check_package.check_contents(bundle)
    assert any("missing" in p and "model.onnx" in p for p in problems)
    assert any("qtbase_de.qm" in p for p in problems)
    assert len(problems) == 2


@pytest.mark.skipif(not os.path.exists("/sbin/ldconfig"), reason="needs ldconfig")
def test_linkage_check_reports_a_library_that_is_nowhere(check_package, tmp_path):
    bundle = _fake_bundle(tmp_path)
    assert check_package.check_linkage(bundle, None) == []  # vec0.so needs only libc
    elf = bundle / "_internal" / "vec0.so"
    data = elf.read_bytes()
    # Rename libc's entry in the dynamic string table: the library then resolves nowhere.
    elf.write_bytes(data.replace(b"libc.so.6\0", b"libq.so.6\0", 1))
    problems = check_package.check_linkage(bundle, None)
    assert len(problems) == 1 and "libq.so.6" in problems[0]
