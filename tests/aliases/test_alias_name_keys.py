"""A name is one name whatever its case, with letters beyond A-Z too: an entity's name and every alias are
found by any spelling with the same name key, so none of them can go to a second entity (a mixed case of
accented letters, a German ß written SS)."""

from __future__ import annotations

import pytest

from limbic.engine.errors import NameTakenError, ValidationError

SAME = [("Straße", "STRASSE"), ("STRAẞE", "strasse"), ("éÉ", "Éé"), ("ÉcoLE ÉtÉ", "éCOle éTé"), ("Ǆemal", "ǆEMAL")]


@pytest.mark.parametrize(("name", "other"), SAME)
def test_an_alias_cannot_be_another_entitys_name_in_any_spelling(text_graph, name, other):
    g = text_graph
    g.create_entity(name, "Place")
    g.create_entity("X", "Place")
    assert g.entity_id(other) == g.entity_id(name)
    with pytest.raises(NameTakenError):
        g.add_alias("X", other)
    assert g.aliases_of("X") == []


@pytest.mark.parametrize(("name", "other"), SAME)
def test_an_alias_is_found_by_any_spelling_and_no_one_else_takes_it(text_graph, name, other):
    g = text_graph
    g.create_entity("X", "Place")
    g.create_entity("Y", "Place")
    g.add_alias("X", name)
    assert g.resolve(other) == g.entity_id("X")
    with pytest.raises(NameTakenError):
        g.add_alias("Y", other)
    with pytest.raises(ValidationError):
        g.create_entity(other, "Place")
    assert g.aliases_of("Y") == [] and g.aliases_of("X") == [name]


@pytest.mark.parametrize(("name", "other"), SAME)
def test_two_entities_cannot_share_a_name_in_another_spelling(text_graph, name, other):
    g = text_graph
    g.create_entity(name, "Place")
    with pytest.raises(ValidationError):
        g.create_entity(other, "Place")
    assert [n for (n,) in g.db.execute("SELECT name FROM entities")] == [name]
