"""A conflict is listed alike on every device, whatever order the changes meet each device in: the device
whose change gave way lists it as the one whose change held does, and one conflict met under two global
ids of the same row (made on two devices, then merged) is one conflict."""

from __future__ import annotations

import itertools

import pytest

from limbic.service import sync as service_sync
from tests.sync.replicas import Replica, next_second, settle


def _edit_against_removal(a, b, c, folder):
    a.graph.upsert_entity("Ada", "Person", ["tea from alpha"])
    settle([a, b, c], folder)
    a.graph.edit_observation(a.graph.db.scalar("SELECT id FROM observations"), "tea edited on alpha")
    c.graph.delete_observation(c.graph.db.scalar("SELECT id FROM observations"))  # not knowing of the edit


def _made_on_two_deleted_on_one(a, b, c, folder):
    next_second()  # made in one second: one creation time, no conflict over it
    a.graph.upsert_entity("Ada", "Person", ["tea from alpha"])
    a.graph.delete_entity("Ada")
    b.graph.upsert_entity("Ada", "Person", ["tea from beta"])  # not knowing of alpha's


def _made_published_deleted_made_elsewhere(a, b, c, folder):
    next_second()  # made in one second: one creation time, no conflict over it
    a.graph.upsert_entity("Ada", "Person", ["tea from alpha"])
    a.sync(folder)
    a.graph.delete_entity("Ada")
    b.graph.upsert_entity("Ada", "Person", ["tea from beta"])


def _made_renamed_away_made_elsewhere(a, b, c, folder):
    next_second()  # made in one second: one creation time, no conflict over it
    a.graph.upsert_entity("Ada", "Person", ["tea from alpha"])
    a.graph.rename_entity("Ada", "Ada2")
    b.graph.upsert_entity("Ada", "Person", ["tea from beta"])  # the rename holds: nothing of either is lost


def _changed_then_made_elsewhere(a, b, c, folder):
    # The later creation's time and type hold (a creation has no before-values: it replaced what it never saw).
    a.graph.upsert_entity("Ada", "Person", ["tea from alpha"])
    a.graph.set_entity_type("Ada", "Tea")
    next_second()
    b.graph.upsert_entity("Ada", "Person", ["tea from beta"])  # later, not knowing of alpha's: Tea is lost to it


def _made_elsewhere_then_changed(a, b, c, folder):
    next_second()  # both made in one second: one creation time, no conflict over it
    a.graph.upsert_entity("Ada", "Person", ["tea from alpha"])
    b.graph.upsert_entity("Ada", "Person", ["tea from beta"])  # not knowing of alpha's
    b.sync(folder)
    next_second()
    a.graph.set_entity_type("Ada", "Tea")  # later than beta's creation: it replaced Person, as beta made it too



def _changed_twice_then_elsewhere(a, b, c, folder):
    a.graph.upsert_entity("Ada", "Person", ["tea from alpha"])
    settle([a, b, c], folder)
    a.graph.set_entity_type("Ada", "Tea")
    a.graph.set_entity_type("Ada", "Chess")  # it saw Tea: Tea is not lost, Chess is (to beta's later type)
    next_second()
    b.graph.set_entity_type("Ada", "Rain")


def _deleted_made_again_and_elsewhere(a, b, c, folder):
    next_second()  # made in one second: one creation time, no conflict over it
    a.graph.upsert_entity("Ada", "Person", ["tea from alpha"])
    a.graph.delete_entity("Ada")
    b.graph.upsert_entity("Ada", "Person", ["tea from beta"])  # not knowing of alpha's: alpha's deletion gives way
    a.graph.upsert_entity("Ada", "Person", ["tea from alpha"])  # made again, one with the old Ada where it comes back


def _deleted_made_again_a_second_later(a, b, c, folder):
    next_second()  # alpha's first Ada and beta's made in one second
    a.graph.upsert_entity("Ada", "Person", ["tea from alpha"])
    a.graph.delete_entity("Ada")
    b.graph.upsert_entity("Ada", "Person", ["tea from beta"])
    # Made again later: its creation time replaces alpha's first one, which it saw (no conflict), and beta's,
    # which it did not (a conflict, though the two were the same time).
    next_second()
    a.graph.upsert_entity("Ada", "Person", ["tea from alpha"])


def _changed_around_a_change_elsewhere(a, b, c, folder):
    a.graph.upsert_entity("Ada", "Person", ["tea from alpha"])
    settle([a, b, c], folder)
    a.graph.set_entity_type("Ada", "Chess")
    next_second()
    b.graph.set_entity_type("Ada", "Tea")  # over Person, not knowing of Chess: Chess is lost to it
    next_second()
    a.graph.set_entity_type("Ada", "Person")  # over Chess, not knowing of Tea: Tea is lost to it


