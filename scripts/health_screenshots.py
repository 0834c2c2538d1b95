"""Screenshots of the Health view and of a merge preview, on the sample graph with the duplicates an assistant leaves.

Usage: .venv/bin/python scripts/health_screenshots.py [--out docs/screenshots] [--scheme light|dark]
Needs Xvfb (see scripts/screenshots.py); starts one itself when DISPLAY is unset.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "app"))

from scripts.screenshots import start_xvfb  # noqa: E402

EXTRA = [  # what assistants wrote twice, next to the sample graph's own entities
    ("ana ruíz", "Designer", ["Design lead at Harbor; reviews UI changes asynchronously on Thursdays.",
                              "Prefers comments in the design file to meetings"]),
    ("Quintero, Marta", "Person", ["Writes the graph's weekly summary"]),
    ("tomas ferreira", "Person", ["Tech lead of the Harbor payments team", "Moved to Porto in 2027"]),
    ("PG 16", "Tool", ["Relational database of the Harbor ledger"]),
]
RELATIONS = [("ana ruíz", "CachorroSpace", "advised_on"), ("Marta Quintero", "ana ruíz", "works_with"),
             ("tomas ferreira", "Harbor API", "leads"), ("Harbor API", "PG 16", "uses")]


def build(path: Path) -> None:
    """The sample graph, embedded, plus a few duplicates and a relation each, as an assistant leaves them."""
    from limbic import config
    from limbic.engine.store.db import Database
    from limbic.engine.vectors.embeddings import load_embedder
    from limbic.engine.graph.graph import Graph
    from limbic.engine.formats.jsonl import import_file

    g = Graph(Database(path), load_embedder())
    try:
        import_file(g, config.resources_dir() / "sample_graph.jsonl")
        for name, etype, obs in EXTRA:
            g.upsert_entity(name, etype, obs)
        for a, b, rtype in RELATIONS:
            g.add_relation(a, b, rtype)
    finally:
        g.db.close()


def shoot(out: Path) -> int:
    """Open the real window, run the Health view's check and save the two shots."""
    from limbic.ui.shell.app import _application, _wait
    from limbic.ui.shell.main_window import MainWindow

    out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="limbic-health-shots-"))
    os.environ["LIMBIC_HOME"] = str(home)
    path = home / "health.db"
    build(path)
    app = _application([sys.argv[0]])
    window = MainWindow(path)
    window.resize(1280, 800)
    window.show()
    window.start()
    if not _wait(app, lambda: window.model_name and window.catalog is not None, 60_000):
        sys.exit("health screenshots: the app did not start")
    window.organise.health_action.trigger()
    view = window.organise.health_view
    if not _wait(app, lambda: view.report is not None, 120_000):
        sys.exit("health screenshots: the check did not finish")
    view.resize(1280, 720)
    pairs = [set(f.entities) for f in view.report.findings["duplicates"]]
    wanted = {"Ana Ruiz", "ana ruíz"}
    view.findings.setCurrentRow(pairs.index(wanted) if wanted in pairs else 0)
    view.findings.setFocus()
    _wait(app, lambda: False, 500)
    view.grab().save(str(out / "health-view.png"))
    print("saved health-view.png")
    shown: list[bool] = []
    view.previewed.connect(lambda: shown.append(True))
    view.on_merge_key()  # what M does (a window without a window manager never has the keyboard)
    if not _wait(app, lambda: bool(shown), 30_000):
        sys.exit("health screenshots: the merge preview did not come")
    _wait(app, lambda: False, 500)
    view.grab().save(str(out / "health-merge-preview.png"))
    print("saved health-merge-preview.png")
    view.close()
    window.close()
    shutil.rmtree(home, ignore_errors=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--scheme", choices=["light", "dark"], default="light")
    args = parser.parse_args()
    xvfb = start_xvfb()
    os.environ["QT_QPA_PLATFORM"] = "xcb"
    os.environ["LIMBIC_COLOR_SCHEME"] = args.scheme
    try:
        return shoot(Path(args.out))
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(5)


if __name__ == "__main__":
    sys.exit(main())
