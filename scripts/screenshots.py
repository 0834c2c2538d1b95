"""Screenshots of the real window under Xvfb, in light and dark, for the README.

Usage: .venv/bin/python scripts/screenshots.py [--out docs/screenshots] [--lang es] [--scales]
(--scales: 1366x768 and 1920x1080 at 100 to 200 % under openbox, each state checked on screen)
``--lang es`` takes the window in Spanish (the README's size only) into docs/screenshots/es, searching in Spanish.
Needs Xvfb (apt-get install -y xvfb libxcb-icccm4 libxcb-keysyms1); starts one itself when DISPLAY is unset.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCREEN = "1920x1200x24"
SIZES = ((1280, 800), (1366, 768), (1600, 1000))  # the first is the README's; files of the others end in -WxH
SHOTS = [
    # (file stem, query, entity opened in the editor)
    ("search", "charged twice when the payment network timed out", None),
    ("editor", "HAR-2291", "Harbor API"),
]
# In Spanish the search is asked in Spanish: the sample graph is English, found by meaning across languages.
SHOTS_ES = [
    ("search", "cargos duplicados cuando la red de tarjetas no responde", None),
    ("editor", "HAR-2291", "Harbor API"),
]


def start_xvfb() -> subprocess.Popen | None:
    """A private X server when there is no display to use."""
    if os.environ.get("DISPLAY"):
        return None
    if not shutil.which("Xvfb"):
        sys.exit("screenshots: Xvfb is not installed (apt-get install -y xvfb libxcb-icccm4 libxcb-keysyms1)")
    for number in range(99, 120):
        if not Path(f"/tmp/.X11-unix/X{number}").exists():
            break
    proc = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", SCREEN, "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.environ["DISPLAY"] = f":{number}"
    for _ in range(50):
        if Path(f"/tmp/.X11-unix/X{number}").exists():
            return proc
        time.sleep(0.1)
    proc.terminate()
    sys.exit("screenshots: Xvfb did not start")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--scheme", choices=["light", "dark"], help="(internal) one colour scheme in this process")
    parser.add_argument("--size", help="(internal) the window's size in this process, WxH")
    parser.add_argument("--lang", choices=["en", "es"], default="en", help="the window's language (es: Spanish)")
    parser.add_argument("--scales", action="store_true",
                        help="instead: every common screen and scale under openbox (scripts/scale_screenshots.py)")
    args = parser.parse_args()
    if args.scales:
        return __import__("scale_screenshots").main(["--out", args.out])
    if args.lang == "es" and args.out == parser.get_default("out"):
        args.out = str(Path(args.out) / "es")
    if args.scheme:
        width, height = (int(v) for v in args.size.split("x"))
        return shoot(args.scheme, Path(args.out), (width, height))
    xvfb = start_xvfb()
    try:
        for width, height in (SIZES[:1] if args.lang == "es" else SIZES):
            for scheme in ("light", "dark"):
                env = dict(os.environ, QT_QPA_PLATFORM="xcb", LIMBIC_COLOR_SCHEME=scheme, LIMBIC_LANGUAGE=args.lang)
                subprocess.run([sys.executable, __file__, "--scheme", scheme, "--size", f"{width}x{height}",
                                "--out", args.out], env=env, check=True)
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(5)
    return 0


def shoot(scheme: str, out: Path, size: tuple[int, int]) -> int:
    """Run the real window on the sample graph and save one PNG per shot."""
    global SUFFIX
    SUFFIX = "" if size == SIZES[0] else f"-{size[0]}x{size[1]}"
    out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="limbic-shots-"))
    os.environ["LIMBIC_HOME"] = str(home)
    from limbic.ui.shell.app import _application, _wait
    from limbic.ui.shell.main_window import MainWindow

    app = _application([sys.argv[0]])
    window = MainWindow(home / "sample.db")
    window.resize(*size)
    window.splitter.setSizes([size[0] // 2, size[0] // 2])
    state: dict[str, bool] = {}
    window.engine.worker.model_ready.connect(window.on_model_ready)  # already connected; kept for clarity
    window.show()
    window.start()
    if not _wait(app, lambda: window.model_name and window.catalog is not None, 60_000):
        sys.exit("screenshots: the app did not start")
    window.files.load_sample()
    if not _wait(app, lambda: window.catalog and window.catalog.counts.get("entities", 0) > 0
                 and window.status.progress.isHidden(), 120_000):
        sys.exit("screenshots: the sample graph did not load")
    for stem, query, entity in (SHOTS_ES if os.environ.get("LIMBIC_LANGUAGE") == "es" else SHOTS):
        shown: list[int] = []
        window.results_shown.connect(shown.append)
        window.search_bar.edit.setText(query)
        window.search_bar.on_debounced()
        latest = window.engine.searches.latest
        _wait(app, lambda: latest in shown, 30_000)
        loaded: list[int] = []
        window.entity_shown.connect(loaded.append)
        if entity:
            window.open_entity(entity)
        else:
            window.search.on_open_requested()
        _wait(app, lambda: bool(loaded), 30_000)
        window.search_bar.edit.setFocus()
        _wait(app, lambda: False, 400)  # let the window repaint
        _save(window, out, f"{stem}-{scheme}.png")
        state[stem] = True
    shoot_new_states(app, window, scheme, out)
    shoot_aliases(app, window, scheme, out)
    shoot_pickers(app, window, scheme, out)
    shoot_graph(app, window, out, scheme, size)
    shoot_panels(app, window, out, scheme, size)
    shoot_timeline(app, window, out, scheme)
    __import__("screenshot_states").shoot_states(app, window, out, scheme, size, _save)  # Health, revert, crowd
    window.close()
    shutil.rmtree(home, ignore_errors=True)
    return 0


def shoot_graph(app, window, out: Path, scheme: str, size: tuple[int, int]) -> None:
    """The graph dock: the local view around an entity (with suggestions) and the whole graph."""
    from PySide6.QtCore import Qt

    from limbic.ui.shell.app import _wait

    window.search_bar.edit.setText("Harbor")  # its hits are ringed in the graph
    window.search_bar.on_debounced()
    window.resize(*size)
    loaded: list[int] = []
    window.entity_shown.connect(loaded.append)
    window.open_entity("Harbor API")
    _wait(app, lambda: bool(loaded), 30_000)
    panel = window.graph.graph_panel()
    window.resizeDocks([window.graph.dock], [size[0] * 11 // 20], Qt.Orientation.Horizontal)
    done: list[bool] = []
    panel.layout_done.connect(done.append)
    panel.similar.setChecked(True)
    panel.depth.setValue(2)  # two relations out: the neighbourhood a person explores
    window.graph.show_local_graph()
    _wait(app, lambda: bool(done) and not panel.runner.running, 30_000)
    _wait(app, lambda: False, 300)
    panel.canvas.fit()
    hub = panel.canvas.scene.labels.index("Marta Quintero") if "Marta Quintero" in panel.canvas.scene.labels else -1
    panel.canvas.hover = hub  # a hovered node shows its relations' types
    _wait(app, lambda: False, 400)
    for stem in ("graph-local", "graph-whole"):
        if stem == "graph-whole":
            done.clear()
            window.graph.show_whole_graph()
            _wait(app, lambda: bool(done) and not panel.runner.running, 60_000)
            _wait(app, lambda: False, 400)
        _save(window, out, f"{stem}-{scheme}.png")
    shoot_time_slider(app, window, out, scheme)


def _spread_history(graph) -> None:
    """Give the sample graph a past: its entities arrive over six months, four are deleted three weeks ago.

    The sample is imported in one go, so every row's recorded time is the same moment; the slider
    needs a graph that grew.
    """
    import json

    from limbic.engine.store.values import now_utc

    db = graph.db
    ids = [r[0] for r in db.execute("SELECT id FROM entities ORDER BY id")]
    gone = [i for i in ids[5::9]][:4]
    for entity_id in gone:
        graph.delete_entity(entity_id)
    now = now_utc()
    back = {entity_id: 180 - 170 * k // max(len(ids) - 1, 1) for k, entity_id in enumerate(ids)}
    with db.transaction():
        for hid, kind, row_id, value in list(db.execute(
                "SELECT h.id, h.kind, h.row_id, h.value FROM history h WHERE h.id = "
                "(SELECT min(id) FROM history WHERE kind = h.kind AND row_id = h.row_id)")):
            if kind == "entity":
                days = back.get(row_id, 10)
            elif kind in ("observation", "relation"):
                v = json.loads(value)
                ends = [v.get("entity_id")] if kind == "observation" else [v.get("from_entity"), v.get("to_entity")]
                days = min(back.get(e, 10) for e in ends) - 1
                days = max(days, 22) if set(ends) & set(gone) else days  # before its end was deleted
            else:
                continue
            db.execute("UPDATE history SET recorded_from = datetime(?, ?) WHERE id = ?", (now, f"-{days} days", hid))
        db.execute("UPDATE history SET recorded_to = datetime(?, '-21 days') WHERE ended = 'delete'", (now,))
        db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('history_since', datetime(?, '-181 days'))", (now,))


def shoot_time_slider(app, window, out: Path, scheme: str) -> None:
    """The whole graph as it was seven weeks ago: what came later hidden, what was deleted since faded."""
    from limbic.ui.shell.app import _wait

    panel = window.graph.graph_panel()
    spread: list[object] = []
    window.engine.run("shots-history", _spread_history, on_done=spread.append, on_failed=spread.append)
    _wait(app, lambda: bool(spread), 30_000)
    moved: list[str] = []
    panel.time.moved.connect(moved.append)
    panel.time.bar.slider.setValue(panel.time.bar.slider.maximum() * 72 // 100)
    _wait(app, lambda: bool(moved), 30_000)
    _wait(app, lambda: False, 600)
    _save(window, out, f"graph-time-slider-{scheme}.png")
    panel.time.to_now()


def shoot_panels(app, window, out: Path, scheme: str, size: tuple[int, int]) -> None:
    """Graph and Activity open together at the window's size: they share one column as tabs."""
    from limbic.ui.shell.app import _wait

    from limbic.ui.common import window_fit
    from limbic.ui.graph.menu import dock_width

    window.resize(*size)
    window.graph.graph_panel()
    # The column as wide as a panel opened in a new window gets it (the graph's own shot left it at 55 %).
    window_fit.place_dock(window, window.graph.dock, dock_width(window))
    window.activity.show()
    _wait(app, lambda: window.activity.dock.isVisible(), 10_000)
    _wait(app, lambda: False, 600)
    _save(window, out, f"panels-{scheme}.png")
    window.activity.dock.hide()


