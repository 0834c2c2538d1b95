"""Which files a folder import reads, and reading one: no symbolic link is followed, nothing but regular files.

An untrusted vault could hold ``passwd.md -> /etc/passwd`` (or a linked folder leading anywhere)
to pull a file the user can read into the graph, where an assistant could then read it. So a
link, to a file or a folder, is never followed: each one is reported with why (where it leads,
or that it is broken or a loop); what it points at inside the folder is read where it is. A
note is opened without following a link even if one replaced it after the folder was listed,
and must be a regular file (a named pipe would block the import) no larger than MAX_NOTE_BYTES.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

# A note larger than this is left aside with a sentence: a 4 MB note is about 30,000 paragraphs,
# imported in seconds; the limit keeps one pasted log or dump from holding the import for minutes.
MAX_NOTE_BYTES = 4 * 1024 * 1024
NOTE_SUFFIXES = (".md", ".markdown")


class NoteSkipped(Exception):
    """A file that is not read; the message completes "file: ..." in the import's report."""


def _inside(target: str, root_real: str) -> bool:
    return target == root_real or target.startswith(root_real.rstrip(os.sep) + os.sep)


def link_reason(path: Path, root: Path, root_real: str) -> str:
    """Why a symbolic link is skipped, in words."""
    try:
        target = os.path.realpath(path, strict=True)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symbolic link that loops, not followed"
        return "a symbolic link to something that does not exist, not followed"
    what = "folder" if os.path.isdir(target) else "file"
    if target == root_real:
        return "a symbolic link to the imported folder itself (a loop), not followed"
    if _inside(target, root_real):
        shown = Path(os.path.relpath(target, root_real)).as_posix()
        return f"a symbolic link to the {what} {shown} in this folder, which is read where it is, not through the link"
    return f"a symbolic link to a {what} outside the imported folder ({target}), not followed"


def walk(root: Path, suffixes: tuple[str, ...] | None = NOTE_SUFFIXES, recursive: bool = True,
         ) -> tuple[list[Path], list[str]]:
    """Files under ``root`` (hidden folders and files left out) in name order, and "path: why" for each link skipped.

    ``suffixes``: only links with these endings (and links to folders) are reported; other files
    are listed as they are (attachments are counted, never read). None reports every link.
    ``recursive`` False: the folder's own files only.
    """
    root = Path(root)
    root_real = os.path.realpath(root)
    files: list[Path] = []
    skipped: list[str] = []
    def unreadable(exc: OSError) -> None:
        where = Path(exc.filename).relative_to(root).as_posix() if exc.filename else "."
        skipped.append(f"{where}/: this folder cannot be read ({(exc.strerror or str(exc)).lower()})")

    for folder, dirs, names in os.walk(root, followlinks=False, onerror=unreadable):
        here = Path(folder)
        kept = []
        for d in sorted(dirs):
            if d.startswith("."):
                continue
            if (here / d).is_symlink():
                skipped.append(f"{(here / d).relative_to(root).as_posix()}/: {link_reason(here / d, root, root_real)}")
            else:
                kept.append(d)
        dirs[:] = kept if recursive else []
        for f in sorted(names):
            path = here / f
            if f.startswith("."):
                continue
            if path.is_symlink():
                if os.path.isdir(path):
                    skipped.append(f"{path.relative_to(root).as_posix()}/: {link_reason(path, root, root_real)}")
                elif suffixes is None or path.suffix.lower() in suffixes:
                    skipped.append(f"{path.relative_to(root).as_posix()}: {link_reason(path, root, root_real)}")
                continue
            files.append(path)
    return files, skipped


def read_regular_file(path: Path, limit: int | None = None, what: str = "note", root_real: str | None = None) -> bytes:
    """The bytes of a regular file opened without following a link; raises NoteSkipped saying why not.

    ``limit``: the largest size read (MAX_NOTE_BYTES when None); ``root_real``: the real path of the
    imported folder, which the file must still be in once open."""
    limit = MAX_NOTE_BYTES if limit is None else limit
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NoteSkipped("it became a symbolic link while the folder was read, not followed") from None
        raise NoteSkipped(f"cannot be read ({(exc.strerror or str(exc)).lower()})") from None
    try:
        st = os.fstat(fd)
        if root_real is not None:
            real = os.path.realpath(path)
            if not _inside(real, root_real) or not os.path.samestat(st, os.stat(real)):
                raise NoteSkipped("a folder on its way became a symbolic link while the folder was read, not followed")
        if not stat.S_ISREG(st.st_mode):
            raise NoteSkipped("not a regular file (a pipe, socket or device), not read")
        if st.st_size > limit:
            raise NoteSkipped(
                f"too large to import as one {what} ({st.st_size / 1e6:.1f} MB; the limit is {limit / 1e6:.1f} MB): "
                "split it into smaller notes"
            )
        chunks = []
        size = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:  # it grew while being read
                raise NoteSkipped(f"too large to import as one {what} (over {limit / 1e6:.1f} MB)")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise NoteSkipped(f"cannot be read ({(exc.strerror or str(exc)).lower()})") from None
    finally:
        os.close(fd)
