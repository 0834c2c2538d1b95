"""What a new user met: the switcher's Enter racing its list, counts that disagree, small surprises."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.conftest import open_entity


def test_the_switchers_enter_opens_the_best_match_for_the_text_as_typed(qtbot, sample_window):
    w = sample_window
    s = w.switcher
    for text, expected in (("tide clock", "Tide Clock"), ("marta quintero", "Marta Quintero"),
                           ("harbor api", "Harbor API")):
        with qtbot.waitSignal(s.filled, timeout=10_000):
            w.switcher_action.trigger()  # the list for the empty field: other names first
        assert s.labels()[0] != expected
        # Typed and Enter at once: no event is processed in between, so no list for this text has arrived.
        s.field.setText(text)
        with qtbot.waitSignal(w.entity_shown, timeout=30_000):
            qtbot.keyClick(s.field, Qt.Key.Key_Return)
        assert w.editor.name_edit.text() == expected and not s.isVisible()
    # A list made for an earlier text arriving late is not shown for the text as typed.
    with qtbot.waitSignal(s.filled, timeout=10_000):
        w.switcher_action.trigger()
    s.field.blockSignals(True)
    s.field.setText("harbor")
    s.field.blockSignals(False)
    before = s.labels()
    s.on_matches([], "har")
    assert s.labels() == before
    s.hide()


def test_the_sample_graph_joins_a_graph_with_entities_only_after_asking(qtbot, sample_window):
    w = sample_window
    asked: list[int] = []
    w.files.ask_sample = lambda entities: asked.append(entities) or False
    jobs: list[str] = []
    w.engine.worker.job_started.connect(lambda kind, *_: jobs.append(kind))
    w.files.sample_action.trigger()  # File → Load the sample graph (its mnemonic is one key away from Save)
    qtbot.wait(300)
    assert asked == [w.catalog.counts["entities"]] and jobs == []
    assert w.catalog.counts["entities"] == 50 and "not loaded" in w.status.last_message
    w.files.ask_sample = lambda entities: True
    with qtbot.waitSignal(w.job_ended, timeout=60_000):
        w.files.sample_action.trigger()


def test_the_sample_graph_loads_into_an_empty_graph_without_a_question(qtbot, tmp_path):
    from tests.ui.conftest import load_sample, make_window

    w = make_window(qtbot, tmp_path / "empty.db", wait_model=False)
    w.files.ask_sample = lambda entities: (_ for _ in ()).throw(AssertionError("asked about an empty graph"))
    load_sample(qtbot, w)


def test_the_new_entity_dialog_proposes_the_neutral_type_not_the_first_of_the_list(qtbot):
    from limbic.ui.editor.create_target import CreateTargetDialog

    dialog = CreateTargetDialog("Valencia Half Marathon 2025", ["Book", "Person", "Project"])
    qtbot.addWidget(dialog)
    assert dialog.chosen_type() == "Generic"  # it proposed "Book", the first type in alphabetical order
    assert [dialog.type.itemText(i) for i in range(dialog.type.count())] == ["Generic", "Book", "Person", "Project"]
    suggested = CreateTargetDialog("Ana", ["Book", "Person"], suggested="Person")
    qtbot.addWidget(suggested)
    assert suggested.chosen_type() == "Person"


def test_enter_keeps_an_observation_edit(qtbot, sample_window):
    from PySide6.QtWidgets import QPlainTextEdit

    w = sample_window
    ed = open_entity(qtbot, w, "Chess")
    item = ed.obs_list.item(0)
    ed.obs_list.setCurrentItem(item)
    qtbot.keyClick(ed.obs_list, Qt.Key.Key_F2)
    qtbot.waitUntil(lambda: ed.obs_list.findChild(QPlainTextEdit, "observationEditor") is not None)
    editor = ed.obs_list.findChild(QPlainTextEdit, "observationEditor")
    editor.selectAll()
    qtbot.keyClicks(editor, "Plays the Sicilian")
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # as in the field that adds one: Enter keeps it
    qtbot.waitUntil(lambda: ed.obs_list.item(0).text() == "Plays the Sicilian")
    assert ed.is_dirty() and ed.obs_list.findChild(QPlainTextEdit, "observationEditor") is None \
        or not ed.obs_list.findChild(QPlainTextEdit, "observationEditor").isVisible()


def test_every_node_of_a_local_graph_is_named(qtbot, sample_window):
    from tests.ui.test_graph_labels import _check_no_overlap, _painted

    w = sample_window
    for size in ((1366, 706), (1600, 1000)):
        w.resize(*size)
        open_entity(qtbot, w, "Marta Quintero")  # 17 nodes: two had no name in a side panel
        panel = w.graph.graph_panel()
        with qtbot.waitSignal(panel.layout_done, timeout=30_000):
            w.graph.show_local_graph()
        canvas = _painted(qtbot, panel)
        shown = {i for i, _, _ in canvas.label_boxes}
        assert [canvas.scene.labels[i] for i in range(canvas.scene.n) if i not in shown] == []
        _check_no_overlap(canvas)  # and still none over another or over a node


def test_the_status_bar_counts_a_revert_as_its_preview_did(qtbot, tmp_path):
    from limbic.engine.graph import revert
    from limbic.engine.graph.graph import Graph
    from limbic.engine.store.db import Database
    from limbic.service import activity
    from limbic.ui.activity.revert_preview import RevertPreview

    g = Graph(Database(tmp_path / "g.db"))
    try:
        activity.set_origin(g, "app")
        with g.db.activity.using("create"):
            g.upsert_entity("Restic", "Tool", ["Backs up the laptop"])
        activity.set_origin(g, "assistant", "Claude Desktop")
        with g.db.activity.using("create_entities"):
            g.upsert_entity("Valencia Half Marathon 2025", "Event", ["Sunday 26 October", "Goal 1:45", "Bib 4211"])
        with g.db.activity.using("add_observations"):
            g.add_observations("Restic", ["Prunes weekly"])
        ids = [int(r[0]) for r in g.db.execute("SELECT id FROM change_log WHERE origin = 'assistant'")]
        plan = revert.plan(g, ids)
        preview = RevertPreview(plan, "revert")
        qtbot.addWidget(preview)
        listed = preview.take_list.count()
        assert preview.take_label.text() == f"It will take back {listed} pieces:"
        done = activity.revert_changes(g, ids)
        assert len(done.pieces) > listed  # the entity's observations are pieces of their own
        assert activity.taken_count(done) == listed  # the status bar says the preview's number
    finally:
        g.db.close()


def test_what_changed_since_says_one_number_when_it_lists_fewer(qtbot, tmp_path, monkeypatch):
    import re

    from limbic.engine.graph.graph import Graph
    from limbic.engine.store.db import Database
    from limbic.service import timeline
    from limbic.ui.activity.changes_since import ChangesSinceView

    g = Graph(Database(tmp_path / "g.db"))
    try:
        for i in range(5):
            g.upsert_entity(f"Runner {i}", "Person", [f"Ran the half marathon in 1:4{i}"])
        monkeypatch.setattr(timeline, "MAX_CHANGED", 3)
        report = timeline.changes_since(g, "today", None)
    finally:
        g.db.close()
    assert (len(report.changes), report.total) == (3, 5)
    view = ChangesSinceView()
    qtbot.addWidget(view)
    view.show_changes(report, "Today")
    said = view.note.text()
    assert said.startswith("Today: 5 entities changed; the first 3 by name are listed.")
    assert sorted(set(re.findall(r"\d+(?= entities)", said))) == ["5"]  # it said 3 and 5 entities in one line


def test_the_results_header_says_how_many_are_found_by_words_only(qtbot, sample_window):
    from tests.ui.conftest import search

    w = sample_window
    search(qtbot, w, "payments gateway")
    assert "wait for embedding" not in w.result_count.text()
    w.catalog.pending = 7  # an import's entities whose vectors have not come yet
    w.on_counts(dict(w.catalog.counts), 7)
    assert "7 entities wait for embedding and are found by their words only" in w.result_count.text()
    assert "7 by words only" in w.status.counts.text()


def test_a_relation_target_typed_without_its_accents_is_the_entity_not_a_new_one(qtbot, sample_window):
    w = sample_window
    ed = open_entity(qtbot, w, "Harbor API")
    asked: list[str] = []
    ed._ask_create = lambda name: asked.append(name)
    ed.rel_type.setText("reviewed_by")
    ed.rel_target.setText("tomas ferreira")  # typed on a keyboard without accents
    ed.on_add_relation()
    assert asked == []
    rows = [ed.out_list.item(i).text() for i in range(ed.out_list.count())]
    assert "reviewed_by → Tomás Ferreira" in rows


def test_ctrl_z_after_adding_undoes_the_change_not_the_fields_clearing(qtbot, sample_window):
    w = sample_window
    ed = open_entity(qtbot, w, "Harbor API")
    ed.obs_new.setFocus()
    qtbot.keyClicks(ed.obs_new, "Rate limit is 100 requests per second")
    qtbot.keyClick(ed.obs_new, Qt.Key.Key_Return)
    qtbot.keyClicks(ed.rel_type, "reviewed_by")
    qtbot.keyClicks(ed.rel_target, "HAR-2310")
    qtbot.keyClick(ed.rel_target, Qt.Key.Key_Return)
    assert not ed.obs_new.isUndoAvailable() and not ed.rel_target.isUndoAvailable()
    with qtbot.waitSignal(w.entity_saved, timeout=30_000):
        qtbot.keyClick(ed.rel_target, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    with qtbot.waitSignal(w.step_done, timeout=30_000):  # the save is undone from the field the person is in
        qtbot.keyClick(ed.rel_target, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert ed.rel_target.text() == ""
    qtbot.waitUntil(lambda: "Rate limit is 100 requests per second" not in
                    [ed.obs_list.item(i).text() for i in range(ed.obs_list.count())], timeout=30_000)
