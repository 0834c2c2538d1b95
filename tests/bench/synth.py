"""Synthetic personal graphs for the benchmarks: realistic text, exact identifiers, relations with hubs.

Everything is drawn from one seeded generator, so a size always gives the same graph.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np

from limbic.engine.formats.jsonl import EntityRecord, RelationRecord

logger = logging.getLogger(__name__)

GENERATOR_VERSION = "synth-1"

_COMMON = """
the a of and to in is for on with that as by from at this it be was are not or have has will can
about after before during into over under between across through within without again still only
also very more most less some many each every other same new old first last next early late
""".split()
_WORDS = """
meeting project deadline budget review design release deploy server database backup migration
customer invoice contract proposal report draft summary notes agenda decision action follow up
team manager engineer designer writer lawyer doctor teacher student friend family neighbour
kitchen garden bicycle train flight hotel museum library concert festival recipe coffee tea bread
cheese wine market apartment office laptop phone keyboard printer camera battery charger cable
invoice payment salary tax insurance bank loan mortgage receipt refund subscription account
python rust kubernetes docker postgres sqlite redis kafka nginx linux windows android browser
cluster network latency throughput outage incident postmortem alert dashboard metric log trace
search index vector embedding model training dataset evaluation benchmark experiment paper
conference workshop talk slides lecture course exam thesis chapter book article podcast video
birthday wedding holiday vacation doctor appointment dentist pharmacy allergy vitamin exercise
running swimming hiking climbing yoga football tennis chess guitar piano painting photography
river mountain lake forest beach island city village street bridge station airport harbour
spring summer autumn winter monday tuesday wednesday thursday friday saturday sunday morning
evening weekend january february march april may june july august september october november
december quarterly annual weekly daily urgent blocked waiting done cancelled postponed approved
rejected shipped merged reviewed tested fixed broken slow fast cheap expensive important minor
likes prefers dislikes remembers forgot promised asked answered called emailed visited bought
sold borrowed lent moved started finished paused resumed planned scheduled booked cancelled
german spanish french portuguese italian japanese chinese english dutch swedish polish greek
""".split()
_FIRST = """Ana Bruno Carla Diego Elena Felipe Greta Hugo Irene Jonas Karin Lucas Marta Nico Olga Pablo
Quinn Rosa Sergio Tania Ugo Vera Walter Ximena Yusuf Zoe Aiko Bilal Chen Dmitri Emeka Farah""".split()
_LAST = """Almeida Becker Costa Dubois Esposito Fischer Garcia Horvat Ivanova Jensen Kowalski Lindqvist
Moreau Novak Okafor Petrov Quintero Rossi Silva Tanaka Urban Vogel Wagner Xu Yamada Zhou""".split()
_PLACES = """Lisbon Porto Madrid Berlin Paris Rome Vienna Prague Oslo Dublin Warsaw Athens Kyoto Lima
Montreal Nairobi Seoul Hanoi Zurich Tallinn""".split()
_PROJECT = """Aurora Borealis Cobalt Driftwood Ember Falcon Glacier Harbor Ivy Juniper Kestrel Lantern
Meridian Nimbus Orchid Pioneer Quartz Raven Sequoia Tundra Umbra Vortex Willow Zephyr""".split()
TYPES = ["Person", "Project", "Service", "Meeting", "Document", "Place", "Tool", "Concept", "Organization", "Task"]
_TYPE_WEIGHTS = np.array([22, 14, 8, 12, 12, 5, 7, 8, 5, 7], dtype=float)
RELATION_TYPES = ["works_on", "knows", "depends_on", "part_of", "mentions", "owns", "located_in", "attended"]
HUBS = 12  # entities that many others point at (a home project, a partner, the employer...)


@dataclass
class SynthGraph:
    """Records ready for import, plus the queries the benchmarks run against them."""

    entities: list[EntityRecord]
    relations: list[RelationRecord]
    queries: list[tuple[str, str]]  # (kind, text)


def _identifier(rng: np.random.Generator) -> str:
    kind = rng.integers(6)
    if kind == 0:
        return f"{rng.choice(['PROJ', 'OPS', 'INC', 'JIRA', 'BUG'])}-{rng.integers(100, 99999)}"
    if kind == 1:
        return f"svc-{rng.choice(_WORDS)}-{rng.integers(1, 99):02d}"
    if kind == 2:
        return f"{rng.integers(0, 16**7):07x}"  # a short commit hash
    if kind == 3:
        return f"v{rng.integers(0, 9)}.{rng.integers(0, 30)}.{rng.integers(0, 20)}"
    if kind == 4:
        return f"10.{rng.integers(0, 255)}.{rng.integers(0, 255)}.{rng.integers(1, 254)}"
    return f"{rng.choice(_WORDS)}_{rng.choice(_WORDS)}_{rng.integers(1, 999)}"


def _name(rng: np.random.Generator, etype: str, i: int) -> str:
    # The index suffix keeps names unique without a retry loop; it also reads like a real id.
    if etype == "Person":
        return f"{rng.choice(_FIRST)} {rng.choice(_LAST)} {i}"
    if etype == "Project":
        return f"Project {rng.choice(_PROJECT)}-{i}"
    if etype == "Service":
        return f"svc-{rng.choice(_WORDS)}-{i}"
    if etype == "Place":
        return f"{rng.choice(_PLACES)} {rng.choice(['office', 'flat', 'cafe', 'station', 'park'])} {i}"
    if etype == "Meeting":
        return f"{rng.choice(_WORDS).capitalize()} sync {i}"
    if etype == "Task":
        return f"TASK-{i}"
    return f"{rng.choice(_WORDS).capitalize()} {rng.choice(_WORDS)} {i}"


def _observations(rng: np.random.Generator, n: int, names: list[str]) -> list[list[str]]:
    """1–8 observations of 5–40 words per entity, drawn in bulk (a 100k graph takes seconds)."""
    vocab = _WORDS + _COMMON
    ranks = np.arange(1, len(_WORDS) + 1, dtype=float)
    content = 1 / (ranks + 10)  # a flattened Zipf: frequent words, but no single one everywhere
    rng.shuffle(content)  # which words are frequent is arbitrary, not alphabetical
    p = np.concatenate([0.7 * content / content.sum(), np.full(len(_COMMON), 0.3 / len(_COMMON))])
    cdf = np.cumsum(p)
    per_entity = rng.integers(1, 9, size=n)
    lengths = rng.integers(5, 41, size=int(per_entity.sum()))
    picks = np.minimum(np.searchsorted(cdf, rng.random(int(lengths.sum()))), len(vocab) - 1)
    words = [vocab[j] for j in picks.tolist()]
    ident = (rng.random(len(lengths)) < 0.25).tolist()
    mention = (rng.random(len(lengths)) < 0.15).tolist()
    out: list[list[str]] = []
    at = s = 0
    for i, count in enumerate(per_entity.tolist()):
        obs = []
        for _ in range(count):
            length = int(lengths[s])
            sent = words[at : at + length]
            if ident[s]:
                sent[int(rng.integers(length))] = _identifier(rng)
            if mention[s] and i:  # mention an entity made earlier, as people do
                sent[int(rng.integers(length))] = names[int(rng.integers(i))]
            if sent[0].isalpha():
                sent[0] = sent[0].capitalize()
            obs.append(" ".join(sent))
            at += length
            s += 1
        out.append(list(dict.fromkeys(obs)))
    return out


def generate(n: int, seed: int = 7, queries: int = 200) -> SynthGraph:
    """A graph of ``n`` entities (1–8 observations of 5–40 words each) and ~1.5 relations per entity."""
    rng = np.random.default_rng(seed)
    types = rng.choice(TYPES, size=n, p=_TYPE_WEIGHTS / _TYPE_WEIGHTS.sum())
    names = [_name(rng, str(t), i) for i, t in enumerate(types)]
    observations = _observations(rng, n, names)
    entities = [EntityRecord(i + 1, names[i], str(types[i]), observations[i]) for i in range(n)]
    relations = []
    seen: set[tuple[int, int, str]] = set()
    hubs = rng.choice(n, size=min(HUBS, n), replace=False)
    ends = rng.integers(n, size=(int(n * 1.5), 2))
    to_hub = rng.random(len(ends)) < 0.3
    hub_pick = rng.choice(hubs, size=len(ends))
    rtypes = rng.choice(RELATION_TYPES, size=len(ends))
    for j, ((a, b), hub, h, rtype) in enumerate(zip(ends.tolist(), to_hub.tolist(), hub_pick.tolist(), rtypes.tolist())):
        b = h if hub else b
        if a == b or (a, b, rtype) in seen:
            continue
        seen.add((a, b, rtype))
        relations.append(RelationRecord(n + j + 1, names[a], names[b], rtype))
    return SynthGraph(entities, relations, make_queries(rng, entities, queries))


def make_queries(rng: np.random.Generator, entities: list[EntityRecord], count: int) -> list[tuple[str, str]]:
    """A mix a person would type: a few words, an exact identifier, a name, a paraphrase."""
    out: list[tuple[str, str]] = []
    paraphrases = [
        "who helped me move flats last year", "that talk about making search faster", "where did we keep the old backups",
        "the doctor my sister recommended", "notes from the budget discussion", "which service kept timing out",
        "a good place for coffee near the station", "what we decided about the release", "books I wanted to read",
        "the bug with the payment retries", "people who know kubernetes well", "plans for the summer holiday",
    ]
    while len(out) < count:
        ent = entities[int(rng.integers(len(entities)))]
        roll = rng.random()
        words = " ".join(ent.observations).split()
        if roll < 0.4:
            start = int(rng.integers(max(1, len(words) - 4)))
            out.append(("words", " ".join(words[start : start + int(rng.integers(2, 6))]).lower()))
        elif roll < 0.6:
            ids = [w for w in words if len(w) >= 5 and any(c.isdigit() for c in w)]
            out.append(("identifier", ids[0]) if ids else ("name", ent.name))
        elif roll < 0.8:
            out.append(("name", ent.name))
        else:
            out.append(("paraphrase", paraphrases[int(rng.integers(len(paraphrases)))]))
    return out


def cheap_vectors(n: int, dim: int, seed: int = 11, topics: int = 64) -> np.ndarray:
    """Unit vectors clustered around a few topics, like real embeddings but without the model."""
    rng = np.random.default_rng(seed)
    centroids = rng.standard_normal((topics, dim)).astype(np.float32)
    vecs = np.empty((n, dim), dtype=np.float32)
    for start in range(0, n, 10_000):
        m = min(10_000, n - start)
        topic = rng.integers(topics, size=m)
        vecs[start : start + m] = centroids[topic] * 0.6 + rng.standard_normal((m, dim)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    return vecs
