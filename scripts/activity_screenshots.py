"""A screenshot of the Activity panel, on the sample graph after two assistants worked on it.

Usage: .venv/bin/python scripts/activity_screenshots.py [--out docs/screenshots] [--scheme light|dark]
Needs Xvfb (see scripts/screenshots.py); starts one itself when DISPLAY is unset.

The assistants' calls run the same service operations under the same activity-log session as
`limbic mcp` runs them (``GraphHost.invoke``), on a graph made in a private folder.
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

# (client, version, [(tool, arguments)]), in the order the calls are made.
SESSIONS = [
    ("Claude Desktop", "0.14.2", [
        ("create_entities", {"entities": [{"name": "Harbor v2.9", "entityType": "Release", "observations": [
            "Idempotency keys for refunds too", "Planned for 2026-05-12"]}]}),
        ("create_relations", {"relations": [{"from": "Harbor v2.9", "to": "Harbor API", "relationType": "belongs_to"},
                                            {"from": "HAR-2310", "to": "Harbor v2.9", "relationType": "fixed_in"}]}),
        ("add_observations", {"observations": [{"entityName": "Harbor API",
                                                "contents": ["Ticket prefix HAR; current release v2.9"],
                                                "supersedes": "Ticket prefix HAR; current release v2.8.1"}]}),
        ("add_observations", {"observations": [{"entityName": "Tomás Ferreira",
                                                "contents": ["Owns the v2.9 release checklist"]}]}),
        ("add_observations", {"observations": [{"entityName": "HAR-2310",
                                                "contents": ["Limit raised to 80 requests per second for batch refunds"]}]}),
    ]),
    ("Cursor", "1.7", [
        ("add_observations", {"observations": [{"entityName": "Postgres 16",
                                                "contents": ["Ledger tables vacuumed nightly since April"]}]}),
    ]),
]


def build(path: Path) -> None:
    """The sample graph, then each assistant's calls in a session of its own, as `limbic mcp` logs them."""
    from limbic import config
    from limbic.engine.formats.jsonl import import_file
    from limbic.engine.graph.graph import Graph
    from limbic.engine.store.db import Database
    from limbic.engine.vectors.embeddings import load_embedder
    from limbic.mcp.tools import TOOLS_BY_NAME, arguments_for
    from limbic.service import activity, run
    from limbic.service.types import ORIGIN_ASSISTANT

    g = Graph(Database(path), load_embedder())
    try:
        import_file(g, config.resources_dir() / "sample_graph.jsonl")
        for key, (client, version, calls) in enumerate(SESSIONS, start=1):
            for tool, arguments in calls:
                activity.act_as(g, key, ORIGIN_ASSISTANT, client, version)
                spec = TOOLS_BY_NAME[tool]
                with g.db.activity.using(tool):
                    run(g, spec.function(), *arguments_for(spec, arguments))
        g.embed_pending()
    finally:
        g.db.close()


def shoot(out: Path, scheme: str) -> int:
    """Open the real window with the Activity panel on the first assistant's session, and save it."""
    from limbic.ui.shell.app import _application, _wait
    from limbic.ui.shell.main_window import MainWindow

    out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="limbic-activity-shots-"))
    os.environ["LIMBIC_HOME"] = str(home)
    path = home / "activity.db"
    build(path)
    app = _application([sys.argv[0]])
    window = MainWindow(path)
    window.resize(1280, 800)
    window.show()
    window.start()
    if not _wait(app, lambda: window.model_name and window.catalog is not None, 60_000):
        sys.exit("activity screenshots: the app did not start")
    loaded: list[int] = []
    window.entity_shown.connect(loaded.append)
    window.open_entity("Harbor API")
    _wait(app, lambda: bool(loaded), 30_000)
    window.activity.show()
    panel = window.activity.dock.panel
    if not _wait(app, lambda: panel.data is not None and len(panel.data.sessions) >= 2, 30_000):
        sys.exit("activity screenshots: the panel did not fill")
    tree = panel.tree
    for i in range(tree.topLevelItemCount()):
        session = tree.topLevelItem(i)
        if session.text(0).startswith("Claude Desktop"):
            session.setExpanded(True)
            for j in range(session.childCount()):
                session.child(j).setExpanded(True)
            tree.setCurrentItem(session.child(min(2, session.childCount() - 1)))
    _wait(app, lambda: False, 600)  # let the window repaint
    name = "activity-panel.png" if scheme == "light" else "activity-panel-dark.png"
    window.grab().save(str(out / name))
    print(f"saved {name}")
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
        return shoot(Path(args.out), args.scheme)
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(5)


if __name__ == "__main__":
    sys.exit(main())
