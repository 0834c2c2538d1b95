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
import hashlib
import json
import os
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from limbic import osfiles
from limbic.engine.sync.seal import MAGIC, Sealer, SealError
from limbic.engine.sync.state import norm_change

SEGMENT_RE = re.compile(r"^(\d{6,})-([0-9a-f]{16})\.seg$")
MAX_SEGMENT_BYTES = 256 << 20  # far above what 2,000 changes take (about 0.7 MB); a larger file is set aside
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
    others: dict[int, list[Path]] = field(default_factory=dict)  # more files of one segment's sequence


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def temp_path(directory: Path, name: str) -> Path:
    """A hidden temporary name nobody can guess (a link planted at a guessable one would be written through)."""
    return directory / f"{TEMP_PREFIX}{secrets.token_hex(8)}-{name}"


def _write_new(tmp: Path, data: bytes) -> None:
    """Write a file that must not exist yet, without following a link at its name, flushed to disk."""
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0),
                 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        tmp.unlink(missing_ok=True)  # a disk full leaves no partial file behind
        raise


def write_atomic(directory: Path, final_name_of, data: bytes) -> Path:
    """Write ``data`` under a hidden temporary name, flush it to disk, rename it to ``final_name_of(digest)``."""
    directory.mkdir(exist_ok=True)  # never a parent: a folder gone stays gone
    digest = hashlib.sha256(data).hexdigest()[:16]
    final = directory / final_name_of(digest)
    _place(directory, final, data)
    _fsync_dir(directory)
    return final


