"""Build limbic_<version>_<arch>.deb from the PyInstaller one-folder bundle with dpkg-deb.

Usage: python packaging/build_deb.py [--bundle dist/limbic] [--out dist]

Layout: the bundle under /opt/limbic, /usr/bin/limbic -> /opt/limbic/limbic, the .desktop file and
the hicolor icons from resources/. Installing refreshes the menu and icon caches through the
triggers of desktop-file-utils and hicolor-icon-theme, so there are no maintainer scripts.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "limbic"
INSTALL_DIR = "opt/limbic"
MAINTAINER = "Limbic maintainers <limbic@users.noreply.github.com>"
HOMEPAGE = "https://github.com/limbic-kg/limbic"
SUMMARY = "personal knowledge graph with local hybrid search"
DESCRIPTION = """\
 Limbic keeps entities, observations and typed relations in one local file
 and finds them again with a hybrid search (full text and meaning, with a
 bundled embedding model), re-ranked by how the graph is used. Everything
 runs offline."""

# The system libraries the bundle links to (see SYSTEM_LIBS_LINUX in limbic_bundle_plan.py) and those
# Qt's xcb, Wayland and GL plugins load. Names valid on Debian 12+ and Ubuntu 22.04+.
DEPENDS = [
    "libegl1",
    "libgl1",
    "libfontconfig1",
    "libfreetype6",
    "libdbus-1-3",
    "libglib2.0-0t64 | libglib2.0-0",
    "libx11-6",
    "libx11-xcb1",
    "libxcb1",
    "libxcb-cursor0",
    "libxcb-glx0",
    "libxcb-icccm4",
    "libxcb-image0",
    "libxcb-keysyms1",
    "libxcb-randr0",
    "libxcb-render0",
    "libxcb-render-util0",
    "libxcb-shape0",
    "libxcb-shm0",
    "libxcb-sync1",
    "libxcb-util1",
    "libxcb-xfixes0",
    "libxcb-xkb1",
    "libxkbcommon0",
    "libxkbcommon-x11-0",
    "libwayland-client0",
    "libwayland-cursor0",
    "libwayland-egl1",
]
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
_GLIBC = re.compile(rb"GLIBC_(\d+)\.(\d+)(?:\.(\d+))?\x00")


def project_version() -> str:
    """The version in pyproject.toml, which is the package's version."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    return re.search(r'^version\s*=\s*"([^"]+)"', text, re.M).group(1)


def deb_architecture() -> str:
    """The Debian name of this machine's architecture (amd64, arm64, ...)."""
    return subprocess.run(["dpkg", "--print-architecture"], check=True, capture_output=True, text=True).stdout.strip()


def elf_files(folder: Path):
    """The ELF files (executables and shared libraries) under a folder, symlinks skipped."""
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            with open(path, "rb") as fh:
                if fh.read(4) == b"\x7fELF":
                    yield path


def min_glibc(bundle: Path) -> tuple[int, ...]:
    """The newest GLIBC symbol version any bundled binary requires: the floor for libc6."""
    newest: tuple[int, ...] = (2, 17)
    for path in elf_files(bundle):
        for m in _GLIBC.finditer(path.read_bytes()):
            version = tuple(int(g) for g in m.groups() if g is not None)
            newest = max(newest, version)
    return newest


def dir_size_kib(folder: Path) -> int:
    """Disk use in KiB as dpkg counts it for Installed-Size (regular files, rounded up per file)."""
    total = 0
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            total += (path.stat().st_size + 1023) // 1024
    return total


def control_text(version: str, arch: str, installed_kib: int, glibc: tuple[int, ...]) -> str:
    """The DEBIAN/control file."""
    depends = [f"libc6 (>= {'.'.join(map(str, glibc))})", *DEPENDS]
    return (
        f"Package: {PACKAGE}\n"
        f"Version: {version}\n"
        f"Architecture: {arch}\n"
        f"Maintainer: {MAINTAINER}\n"
        f"Installed-Size: {installed_kib}\n"
        f"Depends: {', '.join(depends)}\n"
        "Section: utils\n"
        "Priority: optional\n"
        f"Homepage: {HOMEPAGE}\n"
        f"Description: {SUMMARY}\n"
        f"{DESCRIPTION}\n"
    )


def stage(bundle: Path, staging: Path, resources: Path, version: str, arch: str) -> Path:
    """Lay out the package tree under ``staging`` and return it."""
    if staging.exists():
        shutil.rmtree(staging)
    opt = staging / INSTALL_DIR
    shutil.copytree(bundle, opt, symlinks=True)
    (staging / "usr/bin").mkdir(parents=True)
    (staging / "usr/bin" / PACKAGE).symlink_to(f"/{INSTALL_DIR}/{PACKAGE}")

    apps = staging / "usr/share/applications"
    apps.mkdir(parents=True)
    shutil.copy2(resources / "limbic.desktop", apps / "limbic.desktop")
    icons = resources / "icons"
    for size in ICON_SIZES:
        src = icons / f"limbic-{size}.png"
        if src.is_file():
            dest = staging / f"usr/share/icons/hicolor/{size}x{size}/apps/limbic.png"
            dest.parent.mkdir(parents=True)
            shutil.copy2(src, dest)
    if (icons / "limbic.svg").is_file():
        dest = staging / "usr/share/icons/hicolor/scalable/apps/limbic.svg"
        dest.parent.mkdir(parents=True)
        shutil.copy2(icons / "limbic.svg", dest)

    doc = staging / "usr/share/doc" / PACKAGE
    doc.mkdir(parents=True)
    (doc / "copyright").write_text(
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
        f"Upstream-Name: limbic\nSource: {HOMEPAGE}\n\n"
        "Files: *\nLicense: Apache-2.0\n"
        " The bundled third-party components keep their own licences; see /opt/limbic/_internal.\n",
        encoding="utf-8",
    )

    for path in staging.rglob("*"):  # a package's tree is root-owned and not group/world writable
        if not path.is_symlink():
            path.chmod(path.stat().st_mode & ~0o022)
    debian = staging / "DEBIAN"
    debian.mkdir(mode=0o755)
    installed = dir_size_kib(staging)
    (debian / "control").write_text(control_text(version, arch, installed, min_glibc(bundle)), encoding="utf-8")
    return staging


def build(staging: Path, out: Path) -> Path:
    """Run dpkg-deb on a staged tree."""
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zxz", "--build", str(staging), str(out)], check=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bundle", default=str(ROOT / "dist" / PACKAGE), help="the one-folder bundle")
    parser.add_argument("--resources", default=str(ROOT / "resources"))
    parser.add_argument("--out", default=str(ROOT / "dist"), help="where the .deb goes")
    parser.add_argument("--work", default=str(ROOT / "build" / "deb"), help="staging folder")
    args = parser.parse_args(argv)
    bundle = Path(args.bundle)
    if not (bundle / PACKAGE).is_file():
        print(f"build_deb: no bundle at {bundle} (run PyInstaller first)", file=sys.stderr)
        return 1
    version, arch = project_version(), deb_architecture()
    staging = stage(bundle, Path(args.work) / f"{PACKAGE}_{version}_{arch}", Path(args.resources), version, arch)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    deb = build(staging, out / f"{PACKAGE}_{version}_{arch}.deb")
    print(deb)
    return 0


if __name__ == "__main__":
    sys.exit(main())
