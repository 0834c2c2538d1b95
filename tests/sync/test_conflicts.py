"""Each conflict rule, on two devices: decided the same way on both, the losing value kept and shown."""

from __future__ import annotations

import pytest

from limbic.engine.sync import conflicts
from tests.sync.replicas import settle, synced_hash, synced_rows, two_devices


def _ada_knows_bob(graph):
    graph.upsert_entity("Ada", "Person", ["likes tea"])
    graph.upsert_entity("Bob", "Person", ["plays chess"])
    graph.add_relation("Ada", "Bob", "knows")


@pytest.fixture
def pair(tmp_path):
    with two_devices(tmp_path, _ada_knows_bob) as devices:
        yield devices


def _obs(replica, content):
    return replica.graph.db.scalar("SELECT id FROM observations WHERE content = ?", (content,))


def test_an_edit_whose_before_matches_applies_and_every_device_converges(pair):
    a, b, folder = pair
    a.graph.edit_observation(_obs(a, "likes tea"), "likes green tea")
    settle([a, b], folder)
    assert _obs(b, "likes green tea") and synced_hash(a.graph) == synced_hash(b.graph)
    assert conflicts.list_conflicts(a.graph) == conflicts.list_conflicts(b.graph) == []


def test_the_same_field_edited_on_both_keeps_the_later_and_shows_the_other(pair):
    a, b, folder = pair
    b.graph.edit_observation(_obs(b, "likes tea"), "likes black tea")
    a.graph.edit_observation(_obs(a, "likes tea"), "likes green tea")  # later: it wins everywhere
    a.sync(folder)
    b.sync(folder)
    a.sync(folder)
    assert synced_hash(a.graph) == synced_hash(b.graph)
    winner = a.graph.db.scalar("SELECT content FROM observations WHERE content LIKE 'likes % tea'")
    (on_b,) = conflicts.list_conflicts(b.graph)
    assert {on_b.mine, on_b.theirs} == {"likes black tea", "likes green tea"}
    assert on_b.kept == ("theirs" if winner == "likes green tea" else "mine")
    assert "changed on both devices" in on_b.sentence()


def test_a_conflict_names_both_devices_alike_by_id_and_by_name(pair):
    a, b, folder = pair
    b.graph.set_entity_type("Ada", "Scientist")
    a.graph.set_entity_type("Ada", "Poet")
    settle([a, b], folder)
    for here, there in ((a, b), (b, a)):
        (c,) = conflicts.list_conflicts(here.graph)
        shown = c.to_json()
        assert shown["my_device"] == {"id": here.device.id, "name": here.device.name}, here.device.name
        assert shown["their_device"] == {"id": there.device.id, "name": there.device.name}, here.device.name


def test_adding_observations_on_both_is_a_union_and_the_same_text_is_one(pair):
    a, b, folder = pair
    a.graph.add_observations("Ada", ["from a", "said twice"])
    b.graph.add_observations("Ada", ["from b", "said twice"])
    settle([a, b], folder)
    texts = sorted(r[0] for r in b.graph.db.execute(
        "SELECT content FROM observations o JOIN entities e ON e.id = o.entity_id WHERE e.name = 'Ada'"))
    assert texts == ["from a", "from b", "likes tea", "said twice"]
    assert synced_hash(a.graph) == synced_hash(b.graph)
    assert conflicts.list_conflicts(a.graph) == conflicts.list_conflicts(b.graph) == []


def test_delete_against_edit_keeps_the_entity_with_a_conflict_asking_to_delete_again(pair):
    a, b, folder = pair
    a.graph.delete_entity("Ada")
    b.graph.add_observations("Ada", ["still matters"])
    settle([a, b], folder)
    for r in (a, b):
        assert r.graph.entity_id("Ada") is not None, r.device.name
        assert _obs(r, "still matters") and _obs(r, "likes tea")
    assert synced_hash(a.graph) == synced_hash(b.graph)
    (on_b,) = conflicts.list_conflicts(b.graph)
    assert "deleted on laptop" in on_b.sentence() and "delete again" in on_b.sentence()
    (on_a,) = conflicts.list_conflicts(a.graph)
    assert "delete again" in on_a.sentence()
    conflicts.resolve(b.graph, on_b.id, "theirs")  # delete it after all: everywhere
    settle([a, b], folder)
    assert a.graph.entity_id("Ada") is None and b.graph.entity_id("Ada") is None


