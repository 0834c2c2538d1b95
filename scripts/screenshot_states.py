"""More states of the real window for scripts/screenshots.py: Health beside the side panels, the revert preview,
a crowded graph with a node hovered.

``screenshots.shoot`` calls ``shoot_states`` in its own process, after its other shots, with its ``save``
(which names files by size). Each state is also checked here: a window that grew past the size asked
or past the screen, a dialog larger than the size asked, a legend without the commonest types or a
hovered name drawn twice is printed as an error and ends the run with a non-zero exit, after every
shot is saved.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # scripts.activity_screenshots, when run as scripts/screenshots.py

CROWD = 3_000  # entities in the crowded graph
# Types of the crowded graph and their shares (18 types: more than the legend lists before "+N more").
CROWD_TYPES = [("Note", 19), ("Person", 16), ("Meeting", 10), ("Task", 9), ("Project", 7), ("Document", 6),
               ("Decision", 5), ("Organization", 5), ("Tool", 4), ("Place", 4), ("Book", 3), ("Topic", 3),
               ("Event", 2), ("Idea", 2), ("Release", 2), ("Bug", 1), ("Recipe", 1), ("Course", 1)]
FIRST = ["Ana", "Marta", "Tomás", "Lena", "Omar", "Yuki", "Priya", "Jonas", "Chiara", "Kofi", "Inés", "Mateo",
         "Aiko", "Lucas", "Sofia", "Ravi", "Nora", "Elif", "Hugo", "Mei", "Pavel", "Zara", "Diego", "Amara",
         "Felix", "Ingrid", "Kenji", "Leila", "Noah", "Olga"]
LAST = ["Ruiz", "Quintero", "Ferreira", "Schmidt", "Haddad", "Tanaka", "Iyer", "Berg", "Rossi", "Mensah",
        "Navarro", "Silva", "Okafor", "Novak", "Costa", "Kim", "Dubois", "Yilmaz", "Moreau", "Chen", "Larsen",
        "Petrov", "Alves", "Kowalski", "Sato", "Ibrahim", "Lund", "Weber", "Garcia", "Nakamura"]
WORDS = ["harbor", "ledger", "refund", "atlas", "beacon", "canvas", "delta", "ember", "fjord", "garden", "helix",
         "island", "juniper", "kestrel", "lantern", "meadow", "nimbus", "orchard", "prism", "quarry", "river",
         "summit", "tundra", "umbra", "valley", "willow", "yonder", "zephyr", "cobalt", "saffron"]
RELATIONS = ["works_with", "part_of", "mentions", "relates_to", "depends_on", "owns", "attended", "about"]
DUPLICATES = [  # what assistants wrote twice, next to the sample graph's own entities (Memory health's shots)
    ("ana ruíz", "Designer", ["Design lead at Harbor; reviews UI changes asynchronously on Thursdays.",
                              "Prefers comments in the design file to meetings"]),
    ("Quintero, Marta", "Person", ["Writes the graph's weekly summary"]),
    ("tomas ferreira", "Person", ["Tech lead of the Harbor payments team", "Moved to Porto in 2027"]),
    ("PG 16", "Tool", ["Relational database of the Harbor ledger"]),
]
DUPLICATES_RELATED = [("ana ruíz", "CachorroSpace", "advised_on"), ("Marta Quintero", "ana ruíz", "works_with"),
                      ("tomas ferreira", "Harbor API", "leads"), ("Harbor API", "PG 16", "uses")]


class Checks:
    """What a state got wrong: printed, and the run ends non-zero once every shot is saved."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def expect(self, holds: bool, message: str) -> None:
        if not holds:
            self.errors.append(message)
            print(f"screenshots: ERROR: {message}", file=sys.stderr)


def shoot_states(app, window, out: Path, scheme: str, size: tuple[int, int], save: Callable) -> None:
    """Health as a tab beside Activity and Graph, the revert preview, and a crowded graph; exit non-zero on a failed check."""
    checks = Checks()
    check_earlier_shots(app, window, scheme, size, save, out, checks)
    shoot_health_beside_panels(app, window, scheme, size, save, out, checks)
    shoot_revert_preview(app, window, scheme, size, save, out, checks)
    shoot_crowded_graph(app, window, scheme, size, save, out, checks)
    if checks.errors:
        sys.exit(f"screenshots at {size[0]}x{size[1]} ({scheme}): {len(checks.errors)} check(s) failed")


# -- helpers ---------------------------------------------------------------------------------


