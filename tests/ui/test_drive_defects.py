"""What a person met driving the window at 1366×768: each test failed before its fix."""

from __future__ import annotations

from PySide6.QtCore import QStringListModel
from PySide6.QtWidgets import QLabel

from limbic.ui.common import window_fit
from limbic.ui.editor.observation_delegate import DATES_ROLE
from limbic.ui.shell.organise_menu import MergeDialog
from tests.ui.conftest import make_window, open_entity


def test_the_merge_dialog_says_the_merged_away_name_stays_as_an_alias(qtbot):
    """A merge keeps "PG" as an alias of the entity kept: the dialog said "PG" is deleted."""
    dialog = MergeDialog("PG", QStringListModel(["Postgres 16"]))
    qtbot.addWidget(dialog)
    words = " ".join(label.text() for label in dialog.findChildren(QLabel))
    assert "alias" in words and "is deleted" not in words


def test_the_row_given_dates_stays_current_after_the_dialog(qtbot, tmp_path, monkeypatch):
    """Right-click → When it held… → OK: the observation stayed unselected, so the next key went nowhere."""
    from tests.ui.test_timeline import _graph

    _graph(tmp_path / "g.db", monkeypatch)
    w = make_window(qtbot, tmp_path / "g.db", wait_model=False)
    ed = open_entity(qtbot, w, "Ann")
    flow = w.timeline

    def dialog(words, start, until):
        d = flow.__class__.make_dialog(flow, words, start, until)
        d.exec = lambda: (d.start.setText("2024-03-01"), d.accept(), d.result())[-1]
        return d

    flow.make_dialog = dialog
    assert ed.obs_list.count() == 2
    ed.obs_list.setCurrentRow(1)
    ed.obs_list.setFocus()
    chosen = ed.obs_list.item(1).text()
    flow.ask_dates(ed.obs_list)
    qtbot.waitUntil(lambda: any(ed.obs_list.item(i).data(DATES_ROLE) == "since 2024-03-01"
                                for i in range(ed.obs_list.count())), timeout=10_000)
    current = ed.obs_list.currentItem()
    assert current is not None and current.text() == chosen and current.isSelected()
    assert current.data(DATES_ROLE) == "since 2024-03-01"


def test_the_activity_panel_takes_its_room_from_the_results_not_the_editor(qtbot, sample_window):
    """At the window's first size on a 1366×768 screen the Activity panel left the editor at its minimum:
    "Also known as" cut off and the alias field a few pixels wide, while the results kept twice that."""
    w = sample_window
    w.resize(1180, 706)
    qtbot.waitUntil(lambda: w.width() == 1180)
    w.splitter.setSizes([620, 540])  # the first run's split
    open_entity(qtbot, w, "Harbor API")
    w.activity.show()
    qtbot.waitUntil(lambda: w.activity.dock.isVisible() and w.activity.dock.width() >= window_fit.MIN_DOCK_W)
    qtbot.wait(50)
    assert w.width() == 1180
    results, editor = w.splitter.sizes()
    assert editor >= 440 and results >= window_fit.MIN_RESULTS_W, (results, editor)


def _gamma_writes(path) -> None:
    import anyio

    from tests.activity.writers import assistant, ok

    async def run():
        async with assistant(path, "gamma") as g:
            await ok(g, "add_observations", observations=[{"entityName": "X", "contents": ["g1"]}])
    anyio.run(run)


def _activity_window(qtbot, tmp_path):
    from limbic.engine.graph.graph import Graph
    from limbic.engine.store.db import Database
    from tests.ui.test_activity_panel import _assistants

    path = tmp_path / "g.db"
    Graph(Database(path)).db.close()
    w = make_window(qtbot, path, wait_model=False)
    _assistants(path)
    w.activity.show()
    panel = w.activity.dock.panel
    qtbot.waitUntil(lambda: panel.data is not None and len(panel.data.sessions) == 2, timeout=30_000)
    return w, panel, path


