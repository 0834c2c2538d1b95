"""An in-memory model of a graph's content, the writes the harness makes, and the log of acknowledged writes."""

from __future__ import annotations

import copy
import json
import os
import random
from dataclasses import dataclass, field
from pathlib import Path

from limbic.engine.store.db import Database
from limbic.engine.graph.graph import DEFAULT_TYPE, Graph

WORDS = (
    "river memory lantern quartz orbit meadow cipher harbor violet ember tundra signal "
    "café naïve Zürich 東京 ключ σοφία مرحبا 🙂 tab\there new\nline"
).split(" ")


@dataclass
class State:
    """What a graph holds, by name: {name: [type, [observations in order]]} and active relations."""

    entities: dict[str, list] = field(default_factory=dict)
    relations: set[tuple[str, str, str]] = field(default_factory=set)

    def copy(self) -> State:
        return State(copy.deepcopy(self.entities), set(self.relations))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.entities == other.entities and self.relations == other.relations

    def diff(self, other: State) -> str:
        """A short description of how two states differ, for assertion messages."""
        a, b = set(self.entities), set(other.entities)
        changed = [n for n in a & b if self.entities[n] != other.entities[n]]
        return (
            f"only here {sorted(a - b)[:3]}, only there {sorted(b - a)[:3]}, changed {changed[:3]}, "
            f"relations only here {sorted(self.relations - other.relations)[:3]}, "
            f"only there {sorted(other.relations - self.relations)[:3]}"
        )


def read_state(db: Database) -> State:
    """The content of a graph file as a State."""
    state = State()
    names = {}
    for entity_id, name, etype in db.execute("SELECT id, name, entity_type FROM entities"):
        names[entity_id] = name
        state.entities[name] = [etype, []]
    for entity_id, content in db.execute("SELECT entity_id, content FROM observations ORDER BY id"):
        state.entities[names[entity_id]][1].append(content)
    for a, b, rtype in db.execute("SELECT from_entity, to_entity, relation_type FROM relations WHERE active = 1"):
        state.relations.add((names[a], names[b], rtype))
    return state


def _append(obs: list[str], texts: list[str]) -> None:
    have = set(obs)
    for t in texts:
        if t not in have:
            have.add(t)
            obs.append(t)


def apply(state: State, op: dict) -> None:
    """Apply one write to the model, with the same meaning Graph gives it."""
    kind, ents = op["op"], state.entities
    if kind == "upsert":
        if op["name"] not in ents:
            ents[op["name"]] = [op["type"] or DEFAULT_TYPE, []]
        elif op["type"] is not None:
            ents[op["name"]][0] = op["type"]
        _append(ents[op["name"]][1], op["obs"])
    elif kind == "add_obs":
        _append(ents[op["name"]][1], op["obs"])
    elif kind == "edit_obs":
        ents[op["name"]][1][op["index"]] = op["text"]
    elif kind == "delete_obs":
        del ents[op["name"]][1][op["index"]]
    elif kind == "retype":
        ents[op["name"]][0] = op["type"]
    elif kind == "rename":
        ents[op["new"]] = ents.pop(op["name"])
        state.relations = {
            (op["new"] if a == op["name"] else a, op["new"] if b == op["name"] else b, t) for a, b, t in state.relations
        }
    elif kind == "delete":
        del ents[op["name"]]
        state.relations = {r for r in state.relations if op["name"] not in (r[0], r[1])}
    elif kind == "relate":
        state.relations.add((op["name"], op["target"], op["type"]))
    elif kind == "unrelate":
        state.relations.discard((op["name"], op["target"], op["type"]))
    elif kind == "relate_if_both":  # an imported relation: skipped when an end is missing
        if op["name"] in ents and op["target"] in ents:
            state.relations.add((op["name"], op["target"], op["type"]))
    else:
        raise ValueError(kind)


def perform(graph: Graph, op: dict) -> None:
    """Make one write through the engine's public API."""
    kind = op["op"]
    if kind == "upsert":
        graph.upsert_entity(op["name"], op["type"], op["obs"])
    elif kind == "add_obs":
        graph.add_observations(op["name"], op["obs"])
    elif kind in ("edit_obs", "delete_obs"):
        obs_id = graph.get_entity(op["name"]).observations[op["index"]].id
        if kind == "edit_obs":
            graph.edit_observation(obs_id, op["text"])
        else:
            graph.delete_observation(obs_id)
    elif kind == "retype":
        graph.set_entity_type(op["name"], op["type"])
    elif kind == "rename":
        graph.rename_entity(op["name"], op["new"])
    elif kind == "delete":
        graph.delete_entity(op["name"])
    elif kind == "relate":
        graph.add_relation(op["name"], op["target"], op["type"])
    elif kind == "unrelate":
        graph.remove_relation(op["name"], op["target"], op["type"])
    else:
        raise ValueError(kind)


def text(rng: random.Random, words: int = 6) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).strip() + f" #{rng.randrange(10**9)}"


def next_op(rng: random.Random, state: State, prefix: str, shared: list[str], serial: list[int]) -> dict:
    """A random write that is valid on ``state``; renames and deletes touch only this writer's entities."""
    own = [n for n in state.entities if n.startswith(prefix)]
    serial[0] += 1
    fresh = f"{prefix}{serial[0]}"
    roll = rng.random()
    if not own or roll < 0.18:
        return {"op": "upsert", "name": fresh, "type": rng.choice([None, "Person", "Project"]), "obs": [text(rng) for _ in range(rng.randrange(0, 4))]}
    name = rng.choice(own)
    obs = state.entities[name][1]
    if roll < 0.40:
        return {"op": "add_obs", "name": rng.choice(own + shared), "obs": [text(rng)]}
    if roll < 0.50 and obs:
        return {"op": "edit_obs", "name": name, "index": rng.randrange(len(obs)), "text": text(rng)}
    if roll < 0.56 and obs:
        return {"op": "delete_obs", "name": name, "index": rng.randrange(len(obs))}
    if roll < 0.62:
        return {"op": "retype", "name": name, "type": rng.choice(["Person", "Project", "Place", "Idea"])}
    if roll < 0.70:
        return {"op": "rename", "name": name, "new": fresh}
    if roll < 0.76:
        return {"op": "delete", "name": name}
    mine = sorted(r for r in state.relations if r[0] in own)
    if roll < 0.84 and mine:
        a, b, t = rng.choice(mine)
        return {"op": "unrelate", "name": a, "target": b, "type": t}
    return {"op": "relate", "name": name, "target": rng.choice(own + shared), "type": rng.choice(["knows", "part of", "cites"])}


class AckLog:
    """Append-only log of writes: the intent before, the acknowledgement after it returned."""

    def __init__(self, path: Path) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

    def write(self, record: dict) -> None:
        # One small write(2) per line: a kill leaves whole lines (or none), never half an acknowledgement.
        os.write(self.fd, (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8", "surrogatepass"))


def read_log(path: Path) -> list[dict]:
    out = []
    if not path.exists():
        return out
    for line in path.read_bytes().decode("utf-8", "surrogatepass").splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            pass  # a line cut by the kill was never acknowledged
    return out
