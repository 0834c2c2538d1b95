"""A conflict names the devices that made its two values: a third device that meets two others' writes of
one field lists them as theirs, not as its own, and the window says where "mine" was made."""

from __future__ import annotations

import pytest

from limbic.service import sync as service_sync
from tests.sync.replicas import devices, settle


@pytest.mark.parametrize("first", ["desktop", "laptop"])
def test_a_third_device_names_the_two_devices_that_made_the_values(tmp_path, first):
    with devices(tmp_path, "laptop", "desktop", "tablet") as (replicas, folder):
        laptop, desktop, tablet = replicas
        laptop.graph.upsert_entity("Ada", "Person", ["writes novels"])
        settle(replicas, folder)
        desktop.graph.set_entity_type("Ada", "Writer")  # neither seeing the other
        laptop.graph.set_entity_type("Ada", "Painter")
        one, other = (desktop, laptop) if first == "desktop" else (laptop, desktop)
        one.sync(folder)
        tablet.sync(folder)  # the tablet holds the first device's type
        other.sync(folder)
        tablet.sync(folder)  # and meets the other's
        [c] = service_sync.list_conflicts(tablet.graph)
        held = tablet.graph.db.scalar("SELECT entity_type FROM entities WHERE name = 'Ada'")
        makers = {"Writer": desktop, "Painter": laptop}
        mine, theirs = (c.mine, c.theirs)  # "mine": the value this device held when it met the other
        assert held == (mine if c.kept == "mine" else theirs) and {mine, theirs} == {"Writer", "Painter"}
        assert c.my_device == makers[mine].device.id and c.their_device == makers[theirs].device.id
        assert tablet.device.id not in (c.my_device, c.their_device)
        assert c.mine_made_on == makers[mine].device.name
        # On the devices that made the values, their own value is theirs to name.
        for r in (laptop, desktop):
            r.sync(folder)
            for own in service_sync.list_conflicts(r.graph):
                assert own.mine_made_on == "" or own.my_device != r.device.id


def test_the_conflicts_view_says_where_this_devices_value_was_made(qtbot):
    from limbic.engine.sync.conflicts import SyncConflict
    from limbic.ui.sync.conflicts_view import ConflictsView

    made_here = SyncConflict(1, "entity", "g1", "Ada", "entity_type", "field", "Writer", "Painter", "aaaa", "bbbb",
                             "mine", "2026-12-07 10:00:00", my_device_name="tablet", their_device_name="laptop")
    made_there = SyncConflict(2, "entity", "g2", "Bob", "entity_type", "field", "Writer", "Painter", "cccc", "bbbb",
                              "mine", "2026-12-07 10:00:00", my_device_name="desktop", their_device_name="laptop",
                              mine_made_on="desktop")
    view = ConflictsView()
    qtbot.addWidget(view)
    view.set_conflicts([made_here, made_there])
    view.list.setCurrentRow(0)
    assert view.mine_title.text().startswith("Mine (this device)")
    view.list.setCurrentRow(1)
    assert view.mine_title.text().startswith("Mine (this device, made on desktop)")
    assert "laptop" in view.theirs_title.text()


def test_a_third_device_names_the_editor_that_kept_an_entity_deleted_elsewhere(tmp_path):
    with devices(tmp_path, "laptop", "desktop", "tablet") as (replicas, folder):
        laptop, desktop, tablet = replicas
        laptop.graph.upsert_entity("Grace", "Person", ["wrote a compiler"])
        settle(replicas, folder)
        laptop.graph.delete_entity("Grace")
        desktop.graph.add_observations("Grace", ["a rear admiral"])  # not knowing of the deletion
        desktop.sync(folder)
        tablet.sync(folder)  # the tablet holds the edit
        laptop.sync(folder)
        tablet.sync(folder)  # and meets the deletion, which gives way
        [c] = service_sync.list_conflicts(tablet.graph)
        assert c.rule == "deleted_there" and c.kept == "mine"
        assert (c.my_device, c.their_device) == (desktop.device.id, laptop.device.id)
        assert c.mine_made_on == "desktop" and c.mine["unseen"] == ["a rear admiral"]


def test_the_conflicts_list_says_where_this_devices_value_was_made(qtbot):
    from limbic.engine.sync.conflicts import SyncConflict
    from limbic.ui.sync.conflicts_view import line

    kept = SyncConflict(3, "entity", "g3", "Grace", "_row", "deleted_there", {"name": "Grace"}, None, "cccc", "bbbb",
                        "mine", "2026-12-07 10:00:00", my_device_name="desktop", their_device_name="laptop",
                        mine_made_on="desktop")
    assert line(kept) == "“Grace”: deleted on laptop, but changed on desktop; delete it again?"
    typed = SyncConflict(4, "entity", "g4", "Ada", "entity_type", "field", "Writer", "Painter", "cccc", "bbbb",
                         "mine", "2026-12-07 10:00:00", my_device_name="desktop", their_device_name="laptop",
                         mine_made_on="desktop")
    assert "changed here" not in line(typed) and "“Writer” on desktop, “Painter” on laptop" in line(typed)