def _a_life(graph) -> None:
    """Give Harbor API a recent life as an assistant would write it: an observation replaced, another
    added with the dates it held, a relation ended."""
    entity_id = graph.entity_id("Harbor API")
    pause = lambda: time.sleep(1.1)  # noqa: E731 - recorded times are to the second: one edit a second
    with graph.db.activity.session_as("assistant", "Claude"):
        ent = graph.get_entity(entity_id)
        current = [o for o in ent.observations if o.current]
        if current:
            graph.supersede_observation(current[-1].id, current[-1].content.rstrip(".") + ", since the March release.")
        pause()
        graph.add_observations(entity_id, ["Rate limits were raised to 600 requests a minute."])
        outgoing, _incoming = graph.relations_of(entity_id)
        pause()
        if outgoing:
            graph.end_relation(entity_id, outgoing[0].to_id, outgoing[0].relation_type)


def shoot_timeline(app, window, out: Path, scheme: str) -> None:
    """The editor's timeline of an entity, the entity as it was at one of its events, and the Activity
    panel's “What changed since…”."""
    from limbic.service.history import set_validity
    from limbic.ui.shell.app import _wait

    def life(graph) -> None:
        _a_life(graph)
        time.sleep(1.1)
        obs = graph.db.scalar("SELECT id FROM observations WHERE content LIKE 'Rate limits were raised%'")
        if obs is not None:
            set_validity(graph, obs_id=obs, valid_from="2026-03-01")

    window.graph.dock.hide()
    done: list[object] = []
    window.engine.run("shots-life", life, on_done=done.append, on_failed=done.append)
    _wait(app, lambda: bool(done), 30_000)
    loaded: list[int] = []
    window.entity_shown.connect(loaded.append)
    window.open_entity("Harbor API")
    _wait(app, lambda: bool(loaded), 30_000)
    panel = window.editor.history_panel
    panel.tabs.setCurrentWidget(panel.timeline)
    _wait(app, lambda: panel.timeline.list.count() > 3, 30_000)
    _wait(app, lambda: False, 600)
    _save(window, out, f"timeline-{scheme}.png")
    view = panel.timeline
    view._chosen(view.list.item(3))  # an event of today's: how it was halfway through the assistant's edits
    _wait(app, window.timeline.showing_past, 30_000)
    _wait(app, lambda: False, 400)
    _save(window, out, f"timeline-past-{scheme}.png")
    window.timeline.back_to_now()
    window.activity.show_changes()
    changes = window.activity.dock.panel.changes
    _wait(app, lambda: changes.tree.topLevelItemCount() > 0 or "changed" in changes.note.text(), 30_000)
    _wait(app, lambda: False, 600)
    _save(window, out, f"what-changed-since-{scheme}.png")
    window.activity.dock.hide()
    panel.tabs.setCurrentIndex(0)  # the later shots show the history, as an entity opens with it


