"""Oversized entities whose observations fall into separate topics, with a proposed split to review.

Topics are found from the words of the observations themselves (no model needed, and each topic
has a word that names it): repeatedly, the word most observations still unassigned share starts
a topic holding those observations. Words of the entity's own name, and words nearly every
observation has, name no topic.
"""

from __future__ import annotations

from collections import Counter

from limbic.engine.graph.graph import shown
from limbic.service.health import text
from limbic.service.health.dismiss import key_of
from limbic.service.health.findings import Finding
from limbic.service.health.load import GraphData, Handle

SPLIT_MIN = 12  # fewer observations than this is not oversized
TOPIC_MIN = 3  # observations a topic needs


def topics(name: str, items: list[tuple[int, str]]) -> list[tuple[str, list[int]]]:
    """(topic word, observation ids) of the observations' topics, largest first; the rest is left out."""
    own = {w[:6] for w in text.words(name)}
    bags = {oid: text.content_words(o) - own for oid, o in items}
    common = Counter(w for bag in bags.values() for w in bag)
    everywhere = {w for w, c in common.items() if c > 0.6 * len(items)}
    first: dict[str, int] = {}
    for _, o in items:  # ties go to the word met first: "Garden tomatoes need water" is about the garden
        for w in text.words(o):
            first.setdefault(w[:6], len(first))
    left = dict(bags)
    found: list[tuple[str, list[int]]] = []
    while left:
        counts = Counter(w for bag in left.values() for w in bag if w not in everywhere)
        if not counts:
            break
        word, count = max(counts.items(), key=lambda kv: (kv[1], -first.get(kv[0], 0)))
        if count < TOPIC_MIN:
            break
        members = [oid for oid, bag in left.items() if word in bag]
        found.append((word, members))
        for oid in members:
            del left[oid]
    return found


def analyse(name: str, entity_type: str, items: list[tuple[int, str]], split_min: int = SPLIT_MIN) -> dict:
    """Whether one entity should be split, and how: its topics and the entities they would become."""
    found = topics(name, items) if len(items) >= split_min else []
    covered = sum(len(m) for _, m in found)
    texts = dict(items)
    proposal = [{"name": f"{name} – {word}", "entityType": entity_type, "topic": word,
                 "observations": [texts[i] for i in ids], "observation_ids": ids} for word, ids in found[1:]]
    needs = len(found) >= 2 and covered >= 0.6 * len(items)
    return {
        "entity": name, "entityType": entity_type, "observation_count": len(items), "threshold": split_min,
        "topics": [{"topic": w, "observation_count": len(ids)} for w, ids in found],
        "coverage": round(covered / len(items), 3) if items else 0.0,
        "needs_split": needs,
        "stays": found[0][0] if found else "",
        "proposed": proposal if needs else [],
    }


def split_candidates(data: GraphData, handle: Handle, gone: set[str], split_min: int = SPLIT_MIN) -> list[Finding]:
    """Entities with many observations in two or more separate topics."""
    out = []
    n = len(data)
    for p in range(n):
        if p % 5000 == 0:
            handle.step("split", p, n)
        items = data.observations[p]
        if len(items) < split_min or key_of([data.ids[p]]) in gone:
            continue
        result = analyse(data.names[p], data.types[p], items, split_min)
        if not result["needs_split"]:
            continue
        parts = ", ".join(f"“{t['topic']}” ({t['observation_count']})" for t in result["topics"][:5])
        reasons = [f"It has {len(items)} observations (more than {split_min - 1}).",
                   f"They fall into {len(result['topics'])} topics: {parts}.",
                   "Proposed: " + "; ".join(f"“{shown(p_['name'], 50)}” with {len(p_['observations'])} observations"
                                            for p_ in result["proposed"]) + "."]
        score = min(1.0, result["coverage"] * min(1.0, len(items) / (2 * split_min)) + 0.1 * (len(result["topics"]) - 2))
        out.append(Finding("split", [data.ids[p]], [data.names[p]], max(0.0, score), reasons, result))
    out.sort(key=lambda f: (-f.score, f.entities))
    return out
