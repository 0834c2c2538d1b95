"""A choice made in one device's Conflicts view settles the same conflict on every device, and two choices
made without seeing each other never drop a text silently: what they left out is a conflict of its own."""

from __future__ import annotations

from limbic.engine.sync import conflicts
from tests.sync.replicas import settle, two_devices


def _ada(graph):
    graph.upsert_entity("Ada", "Person", ["version 0.17.4"])


def _edited_on_both(a, b, folder):
    for device, text in ((b, "version 0.17.4 (edited on desktop)"), (a, "version 0.17.4 (edited on laptop)")):
        oid = device.graph.db.scalar("SELECT id FROM observations WHERE content = 'version 0.17.4'")
        device.graph.edit_observation(oid, text)
    settle([a, b], folder)
    for device in (a, b):
        assert len(conflicts.list_conflicts(device.graph)) == 1, device.device.name


def _texts(device) -> list[str]:
    return sorted(r[0] for r in device.graph.db.execute("SELECT content FROM observations WHERE superseded_at IS NULL"))


def test_a_choice_made_on_one_device_closes_the_conflict_on_the_other(tmp_path):
    with two_devices(tmp_path, _ada) as (a, b, folder):
        _edited_on_both(a, b, folder)
        mine = conflicts.list_conflicts(a.graph)[0]
        conflicts.resolve(a.graph, mine.id, "both")
        settle([a, b], folder)
        assert conflicts.list_conflicts(b.graph) == []
        theirs = conflicts.list_conflicts(b.graph, resolved=True)[0]
        assert theirs.resolved == "both"
        assert b.graph.db.scalar("SELECT resolved_by FROM sync_conflicts WHERE id = ?", (theirs.id,)) == "laptop"
        both = ["version 0.17.4 (edited on desktop)", "version 0.17.4 (edited on laptop)"]
        assert _texts(a) == both and _texts(b) == both


def test_keeping_one_text_there_keeps_the_same_text_here(tmp_path):
    with two_devices(tmp_path, _ada) as (a, b, folder):
        _edited_on_both(a, b, folder)
        c = conflicts.list_conflicts(b.graph)[0]
        conflicts.resolve(b.graph, c.id, "mine")  # the desktop keeps its own text
        settle([a, b], folder)
        on_laptop = conflicts.list_conflicts(a.graph, resolved=True)[0]
        assert on_laptop.resolved == "theirs"  # the laptop reads the same choice from its side
        assert _texts(a) == _texts(b) == ["version 0.17.4 (edited on desktop)"]


def test_two_choices_made_apart_keep_the_text_they_left_out_as_a_new_conflict(tmp_path):
    with two_devices(tmp_path, _ada) as (a, b, folder):
        _edited_on_both(a, b, folder)
        kept = conflicts.list_conflicts(a.graph)[0].kept
        # Each device chooses its own text before hearing of the other's choice.
        conflicts.resolve(a.graph, conflicts.list_conflicts(a.graph)[0].id, "mine")
        conflicts.resolve(b.graph, conflicts.list_conflicts(b.graph)[0].id, "mine")
        settle([a, b], folder)
        assert _texts(a) == _texts(b) and len(_texts(a)) == 1
        left_out = ({"version 0.17.4 (edited on desktop)", "version 0.17.4 (edited on laptop)"} - set(_texts(a))).pop()
        for device in (a, b):
            raised = conflicts.list_conflicts(device.graph)
            assert [c.rule for c in raised] == ["resolved_twice"], (device.device.name, kept)
            assert left_out in (raised[0].mine, raised[0].theirs)
            assert "chosen differently" in raised[0].sentence()
        # Keeping both brings the text back into the live graph, on both devices.
        conflicts.resolve(a.graph, conflicts.list_conflicts(a.graph)[0].id, "both")
        settle([a, b], folder)
        assert left_out in _texts(a) and left_out in _texts(b)
        assert conflicts.list_conflicts(b.graph) == []