def shoot_pickers(app, window, scheme: str, out: Path) -> None:
    """The command palette and the quick switcher over the window, and the search filters."""
    from PySide6.QtGui import QPainter

    from limbic.ui.shell.app import _wait

    def over_window(popup, name: str) -> None:
        image = window.grab().toImage()  # a popup is a window of its own: paint it where it stands
        painter = QPainter(image)
        painter.drawPixmap(window.mapFromGlobal(popup.mapToGlobal(popup.rect().topLeft())), popup.grab())
        painter.end()
        _save(image, out, name)

    window.search_bar.edit.setText("harbor")
    window.search_bar.on_debounced()
    _wait(app, lambda: False, 800)
    window.palette_action.trigger()
    window.palette.field.setText("export csv")
    _wait(app, lambda: False, 400)
    over_window(window.palette, f"palette-{scheme}.png")
    window.palette.hide()
    filled: list[bool] = []
    window.switcher.filled.connect(lambda: filled.append(True))
    window.switcher_action.trigger()
    window.switcher.field.setText("marta quintro")
    _wait(app, lambda: len(filled) >= 2, 10_000)
    _wait(app, lambda: False, 300)
    over_window(window.switcher, f"switcher-{scheme}.png")
    window.switcher.hide()
    filters = window.search_filters
    filters.action.trigger()
    filters.bar.relation.setCurrentIndex(max(0, filters.bar.relation.findData("works_with")))
    filters.bar.updated.preset.setCurrentIndex(max(0, filters.bar.updated.preset.findData("30d")))
    _wait(app, lambda: False, 1500)
    _save(window, out, f"filters-{scheme}.png")
    filters.bar.clear()
    filters.action.trigger()
    # A filter with an empty query: the line above the list names it, the list is what it leaves.
    window.search_bar.edit.clear()
    window.search_bar.types.setCurrentIndex(max(0, window.search_bar.types.findData("Person")))
    _wait(app, lambda: "entities match" in filters.line.plain(), 10_000)
    _wait(app, lambda: False, 400)
    _save(window, out, f"filters-empty-query-{scheme}.png")
    filters.clear_all()
    window.status._clear()  # the filter's passing message is not part of the next shots


