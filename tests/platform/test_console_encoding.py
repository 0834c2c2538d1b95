"""Windows writes cp1252 into a pipe or file: the command's arrows and non-Latin names must not stop it."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from limbic import cli
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database


@pytest.fixture
def graph_file(tmp_path):
    path = tmp_path / "names.db"
    g = Graph(Database(path))
    g.upsert_entity("Zoë Łukasiewicz", "Person", ["lives in 東京"])
    g.upsert_entity("東京", "Place", [])
    g.add_relation("Zoë Łukasiewicz", "東京", "lives_in")
    g.db.close()
    return path


def _limbic_in_cp1252(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": "cp1252"}  # what a Windows pipe or file is written in
    return subprocess.run([sys.executable, "-m", "limbic", *args], capture_output=True, env=env, timeout=120)


def test_an_entity_with_arrows_and_a_non_latin_name_is_shown_into_a_cp1252_pipe(graph_file):
    done = _limbic_in_cp1252("--db", str(graph_file), "show", "Zoë Łukasiewicz")
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    text = done.stdout.decode("utf-8")  # written as UTF-8: nothing lost
    assert "Zoë Łukasiewicz" in text and "→ 東京" in text


def test_json_into_a_cp1252_pipe_is_utf8_json(graph_file):
    done = _limbic_in_cp1252("--db", str(graph_file), "show", "東京", "--json")
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert json.loads(done.stdout.decode("utf-8"))["name"] == "東京"


class _Console(io.TextIOWrapper):
    def isatty(self) -> bool:
        return True


def test_a_console_that_cannot_show_a_character_shows_a_question_mark(monkeypatch):
    raw = io.BytesIO()
    console = _Console(raw, encoding="cp1252")
    monkeypatch.setattr(sys, "stdout", console)
    monkeypatch.setattr(sys, "stderr", _Console(io.BytesIO(), encoding="cp1252"))
    cli._writable_output()
    print("Zoë ⇄ 東京")
    sys.stderr.write("limbic: 東京 → ?\n")
    console.flush()
    assert raw.getvalue().decode("cp1252") == "Zoë ? ??\n"
