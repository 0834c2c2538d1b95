"""Where a live graph file must not be: a folder a cloud client syncs, a network file system, a packaged app's AppData.

- OneDrive, iCloud Drive, Dropbox, Google Drive (and any client under macOS' ~/Library/CloudStorage): the client uploads the file while SQLite writes it and
  its write-ahead log, and can bring back an older copy or a "conflicted copy" beside it. Limbic's own sync
  (docs/sync.md) is made for such folders; the live graph belongs outside them. Known by the folder names
  the clients use.
- A network file system (NFS, SMB/CIFS, SSHFS, WebDAV...): SQLite's write-ahead log needs memory shared
  between the programs on the file, which a network file system does not give, and its locks are not
  reliable there. Known on Linux by the mount's type (/proc/self/mountinfo), on Windows by a UNC path or a
  network drive.
- A Windows app from the Microsoft Store (MSIX; Claude Desktop is one) starts its MCP servers inside its
  package, and Windows keeps what they write under AppData in a private copy only that app sees: the
  assistant's changes to a graph there never reach the Limbic app.

The first two are warned about (the app's status bar, the CLI's standard error, `limbic mcp`'s log); the
third is refused by `limbic mcp` with a sentence naming the fix. Standard library only.
"""

from __future__ import annotations

import ntpath
import os
import sys
from pathlib import Path, PurePath

MOUNTINFO = "/proc/self/mountinfo"
# Mount types whose files live on another computer (Linux names; fuse.* are FUSE file systems).
NETWORK_TYPES = {
    "nfs", "nfs4", "cifs", "smb", "smb2", "smb3", "smbfs", "ncpfs", "afs", "9p", "ceph", "glusterfs", "lustre",
    "gpfs", "beegfs", "davfs", "fuse.sshfs", "fuse.rclone", "fuse.gcsfuse", "fuse.s3fs", "fuse.davfs2",
    "fuse.glusterfs", "fuse.cephfs", "fuse.smbnetfs", "fuse.curlftpfs",
}


def _cloud_of(part: str) -> str | None:
    """The cloud client whose folder a path part names (as the clients name their folders), if any."""
    name = part.casefold()
    if name == "onedrive" or name.startswith(("onedrive - ", "onedrive-")):
        return "OneDrive"
    if name in ("icloud drive", "iclouddrive", "com~apple~clouddocs", "mobile documents"):
        return "iCloud Drive"
    if name == "dropbox" or name.startswith("dropbox ("):
        return "Dropbox"
    if name in ("google drive", "googledrive", "my drive") or name.startswith("googledrive-"):
        return "Google Drive"
    if name == "box sync" or name.startswith("box-"):
        return "Box"
    return None


def cloud_folder(path: str | os.PathLike) -> str | None:
    """The cloud client (OneDrive, iCloud Drive, Dropbox, Google Drive...) whose folder holds ``path``, if any."""
    parts = PurePath(os.path.abspath(os.fspath(path))).parts[:-1]
    for i, part in enumerate(parts):
        found = _cloud_of(part)
        if found:
            return found
        if part.casefold() == "cloudstorage" and i + 1 < len(parts) and i > 0 and parts[i - 1].casefold() == "library":
            return _cloud_of(parts[i + 1]) or parts[i + 1].split("-")[0]  # macOS: every cloud client's folder
    return None


def _unescape(field: str) -> str:
    """A mountinfo path: spaces, tabs, newlines and backslashes are written as octal escapes."""
    return field.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\")


