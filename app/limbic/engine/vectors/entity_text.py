"""The text an entity is embedded from, fitted to the model's token budget."""

from __future__ import annotations

import hashlib
import heapq
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

SEPARATOR = " | "
HEAD = 2  # first observations always kept: usually what the entity is
TAIL = 2  # latest observations kept next: usually what is current
# Relations never take more than this share of the budget.
RELATION_SHARE = 0.25
# Observations looked at when an entity has more: every one costs at least two tokens (itself and
# a separator), so a few hundred fill any window; the first, the latest and an even spread of the
# middle are weighed. This bounds the time and memory of embedding one huge entity.
MAX_CANDIDATES = 2048
MAX_RELATIONS = 512
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class EntitySource:
    """Everything an entity's index rows are made from."""

    entity_id: int
    name: str
    entity_type: str
    observations: tuple[str, ...]
    relations: tuple[tuple[str, str], ...]  # (relation_type, target name), outgoing
    aliases: tuple[str, ...] = ()  # its other names: in the full-text row, not in the embedded text

    def digest(self) -> str:
        """Changes exactly when the embedded text could change (an alias does not: it is not embedded)."""
        h = hashlib.blake2b(digest_size=16)
        for part in (self.name, self.entity_type, *self.observations):
            h.update(part.encode("utf-8", "surrogatepass"))
            h.update(b"\x1f")
        h.update(b"\x1e")
        for rtype, target in self.relations:
            h.update(f"{rtype}\x1f{target}\x1e".encode("utf-8", "surrogatepass"))
        return h.hexdigest()

    @property
    def header(self) -> str:
        return f"{self.name} ({self.entity_type})"

    def relation_text(self, relations: Sequence[tuple[str, str]] | None = None) -> str:
        rels = self.relations if relations is None else relations
        return "Rel: " + "; ".join(f"{t} -> {target}" for t, target in rels) if rels else ""


def fts_obs_text(observations: Sequence[str]) -> str:
    """All observations joined for the full-text row."""
    return SEPARATOR.join(observations)


def _cut_to_tokens(text: str, tokens: int, have: int) -> str:
    """Roughly the first ``tokens`` of a text that has ``have`` tokens (character proportion)."""
    if have <= tokens:
        return text
    return text[: max(1, int(len(text) * tokens / have))]


def _candidates(n: int) -> list[int]:
    """Indexes of the observations weighed: all of them, or the first, the latest and an even spread."""
    if n <= MAX_CANDIDATES:
        return list(range(n))
    inner = n - HEAD - TAIL
    spread = MAX_CANDIDATES - HEAD - TAIL
    middle = {HEAD + (k * inner) // spread for k in range(spread)}
    return sorted(set(range(HEAD)) | middle | set(range(n - TAIL, n)))


@dataclass(frozen=True)
class Coverage:
    """Which observations the first text holds: ``whole`` ones entirely, ``cut`` = (index, characters)."""

    whole: frozenset[int]
    cut: tuple[int, int] | None = None
    complete: bool = False  # the whole entity fitted


def build_text(
    src: EntitySource,
    count_tokens: Callable[[Sequence[str]], list[int]] | None,
    budget: int,
) -> str:
    """``"{name} ({type}) | {obs} | ... | Rel: type -> target; ..."`` within ``budget`` tokens.

    Keeps the first observations, then the latest, then fills the middle with the ones that
    add the most words not yet included; relations come last and take at most a quarter.
    """
    return select_text(src, count_tokens, budget)[0]


def select_text(
    src: EntitySource,
    count_tokens: Callable[[Sequence[str]], list[int]] | None,
    budget: int,
) -> tuple[str, Coverage]:
    """``build_text``'s text and which observations it holds (what further chunks need not repeat)."""
    obs = list(src.observations)
    rel = src.relation_text()
    parts = [src.header, *obs] + ([rel] if rel else [])
    everything = Coverage(frozenset(range(len(obs))), complete=True)
    if count_tokens is None:
        return SEPARATOR.join(parts), everything
    picked = list(range(len(obs)))
    if len(obs) > MAX_CANDIDATES or len(src.relations) > MAX_RELATIONS:
        picked = _candidates(len(obs))
        obs = [obs[i] for i in picked]
        rel = src.relation_text(src.relations[:MAX_RELATIONS])
        parts = [src.header, *obs] + ([rel] if rel else [])
    counts = count_tokens(parts)
    sep = 1  # " | " is about one token
    total = sum(counts) + sep * (len(parts) - 1)
    if total <= budget:
        if len(picked) == len(src.observations) and len(src.relations) <= MAX_RELATIONS:
            return SEPARATOR.join(parts), everything
        return SEPARATOR.join(parts), Coverage(frozenset(picked))

    header_tokens = counts[0]
    obs_tokens = counts[1 : 1 + len(obs)]
    remaining = budget - header_tokens
    rel_part = ""
    if rel:
        rel_cap = int(budget * RELATION_SHARE)
        rel_part = _cut_to_tokens(rel, rel_cap, counts[-1])
        remaining -= min(counts[-1], rel_cap) + sep

    chosen: set[int] = set()

    def take(i: int) -> bool:
        nonlocal remaining
        cost = obs_tokens[i] + sep
        if cost <= remaining:
            chosen.add(i)
            remaining -= cost
            return True
        return False

    order = list(range(min(HEAD, len(obs))))
    order += [i for i in range(max(0, len(obs) - TAIL), len(obs)) if i not in order]
    for i in order:
        take(i)
    middle = [i for i in range(len(obs)) if i not in chosen and i not in order]
    if middle and remaining > 0:
        seen: set[str] = set()
        for i in chosen:
            seen.update(w.lower() for w in _WORD.findall(obs[i]))
        words = {i: {w.lower() for w in _WORD.findall(obs[i])} for i in middle}

        def gain(i: int) -> float:
            return len(words[i] - seen) / (obs_tokens[i] + 1)

        # Most new words per token spent; ties go to the earlier observation. A gain can only
        # fall as words are seen, so a stale one is an upper bound: this lazy greedy picks
        # exactly what re-scoring everything each round would, without the quadratic cost
        # (an entity with 10,000 observations).
        heap = [(-gain(i), i) for i in middle]
        heapq.heapify(heap)
        while heap and remaining > 0:
            _, best = heapq.heappop(heap)
            fresh = gain(best)
            if heap and (fresh, -best) < (-heap[0][0], -heap[0][1]):
                heapq.heappush(heap, (-fresh, best))
                continue
            if take(best):
                seen |= words[best]
    texts = [obs[i] for i in sorted(chosen)]
    cover = Coverage(frozenset(picked[i] for i in chosen))
    if not chosen and obs and remaining > sep:
        # A single huge first observation: keep its beginning rather than nothing.
        texts = [_cut_to_tokens(obs[0], remaining - sep, obs_tokens[0])]
        cover = Coverage(frozenset(), (picked[0], len(texts[0])))
    return SEPARATOR.join([src.header, *texts] + ([rel_part] if rel_part else [])), cover
