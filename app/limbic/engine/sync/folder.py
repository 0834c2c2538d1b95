"""The sync folder: ``<folder>/Limbic/<graph id>/<device id>/``, each device writing only its own.

A segment is JSON lines (a header, then one change a line), written to a hidden temporary name,
flushed to disk, then renamed to ``<sequence>-<sha256, 16 hex>.seg``: a reader takes a file only
when its name has that form and its bytes have that checksum, so a partial or damaged copy is never
read, only named (``limbic sync --status``) and looked at again next time. The sync tools' own
files (temporary, conflicted copies, cloud placeholders) are skipped the same way.

A scan is given what the graph file already knows (``known``: per device, the last sequence it
applied, or published for this device): a file at or below that sequence is listed by its name
and never opened, so an exchange reads only what is new, however long the folder's history (on a
cloud or network folder, opening a file can mean fetching it). A snapshot listed that way is
checked when it is about to be used (``checksum_ok``).
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from limbic.engine.sync.state import norm_change

SEGMENT_RE = re.compile(r"^(\d{6,})-([0-9a-f]{16})\.seg(\.gz)?$")
SNAPSHOT_RE = re.compile(r"^snapshot-(\d{6,})-([0-9a-f]{16})\.db$")
# What file-sync tools leave beside the files they carry; each is skipped and named.
_TOOL_FILES = (
    (re.compile(r"^\.syncthing\..*\.tmp$"), "a file Syncthing is still receiving"),
    (re.compile(r"^~\$"), "a temporary file of a sync tool"),
    (re.compile(r"\.partial$"), "a partly downloaded file"),
    (re.compile(r"conflicted copy", re.I), "a conflicted copy made by a sync tool"),
    (re.compile(r"\.sync-conflict-"), "a conflicted copy made by Syncthing"),
    (re.compile(r"\.icloud$"), "a cloud placeholder not downloaded yet"),
)
TEMP_PREFIX = ".limbic-"  # our own temporary names: hidden, never read
DEVICE_FILE = "device.json"


def graph_dir(folder: Path, graph_id: str) -> Path:
    return Path(folder) / "Limbic" / graph_id


def device_dir(folder: Path, graph_id: str, device_id: str) -> Path:
    return graph_dir(folder, graph_id) / device_id


@dataclass
class Segment:
    """A complete segment of one device: its sequence, file, header and changes."""

    device: str
    seq: int
    path: Path
    header: dict
    changes: list[dict]


@dataclass
class Skipped:
    path: Path
    why: str


@dataclass
class DeviceFiles:
    """What one device's folder holds: its complete segments by sequence, snapshots, and what was skipped."""

    device: str
    segments: dict[int, Path] = field(default_factory=dict)
    snapshots: dict[int, Path] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)
    name: str = ""
    unchecked: set[str] = field(default_factory=set)  # names listed only (known here already), never opened


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_atomic(directory: Path, final_name_of, data: bytes) -> Path:
    """Write ``data`` under a hidden temporary name, flush it to disk, rename it to ``final_name_of(digest)``."""
    directory.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(data).hexdigest()[:16]
    final = directory / final_name_of(digest)
    tmp = directory / f"{TEMP_PREFIX}{os.getpid()}-{final.name}"
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, final)
    _fsync_dir(directory)
    return final


def encode(header: dict, changes: list[dict], compress: bool = False) -> bytes:
    lines = [json.dumps(header, ensure_ascii=False, separators=(",", ":"), sort_keys=True)]
    lines += [json.dumps(c, ensure_ascii=False, separators=(",", ":"), sort_keys=True) for c in changes]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    return gzip.compress(data, mtime=0) if compress else data


def write_segment(directory: Path, seq: int, header: dict, changes: list[dict], compress: bool = False) -> Path:
    """Write one segment of this device's folder; returns its path."""
    data = encode(header, changes, compress)
    suffix = ".seg.gz" if compress else ".seg"
    return write_atomic(directory, lambda digest: f"{seq:06d}-{digest}{suffix}", data)