SUFFIX = ""  # "-WxH" for the sizes after the first


def _save(widget, out: Path, name: str) -> None:
    path = out / name.replace(".png", SUFFIX + ".png")
    (widget.grab() if hasattr(widget, "grab") else widget).save(str(path))
    print(f"saved {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def shoot_new_states(app, window, scheme: str, out: Path) -> None:
    """The empty-query view, the browser, the merge dialog and the settings."""
    from limbic.service import organise
    from limbic.ui.shell.app import _wait
    from limbic.ui.dialogs.dialogs import SettingsDialog
    from limbic.ui.shell.organise_menu import MergeDialog

    for name in ("Tide Clock", "Chess", "Harbor API"):
        loaded: list[int] = []
        window.entity_shown.connect(loaded.append)
        window.open_entity(name, record=True)
        _wait(app, lambda: bool(loaded), 30_000)
        window.entity_shown.disconnect(loaded.append)
    pinned: list[bool] = []
    window.engine.run("pin", organise.set_pinned, window.editor.entity_id, True, on_done=pinned.append)
    _wait(app, lambda: bool(pinned), 30_000)
    window.search_bar.edit.clear()
    window.search_bar.on_debounced()
    _wait(app, lambda: window.left.currentWidget() is window.home and window.home.count() > 3, 30_000)
    window.search_bar.edit.setFocus()
    _wait(app, lambda: False, 400)
    _save(window, out, f"home-{scheme}.png")

    window.organise.on_browse()
    browser = window.organise.browser
    _wait(app, lambda: browser.table.rowCount() > 0, 30_000)
    person = next((i for i in range(browser.types.count()) if browser.types.item(i).text().startswith("Project")), 0)
    browser.types.setCurrentRow(person)
    browser.sort.setCurrentIndex(2)
    _wait(app, lambda: False, 800)
    _save(browser, out, f"browser-{scheme}.png")
    browser.close()

    merge = MergeDialog(window.editor.name_edit.text(), window.editor.names_model, window)
    merge.target.setText("Harbor Gateway")
    merge.show()
    _wait(app, lambda: False, 400)
    _save(merge, out, f"merge-{scheme}.png")
    merge.close()

    settings = SettingsDialog(window.files.settings, str(window.db_path), window)
    settings.show()
    _wait(app, lambda: False, 400)
    _save(settings, out, f"settings-{scheme}.png")
    settings.close()


def shoot_aliases(app, window, scheme: str, out: Path) -> None:
    """An entity with aliases in the editor, and the quick switcher finding it by one."""
    from PySide6.QtGui import QPainter

    from limbic.service.aliases import change_alias
    from limbic.ui.shell.app import _wait

    loaded: list[int] = []
    window.entity_shown.connect(loaded.append)
    window.open_entity("Harbor API")
    _wait(app, lambda: bool(loaded), 30_000)
    window.entity_shown.disconnect(loaded.append)
    for alias in ("HAR", "the payments API"):
        done: list[object] = []
        window.engine.run(f"shot-{alias}", change_alias, window.editor.entity_id, alias, True, on_done=done.append)
        _wait(app, lambda: bool(done), 30_000)
        window.editor.aliases.set_aliases(window.editor.entity_id, done[0].aliases)
    window.editor.aliases.field.setText("Harbor")
    window.search_bar.edit.setFocus()
    _wait(app, lambda: False, 400)
    _save(window, out, f"aliases-editor-{scheme}.png")
    window.editor.aliases.field.clear()
    switcher = window.switcher
    filled: list[bool] = []
    switcher.filled.connect(lambda: filled.append(True))
    window.switcher_action.trigger()
    switcher.field.setText("payments api")
    _wait(app, lambda: len(filled) >= 2, 10_000)
    _wait(app, lambda: False, 400)
    image = window.grab().toImage()  # the popup is a window of its own: painted where it stands
    painter = QPainter(image)
    painter.drawPixmap(window.mapFromGlobal(switcher.mapToGlobal(switcher.rect().topLeft())), switcher.grab())
    painter.end()
    _save(image, out, f"aliases-switcher-{scheme}.png")
    switcher.hide()


if __name__ == "__main__":
    sys.exit(main())