def test_the_activity_row_a_person_chose_stays_chosen_and_open_when_an_assistant_writes(qtbot, tmp_path):
    """Each refresh rebuilt the tree: an assistant's write collapsed the session the person had opened
    and dropped the row they were reading (and a revert left no row chosen, its buttons greyed)."""
    from tests.ui.test_activity_panel import _select

    w, panel, path = _activity_window(qtbot, tmp_path)
    alpha = _select(panel, "alpha")
    alpha.setExpanded(True)
    _select(panel, "“a1”")
    chosen = panel.selected()
    _gamma_writes(path)
    qtbot.waitUntil(lambda: panel.data is not None and len(panel.data.sessions) == 3, timeout=30_000)
    assert panel.selected() == chosen and panel.tree.currentItem().isSelected()
    alpha = next(panel.tree.topLevelItem(i) for i in range(3) if panel.tree.topLevelItem(i).text(0).startswith("alpha"))
    assert alpha.isExpanded()
    assert panel.revert_button.isEnabled()


def test_activity_rows_cut_by_the_panel_width_say_all_of_it_on_hover(qtbot, tmp_path):
    """A session's and a change's line end in "…" in a narrow panel: the hover said only who and when."""
    w, panel, path = _activity_window(qtbot, tmp_path)
    tree = panel.tree
    for i in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(i)
        assert top.text(0) in top.toolTip(0)
        for j in range(top.childCount()):
            assert top.child(j).text(0) in top.child(j).toolTip(0)


def test_a_change_already_taken_back_offers_no_revert(qtbot, tmp_path):
    """"Revert this change…" stayed enabled on a change already taken back, and said only "Nothing to take back"."""
    from tests.ui.test_activity_panel import _select

    w, panel, path = _activity_window(qtbot, tmp_path)
    _select(panel, "alpha").setExpanded(True)
    _select(panel, "“a1”")
    panel.revert_button.click()
    qtbot.waitUntil(lambda: w.activity.preview_dialog is not None, timeout=30_000)
    w.activity.preview_dialog.take_button.click()
    qtbot.waitUntil(lambda: any("taken back by" in r for r in panel.rows()), timeout=30_000)
    _select(panel, "alpha").setExpanded(True)
    _select(panel, "“a1”")
    assert "taken back" in panel.tree.currentItem().text(0)
    assert not panel.revert_button.isEnabled()


def test_the_home_list_ends_long_names_in_an_ellipsis_instead_of_scrolling_sideways(qtbot):
    """With a side panel open the results are at their narrowest: the home list grew a sideways scroll bar."""
    from PySide6.QtWidgets import QListWidgetItem

    from limbic.ui.search.home import HomeList

    home = HomeList()
    qtbot.addWidget(home)
    for text in ("   Decision: nightly backups with restic  ·  Decision", "   Fountain pen: Pilot Custom 74  ·  Thing"):
        QListWidgetItem(text, home)
    home.resize(window_fit.MIN_RESULTS_W, 300)
    home.show()
    qtbot.waitUntil(home.isVisible)
    qtbot.wait(20)
    assert home.horizontalScrollBar().maximum() == 0
    assert home.visualItemRect(home.item(0)).right() < home.viewport().width()


def test_a_finished_job_leaves_no_sentence_saying_it_runs(qtbot):
    """After an assistant's write the status bar said "Embedding 1 entity…" for good, long after it was done."""
    from limbic.ui.shell.status import StatusPanel

    status = StatusPanel()
    qtbot.addWidget(status)
    status.job_started("Embedding 1 entity")
    assert status.message.full_text == "Embedding 1 entity…"
    status.job_ended()
    assert status.message.full_text == "" and not status.job_running
    status.job_started("Importing notes")
    status.say("Imported 3 notes.", 15_000)  # what the job said when it ended stays
    status.job_ended()
    assert status.message.full_text == "Imported 3 notes."


