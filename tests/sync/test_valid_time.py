"""Valid time travels: when an observation or a relation held in the world reaches every device."""

from __future__ import annotations

import pytest

from limbic.engine.history.valid import set_observation_validity, set_relation_validity
from limbic.engine.sync import snapshot
from tests.sync.replicas import Replica, settle, two_devices


def _ada_works_with_bob(graph):
    graph.upsert_entity("Ada", "Person", ["lives in Paris"])
    graph.upsert_entity("Bob", "Person", ["plays chess"])
    graph.add_relation("Ada", "Bob", "works with")


@pytest.fixture
def pair(tmp_path):
    with two_devices(tmp_path, _ada_works_with_bob) as devices:
        yield devices


def _valid(replica) -> tuple:
    db = replica.graph.db
    obs = db.one("SELECT valid_from, valid_until FROM observations WHERE content = 'lives in Paris'")
    rel = db.one("SELECT valid_from, valid_until FROM relations WHERE relation_type = 'works with'")
    return tuple(obs), tuple(rel)


def test_an_edit_of_valid_time_on_one_device_reaches_the_other(pair):
    a, b, folder = pair
    obs = a.graph.db.scalar("SELECT id FROM observations WHERE content = 'lives in Paris'")
    set_observation_validity(a.graph, obs, "2019-03-01", "2023-06-30")
    set_relation_validity(a.graph, "Ada", "Bob", "works with", "2020-01-01", None)
    settle([a, b], folder)
    assert _valid(b) == (("2019-03-01", "2023-06-30"), ("2020-01-01", None))
    # And back: cleared on the other device, cleared here.
    obs_b = b.graph.db.scalar("SELECT id FROM observations WHERE content = 'lives in Paris'")
    set_observation_validity(b.graph, obs_b, None, None)
    settle([a, b], folder)
    assert _valid(a) == ((None, None), ("2020-01-01", None))


def test_valid_time_edited_on_both_devices_settles_on_one_value_everywhere(pair):
    a, b, folder = pair
    set_relation_validity(a.graph, "Ada", "Bob", "works with", "2020-01-01", None)
    set_relation_validity(b.graph, "Ada", "Bob", "works with", "2021-05-01", "2022-01-01")
    settle([a, b], folder)
    assert _valid(a) == _valid(b)
    assert _valid(a)[1] in (("2020-01-01", None), ("2021-05-01", "2022-01-01"))


def test_a_new_device_gets_valid_times_from_the_first_publish_and_from_a_snapshot(tmp_path, monkeypatch):
    monkeypatch.setattr(snapshot, "SNAPSHOT_EVERY", 2)
    folder = tmp_path / "folder"
    folder.mkdir()
    a = Replica(tmp_path, "laptop")
    _ada_works_with_bob(a.graph)
    obs = a.graph.db.scalar("SELECT id FROM observations WHERE content = 'lives in Paris'")
    set_observation_validity(a.graph, obs, "2019-03-01", None)
    set_relation_validity(a.graph, "Ada", "Bob", "works with", None, "2024-12-31")
    b = Replica(tmp_path, "desktop")
    settle([a, b], folder)  # b takes a's first publish of its whole graph
    assert _valid(b) == (("2019-03-01", None), (None, "2024-12-31"))
    for i in range(4):  # a snapshot is written and a's first segments compacted away
        a.graph.upsert_entity(f"E{i}", "T", [f"note {i}"])
        settle([a, b], folder, rounds=1)
    c = Replica(tmp_path, "phone")
    settle([a, b, c], folder)
    assert _valid(c) == (("2019-03-01", None), (None, "2024-12-31"))
    for r in (a, b, c):
        r.close()


def test_an_edit_of_valid_time_is_logged_and_said_in_words(pair):
    from limbic.engine.graph import activity_log

    a, _b, _folder = pair
    obs = a.graph.db.scalar("SELECT id FROM observations WHERE content = 'lives in Paris'")
    set_observation_validity(a.graph, obs, "2019-03-01", "2023-06-30")
    set_relation_validity(a.graph, "Ada", "Bob", "works with", "2020-01-01", None)
    last_two = [r[0] for r in a.graph.db.execute("SELECT id FROM change_log ORDER BY id DESC LIMIT 2")]
    summaries = sorted(c.summary for c in activity_log.load_changes(a.graph.db, last_two))
    assert summaries == ["held in the world from 2019-03-01 until 2023-06-30 in “Ada”: “lives in Paris”",
                         "held in the world since 2020-01-01: Ada —works with→ Bob"]


def test_a_file_from_before_valid_time_still_takes_changes_back(tmp_path, monkeypatch):
    from limbic.engine.graph import revert
    from limbic.engine.graph.graph import Graph
    from limbic.engine.store import db as db_module
    from limbic.engine.store.db import Database

    monkeypatch.setattr(db_module, "SCHEMA_VERSION", 7)  # as a file opened by a Limbic of schema 7 is
    g = Graph(Database(tmp_path / "seven.db"))
    g.upsert_entity("Ann", "Person", [])
    g.add_observations("Ann", ["likes tea"])
    revert.apply(g, [g.db.scalar("SELECT max(id) FROM change_log")])
    assert g.db.scalar("SELECT count(*) FROM observations") == 0
    revert.apply(g, [g.db.scalar("SELECT max(id) FROM change_log")])  # and back: the row is written again
    assert g.db.scalar("SELECT content FROM observations") == "likes tea"
    g.db.close()
