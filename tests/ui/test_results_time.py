"""The result list says whether each hit happened in the time the question names: "June 2023 ✓"."""

from __future__ import annotations

from PySide6.QtCore import Qt

from limbic.engine.search.search import SearchResponse, SearchResult
from limbic.ui.search.results import ResultDelegate, ResultModel, numbers_text


def _hit(entity_id: int, name: str, score: float, in_time: bool | None) -> SearchResult:
    return SearchResult(entity_id, name, "Turn", ["Maria adopted a puppy"], score, score, 0.0, 1.0, 0.0, 0.3, 0.03,
                        "both", time_match=in_time)


def test_the_breakdown_shows_the_time_match_and_a_timeless_query_shows_none(qtbot):
    timed = SearchResponse("pet in June 2023", "hybrid", [_hit(1, "June turn", 1.0, True), _hit(2, "August turn", 0.5, False)],
                           ["pet"], time_label="June 2023")
    model = ResultModel()
    model.set_response(timed)
    first, second = (model.result(i) for i in range(2))
    assert numbers_text(first, lambda t: True, 1.0, model.time_label) == "June 2023 ✓ · 100% of the best hit"
    assert numbers_text(second, lambda t: len(t) <= 12, 1.0, model.time_label) == "June 2023 ✗"  # a narrow row keeps the match
    tips = [model.index(i, 0).data(Qt.ItemDataRole.ToolTipRole) for i in range(2)]
    assert "June 2023 ✓" in tips[0] and "June 2023 ✗" in tips[1]
    model.set_response(SearchResponse("pet", "hybrid", [_hit(1, "June turn", 1.0, None)], ["pet"]))
    assert model.time_label is None
    assert numbers_text(model.result(0), lambda t: True, 1.0, model.time_label) == "100% of the best hit"
    assert "✓" not in model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)


def test_a_row_with_a_time_match_paints(qtbot):
    from PySide6.QtWidgets import QListView

    view = QListView()
    qtbot.addWidget(view)
    model = ResultModel(view)
    view.setModel(model)
    view.setItemDelegate(ResultDelegate(view))
    model.set_response(SearchResponse("pet in June 2023", "hybrid", [_hit(1, "June turn", 1.0, True)], ["pet"],
                                      time_label="June 2023"))
    view.resize(500, 300)
    view.show()
    assert not view.grab().toImage().isNull()
