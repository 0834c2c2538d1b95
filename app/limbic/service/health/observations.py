"""The same fact twice within one entity: equal once normalised, nearly equal, or one inside the other."""

from __future__ import annotations

from rapidfuzz import fuzz

from limbic.engine.graph.graph import shown
from limbic.service.health import text
from limbic.service.health.dismiss import key_of
from limbic.service.health.findings import Finding
from limbic.service.health.load import GraphData, Handle

MAX_COMPARED = 80  # an entity with more observations is compared on its first ones only (cost grows squared)


def observation_pairs(items: list[tuple[int, str]], threshold: float = 0.85,
                      containment: float = 0.7) -> list[tuple[int, int, float, str]]:
    """(id, id, similarity, why) of observation pairs that say the same thing."""
    keys = [(oid, text.observation_key(o)) for oid, o in items[:MAX_COMPARED]]
    nums = {oid: text.numbers(k) for oid, k in keys}
    out = []
    for i, (ia, ka) in enumerate(keys):
        for ib, kb in keys[i + 1:]:
            if not ka or not kb:
                continue
            if ka == kb:
                out.append((ia, ib, 1.0, "the same apart from case, accents or punctuation"))
                continue
            if nums[ia] != nums[ib]:
                continue  # "paid 40 euros" and "paid 45 euros" are two facts however alike the words
            ratio = fuzz.token_sort_ratio(ka, kb) / 100.0
            if ratio >= max(threshold, 0.85):
                out.append((ia, ib, ratio, f"nearly the same words ({round(ratio * 100)}% alike)"))
                continue
            short, long_ = (ka, kb) if len(ka) <= len(kb) else (kb, ka)
            if len(long_) >= 2 * len(short) and len(short.split()) >= 3:
                inside = fuzz.partial_ratio(short, long_) / 100.0
                if inside >= max(containment, 0.9):
                    out.append((ia, ib, inside * 0.95, "one is contained in the other"))
    return out


def duplicate_observations(data: GraphData, handle: Handle, gone: set[str]) -> list[Finding]:
    """Entities holding the same fact more than once, with the pairs of observations."""
    out: list[Finding] = []
    n = len(data)
    for p in range(n):
        if p % 5000 == 0:
            handle.step("observations", p, n)
        items = data.observations[p]
        if len(items) < 2:
            continue
        pairs = observation_pairs(items)
        if not pairs:
            continue
        if key_of([data.ids[p]]) in gone:
            continue
        texts = dict(items)
        reasons = [f"“{shown(texts[a], 60)}” and “{shown(texts[b], 60)}”: {why}." for a, b, _, why in pairs[:5]]
        if len(pairs) > 5:
            reasons.append(f"And {len(pairs) - 5} more pairs.")
        score = max(s for _, _, s, _ in pairs)
        out.append(Finding("observations", [data.ids[p]], [data.names[p]], score, reasons,
                           {"pairs": [[a, b, round(s, 3)] for a, b, s, _ in pairs]}))
    out.sort(key=lambda f: (-f.score, -len(f.detail["pairs"]), f.entities))
    return out
