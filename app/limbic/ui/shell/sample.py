"""File → Load the sample graph: into a graph that already holds entities only after asking."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QMessageBox, QWidget

from limbic import config
from limbic.ui.common.i18n import translate

SAMPLE_FILE = "sample_graph.jsonl"


def ask_sample(parent: QWidget, entities: int, graph_name: str) -> bool:
    """Load or Cancel, Cancel the default: the sample's entities would join the person's own."""
    question = translate("SampleGraph", "Load the sample graph into “{graph}”? Its 50 entities would join the %n "
                         "already there (Edit → Undo takes them back).", "", entities).format(graph=graph_name)
    box = QMessageBox(QMessageBox.Icon.Question, translate("SampleGraph", "Load the sample graph"), question,
                      QMessageBox.StandardButton.Cancel, parent)
    box.setObjectName("sampleQuestion")
    load = box.addButton(translate("SampleGraph", "Load the sample"), QMessageBox.ButtonRole.AcceptRole)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is load


def load_sample(menu: Any) -> None:
    """Import the bundled sample graph (``menu`` is the window's FileMenu); a graph with entities asks first."""
    path = config.resources_dir() / SAMPLE_FILE
    if not path.is_file():
        menu.p.status.say(translate("SampleGraph", "The sample graph is missing from this installation ({path}).").format(path=path))
        return
    catalog = menu.p.hooks.catalog()
    entities = catalog.counts.get("entities", 0) if catalog is not None else 0
    if entities and not menu.ask_sample(entities):
        menu.p.status.say(translate("SampleGraph", "The sample graph was not loaded; your graph is unchanged."), 6000)
        return
    menu.import_path(str(path))
