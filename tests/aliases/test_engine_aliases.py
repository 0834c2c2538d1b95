"""Aliases in the engine: the v9 table, uniqueness without case, the write path (log, revert, history)."""

from __future__ import annotations

import apsw
import pytest

from limbic.engine.errors import NameTakenError, NotFoundError
from limbic.engine.graph import activity_log, revert
from limbic.engine.graph.graph import Graph
from limbic.engine.store import db as db_module
from limbic.engine.store.db import Database
from tests.old_files import write_v1_file


@pytest.fixture
def nyc(text_graph):
    g = text_graph
    g.create_entity("New York City", "Place", ["a big city"])
    g.create_entity("Paris", "Place")
    assert g.add_alias("New York City", "NYC")
    return g


def test_an_alias_resolves_to_its_entity_in_any_case(nyc):
    city = nyc.entity_id("New York City")
    assert nyc.resolve("NYC") == city and nyc.resolve("nyc") == city
    assert nyc.get_entity("Nyc").name == "New York City"
    assert nyc.aliases_of(city) == ["NYC"]
    assert nyc.add_alias(city, "nyc") is False  # it has it already: nothing added
    with pytest.raises(NotFoundError):
        nyc.resolve("Big Apple")


@pytest.mark.parametrize("write", [
    lambda g: g.add_alias("Paris", "nyc"),  # another entity's alias
    lambda g: g.add_alias("Paris", "new york city"),  # another entity's name
    lambda g: g.create_entity("NYC"),  # a new entity taking an alias
    lambda g: g.rename_entity("Paris", "NYC"),  # a rename taking an alias
])
def test_no_name_or_alias_points_at_two_entities(nyc, write):
    before = (nyc.db.scalar("SELECT count(*) FROM entities"), nyc.aliases_by_entity())
    with pytest.raises(NameTakenError) as err:
        write(nyc)
    message = str(err.value)
    assert message.count(".") <= 2 and "\n" not in message and "New York City" in message
    assert (nyc.db.scalar("SELECT count(*) FROM entities"), nyc.aliases_by_entity()) == before  # nothing lost


def test_an_upsert_or_import_by_an_alias_lands_on_its_entity(nyc):
    assert nyc.upsert_entity("nyc", None, ["never sleeps"]) == nyc.entity_id("New York City")
    entity_id, created = nyc.merge_entity("NYC", None)
    assert (entity_id, created) == (nyc.entity_id("New York City"), False)
    assert nyc.db.scalar("SELECT count(*) FROM entities") == 2


def test_accented_aliases_are_one_alias_whatever_their_case(text_graph):
    g = text_graph
    g.create_entity("Zürich")
    g.create_entity("Geneva")
    g.add_alias("Zürich", "ÉCOLE")
    with pytest.raises(NameTakenError):
        g.add_alias("Geneva", "école")
    assert g.resolve("école") == g.entity_id("Zürich")


def test_renaming_to_its_own_alias_makes_it_the_name(nyc):
    nyc.rename_entity("New York City", "NYC")
    assert nyc.aliases_of("NYC") == [] and nyc.get_entity("NYC").name == "NYC"


def test_alias_writes_are_logged_described_and_revertible(nyc):
    change = nyc.db.activity.last_change_id or int(nyc.db.scalar("SELECT max(id) FROM change_log"))
    (c,) = activity_log.load_changes(nyc.db, [change])
    assert [(i.kind, i.op) for i in c.items] == [("alias", "add")]
    assert c.items[0].summary == "gave “New York City” the alias “NYC”"
    revert.apply(nyc, [change])
    assert nyc.aliases_of("New York City") == []
    with pytest.raises(NotFoundError):
        nyc.resolve("NYC")


def test_an_alias_removal_taken_back_returns_it(nyc):
    nyc.remove_alias("New York City", "nyc")
    assert nyc.aliases_of("New York City") == []
    revert.apply(nyc, [int(nyc.db.scalar("SELECT max(id) FROM change_log"))])
    assert nyc.aliases_of("New York City") == ["NYC"]


