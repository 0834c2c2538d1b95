"""limbic private and limbic assistants: the person's side of what assistants may see, from the command line."""

from __future__ import annotations

import json

from limbic.cli import main
from limbic.service import scope
from limbic.service.opening import open_graph
from tests.scopes.host import Host, seeded


def _seed(graph):
    graph.upsert_entity("Clinic Zebra", "Health", ["blood test"])
    graph.upsert_entity("Ada", "Person", ["plays chess"])


def test_limbic_private_marks_and_unmarks_and_a_running_server_follows(tmp_path, capsys):
    db = seeded(tmp_path / "g.db", _seed)
    host = Host(db)
    try:
        assert "Clinic" in host.ok("read_graph")
        assert main(["private", "Clinic Zebra", "--db", str(db)]) == 0
        assert "is now private" in capsys.readouterr().out
        assert "Clinic" not in host.ok("read_graph")
        assert main(["private", "--off", "Clinic Zebra", "--db", str(db)]) == 0
        assert "Clinic" in host.ok("read_graph")
    finally:
        host.close()
    assert main(["private", "Nobody", "--db", str(db)]) == 1
    assert "Nobody" in capsys.readouterr().err


def test_limbic_assistants_sets_a_scope_and_the_default_and_lists_them(tmp_path, capsys):
    db = seeded(tmp_path / "g.db", _seed)
    host = Host(db, client="claude-code")
    try:
        host.ok("read_graph")
        assert main(["assistants", "set", "claude-code", "--read", "Person", "--write", "none", "--db", str(db)]) == 0
        assert "may read Person and write nothing" in capsys.readouterr().out
        assert "Clinic" not in host.ok("read_graph") and "Ada" in host.ok("read_graph")
        assert main(["assistants", "default", "nothing", "--db", str(db)]) == 0
        capsys.readouterr()
        assert main(["assistants", "--json", "--db", str(db)]) == 0
        listed = json.loads(capsys.readouterr().out)
        assert listed["default"] == "nothing"
        mine = next(a for a in listed["assistants"] if a["client"] == "claude-code")
        assert mine["read"] == ["Person"] and mine["write"] == "none" and mine["own_scope"] and mine["last_seen"]
        assert main(["assistants", "default", "everything", "--db", str(db)]) == 1
    finally:
        host.close()
    opened = open_graph(db, None, load_model=False)
    try:
        assert scope.access_for(opened.graph, "someone new").read == "none"
    finally:
        opened.close()
