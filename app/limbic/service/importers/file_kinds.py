"""What a file that is not an SQLite database looks like, from its first bytes: said when it is refused."""

from __future__ import annotations

# (offset, magic bytes, what it is): the common kinds a wrong file turns out to be.
MAGIC: tuple[tuple[int, bytes, str], ...] = (
    (0, b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (0, b"\xff\xd8\xff", "a JPEG image"),
    (0, b"GIF8", "a GIF image"),
    (0, b"%PDF", "a PDF document"),
    (0, b"PK\x03\x04", "a ZIP archive (or a document stored as one, such as .docx, .xlsx or .epub)"),
    (0, b"\x1f\x8b", "a gzip-compressed file"),
    (0, b"BZh", "a bzip2-compressed file"),
    (0, b"\xfd7zXZ\x00", "an xz-compressed file"),
    (0, b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (0, b"\x28\xb5\x2f\xfd", "a zstd-compressed file"),
    (0, b"Rar!\x1a\x07", "a RAR archive"),
    (257, b"ustar", "a tar archive"),
    (0, b"\x7fELF", "a program (ELF executable)"),
    (0, b"MZ", "a Windows program"),
    (0, b"\x37\x7f\x06\x82", "an SQLite write-ahead log (a -wal file), not a database"),
    (0, b"\x37\x7f\x06\x83", "an SQLite write-ahead log (a -wal file), not a database"),
    (0, b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7", "an SQLite rollback journal (a -journal file), not a database"),
    (0, b"\x00\x06\x15\x61", "a Berkeley DB database"),
)
HEAD_BYTES = 512


def known_kind(head: bytes) -> str | None:
    """What the first bytes say the file is, for the kinds in MAGIC; None when they say nothing known."""
    for offset, magic, what in MAGIC:
        if head[offset : offset + len(magic)] == magic:
            return what
    return None


def looks_like(head: bytes, size: int) -> str:
    """A few words on what a file that is not an SQLite database is: a known kind, empty, text, or unknown data."""
    if size == 0:
        return "an empty file"
    known = known_kind(head)
    if known:
        return known
    if b"\x00" in head:
        return "binary data of an unknown kind"
    try:
        text = head.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 4:  # not just a character cut at the end of the sample
            return "binary data of an unknown kind"
        text = head[: exc.start].decode("utf-8-sig", errors="replace")
    if text.lstrip().startswith("{"):
        return "a text file of JSON (memory JSONL perhaps: import it with --kind jsonl)"
    return "a text file"