def _over_window(window, popups) -> object:
    """The window's picture with other windows (dialogs, tooltips) painted where they stand on the screen.

    With no window manager under Xvfb a dialog has no frame: a thin one is drawn round it, or in
    dark colours it would not stand out from the window behind it.
    """
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QPainter, QPalette

    image = window.grab().toImage()
    painter = QPainter(image)
    for popup in popups:
        if popup is not None and popup.isVisible():
            at = window.mapFromGlobal(popup.mapToGlobal(popup.rect().topLeft()))
            painter.drawPixmap(at, popup.grab())
            if popup.isWindow() and not popup.inherits("QTipLabel"):
                painter.setPen(popup.palette().color(QPalette.ColorRole.Mid))
                painter.drawRect(QRect(at, popup.size()).adjusted(-1, -1, 0, 0))
    painter.end()
    return image


def _check_window(window, size: tuple[int, int], checks: Checks, state: str) -> None:
    """The window kept the size asked, fits its screen, and needs no more than the size asked."""
    area = window.screen().availableGeometry()
    checks.expect(window.width() <= size[0] and window.height() <= size[1],
                  f"{state}: the window grew to {window.width()}x{window.height()} (asked {size[0]}x{size[1]})")
    checks.expect(window.width() <= area.width() and window.height() <= area.height(),
                  f"{state}: the window ({window.width()}x{window.height()}) is larger than the screen "
                  f"({area.width()}x{area.height()})")
    need = window.minimumSizeHint()
    checks.expect(need.width() <= size[0] and need.height() <= size[1],
                  f"{state}: the window needs {need.width()}x{need.height()}, more than {size[0]}x{size[1]}")


def _check_dialog(dialog, size: tuple[int, int], checks: Checks, state: str) -> None:
    """A dialog fits on a screen the size asked."""
    frame = dialog.frameGeometry()
    checks.expect(frame.width() <= size[0] and frame.height() <= size[1],
                  f"{state}: the dialog is {frame.width()}x{frame.height()}, larger than a {size[0]}x{size[1]} screen")


def _open_graph(app, window, path: Path) -> None:
    """Open another graph file in the window and wait until it is read."""
    from limbic.ui.shell.app import _wait

    window.open_database(str(path))
    if not _wait(app, lambda: window.catalog is not None and Path(window.catalog.path) == path
                 and window.catalog.counts.get("entities", 0) > 0, 120_000):
        sys.exit(f"screenshots: {path.name} did not open")


def check_earlier_shots(app, window, scheme: str, size: tuple[int, int], save, out: Path, checks: Checks) -> None:
    """The palette shot's "export csv" puts the CSV export first, and the empty-query filters shot was saved."""
    from limbic.ui.shell.app import _wait

    palette = window.palette
    window.palette_action.trigger()
    palette.field.setText("export csv")  # what the palette shot types
    _wait(app, lambda: palette.list.count() > 0, 5_000)
    first = palette.list.item(0).text() if palette.list.count() else ""
    checks.expect("Export" in first and "CSV" in first,
                  f"the palette ranks {first!r} first for “export csv”, not the CSV export")
    palette.hide()
    suffix = save.__globals__.get("SUFFIX", "")  # screenshots.py ends the names of its other sizes in "-WxH"
    shot = out / f"filters-empty-query-{scheme}{suffix}.png"
    checks.expect(shot.is_file(), f"{shot} was not saved")


# -- Health beside the side panels -------------------------------------------------------------


def _plant_duplicates(graph) -> None:
    """The duplicates an assistant leaves, written as its calls would be."""
    from limbic.service import memory

    memory.create_entities(graph, [{"name": n, "entityType": t, "observations": o} for n, t, o in DUPLICATES])
    memory.create_relations(graph, [{"from": a, "to": b, "relationType": r} for a, b, r in DUPLICATES_RELATED])


