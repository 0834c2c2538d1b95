"""The result model and delegate helpers, without a worker."""

from __future__ import annotations

from PySide6.QtCore import Qt

from limbic.engine.search.search import SearchResponse, SearchResult
from limbic.ui.search.results import ResultDelegate, ResultModel, Roles, best_observation, highlight_html, snippet


def _result(entity_id: int, name: str, obs: list[str], distance: float | None = 0.3, branch: str = "both") -> SearchResult:
    return SearchResult(entity_id, name, "Project", obs, 0.8 - entity_id / 100, 0.7, 0.4, 0.9, 1.5, distance, 0.03, branch, 1, 2)


def _response() -> SearchResponse:
    return SearchResponse(
        "ledger postgres",
        "hybrid",
        [
            _result(1, "Harbor API", ["Payments gateway", "Ledger moved to Postgres 16"]),
            _result(2, "Postgres 16", ["Relational database"], distance=None, branch="text"),
        ],
        ["ledger", "postgres"],
    )


def test_model_passes_qtmodeltester(qtmodeltester):
    model = ResultModel()
    model.set_response(_response())
    qtmodeltester.check(model)
    model.clear()
    qtmodeltester.check(model)


def test_no_good_match_is_what_the_empty_list_says(qtbot):
    from limbic.ui.search.results import ResultList

    model = ResultModel()
    view = ResultList()
    qtbot.addWidget(view)
    view.setModel(model)
    model.set_response(SearchResponse("zz", "semantic", [], ["zz"], no_match=True))
    assert model.rowCount() == 0 and model.empty_text == "No good match for “zz”."
    view.resize(300, 200)
    view.grab()  # paints the empty state without error
    model.set_response(_response())
    assert model.empty_text == ""
    model.set_response(SearchResponse("zz", "semantic", [], ["zz"], no_match=True))
    model.clear()
    assert model.empty_text == ""


def test_named_roles_carry_the_score_breakdown(qtbot):
    model = ResultModel()
    model.set_response(_response())
    first, second = model.index(0, 0), model.index(1, 0)
    assert model.rowCount() == 2
    assert first.data(Roles.Name) == "Harbor API"
    assert first.data(Roles.Snippet) == "Ledger moved to Postgres 16"  # the observation that matches the query
    assert first.data(Roles.Distance) == 0.3
    assert second.data(Roles.Distance) is None
    assert second.data(Roles.Branch) == "text"
    assert first.data(Roles.Cooc) == 1.5
    assert b"entityId" in model.roleNames().values()
    tip = first.data(0x03)  # the tooltip says why the hit is there in words, without cosines or fusion scores
    assert "matches your words" in tip and "close in meaning" in tip and "often used: a little" in tip
    assert "recently used: a lot" in tip and "linked with the other hits: some" in tip
    assert not any(jargon in tip for jargon in ("RRF", "cosine", "rel (", "imp (", "co-occurrence"))


def test_the_bars_are_labelled_with_the_words_that_explain_them():
    """A wide row labels its four bars; each label starts the words its tooltip uses ("recent" → "recently used")."""
    from limbic.ui.search.results import BARS, FACTOR_WORDS

    for label, *_ in BARS:
        assert len(label) >= 4 and label.isalpha(), label  # a word, not "rel", "imp" or "co"
        assert any(word.startswith(label) for word in FACTOR_WORDS[label].split()), label


def test_best_observation_prefers_most_terms_and_falls_back_to_first():
    obs = ["about tea", "postgres and the ledger", "postgres only"]
    assert best_observation(obs, ["ledger", "postgres"]) == "postgres and the ledger"
    assert best_observation(obs, ["nothing"]) == "about tea"
    assert best_observation([], ["x"]) == ""


def test_highlight_marks_whole_words_and_the_last_term_as_prefix():
    html = highlight_html("Harbor ships HAR-2291 & <b>", ["har", "2291"], "#ffff00")
    assert "Harbor" in html  # "har" is not the last term: no partial match inside Harbor
    assert ">HAR</span>" in html and ">2291</span>" in html
    assert "&amp; &lt;b&gt;" in html  # the text is escaped
    assert ">payments</span>" in highlight_html("the payments", ["the", "payment"], "#fff")
    assert "the" not in highlight_html("the payments", ["the", "payment"], "#fff").split("<span")[1]


def test_snippet_centres_long_text_on_the_first_match():
    text = "x " * 300 + "needle here" + " y" * 300
    cut = snippet(text, ["needle"], limit=80)
    assert "needle" in cut and cut.startswith("…") and cut.endswith("…") and len(cut) <= 82


def test_a_snippet_keeps_an_observations_bidi_controls_to_itself():
    # "invoice \u202efdp.exe" would read as "invoice exe.pdf" and reorder what follows it on the row.
    short = snippet("invoice \u202efdp.exe", ["invoice"])
    assert short.startswith("\u2068") and short.endswith("\u2069")
    cut = snippet("x " * 200 + "needle \u202eoverride " + "y " * 200, ["needle"], limit=60)
    assert "\u202e" in cut and cut.endswith("\u2069") and cut.count("\u2068") == cut.count("\u2069")
    assert snippet("plain words only", ["plain"]) == "plain words only"


def test_delegate_paints_every_row(qtbot):
    from PySide6.QtWidgets import QListView, QStyleOptionViewItem

    view = QListView()
    qtbot.addWidget(view)
    model = ResultModel(view)
    view.setModel(model)
    view.setItemDelegate(ResultDelegate(view))
    model.set_response(_response())
    view.resize(500, 400)
    view.show()
    view.setCurrentIndex(model.index(0, 0))
    image = view.grab().toImage()
    assert image.width() > 0
    option = QStyleOptionViewItem()
    option.font = view.font()
    # Four lines: name, two of observation, the bars; taller than one line of text.
    assert view.itemDelegate().sizeHint(option, model.index(0, 0)).height() > 4 * view.fontMetrics().height()


def test_scores_read_as_a_share_of_the_best_hit():
    from limbic.engine.search.search import SearchResult
    from limbic.ui.search.results import numbers_text, share_text

    r = SearchResult(1, "A", "T", [], 0.756, 0.5, 0.0, 1.0, 0.0, 0.67, 0.0320, "both")
    assert numbers_text(r, lambda text: True, best=0.756) == "100% of the best hit"
    assert numbers_text(r, lambda text: True, best=3.15) == "24% of the best hit"
    assert numbers_text(r, lambda text: len(text) <= 5, best=3.15) == "24%"
    assert share_text(0.004, 1.0) == "<1%" and share_text(0.0, 1.0) == "0%" and share_text(0.009, 1.0) == "<1%"
    model = ResultModel()
    model.set_response(_response())
    tips = [model.index(i, 0).data(Qt.ItemDataRole.ToolTipRole) for i in range(model.rowCount())]
    assert "100% of the best hit" in tips[0] and "of the best hit" in tips[1]


def test_a_hit_found_through_a_near_spelling_says_so_in_its_tooltip():
    typo = _result(1, "restic", ["Backup tool"], branch="text")
    typo.spelt_like = ("restic",)
    model = ResultModel()
    model.set_response(SearchResponse("restik", "hybrid", [typo, _result(2, "Harbor API", ["Payments"])], ["restik"]))
    assert "spelt like “restic” here" in model.index(0, 0).data(0x03)
    assert "spelt like" not in model.index(1, 0).data(0x03)