def test_an_entity_created_on_both_becomes_one_with_both_sides_rows(pair):
    a, b, folder = pair
    a.graph.upsert_entity("Cleo", "Cat", ["sleeps"])
    a.graph.add_relation("Cleo", "Ada", "owned by")
    b.graph.upsert_entity("Cleo", "Cat", ["purrs"])
    b.graph.add_relation("Cleo", "Bob", "likes")
    settle([a, b], folder)
    for r in (a, b):
        (cleo,) = [row for row in r.graph.db.execute("SELECT id FROM entities WHERE name = 'Cleo'")]
        texts = {x[0] for x in r.graph.db.execute("SELECT content FROM observations WHERE entity_id = ?", cleo)}
        assert texts == {"sleeps", "purrs"}
        assert r.graph.db.scalar("SELECT count(*) FROM relations WHERE from_entity = ?", cleo) == 2
    assert synced_hash(a.graph) == synced_hash(b.graph)


def test_a_rename_onto_a_name_created_on_the_other_device_is_a_conflict_not_a_merge(pair):
    a, b, folder = pair
    a.graph.rename_entity("Bob", "Robert")
    b.graph.upsert_entity("Robert", "Person", ["another man"])
    settle([a, b], folder)
    for r in (a, b):
        names = sorted(x[0] for x in r.graph.db.execute("SELECT name FROM entities"))
        assert names == ["Ada", "Bob", "Robert"], r.device.name  # nobody lost, nobody merged
        robert = r.graph.entity_id("Robert")
        assert {x[0] for x in r.graph.db.execute("SELECT content FROM observations WHERE entity_id = ?",
                                                 (robert,))} == {"another man"}
    assert synced_hash(a.graph) == synced_hash(b.graph)
    assert any(c.rule == "rename_taken" for c in conflicts.list_conflicts(a.graph) + conflicts.list_conflicts(b.graph))


def test_resolving_keep_mine_is_published_and_wins_everywhere(pair):
    a, b, folder = pair
    b.graph.set_entity_type("Ada", "Scientist")
    a.graph.set_entity_type("Ada", "Poet")
    settle([a, b], folder)
    (on_b,) = conflicts.list_conflicts(b.graph)
    conflicts.resolve(b.graph, on_b.id, "mine")
    settle([a, b], folder)
    assert a.graph.get_entity("Ada").entity_type == b.graph.get_entity("Ada").entity_type == "Scientist"
    assert conflicts.list_conflicts(b.graph) == []


def test_sync_changes_are_logged_under_the_device_and_can_be_reverted(pair):
    from limbic.engine.graph import revert

    a, b, folder = pair
    a.graph.add_observations("Ada", ["from the laptop"])
    a.sync(folder)
    b.sync(folder)
    change = b.graph.db.one("SELECT id, origin, tool FROM change_log ORDER BY id DESC LIMIT 1")
    assert change[1] == "sync:laptop" and change[2] == "sync"
    revert.apply(b.graph, [change[0]])
    assert not _obs(b, "from the laptop")
    assert synced_rows(b.graph)["observations"]  # the rest stays


def test_full_text_search_follows_what_sync_applied(pair):
    from limbic.engine.search.search import search

    a, b, folder = pair
    a.graph.add_observations("Bob", ["collects rare zeppelin stamps"])
    a.sync(folder)
    b.sync(folder)
    names = [hit.name for hit in search(b.graph, "zeppelin").results]
    assert names and names[0] == "Bob"


def test_a_removal_naming_a_merged_entity_by_its_other_id_still_applies(tmp_path):
    # Both joined (settled) first: from now on their changes travel one by one.
    with two_devices(tmp_path) as (a, b, folder):
        a.graph.upsert_entity("Ada", "Person", ["one"])
        b.graph.upsert_entity("Ada", "Person", ["two"])
        # The merged entity keeps the smaller id: b's here, so a's changes name it by the other one.
        a.graph.db.execute("UPDATE entities SET gid = ? WHERE name = 'Ada'", ("f" * 32,))
        b.graph.db.execute("UPDATE entities SET gid = ? WHERE name = 'Ada'", ("0" * 32,))
        a.graph.delete_observation(_obs(a, "one"))
        settle([a, b], folder)
        for r in (a, b):
            assert sorted(t for (t,) in r.graph.db.execute("SELECT content FROM observations")) == ["two"], r.device.name
        assert synced_hash(a.graph) == synced_hash(b.graph)
        assert conflicts.list_conflicts(b.graph) == []


