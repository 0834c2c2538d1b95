"""An observation edited on one device and replaced by a newer text on another: a conflict on both, never a
silent demotion of the edit to history."""

from __future__ import annotations

import pytest

from limbic.engine.sync import conflicts
from tests.sync.replicas import settle, synced_rows, two_devices


def _seed(g):
    g.upsert_entity("Limbic", "Project", ["version 0.17.4"])


def _current(device) -> list[str]:
    return sorted(r[0] for r in device.graph.db.execute("SELECT content FROM observations WHERE superseded_at IS NULL"))


@pytest.mark.parametrize("first", ["laptop", "desktop"])
def test_an_edit_meeting_a_supersede_is_a_conflict_on_both_devices(tmp_path, first):
    with two_devices(tmp_path, _seed) as (a, b, folder):
        oid = a.graph.db.scalar("SELECT id FROM observations")
        a.graph.edit_observation(oid, "version 0.17.4 (edited on laptop)")
        oid = b.graph.db.scalar("SELECT id FROM observations")
        b.graph.supersede_observation(oid, "version 0.18.0")
        settle([a, b] if first == "laptop" else [b, a], folder)
        assert synced_rows(a.graph) == synced_rows(b.graph)
        assert _current(a) == _current(b) == ["version 0.18.0"]
        for device in (a, b):
            (c,) = conflicts.list_conflicts(device.graph)
            assert c.rule == "superseded_edit", device.device.name
            assert {c.mine, c.theirs} == {"version 0.18.0", "version 0.17.4 (edited on laptop)"}
            assert "the edit is history now" in c.sentence()
        # The laptop brings its edit back beside the newer text; the choice closes the conflict on the desktop too.
        conflicts.resolve(a.graph, conflicts.list_conflicts(a.graph)[0].id, "both")
        settle([a, b], folder)
        assert _current(a) == _current(b) == ["version 0.17.4 (edited on laptop)", "version 0.18.0"]
        assert conflicts.list_conflicts(b.graph) == []
