"""A paused assistant cannot write under a look-alike of its name, and a NUL in a name is refused with a sentence."""

from __future__ import annotations

import os

import pytest

from limbic.engine.errors import ValidationError
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.mcp.protocol import CAPABILITIES_KEY, CLIENT_INFO_KEY, VERSION_KEY
from limbic.service import activity, memory
from tests.mcp.raw import RawServer, limbic_command

LOOK_ALIKES = ["alpha", "Alpha", "ALPHA", "alpha ", " alpha", "alpha\u200b", "ａｌｐｈａ", "\u200balpha\u2060",
               "al\u00adpha", "alpha\ufeff", "\u3164alpha", "alpha\u00a0", "alpha\t"]


def test_every_look_alike_of_a_paused_name_is_refused(text_graph):
    activity.set_paused(text_graph, "alpha", True)
    for name in LOOK_ALIKES:
        assert activity.client_name(name) == "alpha" or activity.client_name(name).casefold() == "alpha", repr(name)
        assert "paused" in (activity.write_refusal(text_graph, name) or ""), repr(name)
    for other in ("alphabet", "beta", "al pha"):
        assert activity.write_refusal(text_graph, other) is None, other


def test_a_pause_made_under_a_look_alike_holds_the_plain_name_and_resumes_from_it(text_graph):
    activity.set_paused(text_graph, "ａｌｐｈａ\u200b ", True)
    assert activity.paused_clients(text_graph) == ["alpha"]
    assert activity.write_refusal(text_graph, "alpha")
    activity.set_paused(text_graph, "Alpha", False)
    assert activity.paused_clients(text_graph) == [] and activity.write_refusal(text_graph, "alpha") is None


def test_a_nul_in_a_client_name_is_refused_with_a_sentence(text_graph):
    with pytest.raises(ValidationError, match="NUL"):
        activity.client_name("alpha\x00")
    with pytest.raises(ValidationError, match="NUL"):
        activity.set_paused(text_graph, "alpha\x00", True)


def _server(db):
    command, env = limbic_command(db)
    return RawServer(command, {**env, "LIMBIC_HOME": os.environ["LIMBIC_HOME"]})


def _paused_db(tmp_path):
    db = tmp_path / "g.db"
    g = Graph(Database(db))
    activity.set_paused(g, "alpha", True)
    g.db.close()
    return db


def _stored(db) -> int:
    g = Graph(Database(db))
    try:
        return len(memory.read_graph(g)["entities"])
    finally:
        g.db.close()


def test_look_alikes_cannot_write_through_limbic_mcp(tmp_path):
    db = _paused_db(tmp_path)
    with _server(db) as s:
        for i, name in enumerate(LOOK_ALIKES + ["alpha\x00"]):
            envelope = {VERSION_KEY: "2026-07-28", CAPABILITIES_KEY: {}, CLIENT_INFO_KEY: {"name": name, "version": "1"}}
            answer = s.request("tools/call", {"name": "create_entities", "_meta": envelope, "arguments": {
                "entities": [{"name": f"Slipped {i}", "entityType": "t", "observations": []}]}})
            if "\x00" in name:
                assert answer["error"]["code"] == -32602 and "NUL" in answer["error"]["message"], answer
            else:
                assert answer["result"]["isError"] and "paused" in answer["result"]["content"][0]["text"], (name, answer)
        envelope = {VERSION_KEY: "2026-07-28", CAPABILITIES_KEY: {}, CLIENT_INFO_KEY: {"name": "\u200bbeta ", "version": "1"}}
        answer = s.request("tools/call", {"name": "create_entities", "_meta": envelope, "arguments": {
            "entities": [{"name": "Allowed", "entityType": "t", "observations": []}]}})
        assert not answer["result"].get("isError"), answer
    assert _stored(db) == 1
    g = Graph(Database(db))
    try:
        assert {s.client for s in activity.sessions(g)} == {"beta"}  # logged as the name it is compared as
    finally:
        g.db.close()


def test_a_handshake_with_a_nul_in_the_name_is_refused_and_a_look_alike_stays_paused(tmp_path):
    db = _paused_db(tmp_path)
    with _server(db) as s:
        refused = s.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                           "clientInfo": {"name": "alpha\x00", "version": "1"}})
        assert refused["error"]["code"] == -32602 and "NUL" in refused["error"]["message"]
        s.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                 "clientInfo": {"name": "ａｌｐｈａ ", "version": "1"}})
        s.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        answer = s.call("create_entities", {"entities": [{"name": "Slipped", "entityType": "t", "observations": []}]})
        assert answer["isError"] and "paused" in answer["content"][0]["text"]
    assert _stored(db) == 0