def _same_value_made_on_both(a, b, c, folder):
    a.graph.upsert_entity("Ada", "Person", ["tea from alpha"])
    settle([a, b, c], folder)
    a.graph.set_entity_type("Ada", "Tea")
    a.graph.set_entity_type("Ada", "Chess")  # over its own Tea
    next_second()
    b.graph.set_entity_type("Ada", "Tea")  # the same Tea, over Person, not knowing of alpha's: Chess is lost


def _made_elsewhere_first_then_changed(a, b, c, folder):
    c.graph.upsert_entity("Ada", "Person", ["tea from gamma"])
    next_second()
    # After gamma's, not knowing of it: the same Person (no conflict), its own creation time (a conflict).
    a.graph.upsert_entity("Ada", "Person", ["tea from alpha"])
    a.graph.set_entity_type("Ada", "Tea")
    a.graph.set_entity_type("Ada", "Chess")  # over its own Tea: nothing of gamma's is lost


def _edited_removed_edited_elsewhere(a, b, c, folder):
    a.graph.upsert_entity("Ada", "Person", ["tea from alpha"])
    settle([a, b, c], folder)
    a.graph.edit_observation(a.graph.db.scalar("SELECT id FROM observations"), "tea edited on alpha")
    a.graph.delete_observation(a.graph.db.scalar("SELECT id FROM observations"))  # it saw its own edit
    next_second()
    # Later, not knowing of either: the text comes back with this edit; alpha's edit was removed knowingly.
    b.graph.edit_observation(b.graph.db.scalar("SELECT id FROM observations"), "tea edited on beta")


def _changed_deleted_and_deleted_elsewhere(a, b, c, folder):
    a.graph.upsert_entity("Bob", "Person", ["chess"])
    settle([a, b, c], folder)
    a.graph.set_entity_type("Bob", "Tea")
    a.graph.delete_entity("Bob")  # it saw its own change
    next_second()
    b.graph.delete_entity("Bob")  # later, not knowing of either: wherever it met the change first it gave way,
    # and the deletion that saw the change, arriving after, answers its "delete again?"


def _made_and_deleted_on_two(a, b, c, folder):
    next_second()  # made in one second: one creation time, no conflict over it
    a.graph.upsert_entity("Ada", "Person", ["tea from alpha"])
    a.graph.delete_entity("Ada")
    b.graph.upsert_entity("Ada", "Person", ["tea from beta"])  # not knowing of alpha's
    b.graph.delete_entity("Ada")  # each deletion missed the other's Ada: nothing is lost, each asks


def _listed(r: Replica) -> list[tuple[str, str]]:
    return sorted((c.kind, c.rule.replace("deleted_there", "deleted").replace("deleted_here", "deleted")
                   + (f":{c.field}" if c.rule == "field" else "")) for c in service_sync.list_conflicts(r.graph))


@pytest.mark.parametrize("order", ["".join(p) for p in itertools.permutations("abc")])
@pytest.mark.parametrize("scenario, expected", [
    (_edit_against_removal, [("observation", "deleted")]),
    (_made_on_two_deleted_on_one, [("entity", "deleted")]),
    (_made_published_deleted_made_elsewhere, [("entity", "deleted")]),
    (_made_renamed_away_made_elsewhere, []),
    (_changed_then_made_elsewhere, [("entity", "field:created_at"), ("entity", "field:type")]),
    (_made_elsewhere_then_changed, []),
    (_changed_twice_then_elsewhere, [("entity", "field:type")]),
    (_deleted_made_again_and_elsewhere, [("entity", "deleted")]),
    (_deleted_made_again_a_second_later, [("entity", "deleted"), ("entity", "field:created_at")]),
    (_changed_around_a_change_elsewhere, [("entity", "field:type"), ("entity", "field:type")]),
    (_same_value_made_on_both, [("entity", "field:type")]),
    (_made_elsewhere_first_then_changed, [("entity", "field:created_at")]),
    (_edited_removed_edited_elsewhere, [("observation", "deleted")]),
    (_changed_deleted_and_deleted_elsewhere, []),
    (_made_and_deleted_on_two, [("entity", "deleted")]),
], ids=lambda v: v.__name__.strip("_") if callable(v) else None)
def test_every_device_lists_the_same_conflicts(tmp_path, scenario, expected, order):
    folder = tmp_path / "folder"
    folder.mkdir()
    a, b, c = replicas = [Replica(tmp_path, n) for n in ("alpha", "beta", "gamma")]
    try:
        settle(replicas, folder)
        scenario(a, b, c, folder)
        for key in order:  # who publishes first decides what each device meets first
            {"a": a, "b": b, "c": c}[key].sync(folder)
        settle(replicas, folder)
        keys = {r.device.name: sorted(k for (k,) in r.graph.db.execute(
            "SELECT key FROM sync_conflicts WHERE resolved_at IS NULL")) for r in replicas}
        assert len({tuple(v) for v in keys.values()}) == 1, keys
        for r in replicas:
            assert _listed(r) == expected, r.device.name
    finally:
        for r in replicas:
            r.close()