def test_a_refilled_timeline_starts_at_its_newest_event(qtbot):
    """The timeline kept the scroll of the entity shown before: after a merge or a reload the newest
    events were above the top of its short list, the first one cut in half."""
    from limbic.service.timeline import TimelineEvent
    from limbic.ui.editor.timeline import TimelineView

    def events(n: int, words: int) -> list[TimelineEvent]:
        return [TimelineEvent(f"2026-12-05 07:1{i}:00", "You", "You added an observation",
                              "the database behind the Harbor ledger " * words, "observation", "added")
                for i in range(n)]

    view = TimelineView()
    qtbot.addWidget(view)
    view.resize(380, 70)
    view.show()
    view.show_events(events(8, 2))
    qtbot.waitUntil(lambda: view.list.verticalScrollBar().maximum() > 0)
    view.list.scrollToBottom()
    view.show_events(events(6, 1))
    qtbot.wait(20)
    assert view.list.verticalScrollBar().value() == 0
    assert view.list.visualItemRect(view.list.item(0)).top() >= 0


def test_the_history_list_starts_at_its_top_when_the_entity_is_shown_again(qtbot, tmp_path, monkeypatch):
    """Reloaded (an assistant's write, a merge), the history list kept its scroll: the newest changes hid above."""
    from tests.ui.test_timeline import _graph

    _graph(tmp_path / "g.db", monkeypatch)
    w = make_window(qtbot, tmp_path / "g.db", wait_model=False)
    ed = open_entity(qtbot, w, "Ann")
    panel = ed.history_panel
    panel.tabs.setCurrentIndex(0)
    panel.list.setFixedHeight(30)
    qtbot.waitUntil(lambda: panel.list.verticalScrollBar().maximum() > 0)
    panel.list.scrollToBottom()
    assert panel.list.verticalScrollBar().value() > 0
    open_entity(qtbot, w, "Ann")
    assert panel.list.verticalScrollBar().value() == 0


def test_a_change_about_a_gone_entity_does_not_open_the_entity_that_took_its_number(qtbot, tmp_path, monkeypatch):
    """A deletion or a merge frees an entity's id and the next entity made gets it: opening the row
    'created “PG”' in the Activity panel opened an assistant's unrelated later entity."""
    import limbic.engine.graph.graph  # noqa: F401 - loaded before patching, so its name is patched too
    import limbic.engine.store.changes  # noqa: F401
    from limbic.engine.graph.graph import Graph
    from limbic.engine.store.db import Database
    from tests.history.conftest import Clock, patch_clock
    from tests.ui.test_activity_panel import _select

    path = tmp_path / "g.db"
    clock = Clock()
    with monkeypatch.context() as m:
        patch_clock(m, clock)
        g = Graph(Database(path))
        clock.advance(60)
        g.create_entity("Postgres 16", "Tool", ["the ledger's database"])
        scratch = g.create_entity("Scratch", "Note", ["to be deleted"])
        pg = g.create_entity("PG", "Tool", ["Postgres"])
        clock.advance(60)
        g.delete_entity(scratch)
        g.delete_entity(pg)
        g.add_alias("Postgres 16", "PG")  # as a merge leaves it
        g.db.activity.set_origin("assistant", "Claude")
        clock.advance(60)
        assert g.create_entity("pgBackRest", "Tool", ["backs up the ledger"]) == scratch  # the freed id, again
        g.db.close()
    w = make_window(qtbot, path, wait_model=False)
    w.activity.show()
    panel = w.activity.dock.panel
    qtbot.waitUntil(lambda: panel.data is not None and any("“PG”" in r for r in panel.rows()), timeout=30_000)
    for i in range(panel.tree.topLevelItemCount()):
        panel.tree.topLevelItem(i).setExpanded(True)

    panel.tree.itemActivated.emit(_select(panel, "created “Scratch”"), 0)
    qtbot.waitUntil(lambda: "no longer in the graph" in w.status.last_message, timeout=10_000)
    assert "“Scratch”" in w.status.last_message and w.editor.name_edit.text() != "pgBackRest"

    with qtbot.waitSignal(w.entity_shown, timeout=10_000):  # merged away: its name, now an alias, opens
        panel.tree.itemActivated.emit(_select(panel, "created “PG”"), 0)
    assert w.editor.name_edit.text() == "Postgres 16" and "is now “Postgres 16”" in w.status.last_message

    with qtbot.waitSignal(w.entity_shown, timeout=10_000):
        panel.tree.itemActivated.emit(_select(panel, "created “pgBackRest”"), 0)
    assert w.editor.name_edit.text() == "pgBackRest"


