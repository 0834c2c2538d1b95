"""The revert preview names an entity it deletes once, with its pieces, not each piece after it."""

from __future__ import annotations

from limbic.engine.graph import revert
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service import activity
from limbic.ui.activity.revert_preview import RevertPreview


def _plan(tmp_path):
    g = Graph(Database(tmp_path / "g.db"))
    try:
        activity.set_origin(g, "app")
        with g.db.activity.using("create"):
            g.upsert_entity("restic", "Software", ["backups"])
        mine = int(g.db.scalar("SELECT max(id) FROM change_log"))
        activity.set_origin(g, "assistant", "Claude Desktop")
        with g.db.activity.using("create_entities"):
            g.upsert_entity("pgBackRest", "Software", ["backs up Postgres", "keeps WAL archives"])
            g.add_relation("pgBackRest", "restic", "replaces")
            g.add_observations("restic", ["slower than pgBackRest"])
        theirs = [r[0] for r in g.db.execute("SELECT id FROM change_log WHERE id > ? ORDER BY id", (mine,))]
        return revert.plan(g, theirs)
    finally:
        g.db.close()


def test_the_pieces_of_an_entity_it_deletes_are_folded_into_its_line(qtbot, tmp_path):
    """'removed from “pgBackRest”: …' followed 'deleted “pgBackRest”': the pieces it deletes anyway."""
    preview = RevertPreview(_plan(tmp_path), "revert")
    qtbot.addWidget(preview)
    lines = preview.taking()
    assert lines[0] == "deleted “pgBackRest” (with its 2 observations and 1 relation)", lines
    assert not any("pgBackRest”:" in line or "—replaces→" in line for line in lines[1:]), lines
    assert any("slower than pgBackRest" in line for line in lines), lines  # restic's own piece stays
    assert preview.take_label.text() == f"It will take back {len(lines)} pieces:"