def test_aliases_have_recorded_time(nyc, monkeypatch):
    nyc.remove_alias("New York City", "NYC")
    rows = nyc.db.execute("SELECT value, recorded_to, ended FROM history WHERE kind = 'alias'").fetchall()
    assert len(rows) == 1 and '"alias":"NYC"' in rows[0][0] and rows[0][1] is not None and rows[0][2] == "delete"


def test_an_alias_goes_with_its_entity(nyc):
    nyc.delete_entity("New York City")
    assert nyc.db.scalar("SELECT count(*) FROM entity_aliases") == 0
    nyc.create_entity("NYC")  # the name is free again


def _file_at(path, version: int, monkeypatch) -> None:
    monkeypatch.setattr(db_module, "SCHEMA_VERSION", version)
    monkeypatch.setattr(db_module, "_MIGRATIONS", db_module._MIGRATIONS[:version])
    old = Graph(Database(path))
    old.create_entity("New York City", "Place", ["kept"])
    old.db.close()
    monkeypatch.undo()


@pytest.mark.parametrize("version", [8, 4])
def test_an_older_file_is_upgraded_to_aliases(tmp_path, monkeypatch, version):
    path = tmp_path / f"v{version}.db"
    _file_at(path, version, monkeypatch)
    conn = apsw.Connection(str(path))
    assert conn.execute("PRAGMA user_version").fetchall()[0][0] == version
    assert not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'entity_aliases'").fetchall()
    conn.close()
    g = Graph(Database(path))
    try:
        assert g.db.user_version() == db_module.SCHEMA_VERSION
        g.add_alias("New York City", "NYC")
        assert g.get_entity("nyc").observation_texts == ["kept"]
        assert g.db.scalar("SELECT gid FROM entity_aliases") is not None  # it can travel in sync
        assert [i.kind for c in activity_log.load_changes(g.db, [g.db.activity.last_change_id]) for i in c.items] == ["alias"]
    finally:
        g.db.close()


def test_a_version_1_file_is_upgraded_to_aliases(tmp_path):
    path = tmp_path / "v1.db"
    write_v1_file(path)
    g = Graph(Database(path))
    try:
        g.add_alias("Kept", "Also kept")
        assert g.resolve("also kept") == g.entity_id("Kept")
    finally:
        g.db.close()


def test_the_graph_at_a_past_moment_has_the_aliases_it_had_then(nyc):
    from limbic.engine.history.asof import rebuild
    from limbic.engine.store.values import now_utc

    then = now_utc()
    past = rebuild(nyc.db, then)
    try:
        assert Graph(past).resolve("NYC") == nyc.entity_id("New York City")
    finally:
        past.close()


def test_the_activity_panel_lists_alias_changes_by_kind_and_reverts_one(nyc):
    from limbic.service import activity

    nyc.create_entity("Gotham")
    (session,) = activity.sessions(nyc, kind="alias")
    assert [c.summary for c in session.changes] == ["gave “New York City” the alias “NYC”"]
    plan = activity.revert_changes(nyc, [session.changes[0].id])
    assert plan.lines() == ["removed the alias “NYC” of “New York City”"] and nyc.aliases_of("New York City") == []


def test_what_changed_between_two_moments_names_an_alias_given(text_graph, monkeypatch):
    from limbic.engine.history.diff import diff
    from limbic.engine.store import values

    clock = iter(["2026-01-01 10:00:00", "2026-01-02 10:00:00", "2026-01-03 10:00:00", "2026-01-04 10:00:00"])
    now = {"t": next(clock)}
    monkeypatch.setattr(values, "now_utc", lambda: now["t"])
    text_graph.create_entity("New York City", "Place")
    now["t"] = next(clock)
    text_graph.add_alias("New York City", "NYC")
    (change,) = diff(text_graph.db, "2026-01-01 12:00:00", "2026-01-02 12:00:00")
    assert change.entity == "New York City"
    assert change.details == [{"kind": "alias", "change": "added", "text": "NYC"}]
