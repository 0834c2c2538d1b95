"""One colour per entity type, derived from the type's name alone: the same in every view and every run.

A colour that came from a type's position in a list changed whenever the list did (another view,
another filter, a new type). Here the name is hashed (a stable hash, not Python's salted ``hash``)
onto 24 colours, lightened for dark themes. The salt was chosen so the ten commonest type names
get clearly different colours and most others colours of their own. Qt-free: the SVG export reads the same colours.
"""

from __future__ import annotations

import colorsys
import hashlib
from functools import lru_cache

SALT = "limbic15157"
# 24 colours for a light background: ten hue families, neighbours in the list from different ones.
PALETTE = ("#4e79a7", "#e0771c", "#59a14f", "#e15759", "#4a968f", "#b08a17", "#b07aa1", "#d95f78",
           "#9c755f", "#2f8f83", "#7a5fc0", "#8c8c3a", "#1f5f9e", "#c0651a", "#2e7d32", "#a8323e",
           "#0097a7", "#a67c00", "#8e44ad", "#d6418a", "#6d4c41", "#7b1fa2", "#5c9e1f", "#c2185b")
OTHER_COLOUR = ("#9aa0a6", "#8a9095")  # "+N more" nodes and untyped ones (light, dark)


def type_slot(name: str) -> int:
    """Which of the 24 colours a type name gets (case and surrounding spaces do not matter)."""
    key = f"{SALT}:{name.strip().casefold()}".encode()
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big") % len(PALETTE)


def _for_dark(colour: str) -> str:
    """The same hue made lighter, for a dark background."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    h, lightness, s = colorsys.rgb_to_hls(r, g, b)
    r, g, b = colorsys.hls_to_rgb(h, min(0.78, max(lightness, 0.5) + 0.14), min(1.0, s * 1.05))
    return "#{:02x}{:02x}{:02x}".format(round(r * 255), round(g * 255), round(b * 255))


@lru_cache(maxsize=4096)
def type_colour(name: str, dark: bool = False) -> str:
    """The ``#rrggbb`` colour of an entity type, for a light or a dark background."""
    if not name.strip():
        return OTHER_COLOUR[1 if dark else 0]
    colour = PALETTE[type_slot(name)]
    return _for_dark(colour) if dark else colour
