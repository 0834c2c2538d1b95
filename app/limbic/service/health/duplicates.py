"""Duplicate candidates: pairs of entities that may be one thing, ranked by combined evidence.

Candidates come from blocks, never from all pairs: entities whose names agree once normalised
(same words in any order, same letters, initials of the other, a shared rare word or word
start), entities that share a rare observation, and nearest neighbours by meaning. Each pair is
then judged on every kind of evidence (name, meaning against the graph's own neighbour
distribution, shared observations, shared neighbours, type), and the reasons are kept as
sentences. Evidence against counts too: one name with words the other lacks ("Postgres backup
job"), a relation between the two, types that do not fit.

On a small graph (up to ``vectors.SMALL`` entities) the distribution meaning is judged against is
learned from too few pairs to hide everything under it, so a second tier, marked as less sure,
offers the weaker pairs a person would still want to see: one name inside the other ("Marta" and
"Marta Quintero"), an abbreviation, and entities that are each other's nearest in meaning (a
translation: "Ciudad de México" and "Mexico City"). Each finding names the entity a merge keeps
by default, the better name (``survivor``), with the reason.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from rapidfuzz import fuzz

from limbic.engine.graph.graph import Graph, shown
from limbic.service.health import survivor, text
from limbic.service.health.dismiss import dismissed, key_of
from limbic.service.health.findings import Finding
from limbic.service.health.load import GraphData, Handle
from limbic.service.health.vectors import SMALL, Meaning

logger = logging.getLogger(__name__)

BLOCK_CAP = 40  # a word or observation shared by more entities says nothing about any two of them
NAME_FLOOR = 0.78  # names less alike than this are no evidence either way
MIN_SCORE = 0.45  # below this a pair is not worth the person's time
DETAILED = 3000  # pairs judged again with near-identical observations and reasons
SECOND_TIER = 30  # less sure pairs offered at most, on a small graph
MUTUAL_Z = 3.0  # each other's nearest in meaning, and this far above how close either is to the rest
LESS_SURE = "Less sure: this graph is small, so weaker pairs are shown too."
SAME_RELATIONS = frozenset({"same_as", "alias", "alias_of", "duplicate", "duplicate_of", "also_known_as", "aka",
                            "same as", "is the same as"})
GENERIC_TYPES = frozenset({"", "generic", "entity", "thing", "note", "concept", "other", "unknown"})


@dataclass
class _Prepared:
    names: list[text.NameInfo]
    types: list[str]  # folded
    obs: list[frozenset[int]]


def _prepare(data: GraphData, handle: Handle) -> _Prepared:
    n = len(data)
    names, obs = [], []
    for p in range(n):
        if p % 5000 == 0:
            handle.step("names", p, n)
        names.append(text.NameInfo(data.names[p]))
        obs.append(frozenset(hash(text.observation_key(o)) for _, o in data.observations[p]))
    return _Prepared(names, [text.fold(t) for t in data.types], obs)


def _name_blocks(prep: _Prepared) -> Iterable[list[int]]:
    """Groups of entities whose names share a blocking key."""
    groups: dict[str, list[int]] = defaultdict(list)
    for p, info in enumerate(prep.names):
        groups["k:" + info.key].append(p)
        groups["s:" + info.squashed].append(p)
        if info.acronym:
            groups["a:" + info.acronym].append(p)
        elif len(info.words) == 1:
            groups["a:" + info.words[0]].append(p)  # a one-word name may be another's initials
        for t in info.core:
            if len(t) >= 3:
                groups["t:" + t].append(p)
                if len(t) >= 5:
                    groups["p:" + t[:4]].append(p)
    for members in groups.values():
        if 1 < len(members) <= BLOCK_CAP:
            yield members


def _observation_blocks(prep: _Prepared) -> Iterable[list[int]]:
    """Groups of entities holding the same (rare) observation."""
    groups: dict[int, list[int]] = defaultdict(list)
    for p, keys in enumerate(prep.obs):
        for h in keys:
            groups[h].append(p)
    for members in groups.values():
        if 1 < len(members) <= 8:
            yield members


def _pairs_of(members: list[int]) -> Iterable[tuple[int, int]]:
    ms = sorted(set(members))
    for i, a in enumerate(ms):
        for b in ms[i + 1:]:
            yield a, b


def candidate_pairs(data: GraphData, prep: _Prepared, meaning: Meaning) -> set[tuple[int, int]]:
    """Every pair the meaning neighbours, a shared observation or a name block put forward (low first).

    A name block only proposes pairs whose names are alike enough to count as evidence: blocks on
    a shared word propose many pairs that nothing else speaks for.
    """
    pairs: set[tuple[int, int]] = set(meaning.pairs)
    for members in _observation_blocks(prep):
        pairs.update(_pairs_of(members))
    names = prep.names
    for members in _name_blocks(prep):
        for a, b in _pairs_of(members):
            if (a, b) in pairs or names[a].numbers != names[b].numbers:
                continue
            if text.similarity_of(names[a], names[b])[0] >= NAME_FLOOR:
                pairs.add((a, b))
    return pairs


def _types_fit(prep: _Prepared, data: GraphData, a: int, b: int) -> tuple[float, str]:
    ta, tb = prep.types[a], prep.types[b]
    if ta == tb:
        return 1.0, f"Both are of type “{shown(data.types[a], 30)}”."
    if ta in GENERIC_TYPES or tb in GENERIC_TYPES:
        return 0.9, ""
    return 0.55, f"Their types differ (“{shown(data.types[a], 30)}” and “{shown(data.types[b], 30)}”)."


def _near_shared(oa: list[tuple[int, str]], ob: list[tuple[int, str]]) -> int:
    """Observations of the smaller entity that the other holds nearly word for word."""
    small, large = (oa, ob) if len(oa) <= len(ob) else (ob, oa)
    large_keys = [text.observation_key(o) for _, o in large[:60]]
    found = 0
    for _, o in small[:60]:
        k = text.observation_key(o)
        if any(fuzz.token_sort_ratio(k, other) >= 90 for other in large_keys):
            found += 1
    return found


def judge(data: GraphData, prep: _Prepared, meaning: Meaning, a: int, b: int, detailed: bool) -> tuple[float, list[str]]:
    """The combined score of one pair (0..1) and, when ``detailed``, the sentences for and against."""
    na, nb = data.names[a], data.names[b]
    ia, ib = prep.names[a], prep.names[b]
    reasons: list[str] = []
    name_score, why = text.similarity_of(ia, ib)
    e_name = name_score if name_score >= 0.9 else max(0.0, (name_score - NAME_FLOOR) / (1 - NAME_FLOOR)) * 0.85
    if why and e_name > 0:
        reasons.append(why)
    extra = text.extra_of(ia, ib) if ia.key != ib.key else frozenset()
    e_vec = 0.0
    got = meaning.similarity(a, b)
    if got is not None:
        sim, z = got
        pct = meaning.percentile(z)
        e_vec = min(1.0, max(0.0, (pct - 0.75) / 0.2))
        if detailed and e_vec > 0:
            reasons.append(f"They are close in meaning: closer than {min(99.9, pct * 100):.0f}% of the closest pairs "
                           "in this graph are.")
    oa, ob = prep.obs[a], prep.obs[b]
    e_obs = 0.0
    smaller = min(len(oa), len(ob))
    if smaller:
        shared = len(oa & ob)
        if detailed and shared < smaller:
            shared = max(shared, _near_shared(data.observations[a], data.observations[b]))
        if shared:
            e_obs = shared / smaller * min(1.0, shared / 2)
            if detailed:
                reasons.append(f"{shared} of the {smaller} observations of the smaller one "
                               f"{'is' if shared == 1 else 'are'} the same or nearly the same in the other.")
    e_nbr = 0.0
    ga, gb = data.neighbours[a] - {b}, data.neighbours[b] - {a}
    if ga and gb:
        common = ga & gb
        if common:
            e_nbr = len(common) / min(len(ga), len(gb)) * min(1.0, len(common) / 2)
            if detailed:
                names = ", ".join(f"“{shown(data.names[c], 30)}”" for c in sorted(common)[:3])
                more = f" and {len(common) - 3} more" if len(common) > 3 else ""
                reasons.append(f"Both are related to {names}{more}.")
    evidence = 1.0 - (1 - 0.92 * e_name) * (1 - 0.55 * e_vec) * (1 - 0.8 * e_obs) * (1 - 0.45 * e_nbr)
    fit, type_why = _types_fit(prep, data, a, b)
    score = evidence * fit
    if type_why and (fit < 1.0 or detailed):
        reasons.append(type_why)
    if extra and e_obs < 0.5:
        score *= 0.45
        longer = na if len(ia.core) > len(ib.core) else nb
        reasons.append(f"“{shown(longer, 40)}” has words the other lacks ({', '.join(sorted(extra)[:3])}): "
                       "it may be a part or a kind of it rather than the same thing.")
    between = data.related.get((a, b))
    if between and between & SAME_RELATIONS:
        score = 1.0 - (1.0 - score) * 0.5
        reasons.append("A relation between them already says they are the same.")
    elif between:
        score *= 0.35
        reasons.append("They are related to each other, so they were recorded as two things.")
    return score, reasons


def _weaker_pairs(data: GraphData, prep: _Prepared, meaning: Meaning) -> dict[tuple[int, int], str]:
    """Pairs with a weaker sign of being one thing, each with the sentence that names the sign."""
    out: dict[tuple[int, int], str] = {}
    names = prep.names
    for members in _name_blocks(prep):
        for a, b in _pairs_of(members):
            if names[a].numbers != names[b].numbers or (a, b) in out:
                continue
            na, nb = data.names[a], data.names[b]
            if survivor.abbreviates(na, nb) or survivor.abbreviates(nb, na):
                out[(a, b)] = "One name may be an abbreviation of the other."
            elif names[a].core < names[b].core or names[b].core < names[a].core:
                short, long = (na, nb) if len(names[a].core) < len(names[b].core) else (nb, na)
                out[(a, b)] = f"One name is inside the other (“{shown(short, 30)}” in “{shown(long, 40)}”)."
    for pair, z in meaning.mutual.items():
        if z >= MUTUAL_Z and pair not in out:
            out[pair] = ("Each is the other's closest in meaning in this graph: another language or other words "
                         "may name the same thing.")
    return out


def _finding(data: GraphData, a: int, b: int, score: float, reasons: list[str], tier: int = 1) -> Finding:
    """The finding of a pair, the entity a merge keeps by default first, with the reason it is kept."""
    sides = [survivor.Side(data.names[p], len(data.neighbours[p]), len(data.observations[p])) for p in (a, b)]
    keep, why = survivor.choose(*sides)
    first, second = (a, b) if keep == 0 else (b, a)
    detail: dict = {"keep": data.names[first], "keep_reason": why}
    if tier > 1:
        detail["tier"] = tier
    return Finding("duplicates", [data.ids[first], data.ids[second]], [data.names[first], data.names[second]],
                   score, reasons, detail)


def _second_tier(graph_pairs: dict[tuple[int, int], str], data: GraphData, prep: _Prepared, meaning: Meaning,
                 skip: set[str], min_score: float) -> list[Finding]:
    """The less sure pairs of a small graph: same or generic types, not related to each other, not dismissed."""
    out: list[Finding] = []
    for (a, b), why in graph_pairs.items():
        if key_of([data.ids[a], data.ids[b]]) in skip or data.related.get((a, b)):
            continue  # already listed, dismissed, or recorded as two related things on purpose
        if _types_fit(prep, data, a, b)[0] < 0.9:
            continue
        score, reasons = judge(data, prep, meaning, a, b, detailed=True)
        if score < min_score:
            out.append(_finding(data, a, b, score, [LESS_SURE, why] + reasons, tier=2))
    out.sort(key=lambda f: (-f.score, f.entities))
    return out[:SECOND_TIER]


def duplicate_candidates(graph: Graph, data: GraphData, meaning: Meaning, handle: Handle,
                         min_score: float = MIN_SCORE, limit: int | None = 500) -> list[Finding]:
    """Pairs that may be one entity, best first, without the ones the person dismissed."""
    prep = _prepare(data, handle)
    pairs = candidate_pairs(data, prep, meaning)
    gone = {k for kind, k in dismissed(graph) if kind == "duplicates"}
    handle.step("duplicates", 0, len(pairs))
    quick: list[tuple[float, int, int]] = []
    for i, (a, b) in enumerate(pairs):
        if i % 20000 == 0:
            handle.step("duplicates", i, len(pairs))
        score, _ = judge(data, prep, meaning, a, b, detailed=False)
        if score >= min_score * 0.8:  # near-identical observations can lift a pair in the detailed pass
            quick.append((score, a, b))
    quick.sort(reverse=True)
    out: list[Finding] = []
    for _, a, b in quick[:DETAILED]:
        ids = [data.ids[a], data.ids[b]]
        if key_of(ids) in gone:
            continue
        score, reasons = judge(data, prep, meaning, a, b, detailed=True)
        if score >= min_score:
            out.append(_finding(data, a, b, score, reasons))
    out.sort(key=lambda f: (-f.score, f.entities))
    if len(data) <= SMALL:  # after every sure pair, however many: the less sure ones never push one out
        out += _second_tier(_weaker_pairs(data, prep, meaning), data, prep, meaning,
                            gone | {key_of(f.ids) for f in out}, min_score)
    logger.info("health: %d candidate pairs, %d duplicates reported", len(pairs), len(out))
    return out[:limit] if limit else out
