"""The graph view's time slider: a past date hides what came later and fades what is gone since; play; Now."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service.graph_time import seconds
from limbic.ui.graph.timeslider import PLAY_STEP, STEPS
from tests.history.conftest import Clock, patch_clock
from tests.ui.conftest import make_window, open_entity

WAIT = 30_000


@pytest.fixture
def story_window(qtbot, tmp_path, monkeypatch):
    """Ann and Bob from 1 January 2025; Cat (Ann owns Cat) from 1 February, deleted 1 March; Dan from 1 April."""
    path = tmp_path / "story.db"
    with monkeypatch.context() as m:
        import limbic.engine.graph.graph  # noqa: F401 - loaded before patching, so its name is patched too
        import limbic.engine.store.changes  # noqa: F401

        clock = Clock("2025-01-01 09:00:00")
        patch_clock(m, clock)
        g = Graph(Database(path))
        ann = g.create_entity("Ann", "Person")
        g.create_entity("Bob", "Person")
        g.add_relation("Ann", "Bob", "knows")
        clock.at = clock.at.replace(month=2)
        cat = g.create_entity("Cat", "Pet")
        g.add_relation(ann, cat, "owns")
        clock.at = clock.at.replace(month=3)
        g.delete_entity(cat)
        clock.at = clock.at.replace(month=4)
        g.create_entity("Dan", "Person")
        g.add_relation("Dan", "Ann", "knows")
        g.db.close()
    return make_window(qtbot, path, wait_model=False)


def names(scene, ghost: bool | None = None) -> set[str]:
    return {scene.labels[i] for i in range(scene.n)
            if ghost is None or bool(len(scene.ghost) and scene.ghost[i]) == ghost}


def whole(qtbot, w):
    panel = w.graph.graph_panel()
    with qtbot.waitSignal(panel.shown, timeout=WAIT):
        w.graph.show_whole_graph()
    return panel


def go_to(qtbot, panel, day: str) -> None:
    """Move the slider to the first position on or after ``day`` (the history is read on the first move)."""
    travel = panel.time
    if travel.lifetimes is None:
        with qtbot.waitSignal(travel.moved, timeout=WAIT):
            travel.bar.slider.setValue(0)
    target = int(seconds([day])[0])
    value = next(v for v in range(STEPS) if travel.at(v) >= target)
    with qtbot.waitSignal(travel.moved, timeout=WAIT):
        travel.bar.slider.setValue(value)


def test_a_past_date_hides_what_came_later_and_shows_a_deleted_entity_as_removed(qtbot, story_window):
    panel = whole(qtbot, story_window)
    assert names(panel.canvas.scene) == {"Ann", "Bob", "Dan"}
    go_to(qtbot, panel, "2025-02-15 00:00:00")
    scene = panel.canvas.scene
    assert names(scene, ghost=False) == {"Ann", "Bob"}  # Dan came later
    assert names(scene, ghost=True) == {"Cat"}  # deleted since: drawn faded
    owns = [j for j in range(len(scene.src)) if scene.rel_names[scene.rels[j]] == "owns"]
    assert len(owns) == 1 and scene.ghost_edges[owns[0]]
    assert panel.time.bar.date_label.text().startswith("2025-02-1")
    assert "1 entity gone since" in panel.time.bar.marks.text() and "1 entity added since" in panel.time.bar.marks.text()
    panel.canvas.repaint()  # the faded marks paint
    go_to(qtbot, panel, "2025-01-15 00:00:00")
    assert names(panel.canvas.scene) == {"Ann", "Bob"}


def test_a_local_view_goes_back_too(qtbot, story_window):
    w = story_window
    open_entity(qtbot, w, "Ann")
    panel = w.graph.graph_panel()
    with qtbot.waitSignal(panel.shown, timeout=WAIT):
        w.graph.show_local_graph()
    assert names(panel.canvas.scene) == {"Ann", "Bob", "Dan"}
    go_to(qtbot, panel, "2025-02-15 00:00:00")
    assert names(panel.canvas.scene, ghost=False) == {"Ann", "Bob"}
    assert names(panel.canvas.scene, ghost=True) == {"Cat"}
    assert panel.canvas.scene.labels[panel.canvas.scene.centre] == "Ann"
    said = "3 entities · 2 relations"
    assert panel.info.text().startswith("3 entities · 2 relations then")
    qtbot.mouseClick(panel.time.bar.now_button, Qt.MouseButton.LeftButton)
    assert names(panel.canvas.scene) == {"Ann", "Bob", "Dan"} and panel.info.text() == said


def test_play_advances_to_now_and_stops_there(qtbot, story_window):
    panel = whole(qtbot, story_window)
    travel = panel.time
    go_to(qtbot, panel, "2025-01-15 00:00:00")
    start = travel.bar.slider.value()
    qtbot.mouseClick(travel.bar.play_button, Qt.MouseButton.LeftButton)
    assert travel.playing
    travel._player.stop()  # the frames are driven here, one by one
    travel.play_step()
    assert travel.bar.slider.value() == start + PLAY_STEP
    for _ in range(STEPS):
        if not travel.playing:
            break
        travel.play_step()
    assert not travel.playing and not travel.active
    assert travel.bar.slider.value() == STEPS and travel.bar.date_label.text() == "Now"
    assert names(panel.canvas.scene) == {"Ann", "Bob", "Dan"} and not panel.canvas.scene.ghost.any()


def test_now_restores_the_picture_and_brings_in_changes_made_meanwhile(qtbot, story_window):
    w = story_window
    panel = whole(qtbot, w)
    go_to(qtbot, panel, "2025-02-15 00:00:00")
    with qtbot.waitSignal(w.engine.changes_applied, timeout=WAIT):
        w.engine.run("create", lambda g: g.create_entity("Eve", "Person"))
    assert "Eve" not in names(panel.canvas.scene)  # the past picture stays as it was
    with qtbot.waitSignal(panel.updated, timeout=WAIT):
        qtbot.mouseClick(panel.time.bar.now_button, Qt.MouseButton.LeftButton)
    assert names(panel.canvas.scene) == {"Ann", "Bob", "Dan", "Eve"}
    assert not panel.canvas.scene.ghost.any() and "gone since" not in panel.time.bar.marks.text()


def test_the_slider_is_worked_from_the_keyboard(qtbot, story_window):
    panel = whole(qtbot, story_window)
    slider = panel.time.bar.slider
    slider.setFocus()
    with qtbot.waitSignal(panel.time.moved, timeout=WAIT):
        qtbot.keyClick(slider, Qt.Key.Key_Home)
    assert names(panel.canvas.scene) == {"Ann", "Bob"}
    qtbot.keyClick(slider, Qt.Key.Key_End)
    assert not panel.time.active and names(panel.canvas.scene) == {"Ann", "Bob", "Dan"}


def test_a_picture_read_before_a_deletion_shows_the_deleted_entity_once():
    """The picture of now still holds an entity deleted since it was read: its past life stands for it, not a copy."""
    import numpy as np

    from limbic.service.graph_time import OPEN, Lifetimes
    from limbic.ui.graph import past as pasts
    from limbic.ui.graph.scene import Scene

    lt = Lifetimes(start=0, now=100, entity_ids=np.array([1, 2]), entity_from=np.array([0, 10]),
                   entity_to=np.array([OPEN, 50]), names=["Ann", "Cat"], types=["Person", "Pet"])
    now = Scene(ids=np.array([1, 2]), pos=np.zeros((2, 2)), types=np.zeros(2, np.int32), type_names=["Person"],
                degree=np.zeros(2, np.int32), kinds=np.zeros(2, np.int8), labels=["Ann", "Cat"], statuses=["", ""])
    moment = pasts.scene_at(pasts.union(now, lt), 20)
    assert moment.scene.labels == ["Ann", "Cat"] and moment.scene.ghost.tolist() == [False, True]
    assert pasts.scene_at(pasts.union(now, lt), 60).scene.labels == ["Ann"]


def test_the_time_bar_fits_the_narrowest_graph_panel_and_moving_it_keeps_the_canvas_size(qtbot, story_window):
    from limbic.ui.common import window_fit

    panel = whole(qtbot, story_window)
    size = panel.canvas.size()
    go_to(qtbot, panel, "2025-02-15 00:00:00")  # the longest texts: a date, and what the marks mean
    assert panel.time.bar.minimumSizeHint().width() <= window_fit.MIN_DOCK_W - 12  # the panel's margins
    qtbot.wait(0)  # the layout settles
    assert panel.canvas.size() == size  # a canvas that shrank would reframe the picture


def test_relayout_waits_for_now(qtbot, story_window):
    panel = whole(qtbot, story_window)
    go_to(qtbot, panel, "2025-02-15 00:00:00")
    assert not panel.relayout_button.isEnabled()  # it would lay out the past picture's nodes as if they were now's
    panel.time.to_now()
    assert panel.relayout_button.isEnabled()


def test_a_past_picture_exported_as_svg_keeps_the_faded_marks(qtbot, story_window):
    from limbic.ui.graph.svg import svg_text

    panel = whole(qtbot, story_window)
    go_to(qtbot, panel, "2025-02-15 00:00:00")
    c = panel.canvas
    text = svg_text(c.scene, c.view, c.width(), c.height(), False, "#ffffff", "#000000")
    assert text.count('fill-opacity="0.3"') == 1 and "<title>Cat</title>" in text


def test_play_runs_on_its_own_until_now(qtbot, story_window):
    panel = whole(qtbot, story_window)
    travel = panel.time
    travel._player.setInterval(0)  # frames as fast as the window can draw them
    travel.toggle_play()  # at now: from the start of the history
    assert travel.bar.slider.value() < STEPS and travel.bar.play_button.text() == "⏸"
    qtbot.waitUntil(lambda: not travel.playing, timeout=WAIT)
    assert travel.bar.slider.value() == STEPS and not travel.active and travel.bar.play_button.text() == "▶"


def test_show_added_draws_what_came_later_as_outlines(qtbot, story_window):
    panel = whole(qtbot, story_window)
    go_to(qtbot, panel, "2025-02-15 00:00:00")
    bar = panel.time.bar
    assert bar.show_added.isVisibleTo(panel) and "Dan" not in names(panel.canvas.scene)
    with qtbot.waitSignal(panel.time.moved, timeout=WAIT):
        bar.show_added.setChecked(True)
    scene = panel.canvas.scene
    added = {scene.labels[i] for i in range(scene.n) if scene.added[i]}
    assert added == {"Dan"} and names(scene, ghost=True) == {"Cat"}
    dan = scene.labels.index("Dan")
    assert all(scene.ghost_edges[j] for j in range(len(scene.src)) if dan in (scene.src[j], scene.dst[j]))
    assert "outlined: 1 entity added since" in bar.marks.text()
    assert panel.info.text() == "3 entities · 2 relations then"  # Ann, Bob and Cat; knows and owns: Dan is not counted
    panel.canvas.repaint()  # outlines paint
    go_to(qtbot, panel, "2025-01-15 00:00:00")
    assert {panel.canvas.scene.labels[i] for i in np.flatnonzero(panel.canvas.scene.added)} == {"Dan"}


def test_a_change_that_rereads_everything_returns_to_now(qtbot, story_window):
    from limbic.service.types import ChangeSet

    panel = whole(qtbot, story_window)
    go_to(qtbot, panel, "2025-02-15 00:00:00")
    with qtbot.waitSignal(panel.shown, timeout=WAIT):
        panel.apply_changes(ChangeSet(full=True))
    assert not panel.time.active and names(panel.canvas.scene) == {"Ann", "Bob", "Dan"}


def test_the_play_button_draws_an_icon_playing_and_paused(qtbot, story_window):
    """The pause glyph (U+23F8) is missing from common fonts (a box under X11 with DejaVu): both states are icons."""
    panel = whole(qtbot, story_window)
    travel = panel.time
    button = travel.bar.play_button
    playing_icon = None
    travel._player.setInterval(60_000)  # one frame at most while the test looks
    travel.toggle_play()
    try:
        playing_icon = button.icon()
        assert not playing_icon.isNull()
    finally:
        travel.stop()
    resting_icon = button.icon()
    assert not resting_icon.isNull() and resting_icon.cacheKey() != playing_icon.cacheKey()
