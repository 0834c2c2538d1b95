"""Check a built Linux bundle and .deb: contents, library linkage, declared dependencies and size.

Usage: python packaging/check_package.py [--bundle dist/limbic] [--deb dist/limbic_*.deb] [--max-deb-mb 150]
Prints the sizes and exits 1 with one line per problem found.
"""

from __future__ import annotations

import argparse
import glob
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import limbic_bundle_plan as plan  # noqa: E402

ROOT = plan.ROOT
# The multilingual model is most of it: about 70 MB of the .deb (xz). `limbic mcp` speaks the protocol
# itself, so no SDK (and none of its pydantic or web server) is bundled; cryptography is, for sealing the
# sync folder (docs/sync.md).
MAX_DEB_MB = 150
# Files the app needs at run time, relative to the bundle's contents folder (sys._MEIPASS).
REQUIRED = [
    *(f"{plan.MODEL_DEST}/{name}" for name in plan.MODEL_FILES),
    f"{plan.SQLITE_VEC_DEST}/vec0.so",
    f"{plan.RESOURCES_DEST}/sample_graph.jsonl",
    # The window's translations, compiled by `make translations` (Spanish, English's plurals, Qt's own Spanish).
    *(f"{plan.RESOURCES_DEST}/i18n/{name}" for name in ("limbic_es.qm", "limbic_en.qm", "qtbase_es.qm")),
    "PySide6/Qt/plugins/platforms/libqxcb.so",
    "PySide6/Qt/plugins/platforms/libqwayland.so",
    "PySide6/Qt/plugins/platforms/libqoffscreen.so",
]
# glibc's own libraries: libc6 is versioned in Depends from the symbol versions instead.
GLIBC_SONAMES = re.compile(r"(libc|libm|libdl|libpthread|librt|libutil|libresolv|ld-linux[-\w]*)\.so")


def mib(n: int) -> float:
    """Bytes as MiB, for reports."""
    return n / (1 << 20)


def tree_size(folder: Path) -> int:
    """Bytes of the regular files under a folder."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def contents_dir(bundle: Path) -> Path:
    """The folder PyInstaller puts everything but the executable in (``_internal`` since 6.0)."""
    return bundle / "_internal" if (bundle / "_internal").is_dir() else bundle


def check_size(path: Path, max_mb: float) -> list[str]:
    """A problem line when the file is bigger than ``max_mb`` MB (10**6 bytes)."""
    size = path.stat().st_size
    if size > max_mb * 1_000_000:
        return [f"{path.name} is {size / 1e6:.1f} MB, over the {max_mb:g} MB budget"]
    return []


def check_contents(bundle: Path) -> list[str]:
    """Problems with what the bundle holds: required files missing, excluded parts present."""
    inside = contents_dir(bundle)
    problems = [f"missing {rel}" for rel in REQUIRED if not (inside / rel).is_file()]
    for path in inside.rglob("*"):
        rel = path.relative_to(inside).as_posix()
        if path.is_file() and not plan.keep(rel):
            problems.append(f"excluded by the plan but bundled: {rel}")
    return problems


def system_library_paths() -> dict[str, str]:
    """Soname -> path of the libraries the dynamic loader knows (``ldconfig -p``)."""
    out = subprocess.run(["/sbin/ldconfig", "-p"], capture_output=True, text=True, check=True).stdout
    found: dict[str, str] = {}
    for m in re.finditer(r"^\s*(\S+) \([^)]*\) => (\S+)$", out, re.M):
        found.setdefault(m.group(1), m.group(2))
    return found


def owning_packages(paths) -> dict[str, str]:
    """File path -> the Debian package that installed it, for those dpkg knows (one dpkg call)."""
    paths = list(paths)
    queries = sorted({q for p in paths for q in (p, str(Path(p).resolve()))})
    if not queries:
        return {}
    out = subprocess.run(["dpkg", "-S", *queries], capture_output=True, text=True).stdout
    owners: dict[str, str] = {}
    for line in out.splitlines():
        pkgs, _, path = line.partition(": ")
        if path:
            owners[path.strip()] = pkgs.split(",")[0].split(":")[0].strip()
    found = {}
    for p in paths:
        pkg = owners.get(p) or owners.get(str(Path(p).resolve()))
        if pkg:
            found[p] = pkg
    return found


def depends_names(depends: str) -> set[str]:
    """Package names in a Depends field, alternatives included, versions dropped."""
    return {alt.split("(")[0].strip() for clause in depends.split(",") for alt in clause.split("|") if alt.strip()}


def check_linkage(bundle: Path, depends: str | None) -> list[str]:
    """Every linked library resolves in the bundle or on the system, and the .deb depends on its package."""
    bundled = {p.name for p in bundle.rglob("*")}
    system = system_library_paths()
    declared = depends_names(depends) if depends is not None else None
    problems: list[str] = []
    from_system: dict[str, str] = {}  # soname -> path, for the libraries the system provides
    for path in sorted(bundle.rglob("*")):
        if not path.is_file() or path.is_symlink():
            continue
        with open(path, "rb") as fh:
            if fh.read(4) != b"\x7fELF":
                continue
        for name in plan.elf_needed(path):
            if name in bundled or name in from_system:
                continue
            where = system.get(name)
            if where is None:
                problems.append(f"{name} (needed by {path.relative_to(bundle)}) is neither bundled nor installed")
                bundled.add(name)  # report it once
                continue
            from_system[name] = where
    if declared is None:
        return problems
    owners = owning_packages(from_system.values())
    for name, where in sorted(from_system.items()):
        if GLIBC_SONAMES.match(name):
            continue
        pkg = owners.get(where)
        if pkg is None:
            problems.append(f"{name} ({where}) belongs to no package")
        elif pkg not in declared:
            problems.append(f"{name} comes from {pkg}, which the .deb does not depend on")
    return problems


def deb_field(deb: Path, field: str) -> str:
    """One field of a .deb's control file."""
    return subprocess.run(["dpkg-deb", "-f", str(deb), field], capture_output=True, text=True, check=True).stdout.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bundle", default=str(ROOT / "dist" / plan.APP_NAME))
    parser.add_argument("--deb", help="the .deb (default: the one in dist/)")
    parser.add_argument("--max-deb-mb", type=float, default=MAX_DEB_MB)
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)  # keep the report and the problems in order
    bundle = Path(args.bundle)
    debs = [Path(args.deb)] if args.deb else [Path(p) for p in sorted(glob.glob(str(ROOT / "dist" / "limbic_*.deb")))]
    problems = check_contents(bundle)
    depends = None
    print(f"bundle   {bundle}: {mib(tree_size(bundle)):.1f} MiB")
    for deb in debs:
        depends = deb_field(deb, "Depends")
        print(f"deb      {deb.name}: {deb.stat().st_size / 1e6:.1f} MB (budget {args.max_deb_mb:g} MB), "
              f"installed {int(deb_field(deb, 'Installed-Size')) / 1024:.1f} MiB")
        problems += check_size(deb, args.max_deb_mb)
    for tarball in sorted((ROOT / "dist").glob("limbic-*.tar.gz")):
        print(f"tarball  {tarball.name}: {tarball.stat().st_size / 1e6:.1f} MB")
    problems += check_linkage(bundle, depends)
    for p in problems:
        print(f"check_package: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