def test_the_device_that_removed_a_text_an_edit_brought_back_can_remove_it_again(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    a, b, c = replicas = [Replica(tmp_path, n) for n in ("alpha", "beta", "gamma")]
    try:
        settle(replicas, folder)
        _edit_against_removal(a, b, c, folder)
        settle(replicas, folder)
        (conflict,) = service_sync.list_conflicts(c.graph)
        assert conflict.mine is None and conflict.theirs["content"] == "tea edited on alpha"
        service_sync.resolve_conflict(c.graph, conflict.id, "mine")  # this device's side: removed
        settle(replicas, folder)
        for r in replicas:
            assert r.graph.db.scalar("SELECT count(*) FROM observations") == 0, r.device.name
            assert service_sync.list_conflicts(r.graph) == [], r.device.name
    finally:
        for r in replicas:
            r.close()



@pytest.mark.parametrize("order", ["".join(p) for p in itertools.permutations("abc")])
def test_a_value_changed_before_a_first_publish_is_listed_alike(tmp_path, order):
    """Each device publishes its graph as it stands when it first joins: the laptop's Ada as made, the desktop's
    (made later, marked private since) as it is then. Its addition replaced the laptop's value without seeing
    it, a conflict; the desktop, meeting the laptop's creation below its own, weighs it against the value its
    first publish carried, not the one its Ada was made with."""
    folder = tmp_path / "folder"
    folder.mkdir()
    a, b, c = replicas = [Replica(tmp_path, n) for n in ("alpha", "beta", "gamma")]
    try:
        c.sync(folder)
        next_second()  # both made in one second: one creation time, no conflict over it
        a.graph.upsert_entity("Ada", "Person", ["tea from alpha"])
        a.sync(folder)
        b.graph.upsert_entity("Ada", "Person", ["tea from beta"])
        b.graph.set_private("Ada", True)
        for key in order:
            {"a": a, "b": b, "c": c}[key].sync(folder)
        settle(replicas, folder)
        for r in replicas:
            assert _listed(r) == [("entity", "field:private")], (order, r.device.name)
    finally:
        for r in replicas:
            r.close()


@pytest.mark.parametrize("order", ["".join(p) for p in itertools.permutations("abc")])
def test_a_value_typed_back_after_a_first_publish_is_listed_alike(tmp_path, order):
    """The laptop's first publish carries Ada typed Tea; it types her back to Person after. The desktop made its
    Ada (Person) in the same second, stamped below that publish: in clock order the publish's Tea replaced
    the desktop's Person unseen (a conflict), and the laptop's own change back to Person saw Tea. The laptop,
    meeting the desktop's Person below its publish while it holds Person again, lists that conflict too."""
    folder = tmp_path / "folder"
    folder.mkdir()
    a, b, c = replicas = [Replica(tmp_path, n) for n in ("alpha", "beta", "gamma")]
    try:
        b.sync(folder)  # joined with nothing: its next changes are stamped by their time
        c.sync(folder)
        next_second()  # every write below in one second: one creation time, the desktop's stamp its start
        a.graph.upsert_entity("Ada", "Person", ["tea from alpha"])
        a.graph.set_entity_type("Ada", "Tea")
        a.sync(folder)  # its first publish, stamped by the clock (within the second)
        b.graph.upsert_entity("Ada", "Person", ["tea from beta"])  # stamped by its time, the second's start
        a.graph.set_entity_type("Ada", "Person")
        for key in order:
            {"a": a, "b": b, "c": c}[key].sync(folder)
        settle(replicas, folder)
        for r in replicas:
            assert r.graph.get_entity("Ada").entity_type == "Person", (order, r.device.name)
            assert _listed(r) == [("entity", "field:type")], (order, r.device.name)
    finally:
        for r in replicas:
            r.close()
