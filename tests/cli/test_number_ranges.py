"""Every number a command takes has a range: out of it, or not a number, is one sentence and exit 1, and
ids too large for any change or session are 'not there', never an OverflowError."""

from __future__ import annotations

import argparse
import json

import pytest

from limbic.cli import build_parser, main

ROWS = [{"type": "entity", "name": "Ada", "entityType": "Person", "observations": ["writes programs"]}]


def _parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """Every command's parser with the words that reach it (``conflicts resolve`` too)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield path + (name,), sub
                yield from _parsers(sub, path + (name,))


def _numeric_options() -> list[tuple[list[str], str, list[str]]]:
    """(command words, option, positional fillers) for every option of every command that takes a number."""
    found = []
    for words, p in _parsers(build_parser()):
        positionals = ["x" for a in p._actions if not a.option_strings and a.nargs is None]
        for a in p._actions:
            if a.option_strings and getattr(a.type, "__name__", "") in ("whole number", "number"):
                found.append((list(words), a.option_strings[-1], positionals))
    return found


NUMERIC = _numeric_options()


def test_no_command_takes_a_bare_int_or_float():
    bare = [f"limbic {' '.join(words)} {a.option_strings[-1] if a.option_strings else a.dest.upper()}"
            for words, p in _parsers(build_parser()) for a in p._actions if a.type in (int, float)]
    assert bare == [], "a bare int or float has no range: use cli.common.whole_number or number"


def test_the_numeric_options_are_found():
    assert {(" ".join(c), o) for c, o, _ in NUMERIC} >= {("search", "--limit"), ("activity", "--limit"), ("activity", "--keep"),
                                               ("health", "--limit"), ("health", "--stale-days"), ("backup", "--keep")}


@pytest.mark.parametrize("value", ["0", "-1", str(10**30), "abc", "", "1e400", "nan"])
@pytest.mark.parametrize(("command", "option", "positionals"), NUMERIC, ids=[f"{' '.join(c)} {o}" for c, o, _ in NUMERIC])
def test_a_number_out_of_range_is_one_sentence_and_exit_1(tmp_path, capsys, command, option, positionals, value):
    db = tmp_path / "none.db"
    assert main(["--db", str(db), *command, *positionals, f"{option}={value}"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"limbic: {option} must be a ") and err.count("\n") == 1 and "Traceback" not in err
    assert not db.exists()  # refused before anything is opened


@pytest.fixture
def graph_file(tmp_path, capsys):
    src = tmp_path / "memory.jsonl"
    src.write_text("\n".join(json.dumps(r) for r in ROWS) + "\n", encoding="utf-8")
    db = tmp_path / "g.db"
    assert main(["--db", str(db), "import", str(src)]) == 0
    capsys.readouterr()
    return db


@pytest.mark.parametrize("args", [
    ["revert", "99999999999999999999999"], ["revert", "s99999999999999999999999"],
    ["revert", "99999999999999999999999", "--dry-run"],
    ["activity", "--mark-reviewed", "99999999999999999999999"],
    ["activity", "--mark-reviewed", "s99999999999999999999999"],
])
def test_huge_ids_are_not_there_in_one_sentence(graph_file, capsys, args):
    assert main(["--db", str(graph_file), *args]) == 1
    err = capsys.readouterr().err
    assert err.startswith("limbic: There is no ") and "in the activity log" in err and err.count("\n") == 1


def test_a_huge_limit_is_refused_and_the_largest_one_works(graph_file, capsys):
    assert main(["--db", str(graph_file), "activity", "--limit", "99999999999999999999999"]) == 1
    assert "--limit must be a whole number from 1 to 100,000" in capsys.readouterr().err
    assert main(["--db", str(graph_file), "activity", "--limit", "100000"]) == 0


@pytest.mark.parametrize("keep", ["1000000", "99999999999999999999999", "0"])
def test_the_retention_has_a_range_and_the_log_still_reads(graph_file, capsys, keep):
    assert main(["--db", str(graph_file), "activity", "--keep", keep]) == 1
    assert "--keep must be a whole number from 1 to 36,500" in capsys.readouterr().err
    assert main(["--db", str(graph_file), "activity", "--keep", "36500"]) == 0
    assert main(["--db", str(graph_file), "activity"]) == 0
    assert "Session s" in capsys.readouterr().out


def test_a_retention_stored_before_the_range_was_checked_still_reads(graph_file, capsys):
    from limbic.engine.store.db import Database

    d = Database(graph_file)
    d.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('activity_keep_days', '99999999999999999999999')")
    d.close()
    assert main(["--db", str(graph_file), "activity"]) == 0
    assert "Session s" in capsys.readouterr().out


@pytest.mark.parametrize(("args", "said"), [
    (["--pause", ""], "Name the assistant to pause"), (["--resume", " "], "Name the assistant to resume"),
    (["--mark-reviewed", ""], "is not a change or session id"),
])
def test_an_empty_value_is_refused_not_ignored(graph_file, capsys, args, said):
    assert main(["--db", str(graph_file), "activity", *args]) == 1
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1