def test_the_merge_dialog_sentence_sits_at_its_top(qtbot):
    """The sentence was centred in a taller band: a blank strip above it, as if something were missing."""
    dialog = MergeDialog("PG", QStringListModel(["Postgres 16"]))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    label = next(lb for lb in dialog.findChildren(QLabel) if lb.text().startswith("Merge"))
    assert label.height() <= label.heightForWidth(label.width()) + 2


def test_the_results_get_their_share_back_when_a_side_panel_closes(qtbot, sample_window):
    """After a side panel had taken the results down to their minimum, closing it (or maximising the window)
    gave most of the width back to the editor: the results stayed narrow on a wide screen."""
    w = sample_window
    w.resize(1180, 706)
    qtbot.waitUntil(lambda: w.width() == 1180)
    w.splitter.setSizes([620, 540])
    qtbot.wait(20)
    w.splitter.splitterMoved.emit(620, 1)  # as a drag of the handle says the person's split
    open_entity(qtbot, w, "Harbor API")
    w.activity.show()
    qtbot.waitUntil(lambda: w.splitter.sizes()[1] >= 440)
    w.activity.dock.hide()
    qtbot.waitUntil(lambda: sum(w.splitter.sizes()) > 1000)
    qtbot.wait(50)
    results, editor = w.splitter.sizes()
    assert results / (results + editor) > 0.5, (results, editor)


def test_the_results_share_is_the_dragged_one_across_runs(qtbot, tmp_path):
    """The share came from the sizes restored, which a side panel had squeezed: after a restart with
    a panel open the results never got their room back on a wide window."""
    from limbic.ui.common.window_fit import EditorRoom

    first = make_window(qtbot, tmp_path / "a.db", wait_model=False)
    room = first.splitter.findChild(EditorRoom)
    assert room is not None and abs(room.share - 0.55) < 0.01  # a first run: the layout's own split
    first.splitter.setSizes([300, 500])
    first.splitter.splitterMoved.emit(300, 1)
    chosen = room.share
    first.close()
    second = make_window(qtbot, tmp_path / "a.db", wait_model=False)
    assert abs(second.splitter.findChild(EditorRoom).share - chosen) < 0.01


def test_a_side_panel_gives_way_when_the_window_narrows(qtbot, sample_window):
    """Un-maximised from 1600 to 1180 px, the Activity panel kept its 600 px and left the results and the
    editor both at their minimums (the editor's labels and alias field cut off)."""
    w = sample_window
    w.resize(1600, 960)
    qtbot.waitUntil(lambda: w.width() == 1600)
    open_entity(qtbot, w, "Harbor API")
    w.activity.show()
    qtbot.waitUntil(lambda: w.activity.dock.isVisible() and w.activity.dock.width() > 500)
    w.resize(1180, 706)
    qtbot.waitUntil(lambda: w.width() == 1180)
    qtbot.waitUntil(lambda: w.splitter.sizes()[1] >= window_fit.COMFORT_EDITOR_W, timeout=3000)
    assert w.activity.dock.width() >= window_fit.MIN_DOCK_W and w.width() == 1180
