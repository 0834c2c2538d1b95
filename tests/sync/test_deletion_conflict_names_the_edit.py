"""A deletion against an edit shows the edit that kept the entity: on the device that deleted it and on the
device that edited it, the conflict names what the deletion had not seen, apart from what it had."""

from __future__ import annotations

import pytest

from limbic.service import sync as service_sync
from tests.sync.replicas import devices, settle


@pytest.mark.parametrize("deleter_first", [True, False], ids=["deletion-first", "edit-first"])
def test_both_devices_name_the_edit_the_deletion_had_not_seen(tmp_path, deleter_first):
    with devices(tmp_path, "laptop", "desktop") as (replicas, folder):
        laptop, desktop = replicas
        laptop.graph.upsert_entity("Grace", "Person", ["wrote a compiler"])
        desktop.graph.upsert_entity("Ada", "Person", ["likes tea"])
        settle(replicas, folder)
        laptop.graph.delete_entity("Grace")
        desktop.graph.add_observations("Grace", ["a rear admiral"])  # not knowing of the deletion
        desktop.graph.add_relation("Grace", "Ada", "knows")
        for r in (replicas if deleter_first else replicas[::-1]):
            r.sync(folder)
        settle(replicas, folder)
        for r in replicas:
            [c] = service_sync.list_conflicts(r.graph)
            kept = c.theirs if c.deleter == "mine" else c.mine
            assert kept["unseen"] == ["a rear admiral", "→ knows Ada"], (r.device.name, kept)
            assert "wrote a compiler" in kept["observations"]  # the entity as it stands, seen or not


def test_the_conflicts_view_shows_the_unseen_edit_first(qtbot):
    from limbic.engine.sync.conflicts import SyncConflict
    from limbic.ui.sync.conflicts_view import side_text

    c = SyncConflict(1, "entity", "g1", "Grace", "_row", "deleted_here", None,
                     {"name": "Grace", "type": "Person", "observations": ["wrote a compiler", "a rear admiral"],
                      "unseen": ["a rear admiral"]}, "aaaa", "bbbb", "theirs", "2026-12-07 10:00:00",
                     their_device_name="desktop")
    text = side_text(c, "theirs")
    assert text.startswith("Written where the deletion did not see it:\n  · a rear admiral"), text
    assert side_text(c, "mine") == "Deleted on this device."
