"""create_entities checks a call of plain items whole (``memory_args.plain_entities``): whenever it does, it finds
the values checking each item on its own finds, and it leaves every other call to that check."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from limbic.engine.errors import ValidationError
from limbic.service import memory
from limbic.service import memory_args as A
from tests.bench.bench_mcp import entity

# Texts near the edges: plain ones, a space at an end, a tab, a control character, non-ASCII, empty.
TEXT = st.one_of(st.sampled_from(["Ann", "a b", " a", "a ", "", "\t", "x\x07", "Café", "ß", "A\u0301", "x" * 129]),
                 st.text(alphabet=" ab\t\x00é", max_size=6))
ITEM = st.fixed_dictionaries({"name": TEXT, "entityType": TEXT, "observations": st.lists(TEXT, max_size=3)},
                             optional={"status": st.sampled_from([None, "active", "paused", "nonsense"]),
                                       "extra": st.just(1)}) | st.sampled_from([None, "text", {"name": "N"}])


def each_on_its_own(items: list) -> list | str:
    budget, problems, out = A.Budget(), A.Problems("entities"), []
    for i, item in enumerate(items):
        fields = problems.check(i, memory._entity_item, item, budget)
        if fields is not None:
            out.append((i, *fields))
    try:
        problems.raise_if_any()
    except ValidationError as exc:
        return str(exc)
    return out


@settings(max_examples=400, deadline=None)
@given(st.lists(ITEM, max_size=4))
def test_a_call_checked_whole_gets_the_values_of_each_item_checked(items):
    whole = A.plain_entities(items)
    if whole is not None:
        assert whole == each_on_its_own(items)


def test_the_usual_call_is_checked_whole():
    items = [entity(i) for i in range(200)]
    assert A.plain_entities(items) == each_on_its_own(items)
    assert A.plain_entities([*items, {**entity(7), "name": "Ann "}]) is None  # trimmed on its own: not plain
