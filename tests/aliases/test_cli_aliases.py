"""limbic alias add|remove|list, and limbic show by an alias printing the aliases."""

from __future__ import annotations

import json

from limbic.cli import main
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database


def test_alias_commands_and_show_by_alias(tmp_path, capsys):
    path = tmp_path / "g.db"
    g = Graph(Database(path))
    g.create_entity("New York City", "Place", ["a big city"])
    g.create_entity("Paris", "Place")
    g.db.close()
    db = ["--db", str(path)]
    assert main(["alias", "add", "New York City", "NYC", "Big Apple", *db]) == 0
    assert "is now also known as “Big Apple”" in capsys.readouterr().out
    assert main(["show", "nyc", *db]) == 0
    out = capsys.readouterr().out
    assert out.startswith("New York City (Place") and "also known as: NYC, Big Apple" in out
    assert main(["show", "big apple", "--json", *db]) == 0
    assert json.loads(capsys.readouterr().out)["aliases"] == ["NYC", "Big Apple"]
    # Refused as a whole: "Paris" is another entity's name, so "Gotham" is not added either.
    assert main(["alias", "add", "NYC", "Gotham", "Paris", *db]) == 1
    err = capsys.readouterr().err
    assert "Paris" in err and "Traceback" not in err and err.count("\n") == 1
    assert main(["alias", "remove", "New York City", "big apple", *db]) == 0
    capsys.readouterr()
    assert main(["alias", "list", "NYC", *db]) == 0
    assert capsys.readouterr().out == "New York City: NYC\n"
    assert main(["alias", "add", "NYC", *db]) == 1  # no alias named: one sentence
    assert "Name at least one alias" in capsys.readouterr().err
