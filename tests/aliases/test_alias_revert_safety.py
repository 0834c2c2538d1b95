"""Undo, redo and revert never give a name to two entities: an alias put back, or an entity brought back, whose
name another writer has given since to another entity stops with a conflict instead of doubling it or of
doing nothing without a word."""

from __future__ import annotations

import pytest

from limbic.engine.graph.graph import Graph
from limbic.engine.graph import revert
from limbic.engine.graph.revert import SKIP, RevertConflict
from limbic.engine.store.db import Database
from limbic.engine.store.values import name_key
from limbic.service import organise, undo
from limbic.service.aliases import change_alias


@pytest.fixture
def g(tmp_path):
    graph = Graph(Database(tmp_path / "g.db"))
    graph.create_entity("X", "Person", ["mine"])
    yield graph
    graph.db.close()


def _other_writer(g, write) -> None:
    """Another program's commit on the same file, through its own connection."""
    other = Graph(Database(g.db.path))
    try:
        write(other)
    finally:
        other.db.close()


def _names(g) -> dict[str, list[str]]:
    """Every name the graph knows, by name key: the entities and aliases that go by it (one each, when sound)."""
    out: dict[str, list[str]] = {}
    for (name,) in g.db.execute("SELECT name FROM entities"):
        out.setdefault(name_key(name), []).append(f"entity {name}")
    for owner, alias in g.db.execute("SELECT e.name, a.alias FROM entity_aliases a JOIN entities e ON e.id = a.entity_id"):
        out.setdefault(name_key(alias), []).append(f"alias {alias} of {owner}")
    return out


def _doubled(g) -> dict[str, list[str]]:
    return {k: v for k, v in _names(g).items() if len(v) > 1}


def test_undoing_an_alias_removal_stops_when_another_writer_made_an_entity_of_that_name(g):
    g.add_alias("X", "Nick")
    step = change_alias(g, g.entity_id("X"), "Nick", add=False)
    _other_writer(g, lambda o: o.create_entity("nick", "Person", ["theirs"]))
    with pytest.raises(RevertConflict) as err:
        undo.undo_step(g, step)
    assert "nick" in str(err.value).lower()
    assert g.aliases_of("X") == [] and _doubled(g) == {}  # nothing changed
    undo.undo_step(g, step, SKIP)  # keep theirs: the alias stays off
    assert g.aliases_of("X") == [] and g.get_entity("nick").observation_texts == ["theirs"] and _doubled(g) == {}


def test_redoing_an_alias_stops_when_another_writer_made_an_entity_of_that_name(g):
    step = change_alias(g, g.entity_id("X"), "Nick", add=True)
    undo.undo_step(g, step)
    _other_writer(g, lambda o: o.create_entity("NICK", "Person"))
    with pytest.raises(RevertConflict):
        undo.redo_step(g, step)
    assert g.aliases_of("X") == [] and _doubled(g) == {}


def test_redoing_an_alias_another_entity_goes_by_now_is_a_conflict_not_a_silent_nothing(g):
    g.create_entity("Y", "Person")
    step = change_alias(g, g.entity_id("X"), "Nick", add=True)
    undo.undo_step(g, step)
    _other_writer(g, lambda o: o.add_alias("Y", "nick"))
    with pytest.raises(RevertConflict) as err:
        undo.redo_step(g, step)
    assert "Y" in str(err.value)
    assert g.aliases_of("X") == [] and g.aliases_of("Y") == ["nick"]


def test_reverting_an_alias_removal_while_another_entity_has_the_alias_says_so(g):
    g.create_entity("Y", "Person")
    g.add_alias("X", "Zed")
    g.remove_alias("X", "Zed")
    removal = g.db.activity.last_change_id
    _other_writer(g, lambda o: o.add_alias("Y", "zed"))
    with pytest.raises(RevertConflict):
        revert.apply(g, [removal])
    assert g.aliases_of("X") == [] and g.aliases_of("Y") == ["zed"]


def test_undoing_a_merge_stops_when_the_merged_away_name_is_another_entitys_alias_now(g):
    g.create_entity("A", "Person", ["a"])
    g.create_entity("B", "Person", ["b"])
    step = organise.merge_entities(g, "A", "B")  # B goes by "A" too

    def move_the_name(o):
        o.remove_alias("B", "A")
        o.create_entity("C", "Person")
        o.add_alias("C", "A")
    _other_writer(g, move_the_name)
    with pytest.raises(RevertConflict) as err:
        undo.undo_step(g, step)
    assert "C" in str(err.value)
    assert g.entity_id("A") is None and g.resolve("A") == g.entity_id("C") and _doubled(g) == {}
    undo.undo_step(g, step, SKIP)  # the rest comes back; "A" stays C's alias, not a second entity's name
    assert _doubled(g) == {} and g.resolve("A") == g.entity_id("C")


def test_undoing_a_rename_stops_when_the_old_name_is_another_entitys_alias_now(g):
    step = undo.save_draft(g, _renamed(g, "X", "Xavier")).step
    _other_writer(g, lambda o: (o.create_entity("Y", "Person"), o.add_alias("Y", "x")))
    with pytest.raises(RevertConflict):
        undo.undo_step(g, step)
    assert g.entity_id("Xavier") is not None and _doubled(g) == {}


def _renamed(g, name, new):
    from dataclasses import replace

    from limbic.service.entities import EntityDraft, load_view

    return replace(EntityDraft.from_view(load_view(g, name)), name=new)


def test_undoing_a_delete_stops_when_its_alias_names_an_entity_made_since_under_the_same_id(tmp_path):
    g = Graph(Database(tmp_path / "lone.db"))
    try:
        g.create_entity("A", "Person", ["a"])
        g.add_alias("A", "Ay")
        step = undo.delete_entity(g, "A")
        _other_writer(g, lambda o: o.create_entity("ay", "Person", ["theirs"]))  # takes the freed id too
        with pytest.raises(RevertConflict) as err:
            undo.undo_step(g, step)
        assert "ay" in str(err.value)
        undo.undo_step(g, step, SKIP)  # A comes back, without the name that is theirs now
        assert g.get_entity("A").observation_texts == ["a"] and g.aliases_of("A") == [] and _doubled(g) == {}
    finally:
        g.db.close()
