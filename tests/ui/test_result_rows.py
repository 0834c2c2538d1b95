"""Result rows: a name gets the room it needs before the type and the branch chip are shortened."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFontMetrics, QPainter
from PySide6.QtWidgets import QApplication

from limbic.engine.search.search import SearchResponse, SearchResult
from limbic.ui.search.results import ResultDelegate, ResultList, ResultModel, first_line

NAMES = [("restic", "Tool"), ("Photo library", "Project"), ("Dune", "Book"), ("Skill: incident command", "Skill"),
         ("Marta Quintero", "Person"), ("Lena Okafor", "Person"), ("Tomás Ferreira", "Person")]


def _response() -> SearchResponse:
    results = [SearchResult(i + 1, name, etype, ["Nightly backup of the photo library"], 0.9 - i / 20, 0.7, 0.4, 0.2,
                            0.1, 0.2, 0.03, "both", 1, 1) for i, (name, etype) in enumerate(NAMES)]
    return SearchResponse("photo backup", "hybrid", results, ["photo", "backup"])


def _painted_texts(qtbot, monkeypatch, width: int) -> list[str]:
    """Every string the delegate drew for the rows of a list ``width`` pixels wide."""
    drawn: list[str] = []
    original = QPainter.drawText

    def spy(painter, *args):
        if args and isinstance(args[-1], str):
            drawn.append(args[-1])
        return original(painter, *args)

    model = ResultModel()
    model.set_response(_response())
    view = ResultList()
    qtbot.addWidget(view)
    view.setModel(model)
    view.setItemDelegate(ResultDelegate(view))
    view.resize(width, 900)
    view.show()
    monkeypatch.setattr(QPainter, "drawText", spy)
    view.grab()
    monkeypatch.setattr(QPainter, "drawText", original)
    return drawn


@pytest.mark.parametrize("width", [200, 260, 420, 640])
def test_short_names_are_never_cut_while_the_row_has_room(qtbot, monkeypatch, width):
    drawn = _painted_texts(qtbot, monkeypatch, width)
    for name, _type in NAMES:
        assert name in drawn, f"{name!r} cut in a {width} px list: {[t for t in drawn if t.startswith(name[:3])]}"


def test_the_type_and_the_branch_give_way_first(qtbot):
    font = QApplication.font()
    bold = QApplication.font()
    bold.setBold(True)
    fm_b, fm_s = QFontMetrics(bold), QFontMetrics(font)
    name = "Photo library"
    need = fm_b.horizontalAdvance(name)
    roomy = first_line(need + 400, fm_b, fm_s, name, "Project", "text + meaning")
    assert (roomy.name, roomy.type_text, roomy.branch) == (name, "Project", "text + meaning")
    # Just room for the name and a short chip: the type goes, then the chip shortens, the name stays whole.
    tight = first_line(need + 60, fm_b, fm_s, name, "Infrastructure", "text + meaning")
    assert tight.name == name and tight.branch in ("both", "")
    assert tight.type_text != "Infrastructure"  # shortened or left out
    bare = first_line(need + 4, fm_b, fm_s, name, "Project", "text + meaning")
    assert bare.name == name and bare.branch == "" and bare.type_text == ""
    # Only a name longer than the whole row is shortened.
    long = first_line(80, fm_b, fm_s, "A name far longer than eighty pixels", "Project", "text")
    assert long.name.endswith("…") and long.name_w <= 80
