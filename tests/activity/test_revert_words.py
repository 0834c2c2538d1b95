"""A revert's words name each thing once and say what it is now: the piece it keeps names the observation, its
entity and what replaced it, and calls the person's own edit theirs ("you"), not another writer's; taking back a
replaced observation says what comes back in place of what (it said “changed an observation of “Harbor API””)."""

from __future__ import annotations

from limbic.engine.graph import revert
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service import activity


def _last(g: Graph) -> int:
    return int(g.db.scalar("SELECT max(id) FROM change_log"))


def _obs_id(g: Graph, content: str) -> int:
    return int(g.db.scalar("SELECT id FROM observations WHERE content = ?", (content,)))


def _graph(tmp_path) -> Graph:
    g = Graph(Database(tmp_path / "g.db"))
    activity.set_origin(g, "app")
    with g.db.activity.using("test"):
        g.upsert_entity("Tomás Ferreira", "Person", ["Tech lead"])
    return g


def test_the_kept_piece_names_what_the_person_replaced_it_with(tmp_path):
    g = _graph(tmp_path)
    activity.set_origin(g, "assistant", "Claude Desktop")
    with g.db.activity.using("add_observations"):
        g.add_observations("Tomás Ferreira", ["Owns the v2.9 release checklist"])
    theirs = _last(g)
    activity.set_origin(g, "app")
    with g.db.activity.using("edit"):
        g.supersede_observation(_obs_id(g, "Owns the v2.9 release checklist"), "Owns the v2.9 and v2.10 release checklists")
    try:
        plan = revert.plan(g, [theirs])
        (kept,) = plan.conflicts
        assert kept.what == ("the observation “Owns the v2.9 release checklist” of “Tomás Ferreira” was replaced since "
                             "by “Owns the v2.9 and v2.10 release checklists”")
        assert kept.by_person and kept.sentence().startswith(kept.what + " (you, in Limbic, ")
        assert "““" not in kept.sentence() and "””" not in kept.sentence()  # each thing quoted once
    finally:
        g.db.close()


def test_another_writers_edit_is_theirs_and_says_what_the_text_became(tmp_path):
    g = _graph(tmp_path)
    with g.db.activity.using("test"):
        g.add_observations("Tomás Ferreira", ["Reviews refunds"])
    ours = _last(g)
    activity.set_origin(g, "assistant", "Cursor")
    with g.db.activity.using("edit"):
        g.edit_observation(_obs_id(g, "Reviews refunds"), "Reviews refunds and chargebacks")
    try:
        (kept,) = revert.plan(g, [ours]).conflicts
        assert kept.what == ("the observation “Reviews refunds” of “Tomás Ferreira” was edited since, "
                             "to “Reviews refunds and chargebacks”")
        assert not kept.by_person and "(Cursor, " in kept.sentence()
    finally:
        g.db.close()


def test_taking_back_a_replacement_says_what_comes_back_in_place_of_what(tmp_path):
    g = _graph(tmp_path)
    old = _obs_id(g, "Tech lead")
    activity.set_origin(g, "assistant", "Claude Desktop")
    with g.db.activity.using("add_observations"):
        g.supersede_observation(old, "Tech lead of the payments team")
    theirs = _last(g)
    try:
        lines = revert.plan(g, [theirs]).lines()
        assert "brought back in “Tomás Ferreira”: “Tech lead”, in place of “Tech lead of the payments team”" in lines
        assert not any(line.startswith("changed an observation") for line in lines)
    finally:
        g.db.close()