def shoot_health_beside_panels(app, window, scheme: str, size: tuple[int, int], save, out: Path, checks: Checks) -> None:
    """Activity, Graph and Memory health open, tabs of one column, the Health tab in front, at the size asked;
    then the merge preview of the selected pair (M) in the same panel."""
    from limbic.ui.common import window_fit
    from limbic.ui.graph.menu import dock_width
    from limbic.ui.shell.app import _wait

    planted: list[object] = []
    window.engine.run("shots-duplicates", _plant_duplicates, on_done=planted.append, on_failed=planted.append)
    _wait(app, lambda: bool(planted), 30_000)
    window.resize(*size)
    _wait(app, lambda: window.width() == size[0], 5_000)
    panel = window.graph.graph_panel()
    if not panel.canvas.scene.n:
        done: list[bool] = []
        panel.layout_done.connect(done.append)
        window.graph.show_whole_graph()
        _wait(app, lambda: bool(done) and not panel.runner.running, 60_000)
    # The column as wide as a panel opened in a new window gets it (the graph's own shot left it at 55 %).
    window_fit.place_dock(window, window.graph.dock, dock_width(window))
    window.activity.show()
    window.activity.dock.panel.tabs.setCurrentIndex(0)  # Sessions
    _wait(app, lambda: window.activity.dock.isVisible(), 10_000)
    before = window.size()
    window.organise.health_action.trigger()
    view, dock = window.organise.health_view, window.organise.health_dock
    if not _wait(app, lambda: view.report is not None, 180_000):
        sys.exit("screenshots: the health check did not finish")
    pairs = [set(f.entities) for f in view.report.findings.get("duplicates", [])]
    if {"Ana Ruiz", "ana ruíz"} in pairs:
        view.kinds.setCurrentRow(0)
        view.findings.setCurrentRow(pairs.index({"Ana Ruiz", "ana ruíz"}))
    view.findings.setFocus()
    _wait(app, lambda: False, 600)
    save(window, out, f"health-beside-panels-{scheme}.png")
    state = "Health beside Activity and Graph"
    _check_window(window, size, checks, state)
    checks.expect(window.size() == before, f"{state}: opening Memory health resized the window from "
                                           f"{before.width()}x{before.height()} to {window.width()}x{window.height()}")
    tabs = window.tabifiedDockWidgets(dock)
    checks.expect(not dock.isFloating() and window.activity.dock in tabs and window.graph.dock in tabs,
                  f"{state}: Memory health is not a tab beside Activity and Graph")
    checks.expect(dock.width() >= 280, f"{state}: the side panels are squeezed: {dock.width()} px wide")
    shown: list[bool] = []
    view.previewed.connect(lambda: shown.append(True))
    view.on_merge_key()  # what M does (a window without a window manager never has the keyboard)
    checks.expect(_wait(app, lambda: bool(shown), 30_000), "Memory health: the merge preview did not come")
    _wait(app, lambda: False, 500)
    save(window, out, f"health-merge-preview-{scheme}.png")
    _check_window(window, size, checks, "the merge preview in Memory health")
    dock.close()
    window.activity.dock.hide()


# -- the revert preview ----------------------------------------------------------------------


def _revert_graph(path: Path) -> None:
    """The sample graph after two assistants' sessions (scripts/activity_screenshots.py), then the person
    rewrites one observation the first assistant added: taking that session back must keep it."""
    from limbic.engine.graph.graph import Graph
    from limbic.engine.store.db import Database
    from limbic.service import activity, memory
    from limbic.service.types import ORIGIN_APP
    from scripts.activity_screenshots import build

    build(path)
    g = Graph(Database(path))
    try:
        activity.set_origin(g, ORIGIN_APP)
        memory.add_observations(g, [{"entityName": "Tomás Ferreira",
                                     "contents": ["Owns the v2.9 and v2.10 release checklists"],
                                     "supersedes": "Owns the v2.9 release checklist"}])
    finally:
        g.db.close()


def shoot_revert_preview(app, window, scheme: str, size: tuple[int, int], save, out: Path, checks: Checks) -> None:
    """Revert this session… on the first assistant's session: the preview of what it takes back and what it keeps."""
    from limbic.ui.shell.app import _wait

    path = Path(window.db_path).parent / "revert.db"
    _revert_graph(path)
    _open_graph(app, window, path)
    window.resize(*size)
    window.activity.show()
    panel = window.activity.dock.panel
    panel.tabs.setCurrentIndex(0)  # Sessions (an earlier shot left What changed since… in front)
    tree = panel.tree

    def claude():  # the first assistant's session, once the panel shows this graph's log
        rows = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
        return next((r for r in rows if r.text(0).startswith("Claude Desktop")), None)

    if not _wait(app, lambda: claude() is not None, 30_000):
        sys.exit("screenshots: no Claude Desktop session in the activity panel")
    session = claude()
    tree.setCurrentItem(session)
    session.setExpanded(True)
    panel.revert_button.click()
    if not _wait(app, lambda: window.activity.preview_dialog is not None, 30_000):
        sys.exit("screenshots: the revert preview did not open")
    preview = window.activity.preview_dialog
    _wait(app, lambda: False, 600)
    save(_over_window(window, [preview]), out, f"revert-preview-{scheme}.png")
    checks.expect(bool(preview.kept), "the revert preview names nothing it keeps (the person's edit)")
    checks.expect(len(preview.taking()) > 0, "the revert preview takes nothing back")
    _check_dialog(preview, size, checks, "the revert preview")
    _check_window(window, size, checks, "the revert preview")
    preview.cancel_button.click()
    window.activity.dock.hide()


# -- a crowded graph -------------------------------------------------------------------------


