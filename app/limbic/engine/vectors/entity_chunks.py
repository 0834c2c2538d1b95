"""The texts a long entity is embedded from: its first text (``build_text``) and windows over the rest.

The model reads one window of tokens. An entity whose text fits has one vector, from exactly the
text ``build_text`` makes. A longer one gets more: its observations, in order, packed into windows
of the same budget, each window headed by the entity's name and type (alone, a paragraph from the
middle of a paper may not say what it is about). A window the first text already holds entirely is
left out. Search raises an entity towards its best window as far as the query is short (chunked_knn.py).

The windows depend only on the observations, never on which of them the first text chose, so
adding an observation changes the last window alone and an edit changes the window it is in and,
where the lengths shift, those after it: every other window keeps its text, and its vector (the
store keys each window's vector by a digest of its text).

Bounds, so that one huge entity (a log of 450,000 observations) costs a bounded time: at most
``MAX_CHUNKS`` vectors per entity, the first text included: past that, the earliest windows and
the latest are kept (each half of the rest), the middle is left to full-text search and to the
first text's spread. Only ``MAX_WINDOW_OBSERVATIONS`` observations are packed, the first half and
the latest half from a start aligned to ``ALIGN`` (so that adding one does not move every window).
Relations beyond the quarter of the first text they may take are not repeated in windows: each
target is an entity of its own.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from limbic.engine.vectors.entity_text import SEPARATOR, EntitySource, select_text

MAX_CHUNKS = 64
MAX_WINDOW_OBSERVATIONS = 8192
ALIGN = 512
# A longer observation is counted on its beginning and the count scaled to its length (the
# embedder counts at most a few thousand characters of a text).
COUNT_CHARS = 3000

# (observation index, start, end): a part of one observation, in characters.
Piece = tuple[int, int, int]


def text_hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _window_indexes(n: int) -> list[list[int]]:
    """The observations packed into windows, as one or two runs (earliest, latest)."""
    if n <= MAX_WINDOW_OBSERVATIONS:
        return [list(range(n))]
    half = MAX_WINDOW_OBSERVATIONS // 2
    start = max(half, ((n - half) // ALIGN) * ALIGN)
    return [list(range(half)), list(range(start, n))]


def _split(text: str, tokens: int, room: int) -> list[tuple[int, int]]:
    """Character spans of ``text`` (``tokens`` long) of about ``room`` tokens each, cut at spaces."""
    if tokens <= room:
        return [(0, len(text))]
    parts = -(-tokens // room)
    step = len(text) / parts
    spans, start = [], 0
    for k in range(1, parts):
        end = int(step * k)
        space = text.rfind(" ", start + 1, end + 1)
        end = space if space > start + step / 2 else end
        spans.append((start, end))
        start = end
    spans.append((start, len(text)))
    return spans


def _pack(
    src: EntitySource, run: list[int], counts: dict[int, int], room: int
) -> list[list[Piece]]:
    windows: list[list[Piece]] = []
    current: list[Piece] = []
    used = 0
    for i in run:
        text = src.observations[i]
        for start, end in _split(text, counts[i], room):
            cost = max(1, round(counts[i] * (end - start) / max(1, len(text)))) + 1
            if current and used + cost > room:
                windows.append(current)
                current, used = [], 0
            current.append((i, start, end))
            used += cost
    if current:
        windows.append(current)
    return windows


def _held(window: list[Piece], whole: frozenset[int], cut: tuple[int, int] | None) -> bool:
    """Whether the first text already holds every piece of this window."""
    for i, start, end in window:
        if i in whole:
            continue
        if cut is not None and cut[0] == i and end <= cut[1]:
            continue
        return False
    return True


def build_chunks(
    src: EntitySource,
    count_tokens: Callable[[Sequence[str]], list[int]] | None,
    budget: int,
    max_chunks: int = MAX_CHUNKS,
) -> list[str]:
    """The entity's texts to embed: ``build_text``'s first, then the windows it does not hold."""
    first, cover = select_text(src, count_tokens, budget)
    if cover.complete or count_tokens is None or max_chunks <= 1:
        return [first]
    runs = _window_indexes(len(src.observations))
    wanted = [i for run in runs for i in run]
    obs = src.observations
    header_tokens, *obs_tokens = count_tokens([src.header, *(obs[i][:COUNT_CHARS] for i in wanted)])
    counts = {
        i: c if len(obs[i]) <= COUNT_CHARS else -(-c * len(obs[i]) // COUNT_CHARS) for i, c in zip(wanted, obs_tokens)
    }
    room = max(8, budget - header_tokens - 1)
    windows = [w for run in runs for w in _pack(src, run, counts, room)]
    windows = [w for w in windows if not _held(w, cover.whole, cover.cut)]
    extra = max_chunks - 1
    if len(windows) > extra:
        early = extra // 2
        windows = windows[:early] + windows[len(windows) - (extra - early):]
    texts = [
        SEPARATOR.join([src.header, *(src.observations[i][start:end].strip() for i, start, end in w)])
        for w in windows
    ]
    return [first, *texts]