def _place(directory: Path, final: Path, data: bytes) -> None:
    """``data`` written under a new temporary name in ``directory``, then renamed to ``final`` (nothing left behind)."""
    tmp = temp_path(directory, final.name)
    _write_new(tmp, data)
    try:
        osfiles.replace(tmp, final)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def remove_leftovers(directory: Path) -> int:
    """Temporary files a write in this device's folder left when it stopped (a disk full, a kill): removed."""
    removed = 0
    with contextlib.suppress(OSError):
        for entry in os.scandir(directory):
            if entry.name.startswith(TEMP_PREFIX) and not entry.is_dir(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
                    removed += 1
    return removed


def encode(header: dict, changes: list[dict]) -> bytes:
    lines = [json.dumps(header, ensure_ascii=False, separators=(",", ":"), sort_keys=True)]
    lines += [json.dumps(c, ensure_ascii=False, separators=(",", ":"), sort_keys=True) for c in changes]
    return ("\n".join(lines) + "\n").encode("utf-8")


def write_segment(directory: Path, seq: int, header: dict, changes: list[dict], seal: Sealer | None = None) -> Path:
    """Write one segment of this device's folder (sealed where the folder is); returns its path."""
    data = encode(header, changes)
    if seal is not None:
        data = seal.seal(data, "segment", directory.name, seq)
    return write_atomic(directory, lambda digest: f"{seq:06d}-{digest}.seg", data)


def read_device_info(path: Path, device: str, seal: Sealer | None = None) -> dict:
    """A device's note (name, schema, what it applied); {} when it cannot be read (or, in a sealed folder, is not sealed)."""
    try:
        data = path.read_bytes()[: 1 << 20]
        if seal is not None:
            data = seal.open(data, "device", device, 0)
        elif data.startswith(MAGIC):
            return {}
        info = json.loads(data)
    except (OSError, ValueError, SealError, RecursionError):
        return {}
    return info if isinstance(info, dict) else {}


def write_device_file(directory: Path, info: dict, seal: Sealer | None = None) -> None:
    """The device's name and schema, beside its segments (rewritten atomically when it changes)."""
    directory.mkdir(exist_ok=True)  # never a parent: a folder gone stays gone
    path = directory / DEVICE_FILE
    data = json.dumps(info, sort_keys=True).encode()
    if read_device_info(path, directory.name, seal) == info and not path.is_symlink():
        return
    if seal is not None:
        data = seal.seal(data, "device", directory.name, 0)
    _place(directory, path, data)


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


def scan_device(directory: Path, known: int = 0, seal: Sealer | None = None) -> DeviceFiles:
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
            found = read_device_info(Path(entry.path), directory.name, seal).get("name")
            out.name = found if isinstance(found, str) else ""
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
            other = path if keep != path else target[seq]
            out.skipped.append(Skipped(other, f"a second segment {seq}"))
            if target is out.segments:  # read where the one kept does not open (a file planted beside it)
                out.others.setdefault(seq, []).append(other)
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


def scan(folder: Path, graph_id: str, known: dict[str, int] | None = None,
         seal: Sealer | None = None) -> dict[str, DeviceFiles]:
    """Every device's folder of this graph (``known``: per device, the sequence up to which files are not opened)."""
    root = graph_dir(folder, graph_id)
    return {dev: scan_device(root / dev, (known or {}).get(dev, 0), seal) for dev in devices(folder, graph_id)}


class SegmentError(ValueError):
    """A complete segment (its checksum matches) whose content cannot be a segment: it is set aside."""


def read_segment(device: str, seq: int, path: Path, seal: Sealer | None = None, plain_upto: int = 0) -> Segment:
    """Parse a complete segment (its checksum was checked by ``scan``); SegmentError says why one cannot be read.

    The read is bounded (its size, its nesting) and every part a change is read by is checked for its kind,
    so no file in the folder can stop an exchange with an error of its own: it is set aside, named. In a sealed
    folder (``seal``) a segment must open with the graph's key as this device's ``seq``; one in the clear is read
    only where the folder's seal says that device wrote it before the folder was sealed (``plain_upto``)."""
    if path.stat().st_size > MAX_SEGMENT_BYTES:
        raise SegmentError(f"larger than {MAX_SEGMENT_BYTES >> 20} MB")
    data = path.read_bytes()
    if data.startswith(MAGIC) and seal is None:
        raise SegmentError("it is sealed, and this device has no key for this folder")
    if seal is not None and (data.startswith(MAGIC) or seq > plain_upto):
        try:
            data = seal.open(data, "segment", device, seq)
        except SealError as exc:
            raise SegmentError(str(exc)) from None
    try:
        lines = data.decode("utf-8").splitlines()
        parsed = [json.loads(line) for line in lines if line.strip()]
    except UnicodeDecodeError:
        raise SegmentError("not UTF-8 text") from None
    except RecursionError:
        raise SegmentError("nested too deeply") from None
    except ValueError:
        raise SegmentError("not JSON lines") from None
    if not parsed or not isinstance(parsed[0], dict):
        raise SegmentError("no header")
    header, changes = parsed[0], parsed[1:]
    _check_header(header, device, seq)
    for change in changes:
        _check_change(change)
    return Segment(device, seq, path, header, [norm_change(c) for c in changes])


def _check_header(header: dict, device: str, seq: int) -> None:
    for key in ("format", "schema", "seq", "upto"):
        if not isinstance(header.get(key, 0), int) or isinstance(header.get(key), bool):
            raise SegmentError(f"its header's {key} is not a number")
    if header.get("device") != device or header.get("seq", seq) != seq:
        raise SegmentError("its header names another device or sequence than its place in the folder")
    deps = header.get("deps", {})
    if not isinstance(deps, dict) or not all(isinstance(k, str) and isinstance(v, int) for k, v in deps.items()):
        raise SegmentError("its header's dependencies are not device sequences")
    for key in ("name", "at", "graph"):
        if not isinstance(header.get(key, ""), str):
            raise SegmentError(f"its header's {key} is not text")


_STAMP_RE = re.compile(r"^\d{1,20}\.\d{1,20}$")


def _check_change(change: object) -> None:
    if not isinstance(change, dict) or not isinstance(change.get("items", []), list):
        raise SegmentError("a change is not an object with a list of items")
    if not isinstance(change.get("stamp", ""), str) or not _STAMP_RE.match(change.get("stamp") or "0.0"):
        raise SegmentError("a change's clock stamp is not a stamp")
    if not isinstance(change.get("resolves", []), list) or not isinstance(change.get("at", ""), (str, type(None))):
        raise SegmentError("a change's choices or time are not what Limbic writes")
    for item in change.get("items", []):
        if not isinstance(item, dict) or not isinstance(item.get("gid"), str) or not isinstance(item.get("k"), str) \
                or item.get("op") not in ("add", "change", "remove"):
            raise SegmentError("an item of a change is not a row's change")
        for side in ("a", "b"):
            if item.get(side) is not None and not isinstance(item[side], dict):
                raise SegmentError("an item's values are not an object")
        for key in ("saw", "gone_at"):
            seen = item.get(key, {})
            if not isinstance(seen, dict) or not all(
                    isinstance(v, list) and v and isinstance(v[0], str) and _STAMP_RE.match(v[0] or "0.0")
                    for v in seen.values()):
                raise SegmentError("an item's stamps are not stamps")
        for key in ("seen", "gone", "renamed", "took"):
            if not isinstance(item.get(key, []), list) or not all(isinstance(g, str) for g in item.get(key, [])):
                raise SegmentError("an item's ids are not ids")
