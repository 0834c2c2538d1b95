"""Back/Forward history: browser rules, no Qt needed."""

from __future__ import annotations

from limbic.ui.editor.history import NavigationHistory


def test_back_forward_and_a_new_visit_drops_the_forward_entries():
    h = NavigationHistory()
    assert not h.can_back and not h.can_forward and h.step(-1) is None
    for entity_id in (1, 2, 3):
        h.visit(entity_id)
    h.visit(3)  # opening the same entity again adds nothing
    assert h.step(-1) == 2 and h.step(-1) == 1 and h.step(-1) is None
    assert not h.can_back and h.can_forward
    assert h.step(+1) == 2
    h.visit(9)
    assert not h.can_forward and h.step(-1) == 2 and h.step(-1) == 1
    h.clear()
    assert not h.can_back and not h.can_forward
