"""The secrets guard on assistants' writes: what looks like a credential is held, never stored or served, and the
person accepts (optionally private) or discards it; the person's own writes are never held."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from limbic.cli import main
from limbic.engine.text import credentials
from limbic.service import held
from tests.scopes.host import Host, seeded
from tests.scopes.test_credentials import HELD, KEPT

KEY = "sk-proj-4fG7hJ2kL9mN3pQ8rS1tV6wX0yZ5aB2cD7eF4gH9iJ3kL8mN1pQ6rS0tV5w"


def _seed(graph):
    graph.upsert_entity("Ada", "Person", ["plays chess"])


def test_an_assistants_credential_is_held_not_stored_nor_served(tmp_path):
    db = seeded(tmp_path / "g.db", _seed)
    host = Host(db)
    try:
        is_error, text = host.call("add_observations", observations=[{"entityName": "Ada", "contents": [f"key {KEY}"]}])
        assert is_error and "Held for the person to review" in text and "API key (OpenAI)" in text and KEY not in text
        is_error, text = host.call("create_entities", entities=[{"name": "Wifi", "entityType": "Thing",
                                                                 "observations": ["password: Tr0ub4dor&3"]}])
        assert is_error and "looks like a password" in text
        for tool, args in (("read_graph", {}), ("search_nodes", {"query": "key"}), ("search", {"query": "Wifi password"})):
            out = host.ok(tool, **args)
            assert KEY not in out and "Tr0ub4dor" not in out and "Wifi" not in out
        assert host.run(lambda g: g.db.scalar("SELECT count(*) FROM observations WHERE content LIKE '%sk-proj%'")) == 0
        waiting = host.run(held.held)
        assert [(h.client, h.tool) for h in waiting] == [("work-assistant", "add_observations"),
                                                         ("work-assistant", "create_entities")]
        # A look-alike is written as sent.
        assert host.ok("add_observations", observations=[{"entityName": "Ada", "contents": [
            "commit 3c53718e2f0b6a1d9c4e8f7a2b5d0c1e9f8a7b6c, ISBN 978-0-306-40615-7"]}])
    finally:
        host.close()


def test_the_person_accepts_one_private_and_discards_the_other(tmp_path, capsys):
    db = seeded(tmp_path / "g.db", _seed)
    host = Host(db)
    try:
        host.call("create_entities", entities=[{"name": "Wifi", "entityType": "Thing",
                                                "observations": ["password: Tr0ub4dor&3"]}])
        host.call("add_observations", observations=[{"entityName": "Ada", "contents": [f"key {KEY}"]}])
    finally:
        host.close()
    assert main(["held", "--json", "--db", str(db)]) == 0
    first, second = json.loads(capsys.readouterr().out)
    assert main(["held", "accept", str(first["id"]), "--private", "--db", str(db)]) == 0
    assert main(["held", "discard", str(second["id"]), "--db", str(db)]) == 0
    assert main(["held", "discard", str(second["id"]), "--db", str(db)]) == 1  # decided already
    capsys.readouterr()
    host = Host(db)
    try:
        assert "Wifi" not in host.ok("read_graph")  # stored, private: no assistant sees it
        assert host.run(lambda g: g.db.scalar("SELECT private FROM entities WHERE name = 'Wifi'")) == 1
        assert host.run(lambda g: g.db.scalar("SELECT count(*) FROM held_writes WHERE arguments LIKE '%sk-proj%'")) == 0
        assert [h.state for h in host.run(held.held, True)] == ["accepted", "discarded"]
        assert host.run(held.held) == []
    finally:
        host.close()


def test_the_persons_own_write_is_never_held(tmp_path):
    db = seeded(tmp_path / "g.db", lambda g: g.upsert_entity("Vault", "Thing", [f"key {KEY}"]))
    host = Host(db)
    try:
        assert host.run(lambda g: g.db.scalar("SELECT count(*) FROM observations WHERE content LIKE '%sk-proj%'")) == 1
        assert host.run(held.held) == []
    finally:
        host.close()


def _reasons_text_by_text(arguments: dict) -> list[str]:
    """The reasons, found the plain way: each text of the arguments looked at on its own, in the walk's order."""
    out: list[str] = []
    todo = list(arguments.items())
    while todo:
        key, value = todo.pop(0)
        if key in held.SKIPPED_KEYS:
            continue
        if isinstance(value, dict):
            todo.extend(value.items())
        elif isinstance(value, list):
            todo.extend((key, v) for v in value)
        elif isinstance(value, str) and (what := credentials.looks_like(value)):
            reason = f"{held._WHAT.get(key, 'a value')} looks like {what}"
            if reason not in out:
                out.append(reason)
    return out


_TEXTS = st.sampled_from([text for text, _ in HELD] + KEPT + ["plain", "", "10:30", "a = b"])
_KEYS = st.sampled_from(["name", "entityType", "observations", "contents", "entityName", "aliases", "context", "kind"])
_VALUES = st.recursive(_TEXTS | st.integers(0, 3) | st.none(),
                       lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4), max_leaves=25)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_KEYS | st.just("entities"), _VALUES, max_size=4))
def test_the_reasons_are_those_and_in_the_order_of_looking_at_each_text_alone(arguments):
    assert held.reasons_in(arguments) == _reasons_text_by_text(arguments)


def test_reasons_come_in_the_order_of_the_walk_across_items():
    """An item's observations are looked at after the next item's name (the walk goes level by level)."""
    arguments = {"entities": [{"name": "Wifi", "entityType": "Thing", "observations": ["card 5555-5555-5555-4444"]},
                              {"name": f"token {KEY}", "entityType": "Thing", "observations": []}]}
    assert held.reasons_in(arguments) == ["a name looks like an API key (OpenAI)", "an observation looks like a card number"]