def _texts(replica, name):
    return sorted(t for (t,) in replica.graph.db.execute(
        "SELECT o.content FROM observations o JOIN entities e ON e.id = o.entity_id WHERE e.name = ?", (name,)))


def test_an_entity_created_on_both_and_deleted_on_one_before_it_saw_the_other_stays_everywhere(pair):
    a, b, folder = pair
    a.graph.upsert_entity("Cleo", "Cat", ["sleeps"])
    b.graph.upsert_entity("Cleo", "Cat", ["purrs"])
    a.graph.delete_entity("Cleo")  # the laptop never saw the desktop's Cleo
    settle([a, b], folder)
    for r in (a, b):
        assert _texts(r, "Cleo") == ["purrs", "sleeps"], r.device.name
    assert synced_hash(a.graph) == synced_hash(b.graph)
    (on_b,) = conflicts.list_conflicts(b.graph)
    assert "deleted on laptop" in on_b.sentence() and "delete again" in on_b.sentence()
    conflicts.resolve(b.graph, on_b.id, "theirs")  # delete it after all: everywhere
    settle([a, b], folder)
    assert a.graph.entity_id("Cleo") is None and b.graph.entity_id("Cleo") is None


def test_an_entity_created_again_after_its_deletion_was_seen_does_not_bring_the_old_one_back(pair):
    a, b, folder = pair
    a.graph.upsert_entity("Cleo", "Cat", ["sleeps"])
    settle([a, b], folder)
    a.graph.delete_entity("Cleo")
    settle([a, b], folder)
    b.graph.upsert_entity("Cleo", "Cat", ["purrs"])  # a new Cleo, made after the deletion arrived
    settle([a, b], folder)
    for r in (a, b):
        assert _texts(r, "Cleo") == ["purrs"], r.device.name
    assert synced_hash(a.graph) == synced_hash(b.graph)
    assert conflicts.list_conflicts(a.graph) == conflicts.list_conflicts(b.graph) == []


def test_a_text_added_on_both_beside_its_superseded_self_joins_the_current_row(pair):
    a, b, folder = pair
    a.graph.supersede_observation(_obs(a, "likes tea"), "likes coffee")
    settle([a, b], folder)
    a.graph.add_observations("Ada", ["likes tea"])  # back to tea on both: the old row stays superseded
    b.graph.add_observations("Ada", ["likes tea"])
    settle([a, b], folder)
    for r in (a, b):
        rows = sorted(r.graph.db.execute(
            "SELECT superseded_by IS NULL FROM observations WHERE content = 'likes tea'").fetchall())
        assert rows == [(0,), (1,)], r.device.name
    assert synced_hash(a.graph) == synced_hash(b.graph)


def test_an_entity_renamed_away_from_a_name_the_other_device_created_at_once_becomes_one(pair):
    a, b, folder = pair
    a.graph.upsert_entity("Cleo", "Cat", ["sleeps"])
    b.graph.upsert_entity("Cleo", "Cat", ["purrs"])
    a.graph.rename_entity("Cleo", "Cleopatra")  # before the laptop saw the desktop's Cleo
    settle([a, b], folder)
    assert synced_hash(a.graph) == synced_hash(b.graph)
    for r in (a, b):
        assert len(r.graph.db.execute("SELECT id FROM entities WHERE name LIKE 'Cleo%'").fetchall()) == 1


def test_a_deletion_that_gives_way_keeps_the_relations_pointing_at_the_entity_too(pair):
    a, b, folder = pair
    a.graph.add_relation("Bob", "Ada", "admires")
    settle([a, b], folder)
    a.graph.delete_entity("Ada")
    b.graph.add_observations("Ada", ["still matters"])
    settle([a, b], folder)
    for r in (a, b):
        assert r.graph.db.scalar("SELECT count(*) FROM relations WHERE relation_type = 'admires'") == 1, r.device.name
    assert synced_hash(a.graph) == synced_hash(b.graph)
