"""Back/Forward history: browser rules, no Qt needed."""

from __future__ import annotations

from limbic.service.entity_keys import EntityKey
from limbic.ui.editor.history import NavigationHistory


def _k(n: int, gid: str | None = None) -> EntityKey:
    return EntityKey(gid if gid is not None else f"g{n}", n, f"E{n}")


def test_back_forward_and_a_new_visit_drops_the_forward_entries():
    h = NavigationHistory()
    assert not h.can_back and not h.can_forward and h.step(-1) is None
    for n in (1, 2, 3):
        h.visit(_k(n))
    h.visit(_k(3))  # opening the same entity again adds nothing
    assert h.step(-1) == _k(2) and h.step(-1) == _k(1) and h.step(-1) is None
    assert not h.can_back and h.can_forward
    assert h.step(+1) == _k(2)
    h.visit(_k(9))
    assert not h.can_forward and h.step(-1) == _k(2) and h.step(-1) == _k(1)
    h.clear()
    assert not h.can_back and not h.can_forward


def test_an_id_given_again_to_another_entity_is_another_entry():
    """The id of a merged-away entity goes to the next one made: the same id with another gid is new."""
    h = NavigationHistory()
    h.visit(_k(5, "pg"))
    h.visit(_k(5, "pgbackrest"))
    assert h.can_back and h.step(-1).gid == "pg"


def test_an_entry_that_became_its_neighbour_or_is_gone_leaves_the_history():
    h = NavigationHistory()
    for k in (_k(1), _k(2), _k(3)):
        h.visit(k)
    h.step(-1)
    h.arrived(_k(3))  # entity 2 was merged into 3: Back from 3 reached 3 again
    assert not h.can_forward and h.step(-1) == _k(1)
    h.visit(_k(4))
    h.visit(_k(5))
    h.step(-1)
    h.forget(-1)  # entity 4 was deleted: the step stays on 5, and Back goes on to 1
    assert not h.can_forward and h.step(-1) == _k(1) and h.step(+1) == _k(5)
