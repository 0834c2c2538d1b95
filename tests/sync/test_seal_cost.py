"""The key of a sealed folder costs what docs/security.md says (scrypt n 2^15, r 8, p 1), and a record written
with the cheaper parameters the other tests use still names and applies its own."""

from __future__ import annotations

import pytest

from limbic.engine.sync import seal

GRAPH = "g" * 32


@pytest.mark.real_seal_cost
def test_a_new_seal_derives_its_key_at_the_documented_cost():
    code = seal.new_code()
    record, key = seal.make_record(code, GRAPH)
    assert record.params == {"n": 1 << 15, "r": 8, "p": 1}
    parsed = seal.Record.parse(record.to_json())
    assert parsed.params == record.params
    assert seal.key_for(parsed, code, GRAPH) == key


def test_a_seal_made_cheaper_is_opened_by_the_parameters_it_names():
    code = seal.new_code()
    record, key = seal.make_record(code, GRAPH)
    assert record.params["n"] == 1 << 10
    with pytest.MonkeyPatch.context() as patch:  # a device whose own default is the real cost
        patch.setitem(seal.SCRYPT, "n", 1 << 15)
        assert seal.key_for(seal.Record.parse(record.to_json()), code, GRAPH) == key