def mount_type(path: str | os.PathLike, mountinfo: str | None = None) -> str | None:
    """The file system type of the mount holding ``path`` (Linux), or None where it cannot be read."""
    try:
        with open(mountinfo or MOUNTINFO, encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return None
    real = os.path.realpath(os.fspath(path))
    best, kind = -1, None
    for line in lines:
        head, sep, tail = line.partition(" - ")
        fields = head.split()
        if not sep or len(fields) < 5 or not tail.split():
            continue
        point = _unescape(fields[4])
        inside = real == point or real.startswith(point.rstrip("/") + "/")
        if inside and len(point) > best:  # the deepest mount holding the path (a later one over it wins)
            best, kind = len(point), tail.split()[0]
    return kind


def _windows_network_drive(path: str) -> bool:
    """A path on a network share (UNC) or a drive letter mapped to one (Windows)."""
    if path.startswith(("\\\\", "//")) and not path.startswith(("\\\\?\\", "\\\\.\\")):
        return True
    drive = ntpath.splitdrive(path if ntpath.isabs(path) else os.path.abspath(path))[0]
    if len(drive) != 2:
        return False
    import ctypes

    DRIVE_REMOTE = 4
    return ctypes.windll.kernel32.GetDriveTypeW(drive + "\\") == DRIVE_REMOTE  # type: ignore[attr-defined]


def network_file_system(path: str | os.PathLike) -> str | None:
    """The network file system holding ``path`` (its type, or "a network share"), if it is on one."""
    if sys.platform == "win32":
        try:
            return "a network share" if _windows_network_drive(os.fspath(path)) else None
        except (OSError, AttributeError, ValueError):
            return None
    kind = mount_type(os.path.abspath(os.fspath(path)))
    if kind and (kind in NETWORK_TYPES or kind.split(".")[-1] in NETWORK_TYPES):
        return kind
    return None


def place_warning(path: str | os.PathLike) -> str | None:
    """One sentence when the live graph file ``path`` sits where it can be damaged or lost, else None."""
    cloud = cloud_folder(path)
    if cloud:
        return (f"{path} is in a {cloud} folder: {cloud} copies the graph file while Limbic writes it and can "
                "leave a damaged or conflicting copy. Keep the live graph outside it (to share it between devices, "
                "put only the sync folder there: File → Sync…, or limbic sync --folder).")
    network = network_file_system(path)
    if network:
        return (f"{path} is on a network file system ({network}), where SQLite's write-ahead log and locks do not "
                "hold: two programs on it can damage the graph. Keep the live graph on this computer's own disk.")
    return None


def _package_name() -> str | None:
    """The MSIX package this process runs in (Windows), or None."""
    if sys.platform != "win32":
        return None
    try:
        import ctypes

        length = ctypes.c_uint32(0)
        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
        ERROR_INSUFFICIENT_BUFFER = 122  # a package, whose name needs a buffer; an ordinary process gets 15700
        if kernel32.GetCurrentPackageFullName(ctypes.byref(length), None) != ERROR_INSUFFICIENT_BUFFER:
            return None
        buffer = ctypes.create_unicode_buffer(length.value)
        if kernel32.GetCurrentPackageFullName(ctypes.byref(length), buffer) != 0:
            return None
        return buffer.value
    except (OSError, AttributeError, ValueError):
        return None


def packaged_app() -> str | None:
    """The Microsoft Store (MSIX) package this process runs inside, or None.

    Known by the package identity Windows gives it, or by an AppData that points into a package's own
    folder (``...\\AppData\\Local\\Packages\\<name>\\...``)."""
    name = _package_name()
    if name:
        return name
    for var in ("LOCALAPPDATA", "APPDATA"):
        parts = [p.casefold() for p in PurePath(os.environ.get(var, "")).parts]
        if "packages" in parts and parts.index("packages") + 1 < len(parts) and "appdata" in parts:
            return PurePath(os.environ[var]).parts[parts.index("packages") + 1]
    return None


def _appdata_folders() -> list[Path]:
    folders = []
    for var in ("APPDATA", "LOCALAPPDATA"):
        value = os.environ.get(var)
        if value:
            folders.append(Path(value))
    home = Path(os.environ.get("USERPROFILE") or Path.home())
    folders.append(home / "AppData")
    return folders


def _under(path: Path, folder: Path) -> bool:
    a = os.path.normcase(os.path.abspath(path)).casefold()
    b = os.path.normcase(os.path.abspath(folder)).casefold().rstrip("\\/")
    return a == b or a.startswith(b + "\\") or a.startswith(b + "/")


def redirected_graph(path: str | os.PathLike) -> str | None:
    """When this process runs inside a Microsoft Store app and ``path`` is under AppData: the sentence that
    refuses to serve it, naming the fix. None otherwise."""
    package = packaged_app()
    if not package:
        return None
    if not any(_under(Path(path), folder) for folder in _appdata_folders()):
        return None
    return (f"limbic mcp runs inside the Microsoft Store app {package.split('_')[0]}, and Windows keeps what such "
            f"an app writes under AppData in a private copy no other program sees: the assistant's changes to "
            f"{path} would never reach the Limbic app. Keep the graph outside AppData (for example in Documents: "
            "move the file there while no Limbic program has it open, then open it with the app's File → Open) and "
            "give its absolute path in the assistant's settings, "
            '"args": ["mcp", "--db", "C:\\\\Users\\\\you\\\\Documents\\\\Limbic\\\\limbic.db"], or set LIMBIC_DB to '
            "it; nothing was served.")


def redirected_settings(data_folder: str | os.PathLike) -> str | None:
    """When this process runs inside a Microsoft Store app and Limbic's data folder (settings, sync locks) is
    under AppData: why it must not sync (its record of the graph's device and its lock would be private, so the
    app and this server would publish one file's changes as two devices at once). None otherwise."""
    package = packaged_app()
    if not package or not any(_under(Path(data_folder), folder) for folder in _appdata_folders()):
        return None
    return (f"sync is off in this server: it runs inside the Microsoft Store app {package.split('_')[0]}, where "
            f"Windows keeps what it writes under AppData ({data_folder}: the device this graph syncs as, the sync "
            "lock) in a private copy the Limbic app never sees. The app syncs the graph; to sync from the server "
            "too, set LIMBIC_HOME to a folder outside AppData for both the app and the server.")
