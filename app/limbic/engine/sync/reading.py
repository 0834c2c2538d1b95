"""Reading another device's files for an exchange: the one kept under a sequence, or one beside it that opens;
one that cannot be read, opened or applied set aside, named with why, while everything else goes on."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from limbic.engine.sync import folder as files

if TYPE_CHECKING:
    from limbic.engine.sync.exchange import Exchange
    from limbic.engine.sync.pairing import Pairing


def genuine(own: files.DeviceFiles, device: str, seq: int, pairing: Pairing | None) -> bool:
    """A segment in this device's own folder past what the file published that is this device's writing (it
    opens): only such a one makes the file a copy or a restore. A file planted there is not this device's."""
    try:
        files.read_segment(device, seq, own.segments[seq], seal_of(pairing), plain_upto(pairing, device))
        return True
    except (OSError, files.SegmentError):
        return False


def seal_of(pairing: Pairing | None):
    return pairing.sealer if pairing is not None else None


def plain_upto(pairing: Pairing | None, device: str) -> int:
    return pairing.plain_upto(device) if pairing is not None else 0


def read_one(result: Exchange, listing: files.DeviceFiles, dev: str, seq: int) -> files.Segment | None:
    """A device's segment ``seq``: the file kept under that sequence, or one beside it that opens where it does
    not (a file planted under a genuine one's sequence blocks nothing); None, set aside, when none does."""
    first = None
    for path in (listing.segments[seq], *listing.others.get(seq, ())):
        try:
            return files.read_segment(dev, seq, path, seal_of(result.pairing), plain_upto(result.pairing, dev))
        except (OSError, files.SegmentError) as exc:
            first = first or (path, str(exc) or "unreadable")
    set_aside(result, listing, dev, *first)
    return None


def set_aside(result: Exchange, listing: files.DeviceFiles, dev: str, path: Path, why: str) -> None:
    """A segment that cannot be read or applied: named with why, left where it is; its device's later ones wait."""
    result.skipped.append(files.Skipped(path, f"set aside: {why}"))
    result.waiting.append(f"{label(listing, dev)}: {path.name} is set aside ({why}); what comes after it from that "
                          "device waits. The other devices' changes were applied.")


def label(listing: files.DeviceFiles, dev: str) -> str:
    return f"device “{listing.name}”" if listing.name else f"device {dev}"
