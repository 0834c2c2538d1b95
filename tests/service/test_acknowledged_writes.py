"""Every reply of a write tool that says a write happened is true: random sequences of every write the MCP
tools make (create, add, supersede, delete observation, delete entity, re-add, create relation,
end_relation, re-create, delete relation), each checked against ``read_graph`` after each step."""

from __future__ import annotations

import io
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from limbic.engine.errors import LimbicError
from limbic.engine.formats.jsonl import export_to
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service import memory, memory_history

NAMES = st.sampled_from(["Ada", "Bob"])
TEXTS = st.sampled_from(["Lives in Madrid", "Lives in Lisbon", "Plays the cello"])
TYPES = st.sampled_from(["knows", "works with"])


class Writes(RuleBasedStateMachine):
    """A graph and what its acknowledged writes say it holds."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="limbic-writes-"))
        self.graph = Graph(Database(self.folder / "g.db"))
        self.entities: dict[str, set[str]] = {}  # name -> current observations
        self.relations: set[tuple[str, str, str]] = set()  # active ones

    def teardown(self) -> None:
        self.graph.db.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    # -- what the graph says ----------------------------------------------------------------

    def stored(self) -> tuple[dict[str, set[str]], set[tuple[str, str, str]]]:
        answer = memory.read_graph(self.graph)
        entities = {e["name"]: set(e["observations"]) for e in answer["entities"]}
        assert all(len(e["observations"]) == len(set(e["observations"])) for e in answer["entities"]), answer
        return entities, {(r["from"], r["to"], r["relationType"]) for r in answer["relations"]}

    def refused_and_unchanged(self, call) -> bool:
        """Run a write; when it is refused, nothing may have changed. True when it went through."""
        before = self.stored()
        try:
            self.result = call()
        except LimbicError as exc:
            assert str(exc) and "Traceback" not in str(exc)
            assert self.stored() == before, "a refused write changed the graph"
            return False
        return True

    @invariant()
    def the_graph_holds_what_was_acknowledged(self) -> None:
        assert self.stored() == (self.entities, self.relations)

    # -- writes -----------------------------------------------------------------------------

    @rule(name=NAMES, texts=st.lists(TEXTS, max_size=3))
    def create(self, name: str, texts: list[str]) -> None:
        created = memory.create_entities(self.graph, [{"name": name, "entityType": "person", "observations": texts}])
        if name in self.entities:
            assert created == []
            return
        assert [c["name"] for c in created] == [name]
        self.entities[name] = set(texts)
        assert self.stored()[0][name] == set(created[0]["observations"])

    @rule(name=NAMES, texts=st.lists(TEXTS, min_size=1, max_size=3))
    def add(self, name: str, texts: list[str]) -> None:
        if not self.refused_and_unchanged(lambda: memory.add_observations(
                self.graph, [{"entityName": name, "contents": texts}])):
            assert name not in self.entities
            return
        [item] = self.result
        added = item["addedObservations"]
        assert added == [t for t in dict.fromkeys(texts) if t not in self.entities[name]]
        assert set(added) <= self.stored()[0][name], "acknowledged observations are not stored"
        self.entities[name] |= set(added)

    @rule(name=NAMES, old=TEXTS, new=TEXTS)
    def supersede(self, name: str, old: str, new: str) -> None:
        went = self.refused_and_unchanged(lambda: memory.add_observations(
            self.graph, [{"entityName": name, "contents": [new], "supersedes": old}]))
        if not went:
            assert name not in self.entities or old not in self.entities[name]
            return
        [item] = self.result
        held = new != old and new in self.entities[name]
        assert item["addedObservations"] == ([] if held else [new]) and item["supersededObservation"] == old
        now = self.stored()[0][name]
        assert new in now and (old == new or old not in now), "an acknowledged supersede is not what is stored"
        self.entities[name] = (self.entities[name] - {old}) | {new}

    @rule(name=NAMES, texts=st.lists(TEXTS, min_size=1, max_size=2))
    def delete_observations(self, name: str, texts: list[str]) -> None:
        message = memory.delete_observations(self.graph, [{"entityName": name, "observations": texts}])
        if message == "Observations deleted successfully":
            assert name in self.entities
        if name in self.entities:
            assert not set(texts) & self.stored()[0][name], "a deleted observation is still stored"
            self.entities[name] -= set(texts)

    @rule(name=NAMES)
    def delete_entity(self, name: str) -> None:
        memory.delete_entities(self.graph, [name])
        assert name not in self.stored()[0]
        self.entities.pop(name, None)
        self.relations = {r for r in self.relations if name not in (r[0], r[1])}

    @rule(source=NAMES, other=NAMES, rtype=TYPES)
    def relate(self, source: str, other: str, rtype: str) -> None:
        relation = {"from": source, "to": other, "relationType": rtype}
        if not self.refused_and_unchanged(lambda: memory.create_relations(self.graph, [relation])):
            assert source not in self.entities or other not in self.entities
            return
        triple = (source, other, rtype)
        assert self.result == ([] if triple in self.relations else [relation])
        assert triple in self.stored()[1], "an acknowledged relation is not stored"
        self.relations.add(triple)

    @rule(source=NAMES, other=NAMES, rtype=TYPES)
    def end(self, source: str, other: str, rtype: str) -> None:
        relation = {"from": source, "to": other, "relationType": rtype}
        if not self.refused_and_unchanged(lambda: memory_history.end_relation(self.graph, relations=[relation])):
            assert (source, other, rtype) not in self.relations
            return
        triple = (source, other, rtype)
        assert bool(self.result["ended"]) == (triple in self.relations)
        assert triple not in self.stored()[1], "an ended relation is still followed"
        self.relations.discard(triple)

    @rule(source=NAMES, other=NAMES, rtype=TYPES)
    def unrelate(self, source: str, other: str, rtype: str) -> None:
        message = memory.delete_relations(self.graph, [{"from": source, "to": other, "relationType": rtype}])
        if message == "Relations deleted successfully":
            assert source in self.entities and other in self.entities
        assert (source, other, rtype) not in self.stored()[1]
        self.relations.discard((source, other, rtype))


def test_the_reported_re_add_after_a_supersede_is_stored(text_graph):
    memory.create_entities(text_graph, [{"name": "Ada", "entityType": "person", "observations": ["Lives in Madrid"]}])
    memory.add_observations(text_graph, [{"entityName": "Ada", "contents": ["Lives in Lisbon"], "supersedes": "Lives in Madrid"}])
    for _ in range(2):  # a retry must not "succeed" again either
        [item] = memory.add_observations(text_graph, [{"entityName": "Ada", "contents": ["Lives in Madrid"]}])
        [ada] = memory.read_graph(text_graph)["entities"]
        assert set(item["addedObservations"]) <= set(ada["observations"])
    assert ada["observations"] == ["Lives in Lisbon", "Lives in Madrid"]
    assert memory.search_nodes(text_graph, "Madrid")["entities"][0]["name"] == "Ada"
    out = io.StringIO()
    export_to(text_graph, out)
    [exported] = [json.loads(line) for line in out.getvalue().splitlines()]
    assert exported["observations"] == ["Lives in Lisbon", "Lives in Madrid"]  # current again, and history kept
    assert [o["content"] for o in exported["superseded"]] == ["Lives in Madrid"]


_CHECKS = [HealthCheck.too_slow, HealthCheck.data_too_large]


def test_every_acknowledged_write_is_stored():
    run_state_machine_as_test(Writes, settings=settings(max_examples=25, stateful_step_count=20, deadline=None, database=None,
                                                          suppress_health_check=_CHECKS))


@pytest.mark.slow
def test_every_acknowledged_write_is_stored_over_many_sequences():
    run_state_machine_as_test(Writes, settings=settings(max_examples=600, stateful_step_count=50, deadline=None, database=None,
                                                          suppress_health_check=_CHECKS))