def write_device_file(directory: Path, info: dict) -> None:
    """The device's name and schema, beside its segments (rewritten atomically when it changes)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / DEVICE_FILE
    data = json.dumps(info, sort_keys=True).encode()
    with contextlib.suppress(OSError):
        if path.read_bytes() == data:
            return
    tmp = directory / f"{TEMP_PREFIX}{os.getpid()}-{DEVICE_FILE}"
    tmp.write_bytes(data)
    os.replace(tmp, path)


# Files whose checksum matched, by path, with the size and modification time they had then: a file
# changes neither without being written again, so an exchange does not read every segment and the
# whole snapshot (hundreds of megabytes) again each time it looks at the folder.
_VERIFIED: dict[str, tuple[int, int, int, int]] = {}


def _checksum_matches(entry: os.DirEntry | Path, digest: str) -> bool:
    path = os.fspath(entry.path if isinstance(entry, os.DirEntry) else entry)
    info = entry.stat()
    key = (info.st_size, info.st_mtime_ns, info.st_ino, info.st_ctime_ns)
    if _VERIFIED.get(path) == key:
        return True
    sha = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            sha.update(block)
    if sha.hexdigest()[:16] != digest:
        return False
    if len(_VERIFIED) > 10_000:
        _VERIFIED.clear()
    _VERIFIED[path] = key
    return True


def checksum_ok(path: Path) -> bool:
    """Whether a segment's or snapshot's bytes match the checksum in its name (a file listed unchecked)."""
    match = SEGMENT_RE.match(path.name) or SNAPSHOT_RE.match(path.name)
    try:
        return match is not None and _checksum_matches(Path(path), match.group(2))
    except OSError:
        return False


def _skip_reason(name: str) -> str | None:
    for pattern, why in _TOOL_FILES:
        if pattern.search(name):
            return why
    return None


def scan_device(directory: Path, known: int = 0) -> DeviceFiles:
    """The complete segments and snapshots in one device's folder; everything else named as skipped.

    Files of a sequence up to ``known`` (already applied or published here) are listed by name, unopened."""
    out = DeviceFiles(directory.name)
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        return out
    for entry in entries:
        name = entry.name
        if name == DEVICE_FILE:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                out.name = str(json.loads(Path(entry.path).read_text("utf-8")).get("name") or "")
            continue
        if name.startswith(TEMP_PREFIX):
            continue  # a segment being written (or left by a writer that stopped): never read
        path = Path(entry.path)
        match = SEGMENT_RE.match(name) or SNAPSHOT_RE.match(name)  # no sync tool's file has such a name
        if match is None:
            out.skipped.append(Skipped(path, _skip_reason(name) or "not a file Limbic writes"))
            continue
        seq, digest = int(match.group(1)), match.group(2)
        if seq <= known:
            out.unchecked.add(name)  # applied or published here already: listed, not opened
        else:
            try:
                whole = _checksum_matches(entry, digest)
            except OSError:
                out.skipped.append(Skipped(path, "unreadable"))
                continue
            if not whole:
                out.skipped.append(Skipped(path, "incomplete (its checksum does not match yet)"))
                continue
        target = out.snapshots if name.startswith("snapshot-") else out.segments
        if seq in target:  # one writer never writes two; keep one, the same on every device
            keep = min(target[seq], path, key=lambda p: p.name)
            out.skipped.append(Skipped(path if keep != path else target[seq], f"a second segment {seq}"))
            target[seq] = keep
        else:
            target[seq] = path
    return out


def devices(folder: Path, graph_id: str) -> list[str]:
    """The ids of the devices with a folder in this graph's (nothing inside them is read)."""
    try:
        entries = os.scandir(graph_dir(folder, graph_id))
    except OSError:
        return []
    with entries:
        return sorted(e.name for e in entries if not e.name.startswith(".") and e.is_dir())


def scan(folder: Path, graph_id: str, known: dict[str, int] | None = None) -> dict[str, DeviceFiles]:
    """Every device's folder of this graph (``known``: per device, the sequence up to which files are not opened)."""
    root = graph_dir(folder, graph_id)
    return {dev: scan_device(root / dev, (known or {}).get(dev, 0)) for dev in devices(folder, graph_id)}


def read_segment(device: str, seq: int, path: Path) -> Segment:
    """Parse a complete segment (its checksum was checked by ``scan``)."""
    data = path.read_bytes()
    if path.name.endswith(".gz"):
        data = gzip.decompress(data)
    lines = data.decode("utf-8").splitlines()
    header = json.loads(lines[0]) if lines else {}
    return Segment(device, seq, path, header, [norm_change(json.loads(line)) for line in lines[1:] if line.strip()])
