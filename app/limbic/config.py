"""Paths and settings: one place that knows where files live and what the user chose."""

from __future__ import annotations

import json
import logging
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from limbic import osfiles
logger = logging.getLogger(__name__)

APP_NAME = "Limbic"
SETTINGS_VERSION = 1
DB_FILENAME = "limbic.db"


def data_dir() -> Path:
    """The user data folder (``LIMBIC_HOME`` overrides it, for tests and portable use)."""
    home = os.environ.get("LIMBIC_HOME")
    path = Path(home) if home else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    return path


def log_dir() -> Path:
    """Where the rotating log file goes."""
    home = os.environ.get("LIMBIC_HOME")
    if home:
        return Path(home) / "logs"
    return Path(platformdirs.user_log_dir(APP_NAME, appauthor=False))


def cache_dir() -> Path:
    """Where data that can be rebuilt is kept (evaluation graphs)."""
    home = os.environ.get("LIMBIC_HOME")
    if home:
        return Path(home) / "cache"
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def backup_dir(db_path: Path) -> Path:
    """Where rolling backups of a database are kept: beside it (the real file, not a link to it), in a hidden folder."""
    if db_path.is_symlink():
        db_path = Path(os.path.realpath(db_path))
    return db_path.parent / f".{db_path.name}.backups"


def default_db_path() -> Path:
    """The database used when no ``--db`` is given: ``LIMBIC_DB`` or the user data folder."""
    env = os.environ.get("LIMBIC_DB")
    if env:
        return Path(env).expanduser()
    settings = load_settings()
    if settings.db_path:
        return Path(settings.db_path).expanduser()
    return data_dir() / DB_FILENAME


def resources_dir() -> Path:
    """The folder of bundled resources (sample graph, icons, stylesheet)."""
    env = os.environ.get("LIMBIC_RESOURCES")
    if env:
        return Path(env)
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen) / "resources"
    packaged = Path(__file__).resolve().parent / "_data" / "resources"  # an installed wheel (setup.py)
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "resources"


THEMES = ("system", "light", "dark")
LANGUAGES = ("system", "en", "es")


@dataclass
class Settings:
    """What the user chose in the settings dialog; stored as JSON with a version."""

    version: int = SETTINGS_VERSION
    db_path: str | None = None
    model_dir: str | None = None
    scoring: dict[str, float] = field(default_factory=dict)
    recent_dbs: list[str] = field(default_factory=list)
    theme: str = "system"  # one of THEMES
    last_folder: str | None = None  # where the last file dialog ended; the next one starts there
    zoom: int = 100  # text size, percent of the system's (View → Zoom)
    language: str = "system"  # one of LANGUAGES: the system's, English or Spanish (applied on the next start)
    # Sync (docs/sync.md): this machine's name for other devices; per graph file (by its resolved
    # path) the device id it syncs as and the folder it syncs through. Never in the graph file, so a
    # copy of the file elsewhere is another device.
    sync_device_name: str | None = None
    sync_devices: dict[str, str] = field(default_factory=dict)
    sync_folders: dict[str, str] = field(default_factory=dict)
    # Per graph file (by its resolved path): when it was last opened here (UTC), so "what changed since
    # I last opened this graph" has a date to start from.
    last_opened: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "db_path": self.db_path,
            "model_dir": self.model_dir,
            "scoring": dict(self.scoring),
            "recent_dbs": list(self.recent_dbs),
            "theme": self.theme,
            "last_folder": self.last_folder,
            "zoom": self.zoom,
            "language": self.language,
            "sync_device_name": self.sync_device_name,
            "sync_devices": dict(self.sync_devices),
            "sync_folders": dict(self.sync_folders),
            "last_opened": dict(self.last_opened),
        }


def settings_path() -> Path:
    return data_dir() / "settings.json"


def _migrate(raw: dict[str, Any]) -> dict[str, Any]:
    """Bring an older settings file up to SETTINGS_VERSION."""
    version = int(raw.get("version", 0))
    if version < 1:
        raw.setdefault("scoring", {})
        raw["version"] = 1
    return raw


def load_settings() -> Settings:
    """Read the settings; a missing or unreadable file gives the defaults."""
    path = settings_path()
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(raw, dict):
            raise ValueError("not an object")
    except FileNotFoundError:
        return Settings()
    except (OSError, ValueError) as exc:
        logger.warning("ignoring unreadable settings %s: %s", path, exc)
        return Settings()
    raw = _migrate(raw)
    scoring = raw.get("scoring") or {}
    return Settings(
        version=SETTINGS_VERSION,
        db_path=raw.get("db_path") or None,
        model_dir=raw.get("model_dir") or None,
        scoring={k: float(v) for k, v in scoring.items() if isinstance(v, (int, float))},
        recent_dbs=[str(p) for p in raw.get("recent_dbs") or []],
        theme=raw.get("theme") if raw.get("theme") in THEMES else "system",
        last_folder=raw.get("last_folder") if isinstance(raw.get("last_folder"), str) else None,
        zoom=int(raw["zoom"]) if isinstance(raw.get("zoom"), (int, float)) and 50 <= raw["zoom"] <= 300 else 100,
        language=raw.get("language") if raw.get("language") in LANGUAGES else "system",
        sync_device_name=raw.get("sync_device_name") if isinstance(raw.get("sync_device_name"), str) else None,
        sync_devices=_str_map(raw.get("sync_devices")),
        sync_folders=_str_map(raw.get("sync_folders")),
        last_opened=_str_map(raw.get("last_opened")),
    )


def _str_map(value: Any) -> dict[str, str]:
    """A mapping of strings from the settings file; anything else in it is left out."""
    if not isinstance(value, dict):
        return {}
    return {str(k): v for k, v in value.items() if isinstance(v, str)}


def save_settings(settings: Settings) -> None:
    """Write the settings atomically (write a temporary file, then rename)."""
    path = settings_path()
    _keep_newest_openings(settings, path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(settings.to_json(), indent=2), encoding="utf-8")
    osfiles.replace(tmp, path)  # the other Limbic process or a sync client may hold it for a moment


def _keep_newest_openings(settings: Settings, path: Path) -> None:
    """Each file's latest opening wins over an older copy of the settings being saved.

    The window notes an opening while other parts hold settings read earlier (the folder of the
    last file dialog, the zoom, the settings dialog); saving one of them must not bring back the
    previous opening time.
    """
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if isinstance(raw, dict):
        for key, at in _str_map(raw.get("last_opened")).items():
            if at > settings.last_opened.get(key, ""):
                settings.last_opened[key] = at


def new_graph_note(path: Path) -> str:
    """For a graph file in a folder that does not exist yet: one sentence saying a new graph is made there."""
    if path.exists() or path.parent.exists():
        return ""
    return f"The folder {path.parent} does not exist: creating it with a new graph {path.name} in it."


def model_dir_override() -> Path | None:
    """A model folder chosen by ``LIMBIC_MODEL_DIR`` or the settings, if any."""
    env = os.environ.get("LIMBIC_MODEL_DIR")
    if env:
        return Path(env).expanduser()
    chosen = load_settings().model_dir
    return Path(chosen).expanduser() if chosen else None
