"""What changed since…: dates in the world given to a text or a relation, and names given, are changes."""

from __future__ import annotations

import pytest

from limbic.service import timeline
from limbic.ui.activity.changes_since import detail_line
from tests.history.conftest import ann_and_companies


@pytest.fixture
def g(tmp_path, clock):
    graph = ann_and_companies(tmp_path / "g.db", clock, "Acme")
    graph.add_relation("Ann", "Acme", "works_at")
    yield graph
    graph.db.close()


def test_dates_set_on_an_observation_and_a_relation_are_changes(g, clock):
    """“When it held…” on an observation, then “Since I last opened it”: it said “Nothing changed”."""
    since = clock.advance(60)
    clock.advance(1)
    obs = g.db.scalar("SELECT id FROM observations WHERE content = 'lives in Oslo'")
    timeline.set_dates(g, g.entity_id("Ann"), "2024-03-01", "", obs_id=obs)
    timeline.set_dates(g, g.entity_id("Ann"), "", "2025-06-30", relation=("Ann", "Acme", "works_at"))
    clock.advance(60)
    got = timeline.changed_since(g, since)
    assert [c["entity"] for c in got.changes] == ["Ann"]
    lines = [detail_line(d) for d in got.changes[0]["details"]]
    assert lines == ["dates: “lives in Oslo” — since 2024-03-01", "dates: relation works_at Acme — until 2025-06-30"]


def test_dates_taken_off_and_an_alias_given_are_changes(g, clock):
    obs = g.db.scalar("SELECT id FROM observations WHERE content = 'lives in Oslo'")
    timeline.set_dates(g, g.entity_id("Ann"), "2024-03-01", "2024-12-31", obs_id=obs)
    since = clock.advance(60)
    clock.advance(1)
    timeline.set_dates(g, g.entity_id("Ann"), "", "", obs_id=obs)
    g.add_alias("Acme", "Acme Corp")
    clock.advance(60)
    got = {c["entity"]: [detail_line(d) for d in c["details"]] for c in timeline.changed_since(g, since).changes}
    assert got == {"Acme": ["+ alias “Acme Corp”"], "Ann": ["dates: “lives in Oslo” — no dates (was 2024-03-01 to 2024-12-31)"]}