def _crowd_items(rng: random.Random) -> tuple[list[dict], list[dict]]:
    """~3,000 entities of 18 types in communities, and about two relations each (most inside a community)."""
    weights = [w for _, w in CROWD_TYPES]
    people = iter(rng.sample([f"{f} {la}" for f in FIRST for la in LAST], len(FIRST) * len(LAST)))
    names: list[str] = []
    entities: list[dict] = []
    seen: set[str] = set()
    while len(entities) < CROWD:
        etype = rng.choices([t for t, _ in CROWD_TYPES], weights)[0]
        if etype == "Person":
            name = next(people)
        else:
            name = f"{rng.choice(WORDS).capitalize()} {rng.choice(WORDS)} {etype.lower()} {rng.randint(1, 99)}"
        if name.casefold() in seen:
            continue
        seen.add(name.casefold())
        names.append(name)
        entities.append({"name": name, "entityType": etype, "observations": [f"{etype} of the {name.split()[0]} group"]})
    relations = []
    pairs: set[tuple[int, int]] = set()
    for i in range(len(names)):
        for _ in range(2):
            j = (i // 60) * 60 + rng.randrange(60) if rng.random() < 0.85 else rng.randrange(len(names))
            j = min(j, len(names) - 1)
            if j != i and (i, j) not in pairs:
                pairs.add((i, j))
                relations.append({"from": names[i], "to": names[j], "relationType": rng.choice(RELATIONS)})
    return entities, relations


def _crowd_graph(path: Path) -> dict[str, int]:
    """The crowded graph written through the service layer, as an assistant's calls would; its types' counts."""
    from limbic.engine.graph.graph import Graph
    from limbic.engine.store.db import Database
    from limbic.service import memory

    entities, relations = _crowd_items(random.Random(34))
    g = Graph(Database(path))
    try:
        for k in range(0, len(entities), 500):
            memory.create_entities(g, entities[k:k + 500])
        for k in range(0, len(relations), 1000):
            memory.create_relations(g, relations[k:k + 1000])
    finally:
        g.db.close()
    counts: dict[str, int] = {}
    for e in entities:
        counts[e["entityType"]] = counts.get(e["entityType"], 0) + 1
    return counts


def _tooltip():
    """The tooltip window on screen, if any."""
    from PySide6.QtWidgets import QApplication

    return next((w for w in QApplication.topLevelWidgets() if w.inherits("QTipLabel") and w.isVisible()), None)


def shoot_crowded_graph(app, window, scheme: str, size: tuple[int, int], save, out: Path, checks: Checks) -> None:
    """The whole graph of ~3,000 entities and 18 types, the legend listing the commonest, one node hovered."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QToolTip

    from limbic.ui.shell.app import _wait

    path = Path(window.db_path).parent / "crowd.db"
    counts = _crowd_graph(path)
    _open_graph(app, window, path)
    window.resize(*size)
    panel = window.graph.graph_panel()
    window.resizeDocks([window.graph.dock], [size[0] * 11 // 20], Qt.Orientation.Horizontal)
    done: list[bool] = []
    panel.layout_done.connect(done.append)
    window.graph.show_whole_graph()
    if not _wait(app, lambda: bool(done) and not panel.runner.running and panel.canvas.scene.n >= CROWD, 300_000):
        sys.exit("screenshots: the crowded graph was not laid out")
    _wait(app, lambda: False, 400)
    canvas = panel.canvas
    canvas.fit()
    _wait(app, lambda: False, 400)
    s = canvas.scene
    inside = [i for i in range(s.n) if 20 < canvas.node_point(i).x() < canvas.width() * 0.6
              and 40 < canvas.node_point(i).y() < canvas.height() - 40]
    hub = max(inside or range(s.n), key=lambda i: int(s.degree[i]))
    point = canvas.node_point(hub).toPoint()
    QTest.mouseMove(canvas, point)  # what the mouse does: the canvas takes the hover and its tooltip
    _wait(app, lambda: canvas.hover == hub, 5_000)
    QToolTip.showText(canvas.mapToGlobal(point + QPoint(12, 16)), canvas.toolTip(), canvas)
    _wait(app, lambda: False, 600)
    save(_over_window(window, [_tooltip()]), out, f"graph-crowded-hover-{scheme}.png")
    commonest = sorted(counts, key=lambda t: (-counts[t], t.casefold()))[:2]
    listed = [name for _, name in canvas.legend]
    checks.expect(all(t in listed for t in commonest),
                  f"the crowded graph's legend lists {listed}, without the commonest types {commonest}")
    checks.expect(canvas.legend_more.startswith("+"), f"the legend does not say how many types it leaves out "
                                                        f"({len(counts)} types, last line {canvas.legend_more!r})")
    named = [text for node, _box, text in canvas.label_boxes if node == hub]
    checks.expect(canvas.hover == hub and len(named) == 1,
                  f"the hovered node {s.labels[hub]!r} is named {len(named)} times (once expected)")
    checks.expect(s.labels[hub] in canvas.toolTip(), f"the hovered node's tooltip is {canvas.toolTip()!r}")
    _check_window(window, size, checks, "the crowded graph")
    QToolTip.hideText()
