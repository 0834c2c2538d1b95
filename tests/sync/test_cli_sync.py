"""limbic sync, limbic sync --status, limbic conflicts and conflicts resolve, as a person types them."""

from __future__ import annotations

import json

from limbic.cli import main
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database


def _graph(path, *entities):
    g = Graph(Database(path))
    for name, obs in entities:
        g.upsert_entity(name, "Person", obs)
    g.db.close()


def test_sync_joins_remembers_the_folder_and_prints_what_went_each_way(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "Sync"
    folder.mkdir()
    a, b = tmp_path / "laptop" / "g.db", tmp_path / "desktop" / "g.db"
    a.parent.mkdir()
    b.parent.mkdir()
    _graph(a, ("Ada", ["likes tea"]))
    _graph(b, ("Bob", ["plays chess"]))
    assert main(["sync", "--db", str(a), "--folder", str(folder), "--name", "laptop"]) == 0
    assert "Sent 1 change, received 0, 0 new conflicts." in capsys.readouterr().out
    assert main(["sync", "--db", str(b), "--folder", str(folder), "--name", "desktop"]) == 0
    assert "Sent 1 change, received 1" in capsys.readouterr().out
    assert main(["sync", "--db", str(a)]) == 0  # the folder was remembered
    assert "received 1" in capsys.readouterr().out
    assert main(["sync", "--db", str(a), "--status", "--json"]) == 0
    st = json.loads(capsys.readouterr().out)
    assert st["folder"] == str(folder.resolve()) and st["pending"] == 0 and st["unpublished"] == 0
    assert [d["name"] for d in st["devices"]] == ["desktop"]
    assert main(["sync", "--db", str(a), "--status"]) == 0
    assert "desktop" in capsys.readouterr().out


def test_sync_without_a_folder_says_how_to_give_one(tmp_path, capsys):
    _graph(tmp_path / "g.db", ("Ada", []))
    assert main(["sync", "--db", str(tmp_path / "g.db")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("limbic: ") and "--folder" in err and "Traceback" not in err and len(err.splitlines()) == 1


def test_conflicts_are_listed_and_resolved_from_the_command_line(tmp_path, capsys):
    folder = tmp_path / "Sync"
    folder.mkdir()
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    _graph(a, ("Ada", ["likes tea"]))
    main(["sync", "--db", str(a), "--folder", str(folder)])
    main(["sync", "--db", str(b), "--folder", str(folder)])
    for path, text in ((b, "likes black tea"), (a, "likes green tea")):
        g = Graph(Database(path))
        g.edit_observation(g.db.scalar("SELECT id FROM observations"), text)
        g.db.close()
    for path in (a, b, a):
        main(["sync", "--db", str(path)])
    capsys.readouterr()
    assert main(["conflicts", "--db", str(b), "--json"]) == 0
    (c,) = json.loads(capsys.readouterr().out)
    assert {c["mine"], c["theirs"]} == {"likes black tea", "likes green tea"}
    sides = (c["my_device"], c["their_device"])
    assert all(set(side) == {"id", "name"} and side["id"] and side["name"] for side in sides), sides
    assert sides[0]["id"] != sides[1]["id"]
    assert main(["conflicts", "--db", str(b)]) == 0
    assert f"{c['id']}: " in capsys.readouterr().out
    assert main(["conflicts", "resolve", str(c["id"]), "--keep", "both", "--db", str(b)]) == 0
    assert "resolved" in capsys.readouterr().out
    for path in (b, a):
        main(["sync", "--db", str(path)])
    g = Graph(Database(a))
    assert sorted(r[0] for r in g.db.execute("SELECT content FROM observations")) == ["likes black tea", "likes green tea"]
    g.db.close()
    assert main(["conflicts", "resolve", str(c["id"]), "--keep", "mine", "--db", str(b)]) == 1
    assert "resolved already" in capsys.readouterr().err


def test_a_large_deletion_is_refused_without_yes(tmp_path, capsys):
    folder = tmp_path / "Sync"
    folder.mkdir()
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    _graph(a, *((f"E{i}", []) for i in range(12)))
    main(["sync", "--db", str(a), "--folder", str(folder)])
    main(["sync", "--db", str(b), "--folder", str(folder)])
    g = Graph(Database(a))
    for i in range(11):
        g.delete_entity(f"E{i}")
    g.db.close()
    main(["sync", "--db", str(a)])
    capsys.readouterr()
    assert main(["sync", "--db", str(b)]) == 2
    assert "--yes" in capsys.readouterr().err
    assert main(["sync", "--db", str(b), "--yes"]) == 0
    g = Graph(Database(b))
    assert g.db.scalar("SELECT count(*) FROM entities") == 1
    g.db.close()
