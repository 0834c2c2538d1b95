"""What goes into the PyInstaller bundle: extra files, excluded modules and the Qt parts left out.

Kept apart from ``limbic.spec`` so the choices can be tested without running PyInstaller.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[1]
APP_NAME = "limbic"
# Where ``limbic.engine.vectors.embeddings.default_spec`` looks when frozen (relative to ``sys._MEIPASS``).
# Only the default multilingual model is bundled: with all-MiniLM-L6-v2 as well the .deb would be
# about 154 MB, over its 150 MB budget (see the README). MiniLM stays selectable as a folder.
MODEL_NAME = "multilingual-e5-small"
MODEL_DEST = f"models/{MODEL_NAME}"
# The folder ``make setup`` builds (packaging/models/build_default_model.py).
BUILT_MODEL = ROOT / "models" / MODEL_NAME
MODEL_FILES = ("model.onnx", "tokenizer.json", "limbic_model.json")
RESOURCES_DEST = "resources"
# ``sqlite_vec.loadable_path()`` is ``<folder of sqlite_vec/__init__>/vec0``: the same folder, frozen.
SQLITE_VEC_DEST = "sqlite_vec"

# Python modules never needed at run time; most are pulled in only by optional imports.
EXCLUDED_MODULES = [
    # The MCP SDK is a test dependency (its client checks `limbic mcp`); the server needs none of it.
    "mcp",
    "mcp_types",
    "pydantic",
    "pydantic_core",
    "starlette",
    "sse_starlette",
    "uvicorn",
    "tkinter",
    "unittest",
    "pydoc",
    "pytest",
    "_pytest",
    "pytestqt",
    "hypothesis",
    "setuptools",
    "pip",
    "huggingface_hub",
    "IPython",
    "matplotlib",
    "PIL",
    "scipy",
    "pandas",
    "sympy",
    "onnx",
    "yaml",  # numpy.__config__ prints its build information with it when present
    "onnxruntime.quantization",
    "onnxruntime.tools",
    "onnxruntime.transformers",
    "onnxruntime.training",
    "numpy.f2py",
    # Pulled in by the MCP SDK's client and auth code, which `limbic mcp` never runs (a served session
    # imports none of them): JSON-schema validation of results, JWT, cffi's C parser.
    "jsonschema",
    "jsonschema_specifications",
    "referencing",
    "rpds",
    "jwt",
    "pycparser",
    # Qt modules the app does not use (PySide6-Essentials ships them; their hooks would pull libraries).
    *(
        f"PySide6.{m}"
        for m in (
            "QtNetwork QtQml QtQmlFeatures QtQuick QtQuickControls2 QtQuickTest QtQuickWidgets QtSql QtTest "
            "QtDesigner QtHelp QtUiTools QtXml QtConcurrent QtOpenGL QtOpenGLWidgets QtPrintSupport "
            "QtLabsStyleKit Qt3DCore QtMultimedia QtWebEngineCore QtWebEngineWidgets QtCharts QtDataVisualization "
            "QtPdf QtVirtualKeyboard QtBluetooth QtPositioning QtSerialPort QtSpatialAudio QtTextToSpeech"
        ).split()
    ),
]

# Qt plugins kept, by folder: the rest (eglfs, VNC, virtual keyboard, PDF images, compositor-side
# Wayland, touch input, network, ...) is dropped. Names are file stems without "lib".
KEEP_QT_PLUGINS: dict[str, set[str]] = {
    "platforms": {"qxcb", "qwayland", "qwayland-egl", "qwayland-generic", "qoffscreen", "qwindows", "qcocoa"},
    "platformthemes": {"qxdgdesktopportal"},
    "platforminputcontexts": {"composeplatforminputcontextplugin", "ibusplatforminputcontextplugin"},
    "xcbglintegrations": {"qxcb-egl-integration", "qxcb-glx-integration"},
    "wayland-decoration-client": {"adwaita", "bradient"},
    "wayland-graphics-integration-client": {
        "qt-plugin-wayland-egl",
        "shm-emulation-server",
        "dmabuf-server",
        "drm-egl-server",
    },
    "wayland-shell-integration": {"xdg-shell"},
    "imageformats": {"qsvg", "qico", "qjpeg", "qgif"},
    "iconengines": {"qsvgicon"},
    "styles": {"qmodernwindowsstyle", "qwindowsvistastyle", "qmacstyle"},
}

# Qt shared libraries of modules the app does not use, should a kept plugin not need them either.
DROPPED_QT_LIBS = re.compile(
    r"(lib)?Qt6(Quick|Qml|Pdf|VirtualKeyboard|Network|Sql|Test|Designer|Help|UiTools|Xml|Concurrent|"
    r"OpenGLWidgets|PrintSupport|LabsStyleKit|WaylandCompositor|ShaderTools|Multimedia|WebEngine)\w*",
    re.I,
)
# Windows ships a 20 MB software OpenGL; a widgets app without OpenGL views never loads it.
DROPPED_FILES = {"opengl32sw.dll"}

# Desktop libraries that the Linux system provides (the .deb depends on their packages): using the
# system's copies keeps the bundle small and avoids mixing versions with the running desktop.
SYSTEM_LIBS_LINUX = [
    r"libX11(-xcb)?\.so.*",
    r"libXau\.so.*",
    r"libXdmcp\.so.*",
    r"libxcb-.*\.so.*",
    r"libxkbcommon(-x11)?\.so.*",
    r"libfontconfig\.so.*",
    r"libfreetype\.so.*",
    r"libdbus-1\.so.*",
    r"lib(glib|gthread|gobject|gio|gmodule)-2\.0\.so.*",
]


# macOS: the oldest system the app is declared to run on (``LSMinimumSystemVersion``) is never below
# this floor, and is raised to what the newest-targeted bundled wheel was built for (its
# ``macosx_<major>_<minor>_<arch>`` tag): an older Mac then refuses the app with a sentence instead of
# crashing on a missing symbol.
MACOS_FLOOR = "11.0"
# The bundle identifier and the app's name on macOS.
BUNDLE_ID = "org.limbic.Limbic"


def app_version(pyproject: Path | None = None) -> str:
    """The package version from pyproject.toml's [project] table (what the installers are named after)."""
    text = (pyproject or ROOT / "pyproject.toml").read_text(encoding="utf-8")
    project = re.search(r"^\[project\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    found = re.search(r'^version\s*=\s*"([^"]+)"', project.group(1) if project else "", re.M)
    if not found:
        raise SystemExit("pyproject.toml has no version in its [project] table.")
    return found.group(1)


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def macos_minimum(wheel_tags, floor: str = MACOS_FLOOR) -> str:
    """The highest macOS version any of the wheel tags (``cp311-cp311-macosx_13_0_arm64``...) targets,
    at least ``floor``; tags of other platforms are ignored."""
    best = floor
    for tag in wheel_tags:
        for major, minor in re.findall(r"macosx_(\d+)_(\d+)_", str(tag)):
            found = f"{int(major)}.{int(minor)}"
            if _version_key(found) > _version_key(best):
                best = found
    return best


def installed_wheel_tags() -> list[str]:
    """The ``Tag:`` lines of every installed distribution's WHEEL file (the wheels the bundle is made of)."""
    from importlib import metadata

    tags = []
    for dist in metadata.distributions():
        wheel = dist.read_text("WHEEL") or ""
        tags += [line.split(":", 1)[1].strip() for line in wheel.splitlines() if line.startswith("Tag:")]
    return tags


def macos_info_plist(version: str, minimum: str) -> dict:
    """Info.plist entries of Limbic.app beyond what PyInstaller writes."""
    return {
        "CFBundleName": "Limbic",
        "CFBundleDisplayName": "Limbic",
        "CFBundleShortVersionString": version,
        "CFBundleVersion": version,
        "LSMinimumSystemVersion": minimum,
        "NSHighResolutionCapable": True,
        "LSApplicationCategoryType": "public.app-category.productivity",
    }


def loadable_suffix() -> str:
    """The file suffix SQLite adds to a loadable extension's name on this platform."""
    if sys.platform == "win32":
        return ".dll"
    if sys.platform == "darwin":
        return ".dylib"
    return ".so"


def model_files(folder: Path | None = None) -> list[tuple[str, str]]:
    """The default model's files, as (source, destination folder) pairs; it must be built first."""
    folder = folder or BUILT_MODEL
    missing = [name for name in MODEL_FILES if not (folder / name).is_file()]
    if missing:
        raise SystemExit(f"The default model is not built in {folder} (no {', '.join(missing)}): run `make setup` first.")
    return [(str(folder / name), MODEL_DEST) for name in MODEL_FILES]


def sqlite_vec_binaries() -> list[tuple[str, str]]:
    """sqlite-vec's loadable extension, where ``sqlite_vec.loadable_path()`` will look for it."""
    import sqlite_vec

    return [(sqlite_vec.loadable_path() + loadable_suffix(), SQLITE_VEC_DEST)]


def resource_datas() -> list[tuple[str, str]]:
    """The app's resources folder (icons, stylesheet, sample graph)."""
    return [(str(ROOT / "resources"), RESOURCES_DEST)]


def _parts(dest: str) -> tuple[str, ...]:
    return PurePosixPath(dest.replace("\\", "/")).parts


def plugin_stem(filename: str) -> str:
    """``libqxcb.so`` / ``qwindows.dll`` / ``libqcocoa.dylib`` -> ``qxcb`` / ``qwindows`` / ``qcocoa``."""
    stem = filename.split(".", 1)[0]
    return stem[3:] if stem.startswith("lib") else stem


def keep(dest: str) -> bool:
    """Whether a bundle entry (its destination path) stays in the bundle."""
    parts = _parts(dest)
    if not parts:
        return True
    name = parts[-1]
    if name.lower() in DROPPED_FILES:
        return False
    if parts[0] == "PySide6":
        if "translations" in parts:
            return False
        if "plugins" in parts:
            i = parts.index("plugins")
            if len(parts) > i + 2:
                folder = parts[i + 1]
                return plugin_stem(name) in KEEP_QT_PLUGINS.get(folder, set())
        if DROPPED_QT_LIBS.match(name):
            return False
    return True


def filter_toc(toc):
    """The PyInstaller TOC without the entries ``keep`` rejects."""
    return [entry for entry in toc if keep(entry[0])]


def elf_needed(path: str | Path) -> list[str]:
    """The DT_NEEDED entries of a 64-bit little-endian ELF file (its direct library dependencies)."""
    import struct

    with open(path, "rb") as fh:
        data = fh.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return []
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    needed = []
    for _name, sh_type, _flags, _addr, offset, size, link, _info, _align, entsize in sections:
        if sh_type != 6:  # SHT_DYNAMIC
            continue
        str_offset = sections[link][4]
        for pos in range(offset, offset + size, entsize or 16):
            tag, val = struct.unpack_from("<qQ", data, pos)
            if tag == 0:
                break
            if tag == 1:  # DT_NEEDED
                end = data.index(b"\0", str_offset + val)
                needed.append(data[str_offset + val : end].decode())
    return needed


def prune_unreferenced_libs(binaries, extra_roots=()):
    """Drop top-level libraries no bundled file links to (Linux).

    PyInstaller follows ``ldd``, which lists indirect dependencies too: a library reached only through
    one left to the system (e.g. libpng through libfreetype) would otherwise stay in the bundle.
    """
    entries = list(binaries)
    root_needs = {name for root in extra_roots for name in elf_needed(root)}
    while True:
        needed: set[str] = set(root_needs)
        for dest, src, _kind in entries:
            if ".so" in Path(dest).name:
                needed.update(elf_needed(src))
        orphans = {
            dest
            for dest, _src, _kind in entries
            if "/" not in dest.replace("\\", "/")
            and dest.startswith("lib")
            and ".so" in dest
            and not dest.startswith("libpython")  # loaded by the bootloader, not linked
            and dest not in needed
        }
        if not orphans:
            return entries
        entries = [e for e in entries if e[0] not in orphans]
